// threadmap-cli exercises / check: the exercises, and grading learners'
// submissions on a GPU server (or the CPU), each in a process of its own.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/commands.h"
#include "kernels/output_file.h"
#include "app/cli/output.h"
#include "app/cli/sandbox.h"
#include "app/cli/table.h"
#include "kernels/devices.h"
#include "kernels/error.h"
#include "kernels/runner.h"
#include "kernels/trace.h"
#include "viz/analysis/analysis.h"
#include "viz/analysis/exercises.h"

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

// One submission, graded in this process: traced (every block) for the
// goal's counters, then timed. What a report row holds.
json grade(const Exercise& e, const std::string& text, const std::string& name, const std::string& device_spec,
           int reps) {
  json g = {{"compiled", false}, {"verified", false}, {"goal_met", false}};
  const Variant& v = variant_or_throw(e.kernel_id);
  std::vector<std::pair<std::string, std::string>> sets(e.sets.begin(), e.sets.end());
  const Params params = make_params(v.params, sets, v.id);
  auto device = watch_phases(open_device(device_spec));
  g["device"] = device->info().name;
  TraceOptions trace;
  trace.all_blocks = true;
  trace.source_text = text;
  trace.source_name = name;
  const Recording rec = record_trace(*device, v, params, trace);
  if (rec.status == RunStatus::Invalid) {
    g["status"] = "not compiled";
    g["error"] = first_error(rec.error);
    return g;
  }
  if (rec.status != RunStatus::Ok) {
    g["status"] = "failed";
    g["error"] = first_error(rec.error);
    return g;
  }
  g["compiled"] = true;
  g["verified"] = rec.verification.verified;
  const analysis::Analysis a = analysis::analyze(rec.trace, analysis::model_for(rec.trace));
  const GoalCheck goal = check_goal(e, rec.verification.verified, a.totals);
  const bool met = goal.met;
  json counters = json::object();
  for (const GoalCheck::Term& t : goal.terms)
    if (t.term.metric != "verified") counters[t.term.metric] = t.value;
  g["counters"] = counters;
  RunOptions run;
  run.repetitions = reps;
  run.warmup = 1;
  run.source_text = text;
  run.source_name = name;
  const RunResult r = run_variant(*device, v, params, run);
  if (r.status == RunStatus::Ok) {
    g["median_ms"] = r.kernel_ms.median;
    g["gbps"] = r.bandwidth_gbps;
  }
  g["goal_met"] = met;
  g["status"] = met ? "goal met" : (rec.verification.verified ? "goal not met" : "not verified");
  return g;
}

std::string number(const json& v, int digits) {
  if (!v.is_number()) return "-";
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(digits);
  os << v.get<double>();
  return os.str();
}

// A --device that cannot be opened is the grader's mistake, not the
// learners': one message, before any file is graded. Opened in a child, as
// every device here is: the parent starts no driver before it forks.
int check_device(const std::string& device, const Limits& limits) {
  return run_isolated(limits, "opening " + device, [&] {
           return guarded([&] {
             open_device(device);
             return kExitOk;
           });
         }).code;
}

// What a row says of a child that was stopped or died, or left no result.
void describe_stop(const Isolated& child, json& row) {
  row["compiled"] = child.compiled;
  if (child.ending == Ending::Crashed) {
    row["status"] = "crashed";
    row["error"] = child.message;
  } else if (child.ending != Ending::Exited) {
    row["status"] = "timed out";
    row["error"] = child.message;
  } else {
    row["status"] = "crashed";
    row["error"] = "the grading process ended without a result (exit code " + std::to_string(child.code) + ")";
  }
}

// One submission, graded in a process of its own: an endless loop or a crash
// ends that one, not the others. Its compile is timed apart from its run.
json grade_file(const Exercise& e, const std::string& file, std::size_t n, const std::string& device,
                const Limits& limits, int reps) {
  json row = {{"file", file}, {"compiled", false}, {"verified", false}, {"goal_met", false}};
  std::string text;
  try {
    text = read_text_file(file);
  } catch (const InvalidRequest& e) {
    row["status"] = "unreadable";
    row["error"] = e.what();
    return row;
  }
  // The child's grade comes back through a file in a folder of this grading
  // alone (mkdtemp: no name in the shared temp folder anyone could plant).
  std::string folder = (std::filesystem::temp_directory_path() / "threadmap-check-XXXXXX").string();
  if (!::mkdtemp(folder.data())) {
    row["status"] = "failed";
    row["error"] = "cannot make a temporary folder in " + std::filesystem::temp_directory_path().string();
    return row;
  }
  const std::filesystem::path result = std::filesystem::path(folder) / ("grade-" + std::to_string(n) + ".json");
  const std::string name = std::filesystem::path(file).filename().string();
  const Isolated child = run_isolated(limits, "grading " + file, [&]() -> int {
    json g;
    try {
      g = grade(e, text, name, device, reps);
    } catch (const std::exception& x) {
      g = {{"status", "failed"}, {"error", first_error(x.what())}};
    }
    write_file(result, json_text(g, -1), Durability::Scratch);
    return 0;
  });
  std::ifstream back(result);
  const json g = json::parse(back, nullptr, false);
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  if (child.ending != Ending::Exited || child.code != 0 || g.is_discarded())
    describe_stop(child, row);
  else
    for (auto& [key, value] : g.items()) row[key] = value;
  return row;
}

void print_grades(const Exercise& e, const json& rows, const std::string& format) {
  std::vector<std::string> metrics;
  for (const GoalTerm& g : e.goal)
    if (g.metric != "verified") metrics.push_back(g.metric);
  Table out;
  out.header = {"file", "compiled", "verified"};
  out.header.insert(out.header.end(), metrics.begin(), metrics.end());
  out.header.insert(out.header.end(), {"goal met", "median ms", "GB/s", "status"});
  for (const json& r : rows) {
    std::vector<std::string> line{r["file"].get<std::string>(), r["compiled"].get<bool>() ? "yes" : "no",
                                  r["verified"].get<bool>() ? "yes" : "no"};
    for (const std::string& m : metrics)
      line.push_back(r.contains("counters") && r["counters"].contains(m) ? number(r["counters"][m], 0) : "-");
    line.push_back(r["goal_met"].get<bool>() ? "yes" : "no");
    line.push_back(number(r.value("median_ms", json()), 4));
    line.push_back(number(r.value("gbps", json()), 2));
    std::string status = r.value("status", std::string());
    if (r.contains("error")) status += ": " + r["error"].get<std::string>();
    line.push_back(status);
    out.rows.push_back(line);
  }
  out.right_aligned.assign(out.header.size(), false);
  for (std::size_t k = 3; k + 1 < out.header.size(); ++k) out.right_aligned[k] = true;
  if (format == "csv") {
    out.print_csv(std::cout);
    return;
  }
  std::cout << "Exercise " << e.id << ": " << describe_goal(e) << "\n\n";
  out.print_text(std::cout);
}

}  // namespace

int exercises_command(const std::string& format, const std::string& language) {
  return guarded([&]() -> int {
    if (format == "json") {
      json out = json::array();
      for (const Exercise& e : exercises()) {
        const ExerciseText& t = e.in(language);
        json goal = json::array();
        for (const GoalTerm& g : e.goal)
          goal.push_back(g.metric == "verified" ? json{{"metric", g.metric}}
                                                : json{{"metric", g.metric}, {"at_most", g.at_most}});
        out.push_back({{"id", e.id},
                       {"kernel", e.kernel_id},
                       {"lesson", {{"file", e.lesson_file}, {"section", e.lesson_section}}},
                       {"set", e.sets},
                       {"title", t.title},
                       {"task", t.task},
                       {"hints", t.hints},
                       {"goal", goal},
                       {"goal_text", describe_goal(e)},
                       {"start", e.start},
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
      std::cout << e.id << "  " << t.title << "\n    kernel " << e.kernel_id << ", lesson " << e.lesson_file
                << ", \"" << e.lesson_section << "\"\n    goal: " << describe_goal(e) << "\n    " << t.task
                << "\n";
    }
    return kExitOk;
  });
}

int check_command(const std::string& id, const std::vector<std::string>& files, const std::string& device,
                  const std::string& format, double timeout, int reps) {
  return guarded([&]() -> int {
    const Exercise& e = exercise_or_throw(id);
    const Limits limits = limits_for(timeout);
    if (const int code = check_device(device, limits); code != kExitOk) return code;
    json rows = json::array();
    bool all_met = true;
    for (std::size_t n = 0; n < files.size(); ++n) {
      rows.push_back(grade_file(e, files[n], n, device, limits, reps));
      all_met = all_met && rows.back().value("goal_met", false);
    }
    if (format == "json")
      std::cout << json_text({{"exercise", e.id}, {"goal", describe_goal(e)}, {"submissions", rows}}) << '\n';
    else
      print_grades(e, rows, format);
    return all_met ? kExitOk : kExitNotVerified;
  });
}

}  // namespace threadmap::cli
