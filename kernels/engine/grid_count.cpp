#include "kernels/engine/grid_count.h"

#include <algorithm>

#include "kernels/analysis/merge.h"

namespace threadmap::analysis {

namespace {

// A batch's sites not yet in the launch's, in the analysis' order.
void add_sites(std::vector<AccessSite>& launch, const std::vector<AccessSite>& batch) {
  const auto key = [](const AccessSite& s) { return site_key(s.line, s.space, s.store, s.atomic); };
  for (const AccessSite& s : batch) {
    const auto at = std::lower_bound(launch.begin(), launch.end(), s,
                                     [&](const AccessSite& x, const AccessSite& y) { return key(x) < key(y); });
    if (at == launch.end() || key(*at) != key(s)) launch.insert(at, s);
  }
}

// The batch's part of the launch's description. The first batch gives
// everything but the records, which are counted, then dropped.
void describe_launch(Trace& launch, Trace& batch, bool first) {
  batch.accesses.clear();
  batch.barriers.clear();
  batch.barrier_timings.clear();
  batch.barrier_pass_timings.clear();
  if (first) {
    std::vector<std::uint32_t> blocks;
    blocks.swap(batch.traced_blocks);
    launch = batch;
    batch.traced_blocks.swap(blocks);
    // Every block's barrier passes timed once, over the batches.
    if (launch.timing_pass == kClockPassName) launch.clock_block_stride = 1;
  } else {
    launch.clock_passes_dropped += batch.clock_passes_dropped;
    add_sites(launch.sites, batch.sites);
  }
  launch.traced_blocks.insert(launch.traced_blocks.end(), batch.traced_blocks.begin(), batch.traced_blocks.end());
}

}  // namespace

GridCount count_in_batches(Device& device, const Variant& variant, const Params& params, const TraceOptions& options,
                           std::uint64_t batch_records) {
  GridCount count;
  count.recording = record_trace_in_batches(device, variant, params, options, batch_records, [&](Trace& batch) {
    merge_batch(count.analysis, analyze(batch, model_for(batch)));
    count.accesses += batch.accesses.size();
    count.barrier_arrivals += batch.barriers.size();
    describe_launch(count.launch, batch, count.analysis.batches_merged == 1);
    // The next batch's traced run and decode hold the device's records and
    // their copy read back: the records and scratch of this one are given
    // back first, which bounds the peak at about 33 bytes a record.
    std::vector<Access>().swap(batch.accesses);
    release_analysis_scratch();
  });
  std::sort(count.launch.traced_blocks.begin(), count.launch.traced_blocks.end());
  count.analysis.whole_grid = count.launch.traced_blocks.size() == count.launch.block_count();
  count.analysis.grid = count.launch.grid;
  return count;
}

}  // namespace threadmap::analysis
