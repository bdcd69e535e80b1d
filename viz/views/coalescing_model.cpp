#include "viz/views/coalescing_model.h"

#include <algorithm>
#include <map>

#include "viz/views/layout.h"

namespace threadmap::views {

CoalescingModel::CoalescingModel(std::shared_ptr<const analysis::TraceDocument> doc)
    : doc_(std::move(doc)), timeline_(doc_->analysis) {}

CoalescingFrame CoalescingModel::frame(std::size_t step) const {
  CoalescingFrame f;
  const auto& analysis = doc_->analysis;
  const Trace& trace = doc_->trace();
  f.sector_bytes = analysis.model.sector_bytes;
  f.so_far = timeline_.so_far(step);
  f.total = timeline_.total();
  f.lane_sector.assign(analysis.model.warp_width, -1);
  const auto near = request_near(analysis, step, Space::Global);
  if (!near) return f;
  const analysis::Request& r = take_request(f, analysis, *near);
  f.at_step = *near == step;
  if (step < analysis.requests.size()) {
    f.step_space = analysis.requests[step].space;
    f.step_store = analysis.requests[step].store;
  }
  f.lanes = r.lanes;
  f.request_sectors = r.sectors;
  f.request_ideal = r.ideal_sectors;
  if (const analysis::SiteTotals* site = analysis.site_of(r)) {
    f.site_requests = site->requests();
    f.site_sectors = site->work();
    f.site_ideal = site->ideal_work();
  }

  std::map<std::uint64_t, SectorBox> boxes;
  std::vector<std::pair<std::uint16_t, std::uint64_t>> lane_first_sector;
  for (const std::uint32_t i : analysis.lanes_of(r)) {
    const Access& a = trace.accesses[i];
    if (f.buffer.empty() && a.buffer < trace.buffers.size())
      f.buffer = buffer_name(*doc_, a.buffer);  // as the kernel names it
    const auto lane = static_cast<std::uint16_t>(a.thread % analysis.model.warp_width);
    const std::uint64_t end = a.offset + std::max<std::uint8_t>(a.size, 1);
    for (std::uint64_t s = a.offset / f.sector_bytes; s * f.sector_bytes < end; ++s) {
      SectorBox& box = boxes[s];
      box.sector = s;
      const std::uint64_t lo = std::max(a.offset, s * f.sector_bytes);
      const std::uint64_t hi = std::min(end, (s + 1) * f.sector_bytes);
      box.bytes_used += static_cast<std::uint32_t>(hi - lo);
      if (std::find(box.lanes.begin(), box.lanes.end(), lane) == box.lanes.end()) box.lanes.push_back(lane);
    }
    lane_first_sector.emplace_back(lane, a.offset / f.sector_bytes);
  }
  std::map<std::uint64_t, std::int32_t> index;
  for (auto& [s, box] : boxes) {
    index[s] = static_cast<std::int32_t>(f.sectors.size());
    box.bytes_used = std::min(box.bytes_used, f.sector_bytes);  // lanes reading the same bytes share them
    f.sectors.push_back(std::move(box));
  }
  for (const auto& [lane, s] : lane_first_sector)
    if (lane < f.lane_sector.size()) f.lane_sector[lane] = index[s];
  return f;
}

}  // namespace threadmap::views
