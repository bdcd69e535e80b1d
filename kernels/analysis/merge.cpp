#include "kernels/analysis/merge.h"

#include <algorithm>
#include <iterator>
#include <tuple>

namespace threadmap::analysis {

namespace {

// Sites in the analysis' order: by line, then global before shared, then
// load, store, atomic (site_key's order).
bool site_before(const SiteTotals& x, const SiteTotals& y) {
  return site_key(x.line, x.space, x.store, x.atomic) < site_key(y.line, y.space, y.store, y.atomic);
}

void merge_sites(std::vector<SiteTotals>& whole, const std::vector<SiteTotals>& batch) {
  for (const SiteTotals& s : batch) {
    const auto at = std::lower_bound(whole.begin(), whole.end(), s, site_before);
    if (at != whole.end() && !site_before(s, *at)) add_counters(at->counters, s.counters);
    else whole.insert(at, s);
  }
}

void merge_blocks(std::vector<BlockTotals>& whole, const std::vector<BlockTotals>& batch) {
  const auto middle = whole.insert(whole.end(), batch.begin(), batch.end());
  const auto by_block = [](const BlockTotals& x, const BlockTotals& y) { return x.block < y.block; };
  if (middle != whole.begin() && middle != whole.end() && by_block(*middle, *std::prev(middle)))
    std::inplace_merge(whole.begin(), middle, whole.end(), by_block);
}

std::vector<std::uint64_t> merged_ascending(const std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>& y) {
  std::vector<std::uint64_t> out;
  out.reserve(x.size() + y.size());
  std::merge(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
  return out;
}

void merge_barrier_stats(BarrierStats& whole, const BarrierStats& batch, bool first) {
  if (first) {
    whole.from = batch.from;
    whole.timed = batch.timed;
  }
  whole.passes += batch.passes;
  whole.blocks += batch.blocks;  // the batches' blocks are disjoint
  whole.spreads = merged_ascending(whole.spreads, batch.spreads);
  whole.release_latencies = merged_ascending(whole.release_latencies, batch.release_latencies);
  if (whole.last_by_warp.size() < batch.last_by_warp.size()) whole.last_by_warp.resize(batch.last_by_warp.size(), 0);
  for (std::size_t w = 0; w < batch.last_by_warp.size(); ++w) whole.last_by_warp[w] += batch.last_by_warp[w];
  whole.release_after_arrivals = whole.release_after_arrivals && batch.release_after_arrivals;
}

}  // namespace

void add_counters(Counters& into, const Counters& more) {
  into.accesses += more.accesses;
  into.shared_ld_requests += more.shared_ld_requests;
  into.shared_st_requests += more.shared_st_requests;
  into.shared_ld_wavefronts += more.shared_ld_wavefronts;
  into.shared_st_wavefronts += more.shared_st_wavefronts;
  into.shared_ld_ideal_wavefronts += more.shared_ld_ideal_wavefronts;
  into.shared_st_ideal_wavefronts += more.shared_st_ideal_wavefronts;
  into.global_ld_requests += more.global_ld_requests;
  into.global_st_requests += more.global_st_requests;
  into.global_ld_sectors += more.global_ld_sectors;
  into.global_st_sectors += more.global_st_sectors;
  into.global_ld_ideal_sectors += more.global_ld_ideal_sectors;
  into.global_st_ideal_sectors += more.global_st_ideal_sectors;
  into.shared_atom_requests += more.shared_atom_requests;
  into.shared_atom_wavefronts += more.shared_atom_wavefronts;
  into.shared_atom_ideal_wavefronts += more.shared_atom_ideal_wavefronts;
  into.global_atom_requests += more.global_atom_requests;
  into.global_atom_sectors += more.global_atom_sectors;
  into.global_atom_ideal_sectors += more.global_atom_ideal_sectors;
  into.global_red_requests += more.global_red_requests;
  into.global_red_sectors += more.global_red_sectors;
  into.global_red_ideal_sectors += more.global_red_ideal_sectors;
  into.shared_ld_lanes += more.shared_ld_lanes;
  into.shared_st_lanes += more.shared_st_lanes;
  into.global_ld_lanes += more.global_ld_lanes;
  into.global_st_lanes += more.global_st_lanes;
  into.shared_ld_exchanged += more.shared_ld_exchanged;
  into.runtime += more.runtime;
}

// A batch's problems added to the grid's: one of a kind at the same line(s)
// is one problem, the first example kept (batches come in block order) and
// the occurrences summed.
static void merge_problems(Problems& whole, const Problems& batch, bool first) {
  whole.races_checked = first ? batch.races_checked : whole.races_checked && batch.races_checked;
  whole.shared_loads_exchanged += batch.shared_loads_exchanged;
  for (const Problem& p : batch.list) {
    const auto same = [&](const Problem& q) {
      return q.kind == p.kind && q.first.line == p.first.line && q.second.line == p.second.line;
    };
    if (const auto found = std::find_if(whole.list.begin(), whole.list.end(), same); found != whole.list.end())
      found->occurrences += p.occurrences;
    else whole.list.push_back(p);
  }
  std::stable_sort(whole.list.begin(), whole.list.end(), [](const Problem& a, const Problem& b) {
    return std::tie(a.kind, a.first.line, a.second.line) < std::tie(b.kind, b.first.line, b.second.line);
  });
}

void merge_batch(Analysis& whole, const Analysis& batch) {
  const bool first = whole.batches_merged == 0;
  if (first) {
    whole.model = batch.model;
    whole.sms = batch.sms;
    whole.kernel_start = batch.kernel_start;
    whole.kernel_end = batch.kernel_end;
  }
  ++whole.batches_merged;
  add_counters(whole.totals, batch.totals);
  merge_sites(whole.sites, batch.sites);
  merge_blocks(whole.blocks, batch.blocks);
  whole.requests_not_kept += batch.request_count();
  whole.barrier_passes_not_kept += batch.barrier_pass_count();
  whole.barriers_consistent = whole.barriers_consistent && batch.barriers_consistent;
  merge_barrier_stats(whole.barrier_stats, batch.barrier_stats, first);
  merge_problems(whole.problems, batch.problems, first);
}

}  // namespace threadmap::analysis
