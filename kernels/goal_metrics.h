#pragma once
// The counters an exercise's goal may name (kernels/analysis/exercises.h):
// "verified", and counts of the run's traced accesses, for every
// [[family.exercise]] (the built-in lessons' and a pack's).
#include <algorithm>
#include <array>
#include <string_view>

namespace threadmap {

inline constexpr std::array<std::string_view, 11> kGoalMetrics{
    "verified",
    "shared_ld_conflicts",
    "shared_st_conflicts",
    "global_ld_excess_sectors",
    "global_st_excess_sectors",
    "shared_ld_requests",
    "shared_st_requests",
    "global_ld_requests",
    "global_st_requests",
    "shared_atom_requests",     // shared atomics (ATOMS), every operation
    "global_atomic_requests"};  // global atomics, those that return the old value and reductions

inline bool is_goal_metric(std::string_view m) {
  return std::find(kGoalMetrics.begin(), kGoalMetrics.end(), m) != kGoalMetrics.end();
}

}  // namespace threadmap
