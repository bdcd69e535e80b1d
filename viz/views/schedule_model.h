#pragma once
// The schedule view's drawing model: every block of the grid as a bar on the
// SM that ran it, from its recorded start to its end (CUDA: %globaltimer and
// %smid). Where the device gave only the order blocks ran in (OpenCL), there
// is one row and the bars stand in that order, and `timed` says so.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/analysis/document.h"

namespace threadmap::views {

struct ScheduleBar {
  std::uint32_t block = 0;
  std::uint32_t row = 0;      // index into ScheduleFrame::sms
  std::uint32_t slot = 0;     // which of the blocks resident together on that SM
  double start = 0, end = 0;  // axis units from the kernel's start
  bool traced = false;
  bool current = false;
};

struct ScheduleFrame {
  bool timed = false;              // start/end are clock readings and rows are SMs
  std::string clock;               // "globaltimer ns" or "order"
  std::vector<std::uint32_t> sms;  // SM id per row (kNoSm: the one row of an order-only device)
  std::uint32_t slot_count = 1;    // most blocks resident together on one SM
  double axis_end = 1;
  std::vector<ScheduleBar> bars;  // one per block of the grid
  std::uint32_t current_block = 0;
};

class ScheduleModel {
 public:
  explicit ScheduleModel(std::shared_ptr<const analysis::TraceDocument> doc);
  ScheduleFrame frame(std::size_t step) const;

 private:
  std::shared_ptr<const analysis::TraceDocument> doc_;
  ScheduleFrame base_;
};

}  // namespace threadmap::views
