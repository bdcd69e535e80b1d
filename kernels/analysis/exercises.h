#pragma once
// Exercises: a starting kernel a learner edits, the lesson section it belongs
// to, hints, and a goal stated in ThreadMap's own measured numbers
// ("verified, and no shared-memory bank conflicts on the loads"). Each is
// data: a [[family.exercise]] of a manifest (docs/packs.md), the built-in
// ones in kernels/lessons/catalog.toml with a start and a solution in each
// dialect (resources/exercises: ID.start.cl and ID.solution.cl in OpenCL C,
// ID.start.cu and ID.solution.cu in CUDA), embedded in the binary. Goals are
// counts, so they hold on every device, the CPU's included.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/dialect.h"
#include "kernels/analysis/analysis.h"
#include "kernels/pack/manifest.h"

namespace threadmap {

struct ExerciseText {
  std::string title;
  std::string task;
  std::vector<std::string> hints;
};

// One condition of a goal: "verified", or a counter at most (or at least) a
// value. With `per`, the bound is that many times another counter of the same
// run ("at least 1 shared load per global store"): structural terms stated in
// counts, so a kernel that skips the lesson's tile cannot meet the goal.
struct GoalTerm {
  std::string metric;  // verified, a conflict or excess-sector count, or a
                       // request count (kernels/core/goal_metrics.h lists them)
  double at_most = 0;
  std::optional<double> at_least;  // set: the term is a lower bound
  std::string per;                 // empty, or the counter the bound scales with
  // Why the term matters, said to a learner when it fails, by language.
  std::map<std::string, std::string> reason;

  // The reason in the learner's language where there is one, else English.
  std::string reason_in(std::string_view language) const;
};

// One of an exercise's kernel files: its name and text.
struct ExerciseFile {
  std::string name;  // "smem-conflict-free.start.cu"
  std::string text;
};

struct Exercise {
  std::string id;
  std::string pack;       // the pack that brings it; empty for the built-in ones
  std::string kernel_id;  // the catalog variant it replaces
  std::string lesson_file, lesson_section;
  std::map<std::string, std::string> sets;  // its parameters
  // By dialect: the starting kernel and a solution, each
  // in the form of the catalog kernel it replaces (its name, parameters and
  // compile-time values). Every exercise has both dialects (a test keeps it so).
  std::map<Dialect, ExerciseFile> starts, solutions;
  std::vector<GoalTerm> goal;
  // Further parameter sets (over `sets`) that `check` verifies a submission
  // at, with a fresh seed: other sizes, odd ones and ones off the tile.
  std::vector<std::map<std::string, std::string>> verify_at;
  std::map<std::string, ExerciseText> text;  // by language: en, pt_BR, es

  // The learner's language where there is a translation, else English.
  const ExerciseText& in(std::string_view language) const;
  // The start in `dialect`, else the OpenCL C one.
  const ExerciseFile& start_in(Dialect dialect) const;
};

// Every exercise listed now: the built-in ones in id order, then the packs'
// in the order they were added. An exercise is never moved or destroyed, so
// a pointer to one stays valid, also after its pack is read again without it
// (it is no longer listed, nor found).
std::vector<std::reference_wrapper<const Exercise>> exercises();
const Exercise* find_exercise(std::string_view id);

// A pack's exercises ([[family.exercise]]), each on its family's variant
// FAMILY.VARIANT, at the family's lesson (the section it names, else the
// variant's).
std::vector<Exercise> pack_exercises(const pack::PackManifest& manifest);
// Throws InvalidRequest, naming both, when one of `list` has the id of a
// built-in exercise, of another pack's, or of another of `list`.
void check_new_exercises(const std::vector<Exercise>& list);
// Makes `list` pack's exercises, all or none (check_new_exercises first): one
// whose id the same pack gave before replaces it in place, and those the pack
// gave before but not now are no longer listed (the pack was read again).
void add_exercises(const std::string& pack, std::vector<Exercise> list);

// A goal in words: "verified, and shared_ld_conflicts <= 0, and
// shared_ld_requests >= 1 x global_st_requests".
std::string describe_goal(const Exercise& e);
std::string describe_term(const GoalTerm& g);

// A counter's value as the goal names it.
double goal_metric(const analysis::Counters& c, const std::string& metric);

// A traced run measured against an exercise's goal: each term's value
// (verified is 1 or 0) and whether it holds, and the problems its trace
// shows (races, uninitialised or out-of-bounds accesses, divergent
// barriers), each a condition it fails: a kernel whose trace shows a bug
// meets no goal. grade_exercise below makes it part of a grade.
struct GoalCheck {
  struct Term {
    GoalTerm term;
    double value = 0;
    double bound = 0;  // the threshold, `per` resolved (at_most, or at_least)
    bool met = false;
  };
  std::vector<Term> terms;
  std::vector<analysis::ProblemReport> problems;  // each fails the goal
  // A buffer the traced launch passes the kernel that its trace never reads
  // (an input) or writes (an output): an access in a form the hooks do not
  // record, which would otherwise pass the goal unmeasured. Each fails it.
  std::vector<std::string> untraced;
  bool met = false;
};
GoalCheck check_goal(const Exercise& e, bool verified, const analysis::Analysis& a, const Trace& trace);

// The exercise's parameters with `over` laid on them, in name order.
std::vector<std::pair<std::string, std::string>> exercise_sets(const Exercise& e,
                                                               const std::map<std::string, std::string>& over = {});
// "height=70 pad=0 tile=32 width=33".
std::string sets_text(const std::vector<std::pair<std::string, std::string>>& sets);
// The first mismatch of a failed verification, as a learner reads it.
std::string first_mismatch(const Verification& v);

// A submission run once at another of the exercise's sizes (verify_at).
struct SizeCheck {
  std::string set;  // sets_text of its parameters
  bool verified = false;
  std::optional<std::string> error;     // it did not run: the first line of why
  std::optional<std::string> mismatch;  // it ran, and its output differs: the first mismatch
};

// A fresh seed for a grading's inputs (check without --seed, the Exercise
// tab): a kernel fitted to one seed's inputs fails on another's.
std::uint64_t fresh_grading_seed();

// What a submission's runs verified, on the grading's seed: the traced run
// and the timed run at the exercise's sizes, then one run at each other size.
struct GradedRuns {
  Verification traced;
  std::optional<Verification> timed;  // none: no timed run verified anything
  std::vector<SizeCheck> sizes;       // one per verify_at, in its order
};

// The one grader: `threadmap-cli check`, `pack check`, the worker and the
// Exercise tab grade with it, and only render what it returns. Verified is
// every run verified (a kernel fitted to one size or to the inputs of one
// seed fails at another); the goal is met when its terms hold, its trace
// shows no problem, and it is verified.
struct Grade {
  GoalCheck goal;  // check_goal of the traced run
  bool verified = false;
  std::optional<std::string> failed_at;  // the first run that failed: "SET, MISMATCH" or "SET: ERROR"
  bool goal_met = false;
  std::string status;  // "goal met", "goal not met" or "not verified"
};
Grade grade_exercise(const Exercise& e, const analysis::Analysis& a, const Trace& trace, const GradedRuns& runs);

// One line of a compiler's message that names a place in the source:
// "learner.cl:5:3: error: use of undeclared identifier 'x'" (Clang, PoCL,
// NVIDIA's OpenCL) or "learner.cu(5): error: identifier \"x\" is undefined"
// (NVRTC). Lines that name no place are left out.
struct CompilerMessage {
  std::string file;
  int line = 0;
  int column = 0;        // 0 when the compiler gives none
  std::string severity;  // "error", "warning" or "note"
  std::string text;      // the message after the severity
};
std::vector<CompilerMessage> compiler_messages(std::string_view log);

// A learner's prediction of a run, revealed against what was measured.
// Shared: wavefronts per shared-memory request; global: 32-byte sectors per
// global-memory request (both over loads and stores).
struct PerRequest {
  std::map<std::uint32_t, std::uint64_t> requests_by_value;  // value -> requests
  std::uint64_t requests = 0;
  double mean = 0;
};
PerRequest per_request(const analysis::Analysis& a, Space space);

// The first request, in the recorded order the animation steps through,
// whose value differs from `predicted`; none when every request matches.
std::optional<std::size_t> first_request_unlike(const analysis::Analysis& a, Space space, std::uint32_t predicted);

}  // namespace threadmap
