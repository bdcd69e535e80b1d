// threadmap-cli exercises / check: the exercises, and grading learners'
// submissions on a GPU server (or the CPU), each in a process of its own.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/cli/commands.h"
#include "kernels/core/output_file.h"
#include "app/cli/output.h"
#include "app/cli/sandbox.h"
#include "app/cli/table.h"
#include "app/protocol/replies.h"
#include "kernels/engine/devices.h"
#include "kernels/core/error.h"
#include "kernels/engine/runner.h"
#include "kernels/engine/record.h"
#include "kernels/analysis/analysis.h"
#include "kernels/analysis/exercises.h"

namespace threadmap::cli {

namespace {

using json = nlohmann::json;

const Exercise& exercise_or_throw(const std::string& id) {
  if (const Exercise* e = find_exercise(id)) return *e;
  std::string ids;
  for (const Exercise& e : exercises()) ids += (ids.empty() ? "" : ", ") + e.id;
  throw InvalidRequest("unknown exercise '" + id + "'; the exercises are " + ids);
}

// The first line of a compiler's message that says "error", else its first.
std::string first_error(const std::string& message) {
  std::istringstream in(message);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos) return line;
  }
  return first;
}

}  // namespace

std::vector<SizeCheck> verify_sizes(const Exercise& e, const Variant& v, Device& device, const std::string& text,
                                    const std::string& name, std::uint64_t seed) {
  RunOptions run;
  run.repetitions = 0;
  run.warmup = 0;
  run.end_to_end_repetitions = 0;
  run.seed = seed;
  run.source_text = text;
  run.source_name = name;
  run.on_wait = wait_notice();
  std::vector<SizeCheck> sizes;
  for (const auto& over : e.verify_at) {
    const auto sets = exercise_sets(e, over);
    const RunResult r = run_variant(device, v, make_params(v.params, sets, v.id), run);
    SizeCheck size{sets_text(sets), r.status == RunStatus::Ok && r.verification.verified, {}, {}};
    if (r.status != RunStatus::Ok) size.error = first_error(r.error);
    else if (!size.verified) size.mismatch = first_mismatch(r.verification);
    sizes.push_back(std::move(size));
  }
  return sizes;
}

namespace {

// Each failed term's reason, for the report: "shared_ld_requests >= 1 x
// global_st_requests (measured 0): the kernel made no shared loads...".
std::vector<std::string> failed_reasons(const GoalCheck& goal) {
  std::vector<std::string> out;
  for (const GoalCheck::Term& t : goal.terms) {
    if (t.met || t.term.metric == "verified") continue;
    std::ostringstream line;
    line << describe_term(t.term) << " (measured " << t.value;
    if (!t.term.per.empty()) line << ", bound " << t.bound;
    line << ")";
    const std::string why = t.term.reason_in("en");
    out.push_back(why.empty() ? line.str() : line.str() + ": " + why);
  }
  for (const analysis::ProblemReport& p : goal.problems) out.push_back("the trace shows a problem: " + p.message);
  out.insert(out.end(), goal.untraced.begin(), goal.untraced.end());
  return out;
}

// The goal's counters, the failed terms' reasons and the problems of a
// submission's traced run.
protocol::CheckTrace check_trace(const GoalCheck& goal) {
  protocol::CheckTrace t;
  for (const GoalCheck::Term& term : goal.terms)
    if (term.term.metric != "verified") t.counters[term.term.metric] = term.value;
  t.reasons = failed_reasons(goal);
  for (const analysis::ProblemReport& p : goal.problems) t.problems.push_back(p.message);
  return t;
}

// The submission timed at the exercise's size, into `row`; what its run
// verified, where it ran.
std::optional<Verification> time_submission(const Variant& v, Device& device, const Params& params,
                                            const std::string& text, const std::string& name, int reps,
                                            std::uint64_t seed, protocol::CheckRow& row) {
  RunOptions run;
  run.repetitions = reps;
  run.warmup = 1;
  run.seed = seed;
  run.source_text = text;
  run.source_name = name;
  run.on_wait = wait_notice();
  const RunResult r = run_variant(device, v, params, run);
  if (r.status != RunStatus::Ok) return std::nullopt;
  row.median_ms = r.kernel_ms.median;
  row.gbps = r.bandwidth_gbps;
  return r.verification;
}

std::string number(std::optional<double> v, int digits) {
  if (!v) return "-";
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(digits);
  os << *v;
  return os.str();
}

// Runs body in a process of its own (run_isolated) and returns the JSON it
// made, or a discarded value when it made none (stopped, crashed). The JSON
// comes back through a file in a folder of this call alone (mkdtemp: no name
// in the shared temp folder anyone could plant).
json in_child(const Limits& limits, const std::string& what, const std::function<json()>& body, Isolated& child) {
  std::string folder = (std::filesystem::temp_directory_path() / "threadmap-check-XXXXXX").string();
  if (!::mkdtemp(folder.data()))
    throw DeviceError("cannot make a temporary folder in " + std::filesystem::temp_directory_path().string());
  const std::filesystem::path result = std::filesystem::path(folder) / "result.json";
  child = run_isolated(limits, what, [&]() -> int {
    write_file(result, json_text(body(), -1), Durability::Scratch);
    return 0;
  });
  std::ifstream back(result);
  json made = json::parse(back, nullptr, false);
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  if (child.ending != Ending::Exited || child.code != 0) return json(json::value_t::discarded);
  return made;
}

// A --device that cannot be opened is the grader's mistake, not the
// learners': one error, before any submission is graded. Opened in a child,
// as every device here is: the parent starts no driver before it forks.
void check_device(const std::string& device, const Limits& limits) {
  Isolated child;
  const json opened = in_child(
      limits, "opening " + device,
      [&]() -> json {
        try {
          open_device(device);
          return {{"status", "ok"}};
        } catch (const InvalidRequest& e) {
          return {{"status", "invalid"}, {"error", e.what()}};
        } catch (const Unavailable& e) {
          return {{"status", "unavailable"}, {"error", e.what()}};
        } catch (const std::exception& e) {
          return {{"status", "device-failure"}, {"error", e.what()}};
        }
      },
      child);
  if (opened.is_discarded()) throw DeviceError("opening " + device + ": " + child.message);
  const std::string status = opened.value("status", "");
  if (status == "invalid") throw InvalidRequest(opened.value("error", ""));
  if (status == "unavailable") throw Unavailable(opened.value("error", ""));
  if (status != "ok") throw DeviceError(opened.value("error", ""));
}

// With --device auto each submission runs on a device of its own dialect: a
// .cu file on the first CUDA device, a .cl file on the first OpenCL device.
// Which of those open is learned in a child, as check_device does.
struct AutoDevices {
  std::map<Dialect, std::string> spec;    // by dialect: the device that opened
  std::map<Dialect, std::string> reason;  // by dialect: why there is none
};

AutoDevices auto_devices(const Limits& limits) {
  Isolated child;
  const json found = in_child(
      limits, "looking for devices",
      [&]() -> json {
        json out = json::object();
        for (const BackendReport& b : list_backends()) {
          if (!b.available || b.devices.empty()) {
            out[std::string(dialect_key(named_dialect(b.backend)))] = {
                {"reason", b.available ? "no device found" : b.reason}};
            continue;
          }
          const DeviceInfo& first = b.devices.front();
          const std::string key(dialect_key(first.dialect));
          try {
            open_device(first.spec);
            out[key] = {{"spec", first.spec}};
          } catch (const std::exception& e) {
            out[key] = {{"reason", first.spec + ": " + e.what()}};
          }
        }
        return out;
      },
      child);
  if (found.is_discarded()) throw DeviceError("looking for devices: " + child.message);
  AutoDevices devices;
  for (const auto& [key, d] : found.items()) {
    const Dialect dialect = dialect_from_key(key).value_or(Dialect::OpenCL);
    if (d.contains("spec")) devices.spec[dialect] = d.value("spec", "");
    else devices.reason[dialect] = d.value("reason", "");
  }
  // No device at all is the grader's problem, as an explicit --device that
  // cannot be opened is: one message, before any file.
  if (devices.spec.empty())
    throw InvalidRequest("no device to run on: CUDA: " + devices.reason[Dialect::Cuda] +
                         "; OpenCL: " + devices.reason[Dialect::OpenCL]);
  return devices;
}

// The device `file` is graded on with --device auto: its dialect's first;
// a file of neither dialect on the first of any (its grading says how to name
// it). Empty when its dialect has none here.
std::string auto_device_for(const AutoDevices& devices, const std::string& file) {
  if (const std::optional<Dialect> dialect = dialect_of_file(file)) {
    const auto found = devices.spec.find(*dialect);
    return found != devices.spec.end() ? found->second : std::string();
  }
  return devices.spec.begin()->second;  // CUDA's where there is one (the map's first)
}

// A submission whose dialect has no device here: the row says so, and what to do.
protocol::CheckRow no_device_row(const protocol::Submission& submission, const AutoDevices& devices) {
  const Dialect dialect = dialect_of_file(submission.file).value_or(Dialect::OpenCL);
  const auto reason = devices.reason.find(dialect);
  const bool cuda = dialect == Dialect::Cuda;
  const std::string why = reason != devices.reason.end() && !reason->second.empty()
                              ? std::string(cuda ? " (CUDA: " : " (OpenCL: ") + reason->second + ")"
                              : "";
  protocol::CheckRow row;
  row.file = submission.file;
  row.status = "no device";
  row.error = std::filesystem::path(submission.file).filename().string() + " is " + std::string(dialect_title(dialect)) +
              " and there is no " + (cuda ? "CUDA" : "OpenCL") + " device here: grade it on a machine " +
              (cuda ? "with an NVIDIA GPU, or submit the exercise's OpenCL C version (.cl)"
                    : "with an OpenCL device, or submit the exercise's CUDA version (.cu)") +
              why;
  return row;
}

// What a row says of a child that was stopped or died, or left no result.
void describe_stop(const Isolated& child, protocol::CheckRow& row) {
  row.compiled = child.compiled;
  if (child.ending == Ending::Crashed) {
    row.status = "crashed";
    row.error = child.message;
  } else if (child.ending != Ending::Exited) {
    row.status = "timed out";
    row.error = child.message;
  } else {
    row.status = "crashed";
    row.error = "the grading process ended without a result (exit code " + std::to_string(child.code) + ")";
  }
}

// The row a grading process handed back, or none where it made none (or
// one this side cannot read).
std::optional<protocol::CheckRow> row_from_child(const json& made) {
  if (made.is_discarded()) return std::nullopt;
  try {
    return protocol::read_check_row(made);
  } catch (const protocol::ProtocolError&) {
    return std::nullopt;
  }
}

// One submission, graded in a process of its own: an endless loop or a crash
// ends that one, not the others. Its compile is timed apart from its run.
protocol::CheckRow grade_submission(const Exercise& e, const protocol::Submission& submission,
                                    const std::string& device, const Limits& limits, int reps, std::uint64_t seed) {
  const std::string name = std::filesystem::path(submission.file).filename().string();
  Isolated child;
  const json made = in_child(
      limits, "grading " + submission.file,
      [&]() -> json {
        protocol::CheckRow g;
        try {
          g = grade(e, submission.text, name, device, reps, seed);
        } catch (const std::exception& x) {
          g = protocol::CheckRow{};
          g.status = "failed";
          g.error = first_error(x.what());
        }
        g.file = submission.file;
        return protocol::check_row_json(g);
      },
      child);
  if (std::optional<protocol::CheckRow> row = row_from_child(made)) return std::move(*row);
  protocol::CheckRow row;
  row.file = submission.file;
  describe_stop(child, row);
  try {
    const Variant& v = variant_or_throw(e.kernel_id);
    const std::string note =
        divergent_barrier_note(v, make_params(v.params, exercise_sets(e), v.id), submission.text, name);
    if (!note.empty()) row.error = row.error.value_or("") + ": " + note;
  } catch (const std::exception&) {
  }
  return row;
}

// The sizes a submission is verified at: the exercise's, then the others.
std::string sizes_text(const Exercise& e) {
  std::string out = sets_text(exercise_sets(e));
  for (const auto& over : e.verify_at) out += "; " + sets_text(exercise_sets(e, over));
  return out;
}

json term_json(const GoalTerm& g) {
  json t = {{"metric", g.metric}};
  if (g.metric == "verified") return t;
  if (g.at_least) t["at_least"] = *g.at_least;
  else t["at_most"] = g.at_most;
  if (!g.per.empty()) t["per"] = g.per;
  if (!g.reason.empty()) t["reason"] = g.reason;
  return t;
}

// {"cuda": ..., "opencl": ...}: one field of each dialect's file.
json files_by_dialect(const std::map<Dialect, ExerciseFile>& files, std::string ExerciseFile::*field) {
  json out = json::object();
  for (const auto& [dialect, file] : files) out[std::string(dialect_key(dialect))] = file.*field;
  return out;
}


// A goal metric's cell in a row, "-" where it was not measured.
std::string metric_cell(const protocol::CheckRow& r, const std::string& metric) {
  if (!r.trace) return "-";
  const auto measured = r.trace->counters.find(metric);
  return measured == r.trace->counters.end() ? "-" : number(measured->second, 0);
}

void print_grades(const Exercise& e, const std::vector<protocol::CheckRow>& rows, const std::string& format,
                  std::uint64_t seed) {
  std::vector<std::string> metrics;
  for (const GoalTerm& g : e.goal)
    if (g.metric != "verified" && std::find(metrics.begin(), metrics.end(), g.metric) == metrics.end())
      metrics.push_back(g.metric);
  Table out;
  out.header = {"file", "compiled", "verified"};
  out.header.insert(out.header.end(), metrics.begin(), metrics.end());
  out.header.insert(out.header.end(), {"goal met", "median ms", "GB/s", "status"});
  for (const protocol::CheckRow& r : rows) {
    std::vector<std::string> line{printable(r.file), r.compiled ? "yes" : "no", r.verified ? "yes" : "no"};
    for (const std::string& m : metrics) line.push_back(metric_cell(r, m));
    line.push_back(r.goal_met ? "yes" : "no");
    line.push_back(number(r.median_ms, 4));
    line.push_back(number(r.gbps, 2));
    line.push_back(r.status + (r.error ? ": " + *r.error : ""));
    out.rows.push_back(line);
  }
  std::ostringstream problems;  // after the table: each file's problems, one a line
  for (const protocol::CheckRow& r : rows)
    if (r.trace)
      for (const std::string& p : r.trace->problems) problems << "  " << r.file << ": " << printable(p) << '\n';
  out.right_aligned.assign(out.header.size(), false);
  for (std::size_t k = 3; k + 1 < out.header.size(); ++k) out.right_aligned[k] = true;
  if (format == "csv") {
    out.print_csv(std::cout);
    return;
  }
  std::string devices;  // each device graded on, once: "NVIDIA H100 (cuda:0), pthread-... (opencl:0:0)"
  for (const protocol::CheckRow& r : rows) {
    if (!r.device_spec) continue;
    const std::string device = printable(r.device.value_or("")) + " (" + *r.device_spec + ")";
    if (devices.find(device) == std::string::npos) devices += (devices.empty() ? "" : ", ") + device;
  }
  std::cout << "Exercise " << e.id << ": " << describe_goal(e) << "\nVerified with seed " << seed << " (--seed " << seed
            << " repeats it) at " << sizes_text(e) << "\n";
  if (!devices.empty()) std::cout << "Graded on " << devices << "\n";
  std::cout << "\n";
  out.print_text(std::cout);
  if (!problems.str().empty()) std::cout << "\nProblems found in the traces:\n" << problems.str();
}

}  // namespace

protocol::CheckRow grade(const Exercise& e, const std::string& text, const std::string& name,
                         const std::string& device_spec, int reps, std::uint64_t seed) {
  protocol::CheckRow g;
  const Variant& v = variant_or_throw(e.kernel_id);
  const Params params = make_params(v.params, exercise_sets(e), v.id);
  auto device = watch_phases(open_device(device_spec));
  g.device = device->info().name;
  g.device_spec = device->info().spec;
  TraceOptions trace;
  trace.all_blocks = true;
  trace.seed = seed;
  trace.source_text = text;
  trace.source_name = name;
  run_reference(*device, v, params, seed);  // a pack's reference variant, on the same inputs
  const Recording rec = record_trace(*device, v, params, trace);
  if (rec.status != RunStatus::Ok) {
    g.status = rec.status == RunStatus::Invalid ? "not compiled" : "failed";
    g.error = first_error(rec.error);
    return g;
  }
  g.compiled = true;
  const analysis::Analysis a = analysis::analyze(rec.trace, analysis::model_for(rec.trace));
  GradedRuns runs{rec.verification, std::nullopt, {}};
  // A run that failed already decides the grade: the other sizes are not run.
  if (rec.verification.verified) {
    runs.sizes = verify_sizes(e, v, *device, text, name, seed);
    g.sizes = runs.sizes;
  }
  runs.timed = time_submission(v, *device, params, text, name, reps, seed, g);
  const Grade grade = grade_exercise(e, a, rec.trace, runs);
  g.trace = check_trace(grade.goal);
  g.verified = grade.verified;
  g.goal_met = grade.goal_met;
  if (grade.failed_at) g.error = "at " + *grade.failed_at + " (seed " + std::to_string(seed) + ")";
  else if (!g.goal_met && !g.trace->reasons.empty()) g.error = g.trace->reasons.front();
  g.status = grade.status;
  return g;
}

int exercises_command(const std::string& format, const std::string& language) {
  return guarded([&]() -> int {
    if (format == "json") {
      json out = json::array();
      for (const Exercise& e : exercises()) {
        const ExerciseText& t = e.in(language);
        json goal = json::array();
        for (const GoalTerm& g : e.goal) goal.push_back(term_json(g));
        out.push_back({{"id", e.id},
                       {"kernel", e.kernel_id},
                       {"lesson", {{"file", e.lesson_file}, {"section", e.lesson_section}}},
                       {"set", e.sets},
                       {"title", t.title},
                       {"task", t.task},
                       {"hints", t.hints},
                       {"goal", goal},
                       {"goal_text", describe_goal(e)},
                       {"verify_at", e.verify_at},
                       {"start", e.start_in(Dialect::OpenCL).text},
                       {"starts", files_by_dialect(e.starts, &ExerciseFile::text)},
                       {"start_files", files_by_dialect(e.starts, &ExerciseFile::name)},
                       {"dialects",
                        [&] {
                          json d = json::array();
                          for (const auto& [dialect, file] : e.starts) d.push_back(dialect_key(dialect));
                          return d;
                        }()},
                       {"languages", [&] {
                          json l = json::array();
                          for (const auto& [name, text] : e.text) l.push_back(name);
                          return l;
                        }()}});
      }
      std::cout << json_text(out) << '\n';
      return kExitOk;
    }
    for (const Exercise& e : exercises()) {
      const ExerciseText& t = e.in(language);
      std::string starts;
      for (const auto& [dialect, file] : e.starts)
        starts += (starts.empty() ? "" : ", ") + std::string(dialect_title(dialect)) + " (" + file.name + ")";
      std::cout << e.id << "  " << t.title << "\n    kernel " << e.kernel_id << ", lesson " << e.lesson_file << ", \""
                << e.lesson_section << "\"\n    goal: " << describe_goal(e) << "\n    starts in " << starts << "\n    "
                << t.task << "\n";
    }
    return kExitOk;
  });
}

protocol::CheckResult grade_submissions(const protocol::CheckRequest& request) {
  // A fresh seed per grading, so no submission can be fitted to the inputs
  // it is graded on; printed, and --seed repeats it.
  protocol::CheckResult result{request.seed ? *request.seed : fresh_grading_seed(), {}};
  const Exercise& e = exercise_or_throw(request.exercise);
  const Limits limits = limits_for(request.timeout);
  std::optional<AutoDevices> automatic;
  if (request.device == "auto") automatic = auto_devices(limits);
  else check_device(request.device, limits);
  for (const protocol::Submission& submission : request.submissions) {
    const std::string device = automatic ? auto_device_for(*automatic, submission.file) : request.device;
    result.submissions.push_back(device.empty()
                                     ? no_device_row(submission, *automatic)
                                     : grade_submission(e, submission, device, limits, request.reps, result.seed));
  }
  return result;
}

ReadSubmissions read_submissions(const std::vector<std::string>& files) {
  ReadSubmissions read;
  for (std::size_t n = 0; n < files.size(); ++n) {
    try {
      read.readable.push_back({files[n], read_text_file(files[n])});
    } catch (const InvalidRequest& e) {
      protocol::CheckRow& row = read.unreadable[n];
      row.file = files[n];
      row.status = "unreadable";
      row.error = e.what();
    }
  }
  return read;
}

std::vector<protocol::CheckRow> ReadSubmissions::rows(const std::vector<protocol::CheckRow>& graded) const {
  std::vector<protocol::CheckRow> rows;
  std::size_t next = 0;
  for (std::size_t n = 0; n < readable.size() + unreadable.size(); ++n) {
    if (const auto it = unreadable.find(n); it != unreadable.end()) rows.push_back(it->second);
    else if (next < graded.size()) rows.push_back(graded[next++]);
  }
  return rows;
}

int print_check(const std::string& exercise, const std::vector<protocol::CheckRow>& rows, std::uint64_t seed,
                const std::string& format) {
  const Exercise& e = exercise_or_throw(exercise);
  bool all_met = true;
  for (const protocol::CheckRow& row : rows) all_met = all_met && row.goal_met;
  if (format == "json") {
    json report = protocol::check_json({seed, rows});
    report["exercise"] = e.id;
    report["goal"] = describe_goal(e);
    report["sizes"] = sizes_text(e);
    std::cout << json_text(report) << '\n';
  } else {
    print_grades(e, rows, format, seed);
  }
  return all_met ? kExitOk : kExitNotVerified;
}

int check_command(const std::string& id, const std::vector<std::string>& files, const std::string& device,
                  const std::string& format, double timeout, int reps, std::optional<std::uint64_t> chosen_seed) {
  return guarded([&]() -> int {
    const ReadSubmissions read = read_submissions(files);
    const protocol::CheckResult graded = grade_submissions({id, device, read.readable, timeout, reps, chosen_seed});
    return print_check(id, read.rows(graded.submissions), graded.seed, format);
  });
}

}  // namespace threadmap::cli
