#include "kernels/analysis/exercises.h"

#include "kernels/core/error.h"
#include "kernels/core/goal_metrics.h"
#include "kernels/pack/pack_variants.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

namespace threadmap {

const ExerciseFile& Exercise::start_in(Dialect dialect) const {
  const auto found = starts.find(dialect);
  return found != starts.end() ? found->second : starts.at(Dialect::OpenCL);
}

const ExerciseText& Exercise::in(std::string_view language) const {
  const auto found = text.find(std::string(language));
  return found != text.end() ? found->second : text.at("en");
}

namespace {

// Every exercise ever added, each with whether it is withdrawn (its pack was
// read again without it). Entries never move or go: the window holds
// pointers to their exercises.
struct Entry {
  Exercise exercise;
  bool withdrawn = false;
};

std::deque<Entry>& registry() {
  static std::deque<Entry> all = [] {
    std::vector<Exercise> list = pack_exercises(pack::built_in_manifest());
    std::sort(list.begin(), list.end(), [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
    std::deque<Entry> made;
    for (Exercise& e : list) made.push_back({std::move(e), false});
    return made;
  }();
  return all;
}

// The listed exercise of that id, else null.
Exercise* listed(std::string_view id) {
  for (Entry& entry : registry())
    if (!entry.withdrawn && entry.exercise.id == id) return &entry.exercise;
  return nullptr;
}

ExerciseFile file_of(const pack::ExerciseSpec::File& f) { return {f.name, f.text}; }

}  // namespace

std::vector<std::reference_wrapper<const Exercise>> exercises() {
  std::vector<std::reference_wrapper<const Exercise>> out;
  for (const Entry& entry : registry())
    if (!entry.withdrawn) out.emplace_back(entry.exercise);
  return out;
}

const Exercise* find_exercise(std::string_view id) { return listed(id); }

std::vector<Exercise> pack_exercises(const pack::PackManifest& manifest) {
  std::vector<Exercise> out;
  for (const pack::FamilySpec& fam : manifest.families)
    for (const pack::ExerciseSpec& x : fam.exercises) {
      Exercise e;
      e.id = x.id;
      e.pack = manifest.built_in ? std::string() : manifest.name;
      e.kernel_id = fam.id + "." + x.variant;
      const auto variant = std::find_if(fam.variants.begin(), fam.variants.end(),
                                        [&](const pack::VariantSpec& v) { return v.id == x.variant; });
      // (The reader refuses an exercise on a variant the family lacks.)
      if (variant != fam.variants.end())
        if (const auto& lesson = fam.lesson_of(*variant)) {
          e.lesson_file = lesson->file;
          e.lesson_section = !x.section.empty() ? x.section : fam.section_of(*variant);
        }
      e.sets = {x.sets.begin(), x.sets.end()};
      for (const auto& [dialect, f] : x.starts) e.starts[dialect] = file_of(f);
      for (const auto& [dialect, f] : x.solutions) e.solutions[dialect] = file_of(f);
      for (const pack::ExerciseSpec::Term& t : x.goal) e.goal.push_back({t.metric, t.at_most, t.at_least, t.per, t.reason});
      for (const auto& sizes : x.verify_at) e.verify_at.emplace_back(sizes.begin(), sizes.end());
      for (const auto& [language, t] : x.text) e.text[language] = {t.title, t.task, t.hints};
      out.push_back(std::move(e));
    }
  return out;
}

void check_new_exercises(const std::vector<Exercise>& list) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Exercise& e = list[i];
    for (std::size_t j = 0; j < i; ++j)
      if (list[j].id == e.id) throw InvalidRequest("the exercise '" + e.id + "' is added twice");
    const Exercise* same = listed(e.id);
    if (!same || (!same->pack.empty() && same->pack == e.pack)) continue;
    throw InvalidRequest("pack '" + e.pack + "' has an exercise '" + e.id + "', as " +
                         (same->pack.empty() ? std::string("a built-in exercise") : "pack '" + same->pack + "'") +
                         " has");
  }
}

void add_exercises(const std::string& pack, std::vector<Exercise> list) {
  if (pack.empty()) throw InvalidRequest("the built-in exercises are not added again");
  for (const Exercise& e : list)
    if (e.pack != pack) throw InvalidRequest("the exercise '" + e.id + "' is not pack '" + pack + "''s");
  check_new_exercises(list);
  std::set<std::string> ids;
  for (const Exercise& e : list) ids.insert(e.id);
  std::deque<Entry>& all = registry();
  for (Exercise& e : list) {
    const auto same = std::find_if(all.begin(), all.end(),
                                   [&](const Entry& x) { return x.exercise.pack == pack && x.exercise.id == e.id; });
    if (same == all.end()) all.push_back({std::move(e), false});
    else *same = {std::move(e), false};
  }
  // Last, so a failure above leaves every exercise the pack had listed.
  for (Entry& entry : all)
    if (entry.exercise.pack == pack && !ids.count(entry.exercise.id)) entry.withdrawn = true;
}

std::string GoalTerm::reason_in(std::string_view language) const {
  const auto found = reason.find(std::string(language));
  if (found != reason.end()) return found->second;
  const auto en = reason.find("en");
  return en != reason.end() ? en->second : std::string();
}

std::string describe_term(const GoalTerm& g) {
  if (g.metric == "verified") return "verified";
  std::ostringstream v;
  v << g.metric << (g.at_least ? " >= " : " <= ") << (g.at_least ? *g.at_least : g.at_most);
  if (!g.per.empty()) v << " x " << g.per;
  return v.str();
}

std::string describe_goal(const Exercise& e) {
  std::string out;
  for (const GoalTerm& g : e.goal) out += (out.empty() ? "" : ", and ") + describe_term(g);
  return out;
}

double goal_metric(const analysis::Counters& c, const std::string& metric) {
  if (metric == "shared_ld_conflicts") return static_cast<double>(c.shared_ld_conflicts());
  if (metric == "shared_st_conflicts") return static_cast<double>(c.shared_st_conflicts());
  if (metric == "global_ld_excess_sectors")
    return static_cast<double>(c.global_ld_sectors) - static_cast<double>(c.global_ld_ideal_sectors);
  if (metric == "global_st_excess_sectors")
    return static_cast<double>(c.global_st_sectors) - static_cast<double>(c.global_st_ideal_sectors);
  if (metric == "shared_ld_requests") return static_cast<double>(c.shared_ld_requests);
  if (metric == "shared_st_requests") return static_cast<double>(c.shared_st_requests);
  if (metric == "global_ld_sectors") return static_cast<double>(c.global_ld_sectors);
  if (metric == "global_st_sectors") return static_cast<double>(c.global_st_sectors);
  if (metric == "global_ld_requests") return static_cast<double>(c.global_ld_requests);
  if (metric == "global_st_requests") return static_cast<double>(c.global_st_requests);
  if (metric == "shared_atom_requests") return static_cast<double>(c.shared_atom_requests);
  if (metric == "global_atomic_requests") return static_cast<double>(c.global_atom_requests + c.global_red_requests);
  if (metric == "shared_ld_lanes") return static_cast<double>(c.shared_ld_lanes);
  if (metric == "shared_st_lanes") return static_cast<double>(c.shared_st_lanes);
  if (metric == "global_ld_lanes") return static_cast<double>(c.global_ld_lanes);
  if (metric == "global_st_lanes") return static_cast<double>(c.global_st_lanes);
  if (metric == "shared_ld_exchanged") return static_cast<double>(c.shared_ld_exchanged);
  throw std::runtime_error("no counter named " + metric);
}

namespace {

// The buffers the traced launch passes whose trace shows no access of the
// kind their role makes: no load of an input, no store (or atomic) of an
// output, each as a learner reads it.
std::vector<std::string> untraced_buffers(const Trace& trace) {
  std::vector<bool> loaded(trace.buffers.size(), false), stored(trace.buffers.size(), false);
  for (const Access& a : trace.accesses) {
    if (a.space != Space::Global || a.buffer >= trace.buffers.size()) continue;
    (a.store ? stored : loaded)[a.buffer] = true;
  }
  std::vector<std::string> out;
  for (std::size_t b = 0; b < trace.buffers.size(); ++b) {
    const TracedBuffer& buffer = trace.buffers[b];
    if (buffer.argument == TracedBuffer::kNotPassed) continue;
    if (buffer.role == "input" && !loaded[b])
      out.push_back("the kernel is given the input '" + buffer.name +
                    "' and its trace shows no load of it: a read in a form ThreadMap does not trace "
                    "(docs/traces.md lists those it does) is not measured, so it cannot meet a goal");
    else if (buffer.role == "output" && !stored[b])
      out.push_back("the kernel is given the output '" + buffer.name +
                    "' and its trace shows no store to it: a write in a form ThreadMap does not trace "
                    "(docs/traces.md lists those it does) is not measured, so it cannot meet a goal");
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> exercise_sets(const Exercise& e,
                                                               const std::map<std::string, std::string>& over) {
  std::map<std::string, std::string> all = e.sets;
  for (const auto& [name, value] : over) all[name] = value;
  return {all.begin(), all.end()};
}

std::string sets_text(const std::vector<std::pair<std::string, std::string>>& sets) {
  std::string out;
  for (const auto& [name, value] : sets) out += (out.empty() ? "" : " ") + name + "=" + value;
  return out;
}

std::string first_mismatch(const Verification& v) {
  if (v.first.empty()) return v.method;
  const Mismatch& m = v.first.front();
  return m.where + ": expected " + m.expected + ", got " + m.actual;
}

std::uint64_t fresh_grading_seed() {
  std::random_device device;
  return (std::uint64_t{device()} << 32) | device();
}

Grade grade_exercise(const Exercise& e, const analysis::Analysis& a, const Trace& trace, const GradedRuns& runs) {
  Grade g;
  const std::string own = sets_text(exercise_sets(e));
  if (!runs.traced.verified) g.failed_at = own + ", " + first_mismatch(runs.traced);
  else if (runs.timed && !runs.timed->verified)
    g.failed_at = own + " (the timed run), " + first_mismatch(*runs.timed);
  for (std::size_t i = 0; !g.failed_at && i < e.verify_at.size(); ++i) {
    if (i >= runs.sizes.size()) {
      g.failed_at = sets_text(exercise_sets(e, e.verify_at[i])) + ": not run";
      break;
    }
    const SizeCheck& size = runs.sizes[i];
    if (!size.verified)
      g.failed_at = size.set + (size.error ? ": " + *size.error : ", " + size.mismatch.value_or("not verified"));
  }
  g.verified = !g.failed_at;
  g.goal = check_goal(e, g.verified, a, trace);
  g.goal_met = g.goal.met && g.verified;
  g.status = g.goal_met ? "goal met" : (g.verified ? "goal not met" : "not verified");
  return g;
}

GoalCheck check_goal(const Exercise& e, bool verified, const analysis::Analysis& a, const Trace& trace) {
  GoalCheck out;
  const analysis::Counters& totals = a.totals;
  // A kernel whose own trace shows a bug meets no goal: each problem is a
  // condition it fails, whatever its counts.
  out.problems = analysis::reports_of(a.problems, trace).list;
  out.untraced = untraced_buffers(trace);
  out.met = out.problems.empty() && out.untraced.empty();
  for (const GoalTerm& term : e.goal) {
    GoalCheck::Term t{term, 0, false};
    if (term.metric == "verified") {
      t.value = verified ? 1 : 0;
      t.met = verified;
    } else {
      t.value = goal_metric(totals, term.metric);
      // A relative bound scales with the run's own count (per store, say).
      const double scale = term.per.empty() ? 1.0 : goal_metric(totals, term.per);
      t.bound = (term.at_least ? *term.at_least : term.at_most) * scale;
      t.met = term.at_least ? t.value >= t.bound : t.value <= t.bound;
    }
    out.met = out.met && t.met;
    out.terms.push_back(t);
  }
  return out;
}

namespace {

// Digits at s[i...]; advances i past them. -1 when there are none (or too many).
int digits_at(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  int value = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 9) value = value * 10 + (s[i++] - '0');
  return i == start ? -1 : value;
}

// "error: text" at s[i...]: fills severity and text.
bool severity_at(std::string_view s, std::size_t i, CompilerMessage& m) {
  while (i < s.size() && s[i] == ' ') ++i;
  for (std::string_view kind : {"fatal error", "error", "warning", "note"}) {
    if (s.substr(i, kind.size()) != kind || s.substr(i + kind.size(), 1) != ":") continue;
    m.severity = kind == "fatal error" ? "error" : std::string(kind);
    std::size_t t = i + kind.size() + 1;
    while (t < s.size() && s[t] == ' ') ++t;
    m.text = std::string(s.substr(t));
    return true;
  }
  return false;
}

// "FILE:LINE:" or "FILE:LINE:COLUMN:" with the first colon at `colon`: fills
// the file, line and column and returns where the rest starts; none when the
// text there is not a place.
std::optional<std::size_t> place_at(std::string_view s, std::size_t colon, CompilerMessage& m) {
  std::size_t i = colon + 1;
  m.line = digits_at(s, i);
  if (m.line <= 0 || i >= s.size() || s[i] != ':') return std::nullopt;
  ++i;
  std::size_t after_column = i;
  if (const int column = digits_at(s, after_column); column >= 0 && after_column < s.size() && s[after_column] == ':') {
    m.column = column;
    i = after_column + 1;
  }
  m.file = std::string(s.substr(0, colon));
  return i;
}

std::optional<CompilerMessage> message_in(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  // NVRTC: FILE(LINE): severity: text
  if (const std::size_t open = line.find('('); open != std::string_view::npos && open > 0) {
    std::size_t i = open + 1;
    CompilerMessage m;
    m.line = digits_at(line, i);
    if (m.line > 0 && line.substr(i, 2) == "):" && severity_at(line, i + 2, m)) {
      m.file = std::string(line.substr(0, open));
      return m;
    }
  }
  // Clang: FILE:LINE:COLUMN: severity: text (the column may be missing)
  for (std::size_t colon = line.find(':'); colon != std::string_view::npos; colon = line.find(':', colon + 1)) {
    CompilerMessage m;
    if (const auto after = place_at(line, colon, m); after && severity_at(line, *after, m)) return m;
  }
  // PoCL: severity: FILE:LINE:COLUMN: text
  CompilerMessage lead;
  if (severity_at(line, 0, lead) && lead.text != line) {
    const std::string rest = lead.text;
    for (std::size_t colon = rest.find(':'); colon != std::string::npos; colon = rest.find(':', colon + 1)) {
      CompilerMessage m = lead;
      auto after = place_at(rest, colon, m);
      if (!after) continue;
      while (*after < rest.size() && rest[*after] == ' ') ++*after;
      m.text = rest.substr(*after);
      return m;
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<CompilerMessage> compiler_messages(std::string_view log) {
  std::vector<CompilerMessage> out;
  while (!log.empty()) {
    const std::size_t end = log.find('\n');
    if (auto m = message_in(log.substr(0, end))) out.push_back(std::move(*m));
    if (end == std::string_view::npos) break;
    log.remove_prefix(end + 1);
  }
  return out;
}

namespace {

bool counted(const analysis::Request& r, Space space) { return r.space == space && r.lanes > 0; }
std::uint32_t value_of(const analysis::Request& r) { return r.space == Space::Shared ? r.wavefronts : r.sectors; }

}  // namespace

PerRequest per_request(const analysis::Analysis& a, Space space) {
  PerRequest out;
  double sum = 0;
  for (const analysis::Request& r : a.requests) {
    if (!counted(r, space)) continue;
    ++out.requests_by_value[value_of(r)];
    ++out.requests;
    sum += value_of(r);
  }
  out.mean = out.requests ? sum / static_cast<double>(out.requests) : 0;
  return out;
}

std::optional<std::size_t> first_request_unlike(const analysis::Analysis& a, Space space, std::uint32_t predicted) {
  for (std::size_t i = 0; i < a.requests.size(); ++i)
    if (counted(a.requests[i], space) && value_of(a.requests[i]) != predicted) return i;
  return std::nullopt;
}

}  // namespace threadmap
