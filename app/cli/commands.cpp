#include "app/cli/commands.h"

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "app/cli/output.h"
#include "app/cli/sandbox.h"
#include "app/cli/session_builder.h"
#include "app/cli/table.h"
#include "kernels/pack/catalog.h"
#include "kernels/engine/devices.h"
#include "kernels/core/error.h"
#include "kernels/core/input_file.h"
#include "kernels/core/learner_source.h"
#include "kernels/core/peers.h"
#include "kernels/core/report.h"
#include "kernels/engine/runner.h"
#include "kernels/core/output_file.h"
#include "kernels/core/session.h"
#include "kernels/engine/record.h"
#include "kernels/analysis/problems.h"
#include "kernels/engine/opencl/cl_instrument.h"

namespace threadmap::cli {

using nlohmann::json;

// Messages name files, devices and compilers' lines about a learner's text:
// their control characters are shown, not obeyed.
void error(const std::string& message) {
  std::cerr << "threadmap-cli: error: " << printable(message, Newlines::Keep) << '\n';
}

namespace {
std::function<void(const std::string&)>& wait_sink() {
  static std::function<void(const std::string&)> sink;
  return sink;
}
}  // namespace

void set_wait_sink(std::function<void(const std::string&)> sink) { wait_sink() = std::move(sink); }

WaitNotice wait_notice() {
  return watch_waits([](const std::string& line) {
    if (wait_sink()) wait_sink()(line);
    else std::cerr << "threadmap-cli: " << line << std::endl;
  });
}

int exit_code_for(RunStatus status) {
  switch (status) {
    case RunStatus::Invalid: return kExitInvalid;
    case RunStatus::Unavailable: return kExitUnavailable;
    case RunStatus::DeviceFailure: return kExitDeviceFailure;
    case RunStatus::Ok: break;
  }
  return kExitOk;
}

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const InvalidRequest& e) {
    error(e.what());
    return kExitInvalid;
  } catch (const SessionError& e) {
    error(e.what());
    return kExitInvalid;
  } catch (const OutputError& e) {
    error(e.what());
    return kExitInvalid;
  } catch (const Unavailable& e) {
    error(e.what());
    return kExitUnavailable;
  } catch (const DeviceError& e) {
    error(e.what());
    return kExitDeviceFailure;
  } catch (const ReportError& e) {  // a report a remote worker sent, malformed
    error(e.what());
    return kExitDeviceFailure;
  } catch (const nlohmann::json::exception& e) {
    error(std::string("a malformed report: ") + e.what());
    return kExitDeviceFailure;
  } catch (const RunStopped& e) {
    error(e.what());
    return kExitStopped;
  }
}

const Variant& variant_or_throw(const std::string& id) {
  if (const Variant* v = find_variant(id)) return *v;
  throw InvalidRequest("unknown kernel '" + id + "'; `threadmap-cli list` shows the catalog");
}

std::vector<std::pair<std::string, std::string>> parse_assignments(const std::vector<std::string>& sets) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& s : sets) {
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InvalidRequest("--set " + s + ": expected NAME=VALUE, e.g. --set tile=32");
    const std::string name = s.substr(0, eq);
    for (const auto& [given, value] : out)
      if (given == name)  // the second silently won before
        throw InvalidRequest("--set " + name + " is given twice (" + value + " and " + s.substr(eq + 1) +
                             "): give it once");
    out.emplace_back(name, s.substr(eq + 1));
  }
  return out;
}

std::string read_text_file(const std::string& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) throw InvalidRequest(file + " is a folder, not a file");
  // Never blocking on a FIFO, never through a link out of the file's folder.
  const std::string s = read_input_file(file, kMaxKernelTextBytes);
  if (s.empty()) throw InvalidRequest(file + " is empty");
  if (const std::size_t nul = s.find('\0'); nul != std::string::npos)
    throw InvalidRequest(file + " is not a text file: it holds a NUL byte at offset " + std::to_string(nul) +
                         "; give the kernel's source (.cl or .cu)");
  return s;
}

std::pair<std::string, std::string> read_source_file(const RunArgs& args) {
  if (args.source.empty()) return {};
  try {
    return {read_text_file(args.source), std::filesystem::path(args.source).filename().string()};
  } catch (const InvalidRequest& e) {
    throw InvalidRequest(std::string("--source: ") + e.what());
  }
}

int maybe_isolated(const RunArgs& args, const std::function<int()>& body) {
  if (args.source.empty()) return body();
  return run_isolated(limits_for(args.timeout), "the run of " + args.source, body).code;
}

namespace {

// --source FILE, read; run_variant checks it against the device's dialect.
void read_source(const RunArgs& args, RunOptions& o) {
  std::tie(o.source_text, o.source_name) = read_source_file(args);
}

RunOptions options_from(const RunArgs& args) {
  RunOptions o;
  o.repetitions = args.reps;
  o.warmup = args.warmup;
  o.seed = args.seed;
  o.on_wait = wait_notice();
  return o;
}

// The worse of two exit codes, for commands that run several variants.
int worse(int a, int b) {
  auto rank = [](int c) {
    switch (c) {
      case kExitOk: return 0;
      case kExitUnavailable: return 1;
      case kExitNotVerified: return 2;
      case kExitInvalid: return 3;
      default: return 4;
    }
  };
  return rank(b) > rank(a) ? b : a;
}

std::string mib_text(std::uint64_t bytes) { return fixed(static_cast<double>(bytes) / (1024.0 * 1024.0), 1) + " MiB"; }

// A report's parameters in the catalog's order ("tile=32 type=float"); a
// kernel this catalog lacks, in the report's.
std::string params_text(const RunReport& r) {
  std::string s;
  auto add = [&s](const std::string& name, const ReportValue& value) {
    s += (s.empty() ? "" : " ") + name + "=" + value_text(value);
  };
  if (const Variant* v = find_variant(r.kernel)) {
    for (const ParamSpec& spec : v->params)
      if (const auto it = r.parameters.find(spec.name); it != r.parameters.end()) add(spec.name, it->second);
  } else {
    for (const auto& [name, value] : r.parameters) add(name, value);
  }
  return s;
}

std::string verification_text(const RunReport& r) {
  if (!r.ok()) return r.status;
  return r.verified() ? "verified" : "FAILED (" + std::to_string(r.verification ? r.verification->mismatches : 0) + ")";
}

void print_run_text(const RunReport& r, const std::string& host) {
  std::cout << r.kernel << " on " << printable(r.device.name) << " (" << r.device.spec
            << (host.empty() ? "" : ", " + printable(host)) << ")\n";
  std::cout << "  " << params_text(r) << '\n';
  const Verification ver = r.verification.value_or(Verification{});
  if (ver.verified) {
    std::cout << "  verified: " << ver.checked << " values, " << ver.method << '\n';
  } else {
    std::cout << "  NOT VERIFIED: " << ver.mismatches << " of " << ver.checked << " values differ (" << ver.method
              << ")\n";
    for (const Mismatch& m : ver.first)
      std::cout << "    " << m.where << ": expected " << m.expected << ", got " << m.actual << '\n';
  }
  auto timing = [](const char* label, const TimingStats& t, double gbps) {
    std::cout << "  " << label << " median " << fixed(t.median, 4) << " ms (min " << fixed(t.min, 4) << ", max "
              << fixed(t.max, 4) << ", " << t.samples << " runs)  " << fixed(gbps, 2) << " GB/s\n";
  };
  const ReportTiming times = r.timing.value_or(ReportTiming{});
  timing("kernel     ", times.kernel_ms, r.bandwidth_gbps);
  timing("end-to-end ", times.end_to_end_ms, r.end_to_end_gbps);
  std::cout << "  ideal bytes " << r.ideal_bytes << " (" << mib_text(r.ideal_bytes) << "), " << times.launches_per_run
            << (times.launches_per_run == 1 ? " launch" : " launches") << " per run\n";
  if (r.cache_resident)
    std::cout << "  note: the working set (" << mib_text(r.working_set_bytes) << ") fits in the device's "
              << mib_text(r.device.last_level_cache_bytes)
              << " last-level cache: the bandwidth may be cache bandwidth, not memory bandwidth\n";
  if (!r.note.empty()) std::cout << "  note: " << printable(r.note) << '\n';
  if (!times.device_lock.note.empty()) std::cout << "  timing: " << printable(times.device_lock.note) << '\n';
}

// A row's note: what may make its figures other than the device's own.
std::string row_note(const RunReport& r, const ReportTiming& timing) {
  std::string note = r.cache_resident ? "working set fits in cache" : "";
  if (timing.device_lock.busy)
    note += (note.empty() ? "" : "; ") + std::string("busy machine (others ") +
            fixed(timing.device_lock.others_cores, 1) + " of " + std::to_string(timing.device_lock.cores) + " cores)";
  return note;
}

// A row's cells from the run's report: what a local run made, or a worker sent.
std::vector<std::string> run_row_cells(const RunReport& r) {
  if (!r.ok()) return {r.status, "", "", "", "", "", r.error};
  const ReportTiming timing = r.timing.value_or(ReportTiming{});
  return {
      r.verified() ? "verified" : "FAILED (" + std::to_string(r.verification ? r.verification->mismatches : 0) + ")",
      fixed(timing.kernel_ms.median, 4),
      fixed(timing.kernel_ms.min, 4),
      fixed(timing.kernel_ms.max, 4),
      fixed(r.bandwidth_gbps, 2),
      fixed(timing.end_to_end_ms.median, 4),
      row_note(r, timing)};
}

const std::vector<std::string> kRunColumns{"result", "median ms", "min ms", "max ms", "GB/s", "e2e ms", "note"};

// A parameter varied twice, or varied and --set, would label rows with
// values they did not run.
void reject_repeated_parameters(const std::vector<SweepAxis>& axes,
                                const std::vector<std::pair<std::string, std::string>>& sets) {
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t k = 0; k < i; ++k)
      if (axes[k].name == axes[i].name)
        throw InvalidRequest("--vary " + axes[i].name + " is given twice: put every value in one --vary " +
                             axes[i].name + "=V1,V2,...");
    for (const auto& [name, value] : sets)
      if (name == axes[i].name)
        throw InvalidRequest("--set " + name + "=" + value + " and --vary " + name +
                             " name the same parameter: vary it, or set it, not both");
  }
}

// The values asked for, in range or not: the catalog's defaults with `sets`
// put in, for the row of a run that could not be made.
Params requested_params(const Variant& v, const std::vector<std::pair<std::string, std::string>>& sets) {
  Params p = make_params(v.params, {}, v.id);
  for (const auto& [name, value] : sets)
    if (const ParamSpec* spec = v.param(name))
      p.set(name, spec->is_choice() ? parse_param_value(*spec, value, v.id) : std::stoll(value));
  return p;
}

// One bench row: the variant run with `sets`, or, where they take one of its
// parameters out of its range (--size makes smem.setRowReadColRect's grid
// too large above 23170), an invalid result saying why; the others still run.
RunResult run_sized(Device& device, const Variant& v, const std::vector<std::pair<std::string, std::string>>& sets,
                    const RunOptions& options) {
  try {
    return run_variant(device, v, make_params(v.params, sets, v.id), options);
  } catch (const InvalidRequest& e) {
    RunResult r;
    r.kernel_id = v.id;
    r.device = device.info();
    r.params = requested_params(v, sets);
    r.status = RunStatus::Invalid;
    r.error = e.what();
    return r;
  }
}

}  // namespace

int devices_command(const std::string& format) { return print_devices(list_backends(), format); }

int print_devices(const std::vector<BackendReport>& backends, const std::string& format) {
  if (format == "json") {
    json j = json::array();
    for (const BackendReport& b : backends) j.push_back(to_json(b));
    std::cout << json_text(j) << '\n';
    return kExitOk;
  }
  for (const BackendReport& b : backends) {
    if (!b.available) {
      std::cout << b.backend << ": unavailable: " << printable(b.reason) << "\n";
      continue;
    }
    for (const DeviceInfo& d : b.devices) {
      std::cout << d.spec << "  " << printable(d.name) << " (" << printable(d.platform) << ")\n"
                << "    " << printable(d.version) << "\n"
                << "    " << d.compute_units << " compute units, " << mib_text(d.global_memory_bytes) << " memory, "
                << mib_text(d.last_level_cache_bytes) << " last-level cache, " << d.local_memory_bytes / 1024
                << " KiB shared per block, up to " << d.max_group_size << " threads per block\n"
                << "    double: " << (d.has_double ? "yes" : "no")
                << ", sub-group shuffles: " << (d.has_subgroup_shuffle ? "yes" : "no (" + d.subgroup_note + ")")
                << ", timer resolution " << d.timer_resolution_ns << " ns\n";
    }
  }
  return kExitOk;
}

// "  [OpenMP C alone]" for a variant not written in every dialect, else "".
std::string written_in_text(const Variant& v) {
  if (v.dialects.empty() || v.dialects.size() == kDialects.size()) return {};
  std::string text;
  for (Dialect d : v.dialects) text += (text.empty() ? "" : ", ") + std::string(dialect_title(d));
  return "  [" + text + (v.dialects.size() == 1 ? " alone]" : " only]");
}

int list_command(const std::string& format) {
  if (format == "json") {
    json j = json::array();
    for (const Variant& v : catalog()) j.push_back(to_json(v));
    std::cout << json_text(j) << '\n';
    return kExitOk;
  }
  std::string family;
  for (const Variant& v : catalog()) {
    if (v.family != family) {
      family = v.family;
      std::cout << (family == catalog().front().family ? "" : "\n") << family << "\n";
    }
    // A pack's texts are a stranger's: shown, never obeyed (escapes, bidi controls).
    std::cout << "  " << printable(v.id) << "  " << printable(v.title)
              << (!v.pack.empty()     ? "  [pack " + printable(v.pack) + "]"
                  : v.lesson_original ? ""
                                      : "  [not in the lessons]")
              << "\n      " << printable(v.summary) << "\n";
    if (v.pack.empty()) std::cout << "      lesson: " << v.lesson.file << ", \"" << v.lesson.section << "\"\n";
    for (const ParamSpec& p : v.params)
      std::cout << "      --set " << p.name << "=" << p.format(p.default_value) << "  (" << p.describe_range() << ") "
                << printable(p.meaning) << "\n";
  }
  return kExitOk;
}

int source_command(const std::string& kernel, const std::string& dialect) {
  return guarded([&]() -> int {
    const Variant& v = variant_or_throw(kernel);
    // Named (main.cpp checks the key), else CUDA where a CUDA device is present.
    std::optional<Dialect> chosen = dialect_from_key(dialect);
    if (!chosen) {
      chosen = Dialect::OpenCL;
      for (const BackendReport& b : list_backends())
        for (const DeviceInfo& d : b.devices)
          if (b.available && d.dialect == Dialect::Cuda) chosen = Dialect::Cuda;
      if (!v.written_in(*chosen)) chosen = v.dialects.front();  // a kernel written in one dialect alone
    }
    if (!v.pack.empty()) {  // a pack's file, as its folder holds it
      const Variant::KernelText* text = pack_text(v, *chosen);
      if (!text)
        throw InvalidRequest(v.id + ": pack '" + v.pack + "' has no " + std::string(dialect_title(*chosen)) + " (" +
                             std::string(dialect_extension(*chosen)) + ") kernel file");
      std::cout << text->text;
      return kExitOk;
    }
    if (!v.written_in(*chosen))
      throw InvalidRequest(v.id + " has no " + std::string(dialect_title(*chosen)) + " kernel");
    std::cout << learner_source(source_file_for(v, *chosen));
    return kExitOk;
  });
}

bool problems_wanted(const RunArgs& args) {
  return args.problems == "on" || (args.problems == "auto" && !args.source.empty());
}

analysis::ProblemsScan scan_problems(Device& device, const Variant& v, const Params& params,
                                     const RunOptions& options) {
  TraceOptions trace;
  trace.last_block = true;
  trace.seed = options.seed;
  trace.source_text = options.source_text;
  trace.source_name = options.source_name;
  // A pack's kernel: its text in the device's dialect, and its reference run
  // on the same inputs, as `record` does.
  const Outcome prepared = run_capturing_errors([&] { prepare_pack_trace(device, v, params, trace); }, v.id);
  if (prepared.status != RunStatus::Ok) return {prepared.error, {}, {}};
  const Recording rec = record_trace(device, v, params, trace);
  if (rec.status != RunStatus::Ok) return {rec.error, {}, {}};
  return {std::nullopt, analysis::reports_of(analysis::find_problems(rec.trace), rec.trace), rec.trace.traced_blocks};
}

namespace {

void print_scan(const analysis::ProblemsScan& scan, bool verified, std::ostream& os) {
  if (scan.error) {
    os << "  problems not looked for: the traced run failed: " << printable(*scan.error) << '\n';
    return;
  }
  if (verified && !scan.problems.list.empty())
    os << "  verified, but the trace shows problems: the result may differ on another device or run\n";
  std::ostringstream lines;
  print_problems(scan.problems, scan.traced_blocks.size(), lines);
  std::istringstream in(lines.str());
  for (std::string line; std::getline(in, line);) os << "  " << line << '\n';
}

}  // namespace

int print_run(const RunReport& r, const std::optional<analysis::ProblemsScan>& problems, const std::string& format,
              const std::string& host) {
  if (format == "json") {
    std::cout << json_text(protocol::scanned_run_json({r, problems})) << '\n';
  } else if (format == "csv") {
    Table t;
    t.header = {"kernel", "device"};
    std::vector<std::string> row{r.kernel, r.device.spec};
    auto add = [&](const std::string& name) {
      t.header.push_back(name);
      const auto it = r.parameters.find(name);
      row.push_back(it == r.parameters.end() ? "" : value_text(it->second));
    };
    if (const Variant* v = find_variant(r.kernel)) {
      for (const ParamSpec& p : v->params) add(p.name);
    } else {
      for (const auto& parameter : r.parameters) add(parameter.first);
    }
    t.header.insert(t.header.end(), kRunColumns.begin(), kRunColumns.end());
    for (const std::string& c : run_row_cells(r)) row.push_back(c);
    t.rows.push_back(row);
    t.print_csv(std::cout);
  } else if (r.ok()) {
    print_run_text(r, host);
    if (problems) print_scan(*problems, r.verified(), std::cout);
  }
  if (!r.ok()) error(r.error);
  return exit_code_for(r);
}

namespace {

// What `run` runs: the variant, its parameters, the device and the options
// (with a learner's text).
struct RunSetUp {
  const Variant& variant;
  Params params;
  std::unique_ptr<Device> device;
  RunOptions options;
};

RunSetUp set_up_run(const std::string& kernel, const RunArgs& args) {
  const Variant& v = variant_or_throw(kernel);
  RunSetUp s{v, make_params(v.params, parse_assignments(args.sets), v.id), watch_phases(open_device(args.device)),
             options_from(args)};
  read_source(args, s.options);
  return s;
}

}  // namespace

std::string divergent_barrier_note(const Variant& v, const Params& params, const std::string& text,
                                   const std::string& name) {
  if (dialect_of_file(name) != Dialect::OpenCL) return {};
  std::vector<long> lines;
  try {
    const Workload w = v.build(v, params, 1);
    if (w.launches.empty()) return {};
    lines = divergent_barrier_lines(text, name, opencl_trace_prelude(), opencl_defines(w.launches.front().program, false));
  } catch (const std::exception&) {
    return {};  // no libclang here, or a text it cannot parse: nothing to add
  }
  if (lines.empty()) return {};
  std::string where;
  for (const long line : lines) where += (where.empty() ? "" : ", ") + std::to_string(line);
  return name + (lines.size() == 1 ? " has a barrier at line " : " has barriers at lines ") + where +
         " that not every work-item of the group may reach (inside an if, ?: or switch, or after a return made "
         "inside one): a divergent barrier, undefined behaviour, which a CPU device does not survive";
}

namespace {

// After a learner's run crashed: the traced run alone, in a child of its
// own. Its build checks every access before making it and makes none
// outside the buffers and shared arrays, so it shows the index that crashed
// the run rather than crashing too.
void explain_crash(const std::string& kernel, const RunArgs& args) {
  const Isolated traced = run_isolated(limits_for(args.timeout), "the traced run of " + args.source, [&] {
    return guarded([&]() -> int {
      RunSetUp s = set_up_run(kernel, args);
      const Variant& v = s.variant;
      const analysis::ProblemsScan scan = scan_problems(*s.device, v, s.params, s.options);
      if (args.format == "json") {
        std::cout << json_text(json{{"kernel", v.id}, {"crashed", true}, {"problems", analysis::to_json(scan)}})
                  << '\n';
      } else {
        std::cout << "The traced run, which makes no access outside the buffers and shared arrays, shows:\n";
        print_scan(scan, false, std::cout);
      }
      return kExitOk;
    });
  });
  if (traced.ending == Ending::Exited) return;
  // The traced run did not survive either (a divergent barrier on a CPU
  // device): what the text shows, and the report promised, all the same.
  std::string note;
  try {
    const Variant& v = variant_or_throw(kernel);
    const auto [text, name] = read_source_file(args);
    note = divergent_barrier_note(v, make_params(v.params, parse_assignments(args.sets), v.id), text, name);
  } catch (const std::exception&) {
  }
  const std::string error = "the traced run " + traced.message + (note.empty() ? "" : ": " + note);
  if (args.format == "json")
    std::cout << json_text(json{{"kernel", kernel}, {"crashed", true}, {"problems", {{"error", error}}}}) << '\n';
  else if (!note.empty())
    std::cerr << "threadmap-cli: " << note << '\n';
}

}  // namespace

int run_command(const std::string& kernel, const RunArgs& args) {
  auto body = [&] {
    return guarded([&]() -> int {
      RunSetUp s = set_up_run(kernel, args);
      const RunResult r = run_variant(*s.device, s.variant, s.params, s.options);
      std::optional<analysis::ProblemsScan> problems;
      if (problems_wanted(args) && r.status == RunStatus::Ok)
        problems = scan_problems(*s.device, s.variant, s.params, s.options);
      return print_run(make_report(r, s.variant), problems, args.format);
    });
  };
  if (args.source.empty()) return body();
  const Isolated run = run_isolated(limits_for(args.timeout), "the run of " + args.source, body);
  // A crash (a CPU device) or a failed device (a GPU's illegal address): the
  // traced run, in a process of its own, says which access it was.
  if (run.compiled && (run.ending == Ending::Crashed || run.code == kExitDeviceFailure) && args.problems != "off")
    explain_crash(kernel, args);
  return run.code;
}

SweepPlan plan_sweep(const std::string& kernel, const std::vector<std::string>& sets,
                     const std::vector<std::string>& vary) {
  SweepPlan plan{&variant_or_throw(kernel), parse_assignments(sets), {}, {}};
  const Variant& v = *plan.variant;
  make_params(v.params, plan.base, v.id);  // reject bad --set before any run
  // Each --vary is an axis; the sweep runs their cartesian product.
  for (const std::string& spec : vary) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw InvalidRequest("--vary " + spec + ": expected NAME=V1,V2,..., e.g. --vary tile=8,16,32");
    SweepAxis axis{spec.substr(0, eq), {}};
    std::stringstream ss(spec.substr(eq + 1));
    for (std::string item; std::getline(ss, item, ',');) axis.values.push_back(item);
    plan.axes.push_back(std::move(axis));
  }
  if (plan.axes.empty()) throw InvalidRequest("sweep needs at least one --vary NAME=V1,V2,...");
  reject_repeated_parameters(plan.axes, plan.base);
  plan.points = sweep_points(v.params, plan.axes, v.id);
  return plan;
}

void StepProgress::step(std::size_t done, const std::string& what) {
  if (Clock::now() - start_ < std::chrono::seconds(1)) return;
  std::cerr << "[" << done << "/" << total_ << "] " << what << (isatty(2) ? "\r" : "\n") << std::flush;
  shown_ = true;
}

StepProgress::~StepProgress() {
  if (shown_ && isatty(2)) std::cerr << '\n';
}

void SweepProgress::starting(std::size_t point) {
  if (point >= plan_.points.size()) return;
  std::string label;
  for (const auto& [name, value] : plan_.points[point]) label += (label.empty() ? "" : " ") + name + "=" + value;
  step(point, plan_.variant->id + " " + label);
}

int exit_code_for(const RunReport& r) {
  if (r.ok()) return r.verified() ? kExitOk : kExitNotVerified;
  if (r.status == status_name(RunStatus::Unavailable)) return kExitUnavailable;
  if (r.status == status_name(RunStatus::Invalid)) return kExitInvalid;
  return kExitDeviceFailure;
}

int print_sweep(const SweepPlan& plan, const DeviceInfo& device, const std::vector<RunReport>& results,
                const std::string& format, const std::string& host) {
  Table t;
  for (const auto& axis : plan.axes) t.header.push_back(axis.name);
  t.header.insert(t.header.end(), kRunColumns.begin(), kRunColumns.end());
  t.right_aligned.assign(t.header.size(), true);
  t.right_aligned.back() = false;
  json rows = json::array();
  int code = kExitOk;
  for (std::size_t i = 0; i < results.size() && i < plan.points.size(); ++i) {
    code = worse(code, exit_code_for(results[i]));
    rows.push_back(to_json(results[i]));
    std::vector<std::string> row;
    for (const auto& a : plan.points[i]) row.push_back(a.second);
    for (const std::string& c : run_row_cells(results[i])) row.push_back(c);
    t.rows.push_back(row);
  }
  if (format == "json") {
    std::cout << json_text({{"kernel", plan.variant->id}, {"device", to_json(device)}, {"results", rows}}) << '\n';
  } else if (format == "csv") {
    t.print_csv(std::cout);
  } else {
    std::cout << plan.variant->id << " on " << printable(device.name) << " (" << device.spec
              << (host.empty() ? "" : ", " + printable(host)) << ")\n";
    t.print_text(std::cout);
  }
  return code;
}

int sweep_command(const std::string& kernel, const RunArgs& args, const std::vector<std::string>& vary) {
  return maybe_isolated(args, [&] {
    return guarded([&]() -> int {
      const SweepPlan plan = plan_sweep(kernel, args.sets, vary);
      const Variant& v = *plan.variant;
      auto device = watch_phases(open_device(args.device));
      RunOptions options = options_from(args);
      read_source(args, options);
      std::vector<RunReport> results;
      SweepProgress progress(plan);
      for (std::size_t i = 0; i < plan.points.size(); ++i) {
        progress.starting(i);
        auto assignments = plan.base;
        assignments.insert(assignments.end(), plan.points[i].begin(), plan.points[i].end());
        results.push_back(make_report(run_variant(*device, v, make_params(v.params, assignments, v.id), options), v));
      }
      return print_sweep(plan, device->info(), results, args.format);
    });
  });
}

protocol::BenchResult measure_bench(Device& device, const protocol::BenchRequest& request, WaitNotice on_wait,
                                    const std::function<void(std::size_t, const std::string&)>& step) {
  RunOptions options;
  options.repetitions = request.reps;
  options.warmup = request.warmup;
  if (request.seed) options.seed = *request.seed;
  options.on_wait = std::move(on_wait);
  const std::int64_t size = request.size;
  if (size < 0 || size > 32768)
    throw InvalidRequest("--size " + std::to_string(size) + " is out of range: it must be from 0 to 32768");

  // --size N: N x N matrices, N*N elements to sum, enough smem blocks for N*N threads.
  // --set applies to every variant that has the parameter (e.g. type=float).
  const std::vector<std::pair<std::string, std::string>> common_sets(request.params.begin(), request.params.end());
  for (const auto& [name, value] : common_sets) {
    bool used = false;
    for (const Variant& v : catalog())
      if (const ParamSpec* p = v.param(name)) {
        parse_param_value(*p, value, v.id);
        used = true;
      }
    if (!used) throw InvalidRequest("--set " + name + "=" + value + ": no kernel has a parameter '" + name + "'");
  }
  auto sized = [size, &common_sets](const Variant& v) {
    std::vector<std::pair<std::string, std::string>> sets;
    for (const auto& set : common_sets)
      if (v.param(set.first)) sets.push_back(set);
    if (size <= 0) return sets;
    const std::string n = std::to_string(size);
    if (v.param("width")) sets.emplace_back("width", n);
    if (v.param("height")) sets.emplace_back("height", n);
    if (v.param("n")) sets.emplace_back("n", std::to_string(size * size));
    if (v.family == "smem-layout") {
      const std::int64_t threads = v.param("block_x")->default_value * v.param("block_y")->default_value;
      sets.emplace_back("blocks", std::to_string(std::max<std::int64_t>(1, size * size / threads)));
    }
    return sets;
  };
  auto say = [&step](std::size_t done, const std::string& what) {
    if (step) step(done, what);
  };

  protocol::BenchResult bench;
  bench.device = device.info();
  bench.reps = options.repetitions;
  bench.warmup = options.warmup;
  const Variant& copy_variant = variant_or_throw("transpose.copy");
  const Params copy_params = make_params(copy_variant.params, sized(copy_variant), copy_variant.id);
  const std::uint64_t copy_bytes = static_cast<std::uint64_t>(copy_params.get("width") * copy_params.get("height")) *
                                   element_size(copy_params.type());
  say(0, "device-to-device copy");
  bench.device_copy = make_copy_report(measure_device_copy(device, copy_bytes, options), copy_bytes);

  const CatalogView variants = catalog();
  for (std::size_t i = 0; i < variants.size(); ++i) {
    say(i + 1, variants[i].id);
    if (!variants[i].written_in(device.info().dialect)) continue;  // another dialect's kernel
    bench.results.push_back(make_report(run_sized(device, variants[i], sized(variants[i]), options), variants[i]));
  }
  if (bench.device.backend == "cuda") {
    const Variant& reduce = variant_or_throw("reduce.warp_shuffle");
    const Params reduce_params = make_params(reduce.params, sized(reduce), reduce.id);
    say(variants.size(), "peers (cuBLAS, CUB)");
    bench.peers = measure_cuda_peers(std::stoi(bench.device.spec.substr(5)), copy_params.get("width"),
                                     reduce_params.get("n"), options.warmup, options.repetitions);
  }
  return bench;
}

int print_bench(const protocol::BenchResult& bench, const std::string& format, const std::string& host) {
  // The copy kernel's GB/s: the ceiling a kernel's own code reaches.
  double ceiling = 0;
  int code = kExitOk;
  for (const RunReport& r : bench.results) {
    code = worse(code, r.status == status_name(RunStatus::Unavailable) ? kExitOk : exit_code_for(r));
    if (r.kernel == "transpose.copy" && r.ok()) ceiling = r.bandwidth_gbps;
  }
  const CopyReport& device_copy = bench.device_copy;

  if (format == "json") {
    json peer_rows = json::array();
    for (const PeerMeasurement& p : bench.peers)
      peer_rows.push_back({{"name", p.name},
                           {"family", p.family},
                           {"parameters", p.parameters},
                           {"verified", p.verified},
                           {"ideal_bytes", p.ideal_bytes},
                           {"ms", to_json(p.ms)},
                           {"bandwidth_gbps", p.bandwidth_gbps},
                           {"error", p.error}});
    json rows = json::array();
    for (const RunReport& r : bench.results) {
      json j = to_json(r);
      if (r.ok() && ceiling > 0) j["percent_of_copy_kernel"] = 100 * r.bandwidth_gbps / ceiling;
      if (r.ok() && device_copy.bandwidth_gbps > 0)
        j["percent_of_device_copy"] = 100 * r.bandwidth_gbps / device_copy.bandwidth_gbps;
      rows.push_back(j);
    }
    std::cout << json_text({{"device", to_json(bench.device)},
                            {"device_copy", to_json(device_copy)},
                            {"results", rows},
                            {"peers", peer_rows}})
              << '\n';
    return code;
  }

  std::vector<std::string> footnotes;
  Table t;
  t.header = {"kernel", "parameters", "result", "median ms", "GB/s", "% copy kernel", "% device copy", "note"};
  t.right_aligned = {false, false, false, true, true, true, true, false};
  t.rows.push_back({"device copy", mib_text(device_copy.bytes), device_copy.error.empty() ? "measured" : "failed",
                    fixed(device_copy.ms.median, 4), fixed(device_copy.bandwidth_gbps, 2), "", "100.0",
                    device_copy.error});
  // One row per measurement; `error` replaces the numbers when it did not run.
  auto add_row = [&](std::string name, std::string parameters, std::string result, double median_ms, double gbps,
                     std::string note, const std::string& error) {
    std::vector<std::string> row{std::move(name), std::move(parameters), std::move(result)};
    if (error.empty()) {
      row.push_back(fixed(median_ms, 4));
      row.push_back(fixed(gbps, 2));
      row.push_back(ceiling > 0 ? fixed(100 * gbps / ceiling, 1) : "");
      row.push_back(device_copy.bandwidth_gbps > 0 ? fixed(100 * gbps / device_copy.bandwidth_gbps, 1) : "");
      row.push_back(std::move(note));
    } else {
      row.insert(row.end(), {"", "", "", "", error});
    }
    t.rows.push_back(std::move(row));
  };
  for (const RunReport& r : bench.results)
    add_row(r.kernel, params_text(r), verification_text(r), r.timing ? r.timing->kernel_ms.median : 0, r.bandwidth_gbps,
            r.cache_resident ? "fits in cache" : "", r.ok() ? "" : r.error);
  for (const PeerMeasurement& p : bench.peers)
    add_row("peer: " + p.name, p.parameters,
            !p.error.empty() ? "failed"
            : p.verified     ? "verified"
                             : "FAILED",
            p.ms.median, p.bandwidth_gbps, "", p.error);
  if (format == "text") {
    // Long messages go below the table, referenced from the note column.
    for (auto& row : t.rows)
      if (row.back().size() > 40) {
        footnotes.push_back(row.back());
        row.back() = "see [" + std::to_string(footnotes.size()) + "]";
      }
  }
  if (format == "csv") {
    t.print_csv(std::cout);
  } else {
    const DeviceInfo& d = bench.device;
    std::cout << "ThreadMap benchmark on " << printable(d.name) << " (" << d.spec << ", " << printable(d.version)
              << (host.empty() ? "" : ", " + printable(host)) << ")\nmedian of " << bench.reps << " timed runs after "
              << bench.warmup << " warm-up runs; GB/s = ideal bytes / median kernel time\n\n";
    t.print_text(std::cout);
    for (std::size_t i = 0; i < footnotes.size(); ++i)
      std::cout << "[" << i + 1 << "] " << printable(footnotes[i]) << '\n';
  }
  return code;
}

protocol::BenchRequest bench_request(const RunArgs& args, std::int64_t size) {
  protocol::BenchRequest request;
  request.device = args.device;
  request.size = size;
  for (const auto& [name, value] : parse_assignments(args.sets)) request.params[name] = value;
  request.reps = args.reps;
  request.warmup = args.warmup;
  request.seed = args.seed;
  return request;
}

int bench_command(const RunArgs& args, std::int64_t size) {
  return guarded([&]() -> int {
    const protocol::BenchRequest request = bench_request(args, size);
    auto device = open_device(args.device);
    StepProgress progress(catalog().size() + 1);
    const protocol::BenchResult bench = measure_bench(
        *device, request, wait_notice(), [&](std::size_t done, const std::string& what) { progress.step(done, what); });
    return print_bench(bench, args.format);
  });
}

}  // namespace threadmap::cli
