#pragma once
// The barrier view's drawing model: one barrier as one block passed it. Each
// warp is a lane on a time axis (clock64 cycles where the device has a clock,
// arrival order otherwise) with its arrival as recorded on the device; the
// barrier line stands at the last arrival; the slowest warp is the last one.
// Beside it, the figures of every pass the recording timed: the distribution
// of arrival spreads and release latencies, and the warp most often last.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/analysis/document.h"

namespace threadmap::views {

struct BarrierLane {
  std::uint16_t warp = 0;
  std::uint32_t rank = 0;  // 0: first to arrive
  double arrival = 0;      // axis units from the first arrival
  double release = -1;     // the warp's recorded release, same units; -1: none recorded
  std::uint64_t raw_arrival = 0, raw_release = 0;
  bool slowest = false;
};

// Every pass the recording timed: the document's own figures (valid while
// the model's document lives), and where the shown pass stands among them.
struct BarrierFigures {
  const analysis::BarrierStats* stats = nullptr;
  double sm_clock_mhz = 0;      // 0: unknown
  std::size_t spread_rank = 0;  // passes with a smaller spread than the shown one
};

struct BarrierFrame {
  bool has_pass = false;
  std::size_t pass = 0;  // Analysis::barriers index
  std::size_t pass_in_block = 0, passes_in_block = 0;
  std::uint32_t block = 0;
  std::uint16_t line = 0;
  std::string source;  // the barrier's source line
  bool timed = false;
  std::string axis;                // "clock64 cycles" or "arrival order"
  std::vector<BarrierLane> lanes;  // by warp
  double barrier_at = 0;           // the last arrival, axis units
  double release_at = -1;          // the last recorded release; -1: none (order-only)
  double axis_end = 0;
  std::uint16_t slowest_warp = 0;
  std::uint64_t spread = 0;
  std::uint64_t release_latency = 0;  // from the last arrival to the first release (timed)
  std::uint32_t warps_in_block = 0;
  bool release_after_arrivals = false;  // every warp saw every arrival once released
  bool from_clock_pass = false;         // the lanes' times are the clock pass's
  BarrierFigures figures;
  // A barrier in divergent code (analysis::ProblemKind::DivergentBarrier)
  // at this pass: the block's warps that never arrived, by warp. `lanes`
  // holds the warps that did.
  std::vector<std::uint16_t> never_arrived;
};

class BarrierModel {
 public:
  explicit BarrierModel(std::shared_ptr<const analysis::TraceDocument> doc);
  // The `pass_in_block`-th barrier (clamped) of the block running at `step`;
  // with `divergent` (a divergent-barrier problem) its missing warps where
  // it is this block's and this pass's.
  BarrierFrame frame(std::size_t step, std::size_t pass_in_block, const analysis::Problem* divergent = nullptr) const;
  // Which of the block's passes (pass_in_block) is its n-th barrier
  // (BarrierPass::instance); nullopt where the block has none such.
  std::optional<std::size_t> pass_of_instance(std::uint32_t block, std::uint32_t instance) const;
  std::uint32_t block_at(std::size_t step) const;
  // The pass of that block with the widest arrival spread: the one to show first.
  std::size_t widest_pass(std::size_t step) const;

 private:
  std::vector<std::size_t> passes_of(std::uint32_t block) const;
  std::shared_ptr<const analysis::TraceDocument> doc_;
};

}  // namespace threadmap::views
