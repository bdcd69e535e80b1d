#pragma once
// The coalescing view's drawing model: for the global request at a playback
// step, the 32-byte sectors its lanes' bytes fall in (each with the lanes in
// it and the bytes used), against the fewest sectors those bytes could fill;
// with the counts for that access site and for the whole traced kernel.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/analysis/document.h"
#include "viz/views/timeline.h"

namespace threadmap::views {

struct SectorBox {
  std::uint64_t sector = 0;  // byte offset / sector bytes, in the buffer
  std::uint32_t bytes_used = 0;
  std::vector<std::uint16_t> lanes;
};

struct CoalescingFrame {
  std::uint32_t sector_bytes = 32;
  bool has_request = false;
  std::size_t request = 0;
  // Whether `request` is the step's own; else the step is another kind of
  // access (step_space, step_store) and `request` only the nearest global one.
  bool at_step = false;
  Space step_space = Space::Global;
  bool step_store = false;
  std::string buffer;
  bool store = false;
  AtomicOp atomic = AtomicOp::None;  // an atomic's operation (store is set too)
  std::uint16_t line = 0;
  std::string source;
  std::uint8_t merged = 1;        // the source's accesses in this one (the compiler merged them)
  std::uint8_t access_bytes = 0;  // per lane
  std::uint32_t lanes = 0;
  std::vector<SectorBox> sectors;                        // ascending address
  std::vector<std::int32_t> lane_sector;                 // per lane (warp width): index into sectors, -1 inactive
  std::uint16_t request_sectors = 0, request_ideal = 0;  // the analysis' numbers
  std::uint64_t site_requests = 0, site_sectors = 0, site_ideal = 0;
  Progress so_far, total;
};

class CoalescingModel {
 public:
  explicit CoalescingModel(std::shared_ptr<const analysis::TraceDocument> doc);
  CoalescingFrame frame(std::size_t step) const;

 private:
  std::shared_ptr<const analysis::TraceDocument> doc_;
  Timeline timeline_;
};

}  // namespace threadmap::views
