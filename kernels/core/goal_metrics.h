#pragma once
// The counters an exercise's goal may name (kernels/analysis/exercises.h):
// "verified", and counts of the run's traced accesses, for every
// [[family.exercise]] (the built-in lessons' and a pack's).
#include <algorithm>
#include <array>
#include <string_view>

namespace threadmap {

inline constexpr std::array<std::string_view, 18> kGoalMetrics{
    "verified",
    "shared_ld_conflicts",
    "shared_st_conflicts",
    "global_ld_excess_sectors",
    "global_st_excess_sectors",
    "shared_ld_requests",
    "shared_st_requests",
    "global_ld_requests",
    "global_st_requests",
    // The 32-byte sectors the global requests carried: with `per` a request
    // count, how many distinct neighbours a warp's request serves.
    "global_ld_sectors",
    "global_st_sectors",
    "shared_atom_requests",    // shared atomics (ATOMS), every operation
    "global_atomic_requests",  // global atomics, those that return the old value and reductions
    // Thread-level accesses (each request's active lanes): with `per` a
    // request count, how many lanes of a warp share each request.
    "shared_ld_lanes",
    "shared_st_lanes",
    "global_ld_lanes",
    "global_st_lanes",
    // Thread-level shared loads of a word another thread of the block stored
    // last before them: the exchange through a tile.
    "shared_ld_exchanged"};

inline bool is_goal_metric(std::string_view m) {
  return std::find(kGoalMetrics.begin(), kGoalMetrics.end(), m) != kGoalMetrics.end();
}

}  // namespace threadmap
