#pragma once
// A whole grid counted in batches of blocks (grid_count.h): each batch's
// analysis is added to the grid's as it comes, then dropped, so what is held
// stays bounded whatever the grid. Batches trace disjoint blocks of one
// launch, each run of the launch on the same inputs, so:
//   summed     the totals, each site's and each block's counters (a request
//              is one warp's, so all of a block's are in its batch), and the
//              requests and barrier passes, counted but not kept;
//   joined     the barrier distributions: every batch's passes' spreads and
//              release latencies, how often each warp was last, and whether
//              every release came after the last arrival;
//   the first  batch's model and schedule (blocks per SM, the kernel's span):
//              each batch runs the whole grid, and the first's run is shown.
#include "kernels/analysis/analysis.h"

namespace threadmap::analysis {

// Each counter of `more` added to `into`'s.
void add_counters(Counters& into, const Counters& more);

// `batch`, the analysis of another batch of blocks of the same launch,
// added to `whole` (an Analysis{} before the first). Blocks stay ascending.
// `whole.whole_grid` is left to the caller, who knows the grid.
void merge_batch(Analysis& whole, const Analysis& batch);

}  // namespace threadmap::analysis
