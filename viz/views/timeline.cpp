#include "viz/views/timeline.h"

namespace threadmap::views {

Timeline::Timeline(const analysis::Analysis& analysis) {
  so_far_.reserve(analysis.requests.size());
  Progress running;
  for (const auto& r : analysis.requests) {
    ++running.requests;
    if (r.space == Space::Shared) {
      running.shared_wavefronts += r.wavefronts;
      running.shared_ideal_wavefronts += r.ideal_wavefronts;
    } else {
      running.global_sectors += r.sectors;
      running.global_ideal_sectors += r.ideal_sectors;
    }
    so_far_.push_back(running);
  }
  total_ = running;
}

Progress Timeline::so_far(std::size_t step) const {
  if (so_far_.empty()) return {};
  return so_far_[std::min(step, so_far_.size() - 1)];
}

std::optional<std::size_t> request_near(const analysis::Analysis& analysis, std::size_t step, Space space) {
  const auto& requests = analysis.requests;
  if (requests.empty()) return std::nullopt;
  step = std::min(step, requests.size() - 1);
  for (std::size_t i = step + 1; i-- > 0;)
    if (requests[i].space == space) return i;
  for (std::size_t i = step + 1; i < requests.size(); ++i)
    if (requests[i].space == space) return i;
  return std::nullopt;
}

Coord2 block_coord(const Trace& trace, std::uint32_t block) {
  return {block % trace.grid[0], (block / trace.grid[0]) % trace.grid[1]};
}

std::string block_name(const Trace& trace, std::uint32_t block) {
  const Coord2 c = block_coord(trace, block);
  return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
}

Coord2 thread_coord(const Trace& trace, std::uint32_t thread) {
  return {thread % trace.block[0], (thread / trace.block[0]) % trace.block[1]};
}

}  // namespace threadmap::views
