#include "viz/views/schedule_model.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace threadmap::views {

ScheduleModel::ScheduleModel(std::shared_ptr<const analysis::TraceDocument> doc) : doc_(std::move(doc)) {
  const Trace& trace = doc_->trace();
  const auto& schedule = trace.schedule;
  base_.clock = trace.schedule_clock;
  base_.timed = trace.schedule_clock != "order" &&
                std::any_of(schedule.begin(), schedule.end(), [](const BlockSchedule& b) { return b.sm != kNoSm; });
  if (schedule.empty()) return;

  std::map<std::uint32_t, std::uint32_t> row_of;
  for (const auto& b : schedule) row_of[base_.timed ? b.sm : kNoSm] = 0;
  for (auto& [sm, row] : row_of) {
    row = static_cast<std::uint32_t>(base_.sms.size());
    base_.sms.push_back(sm);
  }
  std::uint64_t t0 = schedule.front().start;
  for (const auto& b : schedule) t0 = std::min(t0, b.start);

  std::vector<std::uint32_t> order(schedule.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return schedule[a].start < schedule[b].start; });
  // Per SM, a block takes the lowest slot free at its start: the slots a row
  // needs are the blocks that SM held at once.
  std::vector<std::vector<double>> slot_free_at(base_.sms.size());
  base_.bars.resize(schedule.size());
  for (const std::uint32_t block : order) {
    const auto& b = schedule[block];
    ScheduleBar bar;
    bar.block = block;
    bar.row = row_of[base_.timed ? b.sm : kNoSm];
    bar.start = static_cast<double>(b.start - t0);
    // An order-only device gives ranks; a block occupies its rank's unit.
    bar.end = std::max(static_cast<double>(b.end - t0), bar.start + (base_.timed ? 0.0 : 1.0));
    auto& slots = slot_free_at[bar.row];
    std::size_t slot = 0;
    if (base_.timed)
      while (slot < slots.size() && slots[slot] > bar.start) ++slot;
    if (slot == slots.size()) slots.push_back(0);
    slots[slot] = bar.end;
    bar.slot = base_.timed ? static_cast<std::uint32_t>(slot) : 0;
    bar.traced = std::binary_search(trace.traced_blocks.begin(), trace.traced_blocks.end(), block);
    base_.slot_count = std::max<std::uint32_t>(base_.slot_count, bar.slot + 1);
    base_.axis_end = std::max(base_.axis_end, bar.end);
    base_.bars[block] = bar;
  }
}

ScheduleFrame ScheduleModel::frame(std::size_t step) const {
  ScheduleFrame f = base_;
  const auto& requests = doc_->analysis.requests;
  f.current_block = requests.empty() ? (doc_->trace().traced_blocks.empty() ? 0 : doc_->trace().traced_blocks.front())
                                     : requests[std::min(step, requests.size() - 1)].block;
  if (f.current_block < f.bars.size()) f.bars[f.current_block].current = true;
  return f;
}

}  // namespace threadmap::views
