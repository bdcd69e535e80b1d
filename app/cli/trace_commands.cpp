// record, counters and show: traces of what the kernels did, their analysis
// in Nsight Compute's terms, and session files.
#include <malloc.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <iomanip>
#include <optional>

#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "app/cli/sandbox.h"
#include "app/cli/session_builder.h"
#include "app/cli/table.h"
#include "app/protocol/replies.h"
#include "kernels/engine/devices.h"
#include "kernels/core/error.h"
#include "kernels/core/input_file.h"
#include "kernels/core/report.h"
#include "kernels/engine/runner.h"
#include "kernels/core/session.h"
#include "kernels/core/sources.h"
#include "kernels/engine/record.h"
#include "kernels/core/trace_format.h"
#include "kernels/analysis/analysis.h"
#include "kernels/engine/grid_count.h"
#include "kernels/analysis/summary.h"

namespace threadmap::cli {

namespace {

using nlohmann::json;

// "all", or linear block ids "0,1,64".
TraceOptions trace_options(const std::string& blocks, std::uint64_t capacity, std::uint64_t seed) {
  TraceOptions o;
  o.capacity = capacity;
  o.seed = seed;
  if (blocks == "all") {
    o.all_blocks = true;
    return o;
  }
  std::size_t at = 0;
  while (at < blocks.size()) {
    std::size_t end = blocks.find(',', at);
    if (end == std::string::npos) end = blocks.size();
    const std::string item = blocks.substr(at, end - at);
    std::size_t used = 0;
    unsigned long long id = 0;
    try {
      id = std::stoull(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || item[0] == '-' || id > 0xffffffffULL)
      throw InvalidRequest("--blocks " + blocks + ": '" + item +
                           "' is not a block number; give 'all' or numbers like 0,1,64 "
                           "(block (x, y) is x + gridX * y)");
    o.blocks.push_back(static_cast<std::uint32_t>(id));
    at = end + 1;
  }
  return o;
}

std::string count(std::uint64_t n) { return std::to_string(n); }

// A session's text, "?" where it has none.
std::string or_unknown(const std::string& text) { return text.empty() ? "?" : text; }

void print_counters(const analysis::Counters& c, std::ostream& os) {
  Table t;
  t.header = {"counter (Nsight Compute name)", "value"};
  t.right_aligned = {false, true};
  const json values = analysis::to_json(c);
  for (const auto& [name, value] : values.items())
    if (name != "accesses") t.rows.push_back({name, count(value.get<std::uint64_t>())});
  t.print_text(os);
  if (c.runtime.any())
    os << "runtime_global_*: the launching runtime's own global loads and stores (libgomp: the region's arguments, "
          "its stacks), in no buffer and not drawn. Nsight Compute counts them with the kernel's: "
       << count(c.global_ld_requests + c.runtime.ld_requests) << " load requests, "
       << count(c.global_ld_sectors + c.runtime.ld_sectors) << " sectors; "
       << count(c.global_st_requests + c.runtime.st_requests) << " store requests, "
       << count(c.global_st_sectors + c.runtime.st_sectors) << " sectors\n";
}

void print_sites(const analysis::Analysis& a, std::ostream& os) {
  Table t;
  t.header = {"line", "access", "requests", "wavefronts", "sectors", "ideal", "per request", "source"};
  t.right_aligned = {true, false, true, true, true, true, true, false};
  for (const analysis::SiteTotals& s : a.sites) {
    const bool shared = s.space == Space::Shared;
    const std::uint64_t requests = s.requests(), work = s.work();
    t.rows.push_back({std::to_string(s.line),
                      std::string(shared ? "shared " : "global ") + (s.atomic  ? "atomic"
                                                                     : s.store ? "store"
                                                                               : "load"),
                      count(requests), shared ? count(work) : "", shared ? "" : count(work),
                      shared ? "" : count(s.ideal_work()),
                      requests ? fixed(static_cast<double>(work) / static_cast<double>(requests), 2) : "",
                      s.text + (s.merged > 1 ? "  [the compiler merged " + std::to_string(s.merged) + " of these " +
                                                   (s.store ? "stores" : "loads") + " into each]"
                                             : "")});
  }
  t.print_text(os);
}

}  // namespace

void print_problems(const analysis::ProblemList& problems, std::size_t traced_blocks, std::ostream& os) {
  if (!problems.list.empty()) {
    os << "Problems found in the trace (" << problems.list.size() << "):\n";
    for (const analysis::ProblemReport& p : problems.list) os << "  " << printable(p.message) << '\n';
  } else {
    os << "Problems found in the trace: none in the " << traced_blocks << " traced "
       << (traced_blocks == 1 ? "block" : "blocks") << '\n';
  }
  if (!problems.races_checked)
    os << "  (races not looked for: this recording's barriers do not say where they fall among the accesses)\n";
}

namespace {

// A trace's records, counted: those it holds, or (counters in batches)
// those its batches held.
struct RecordCounts {
  std::uint64_t accesses = 0;
  std::uint64_t barrier_arrivals = 0;
};

RecordCounts records_of(const Trace& trace) { return {trace.accesses.size(), trace.barriers.size()}; }

void print_summary(const Trace& trace, const analysis::Analysis& a, RecordCounts records, std::ostream& os) {
  os << "Kernel " << printable(trace.kernel) << " in " << printable(trace.source_file) << ", grid " << trace.grid[0]
     << " x " << trace.grid[1] << " x " << trace.grid[2] << " blocks of " << trace.block[0] << " x " << trace.block[1]
     << " x " << trace.block[2] << " threads\n";
  os << "Traced " << trace.traced_blocks.size() << " of " << trace.block_count() << " blocks: " << records.accesses
     << " accesses in " << a.request_count() << " warp-level requests, " << records.barrier_arrivals
     << " barrier arrivals\n";
  os << "Model: " << printable(a.model.source) << "\n\n";
  print_sites(a, os);
  os << "\n";
  print_counters(a.totals, os);
  if (!a.whole_grid)
    os << "(traced blocks only: use --blocks all, or `threadmap-cli counters`, for the kernel's totals)\n";
  const analysis::BarrierStats& st = a.barrier_stats;
  if (st.passes) {
    // "130 cycles (66 ns)": nanoseconds at the SM clock the run measured.
    auto cycles = [&](std::uint64_t c) {
      std::string s = std::to_string(c) + " cycles";
      if (trace.sm_clock_mhz > 0) s += " (" + fixed(static_cast<double>(c) * 1000.0 / trace.sm_clock_mhz, 0) + " ns)";
      return s;
    };
    os << "\nBarriers: " << st.passes << " passes in " << st.blocks << " blocks, from the " << st.from;
    if (trace.sm_clock_mhz > 0) os << " (SM clock " << fixed(trace.sm_clock_mhz, 0) << " MHz)";
    os << "\n";
    if (st.timed) {
      os << "  arrival spread: median " << cycles(analysis::BarrierStats::median(st.spreads)) << ", widest "
         << cycles(st.spreads.back()) << "\n"
         << "  first release after the last arrival: median "
         << cycles(analysis::BarrierStats::median(st.release_latencies)) << ", max "
         << cycles(st.release_latencies.back()) << "\n";
    } else {
      os << "  arrival order only (no clock on this device): widest spread " << st.spreads.back() << " places\n";
    }
    os << "  last to arrive most often: warp " << st.most_often_last() << ", in "
       << fixed(100.0 * st.most_often_last_share(), 0) << "% of the passes\n"
       << "  "
       << (a.barriers_consistent ? "every warp released after the last arrival"
                                 : "SOME RELEASES PRECEDE THE LAST ARRIVAL")
       << "\n";
    if (trace.clock_passes_dropped)
      os << "  (" << trace.clock_passes_dropped
         << " warp passes were not timed: the clock pass keeps each warp's first pass"
         << " through each of a kernel's first " << TM_CLOCK_PASSES << " barriers, numbered below " << TM_CLOCK_PASSES
         << ")\n";
  }
  if (!a.sms.empty()) {
    std::uint32_t most = 0;
    for (const auto& s : a.sms) most = std::max(most, s.most_at_once);
    os << "Schedule: " << trace.block_count() << " blocks on " << a.sms.size() << " SMs over "
       << fixed(static_cast<double>(a.kernel_end - a.kernel_start) / 1000.0, 1) << " us; at most " << most
       << " blocks on one SM at once\n";
  }
  os << '\n';
  print_problems(analysis::reports_of(a.problems, trace), trace.traced_blocks.size(), os);
}

}  // namespace

int record_command(const std::string& kernel, const RunArgs& args, const std::string& blocks, std::uint64_t capacity,
                   const std::string& output, const std::vector<std::string>& trace_sets) {
  return guarded([&]() -> int {
    const Variant& v = variant_or_throw(kernel);
    auto assignments = parse_assignments(args.sets);
    const Params params = make_params(v.params, assignments, v.id);
    std::optional<Params> trace_params;
    if (!trace_sets.empty()) {
      const auto extra = parse_assignments(trace_sets);
      assignments.insert(assignments.end(), extra.begin(), extra.end());
      trace_params = make_params(v.params, assignments, v.id);
    }
    TraceOptions options = trace_options(blocks, capacity, args.seed);
    std::tie(options.source_text, options.source_name) = read_source_file(args);
    // The output is checked before any work: never a device, a FIFO, a link,
    // or the learner's own kernel file.
    std::vector<std::filesystem::path> inputs;
    if (!args.source.empty()) inputs.emplace_back(args.source);
    if (const std::string problem = output_problem(output, inputs); !problem.empty()) throw InvalidRequest(problem);
    return maybe_isolated(args, [&]() -> int {
      auto device = watch_phases(open_device(args.device));
      RunOptions run_options;
      run_options.repetitions = args.reps;
      run_options.warmup = args.warmup;
      run_options.seed = args.seed;
      run_options.source_text = options.source_text;
      run_options.source_name = options.source_name;
      run_options.on_wait = wait_notice();
      RecordedSession recorded =
          record_session(*device, v, params, run_options, options, trace_params ? &*trace_params : nullptr);
      if (recorded.status != RunStatus::Ok) {
        error(recorded.error);
        return exit_code_for(recorded.status);
      }
      save_recorded_session(recorded, output, Durability::Synced, inputs);
      const Phases& phases = recorded.phases_ms;
      const RunResult& run = recorded.run;
      const Recording& rec = recorded.recording;
      const analysis::Analysis& a = recorded.analysis;

      print_summary(*recorded.session.trace, a, records_of(*recorded.session.trace), std::cout);
      std::cout << "\nTimed run: median " << fixed(run.kernel_ms.median, 4) << " ms, " << fixed(run.bandwidth_gbps, 2)
                << " GB/s, " << (run.verification.verified ? "verified" : "NOT VERIFIED") << "; traced run "
                << (rec.verification.verified ? "verified" : "NOT VERIFIED") << ", recorded in "
                << fixed(rec.record_ms, 1) << " ms\nWrote " << output << " (" << std::filesystem::file_size(output)
                << " bytes)\nWhere the time went (ms):";
      for (const auto& [name, ms] : phases) {
        std::cout << " " << name << " " << fixed(ms, 1);
        if (name == "traced runs") {
          std::cout << " (";
          for (std::size_t i = 0; i < rec.phases_ms.size(); ++i)
            std::cout << (i ? ", " : "") << rec.phases_ms[i].first << " " << fixed(rec.phases_ms[i].second, 1);
          std::cout << ")";
        }
        std::cout << (&name == &phases.back().first ? "\n" : ",");
      }
      if (!run.verification.verified || !rec.verification.verified) return kExitNotVerified;
      return kExitOk;
    });
  });
}

void throw_run_error(RunStatus status, const std::string& message) {
  if (status == RunStatus::Invalid) throw InvalidRequest(message);
  if (status == RunStatus::Unavailable) throw Unavailable(message);
  throw DeviceError(message);
}

namespace {

// The counters' JSON, as json_text prints it, with the per-block list
// written a block at a time: a whole grid's hundreds of thousands of blocks
// are too many to hold as one JSON value, or one string.
void print_counters_json(const protocol::CountersSummary& summary, std::ostream& os) {
  constexpr char kPlaceholder[] = "threadmap-blocks";
  const std::string text = json_text(protocol::counters_json(summary, kPlaceholder));
  const std::string quoted = '"' + std::string(kPlaceholder) + '"';
  const std::size_t at = text.find(quoted);
  const std::vector<analysis::BlockTotals>& blocks = summary.analysis.blocks;
  os << std::string_view(text).substr(0, at);
  if (blocks.empty()) {
    os << "[]";
  } else {
    // Each entry indented as an element of a top-level key's array.
    os << "[\n";
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const std::string entry = json_text(analysis::to_json(blocks[i]));
      std::size_t line = 0;
      for (std::size_t end; (end = entry.find('\n', line)) != std::string::npos; line = end + 1)
        os << "    " << std::string_view(entry).substr(line, end + 1 - line);
      os << "    " << std::string_view(entry).substr(line) << (i + 1 < blocks.size() ? ",\n" : "\n");
    }
    os << "  ]";
  }
  os << std::string_view(text).substr(at + quoted.size()) << '\n';
}

// A grid's memory counters: traced whole (batch_records 0) or in batches of
// blocks, each batch's analysis merged into the grid's (kernels/analysis/merge.h).
struct CountedGrid {
  Trace launch;  // the traced launch (in batches: without its records)
  analysis::Analysis analysis;
  RecordCounts records;
  bool verified = false;
  std::optional<protocol::CountersBatches> batches;  // none when traced whole
};

protocol::CountersBatches batches_of(const BatchedRecording& rec) {
  return {rec.batches,     rec.batch_records, rec.largest_batch,
          rec.access_runs, rec.record_ms,     {rec.phases_ms.begin(), rec.phases_ms.end()}};
}

CountedGrid count_grid(Device& device, const Variant& v, const Params& params, TraceOptions options,
                       std::optional<std::uint64_t> batch_records) {
  prepare_pack_trace(device, v, params, options);
  CountedGrid grid;
  if (batch_records == 0u) {
    Recording rec = record_trace(device, v, params, options);
    if (rec.status != RunStatus::Ok) throw_run_error(rec.status, rec.error);
    grid.analysis = analysis::analyze(rec.trace, analysis::model_for(rec.trace));
    grid.records = records_of(rec.trace);
    grid.verified = rec.verification.verified;
    grid.launch = std::move(rec.trace);
    return grid;
  }
  // Each batch frees and makes again buffers of tens of MiB: with glibc's
  // default, the size at which memory is mapped on its own rises to the
  // largest freed, and the heap then keeps the freed pages (resident
  // memory crept up by about 100 MiB a few batches at 8192 x 8192). A
  // fixed threshold gives each back to the system when it is freed.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  analysis::GridCount count = analysis::count_in_batches(device, v, params, options, batch_records.value_or(0));
  const BatchedRecording& rec = count.recording;
  if (rec.status != RunStatus::Ok) throw_run_error(rec.status, rec.error);
  grid.batches = batches_of(rec);
  grid.records = {count.accesses, count.barrier_arrivals};
  grid.verified = rec.verification.verified;
  grid.analysis = std::move(count.analysis);
  grid.launch = std::move(count.launch);
  return grid;
}

protocol::CountersSummary counters_summary(const Variant& v, const Params& params, const Device& device,
                                           CountedGrid& grid) {
  // The per-block list is moved, not copied: a whole grid's may be large.
  std::vector<analysis::BlockTotals> blocks = std::move(grid.analysis.blocks);
  grid.analysis.blocks.clear();
  protocol::CountersSummary out{v.id,
                                device.info(),
                                report_parameters(v, params),
                                grid.verified,
                                analysis::summarize(grid.launch, grid.analysis),
                                grid.batches};
  out.analysis.blocks = std::move(blocks);
  return out;
}

void print_counters_text(const CountedGrid& grid, std::ostream& os) {
  print_summary(grid.launch, grid.analysis, grid.records, os);
  if (grid.batches)
    os << "Traced in " << grid.batches->count << " batches of blocks, at most " << grid.batches->largest_records
       << " access records each; each batch ran the whole grid, and the last run's output was verified\n";
}

int counters_exit(bool verified, const std::string& kernel) {
  if (verified) return kExitOk;
  error(kernel + ": the traced run's output does not match the CPU reference");
  return kExitNotVerified;
}

}  // namespace

protocol::CountersResult count_memory(Device& device, const Variant& v, const Params& params, TraceOptions options) {
  CountedGrid grid = count_grid(device, v, params, std::move(options), std::nullopt);
  protocol::CountersResult result;
  std::ostringstream text;
  print_counters_text(grid, text);
  result.text = text.str();
  result.verified = grid.verified;
  result.summary = counters_summary(v, params, device, grid);
  return result;
}

int print_counters_result(const protocol::CountersResult& counters, const std::string& format) {
  if (format == "json") print_counters_json(counters.summary, std::cout);
  else std::cout << printable(counters.text, Newlines::Keep);
  const std::string& kernel = counters.summary.kernel_id;
  return counters_exit(counters.verified, kernel.empty() ? "the kernel" : kernel);
}

int counters_command(const std::string& kernel, const RunArgs& args, const std::string& blocks,
                     std::optional<std::uint64_t> batch_records) {
  return guarded([&]() -> int {
    const Variant& v = variant_or_throw(kernel);
    const Params params = make_params(v.params, parse_assignments(args.sets), v.id);
    TraceOptions options = trace_options(blocks, 0, args.seed);
    std::tie(options.source_text, options.source_name) = read_source_file(args);
    return maybe_isolated(args, [&] {
      return guarded([&] {
        auto device = watch_phases(open_device(args.device));
        CountedGrid grid = count_grid(*device, v, params, options, batch_records);
        if (args.format == "json") {
          print_counters_json(counters_summary(v, params, *device, grid), std::cout);
        } else {
          print_counters_text(grid, std::cout);
        }
        return counters_exit(grid.verified, v.id);
      });
    });
  });
}

int show_command(const std::string& file, const std::string& format) {
  return guarded([&]() -> int {
    const Session s = load_session(file);
    if (!s.trace) {
      if (format == "json") std::cout << json_text(json{{"kernel_id", s.kernel_id}, {"run", s.run}}) << '\n';
      else std::cout << printable(s.kernel_id) << ": no trace in this session\n";
      return kExitOk;
    }
    const analysis::Analysis a = analysis::analyze(*s.trace, analysis::model_for(*s.trace));
    if (format == "json") {
      json out = analysis::summary_json(*s.trace, a);
      out["kernel_id"] = s.kernel_id;
      out["created_by"] = s.created_by;
      out["created_at"] = s.created_at;
      out["params"] = s.params;
      if (!s.trace_params.empty()) out["trace_params"] = s.trace_params;
      out["device"] = s.device;
      out["run"] = s.run;
      if (!s.source_text.empty()) out["source"] = {{"name", s.source_name}, {"text", s.source_text}};
      if (!s.kernel_text.empty()) out["kernel_source"] = {{"name", s.kernel_file}, {"text", s.kernel_text}};
      std::cout << json_text(out) << '\n';
      return kExitOk;
    }
    const DeviceInfo device = device_or_default(s.device);
    std::cout << printable(s.kernel_id) << " recorded " << printable(s.created_at) << " by " << printable(s.created_by)
              << " on " << printable(or_unknown(device.name)) << " (" << printable(or_unknown(device.spec))
              << ")\nParameters:";
    for (const auto& [name, value] : s.params) std::cout << ' ' << printable(name) << '=' << printable(value);
    std::cout << '\n';
    if (!s.trace_params.empty()) {
      std::cout << "Traced with:";
      for (const auto& [name, value] : s.trace_params) std::cout << ' ' << printable(name) << '=' << printable(value);
      std::cout << " (a smaller run than the timed one)\n";
    }
    if (const std::optional<RunReport> run = report_if_any(s.run); run && run->timing)
      std::cout << "Timed run: median " << run->timing->kernel_ms.median << " ms, " << run->bandwidth_gbps << " GB/s\n";
    print_summary(*s.trace, a, records_of(*s.trace), std::cout);
    if (!s.source_text.empty()) {
      // The learner's kernel the session was made from, numbered as the
      // trace's lines are.
      std::cout << "\nSource: " << printable(s.source_name) << " (run and traced in the catalog kernel's place)\n";
      std::istringstream lines(s.source_text);
      int n = 0;
      for (std::string line; std::getline(lines, line);)
        std::cout << std::setw(4) << ++n << "  " << printable(line, Newlines::Keep) << '\n';
    }
    return kExitOk;
  });
}

namespace {

// The built-in file's text kept in one session file; returns its name.
std::string keep_source_in(const std::string& file) {
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) throw SessionError("cannot open " + file);
  std::string bytes;
  try {
    bytes = read_input_file(file, kMaxSessionBytes);  // never blocking on a FIFO
  } catch (const InvalidRequest& e) {
    throw SessionError(e.what());
  }
  const std::span<const std::uint8_t> view(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  try {
    const Session s = decode_session(view);
    if (!s.trace) throw SessionError("the session has no trace: there are no lines to keep the text of");
    const std::vector<std::uint8_t> kept = keep_kernel_text(view, embedded_source(s.trace->source_file));
    write_file(file, std::string_view(reinterpret_cast<const char*>(kept.data()), kept.size()));
    return s.trace->source_file;
  } catch (const SessionError& e) {
    throw SessionError(file + ": " + e.what());
  }
}

}  // namespace

int keep_source_command(const std::vector<std::string>& files) {
  return guarded([&] {
    for (const std::string& file : files)
      std::cout << printable(file) << ": keeps the text of " << printable(keep_source_in(file)) << '\n';
    return kExitOk;
  });
}

}  // namespace threadmap::cli
