#include "viz/analysis/exercises.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace threadmap {

std::string_view embedded_exercise(std::string_view name);  // generated (cmake/EmbedFiles.cmake)

namespace {

using json = nlohmann::json;

const std::vector<std::string_view> kMetrics{"verified", "shared_ld_conflicts", "shared_st_conflicts",
                                             "global_ld_excess_sectors", "global_st_excess_sectors"};

std::vector<std::string> exercise_files() {
  std::vector<std::string> files;
  std::istringstream list(THREADMAP_EXERCISE_FILES);  // "a.json;b.json"
  for (std::string name; std::getline(list, name, ';');)
    if (!name.empty()) files.push_back(name);
  return files;
}

Exercise parse(const std::string& file) {
  auto bad = [&](const std::string& what) { throw std::runtime_error("exercise " + file + ": " + what); };
  const json j = json::parse(embedded_exercise(file), nullptr, false);
  if (!j.is_object()) bad("not a JSON object");
  Exercise e;
  try {
    e.id = j.at("id").get<std::string>();
    e.kernel_id = j.at("kernel").get<std::string>();
    e.lesson_file = j.at("lesson").at("file").get<std::string>();
    e.lesson_section = j.at("lesson").at("section").get<std::string>();
    e.sets = j.value("set", std::map<std::string, std::string>{});
    e.start_name = j.at("start").get<std::string>();
    e.solution_name = j.at("solution").get<std::string>();
    for (const json& term : j.at("goal")) {
      GoalTerm g;
      g.metric = term.at("metric").get<std::string>();
      g.at_most = term.value("at_most", 0.0);
      if (std::find(kMetrics.begin(), kMetrics.end(), g.metric) == kMetrics.end())
        bad("unknown goal metric " + g.metric);
      e.goal.push_back(g);
    }
    for (const auto& [language, t] : j.at("text").items())
      e.text[language] = {t.at("title").get<std::string>(), t.at("task").get<std::string>(),
                          t.value("hints", std::vector<std::string>{})};
  } catch (const json::exception& x) {
    bad(x.what());
  }
  if (!e.text.count("en")) bad("no English text");
  e.start = std::string(embedded_exercise(e.start_name));
  e.solution = std::string(embedded_exercise(e.solution_name));
  if (e.start.empty() || e.solution.empty()) bad("its start or solution file is not embedded");
  return e;
}

}  // namespace

const ExerciseText& Exercise::in(std::string_view language) const {
  const auto found = text.find(std::string(language));
  return found != text.end() ? found->second : text.at("en");
}

const std::vector<Exercise>& exercises() {
  static const std::vector<Exercise> all = [] {
    std::vector<Exercise> list;
    for (const std::string& file : exercise_files()) list.push_back(parse(file));
    std::sort(list.begin(), list.end(), [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
    return list;
  }();
  return all;
}

const Exercise* find_exercise(std::string_view id) {
  for (const Exercise& e : exercises())
    if (e.id == id) return &e;
  return nullptr;
}

std::string describe_goal(const Exercise& e) {
  std::string out;
  for (const GoalTerm& g : e.goal) {
    if (!out.empty()) out += ", and ";
    if (g.metric == "verified") {
      out += "verified";
    } else {
      std::ostringstream v;
      v << g.at_most;
      out += g.metric + " <= " + v.str();
    }
  }
  return out;
}

double goal_metric(const analysis::Counters& c, const std::string& metric) {
  if (metric == "shared_ld_conflicts") return static_cast<double>(c.shared_ld_conflicts());
  if (metric == "shared_st_conflicts") return static_cast<double>(c.shared_st_conflicts());
  if (metric == "global_ld_excess_sectors")
    return static_cast<double>(c.global_ld_sectors) - static_cast<double>(c.global_ld_ideal_sectors);
  if (metric == "global_st_excess_sectors")
    return static_cast<double>(c.global_st_sectors) - static_cast<double>(c.global_st_ideal_sectors);
  throw std::runtime_error("no counter named " + metric);
}

}  // namespace threadmap
