#include "viz/views/barrier_model.h"

#include <algorithm>

namespace threadmap::views {

BarrierModel::BarrierModel(std::shared_ptr<const analysis::TraceDocument> doc) : doc_(std::move(doc)) {}

std::uint32_t BarrierModel::block_at(std::size_t step) const {
  const auto& analysis = doc_->analysis;
  if (!analysis.requests.empty()) return analysis.requests[std::min(step, analysis.requests.size() - 1)].block;
  return analysis.barriers.empty() ? 0 : analysis.barriers.front().block;
}

std::vector<std::size_t> BarrierModel::passes_of(std::uint32_t block) const {
  std::vector<std::size_t> passes;
  const auto& barriers = doc_->analysis.barriers;
  for (std::size_t i = 0; i < barriers.size(); ++i)
    if (barriers[i].block == block) passes.push_back(i);
  std::sort(passes.begin(), passes.end(),
            [&](std::size_t a, std::size_t b) { return barriers[a].instance < barriers[b].instance; });
  return passes;
}

std::size_t BarrierModel::widest_pass(std::size_t step) const {
  const auto passes = passes_of(block_at(step));
  const auto& barriers = doc_->analysis.barriers;
  std::size_t best = 0;
  for (std::size_t k = 0; k < passes.size(); ++k)
    if (barriers[passes[k]].spread() > barriers[passes[best]].spread()) best = k;
  return best;
}

std::optional<std::size_t> BarrierModel::pass_of_instance(std::uint32_t block, std::uint32_t instance) const {
  const auto passes = passes_of(block);
  const auto& barriers = doc_->analysis.barriers;
  for (std::size_t k = 0; k < passes.size(); ++k)
    if (barriers[passes[k]].instance == instance) return k;
  return std::nullopt;
}

BarrierFrame BarrierModel::frame(std::size_t step, std::size_t pass_in_block,
                                 const analysis::Problem* divergent) const {
  BarrierFrame f;
  const Trace& trace = doc_->trace();
  f.block = block_at(step);
  f.warps_in_block = (trace.threads_per_block() + trace.warp_width - 1) / std::max<std::uint32_t>(trace.warp_width, 1);
  const auto passes = passes_of(f.block);
  f.passes_in_block = passes.size();
  if (passes.empty()) return f;
  f.pass_in_block = std::min(pass_in_block, passes.size() - 1);
  f.pass = passes[f.pass_in_block];
  const analysis::BarrierPass& pass = doc_->analysis.barriers[f.pass];
  f.has_pass = true;
  f.line = pass.line;
  f.timed = pass.timed;
  f.axis = pass.timed ? trace.barrier_clock : "arrival order";
  f.slowest_warp = pass.slowest_warp;
  f.spread = pass.spread();
  f.release_latency = pass.release_latency();
  f.release_after_arrivals = pass.release_after_arrivals;
  for (const auto& site : trace.sites)
    if (site.line == pass.line) f.source = site.text;
  if (f.source.empty()) f.source = text_line(traced_source_text(doc_->session), pass.line);

  // Each warp's stamps: the clock pass's where it timed this block, else the
  // access pass's (analysis.cpp's grouping: a block's warps arrive at its
  // n-th barrier with ranks n*warps .. n*warps + warps - 1, since none can
  // reach the next barrier before all reached this one).
  struct Stamp {
    std::uint16_t warp;
    std::uint64_t arrival, release, order;
  };
  std::vector<Stamp> stamps;
  f.from_clock_pass = pass.from_clock_pass;
  if (pass.from_clock_pass) {
    for (const auto& b : trace.barrier_timings)
      if (b.block == f.block && b.pass == pass.instance) stamps.push_back({b.warp, b.arrival, b.release, b.arrival});
  } else {
    const std::uint32_t warps_per_block = std::max<std::uint32_t>(f.warps_in_block, 1);
    for (const auto& e : trace.barriers)
      if (e.block == f.block && e.arrival_rank / warps_per_block == pass.instance)
        stamps.push_back({e.warp, e.arrival, e.release, e.arrival_rank});
  }
  std::sort(stamps.begin(), stamps.end(), [&](const Stamp& a, const Stamp& b) {
    if (pass.timed && a.arrival != b.arrival) return a.arrival < b.arrival;
    return a.order != b.order ? a.order < b.order : a.warp < b.warp;
  });
  for (std::size_t i = 0; i < stamps.size(); ++i) {
    const Stamp& e = stamps[i];
    BarrierLane lane;
    lane.warp = e.warp;
    lane.rank = static_cast<std::uint32_t>(i);
    lane.raw_arrival = e.arrival;
    lane.raw_release = e.release;
    lane.arrival = pass.timed ? static_cast<double>(e.arrival - pass.first_arrival) : lane.rank;
    lane.release =
        pass.timed && e.release >= pass.first_arrival ? static_cast<double>(e.release - pass.first_arrival) : -1;
    lane.slowest = e.warp == pass.slowest_warp;
    f.lanes.push_back(lane);
  }
  std::sort(f.lanes.begin(), f.lanes.end(), [](const BarrierLane& a, const BarrierLane& b) { return a.warp < b.warp; });
  f.barrier_at = pass.timed ? static_cast<double>(pass.spread()) : (f.lanes.empty() ? 0.0 : f.lanes.size() - 1.0);
  f.release_at = pass.timed ? static_cast<double>(pass.last_release - pass.first_arrival) : -1;
  f.axis_end = std::max(1.0, std::max(f.barrier_at, f.release_at) * 1.1 + (pass.timed ? 0.0 : 1.0));

  if (divergent && divergent->kind == analysis::ProblemKind::DivergentBarrier && divergent->block == f.block &&
      divergent->interval == pass.instance) {
    for (const std::uint16_t w : divergent->warps_missing)
      if (std::none_of(f.lanes.begin(), f.lanes.end(), [&](const BarrierLane& l) { return l.warp == w; }))
        f.never_arrived.push_back(w);
  }

  const analysis::BarrierStats& st = doc_->analysis.barrier_stats;
  BarrierFigures& g = f.figures;
  g.stats = &st;
  g.sm_clock_mhz = trace.sm_clock_mhz;
  g.spread_rank =
      static_cast<std::size_t>(std::lower_bound(st.spreads.begin(), st.spreads.end(), f.spread) - st.spreads.begin());
  return f;
}

}  // namespace threadmap::views
