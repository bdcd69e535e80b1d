#pragma once
// The barrier view: the block's warps as lanes on a time axis, each warp's
// recorded arrival, the barrier line at the last arrival, the release, and
// the slowest warp named. A spin box picks which of the block's barriers.
// Below, every pass the recording timed: the distribution of arrival
// spreads and release latencies, with the shown pass marked.
#include <cstdint>
#include <optional>

#include "viz/views/barrier_model.h"
#include "viz/views/trace_view.h"

class QSpinBox;

namespace threadmap::views {

class BarrierView : public TraceView {
  Q_OBJECT
 public:
  explicit BarrierView(QWidget* parent = nullptr);
  const BarrierFrame& frame() const { return frame_; }
  QSpinBox& pass_picker() { return *pass_; }

 protected:
  void document_changed() override;
  void step_changed() override;
  void paint(QPainter& p) override;
  void resizeEvent(QResizeEvent*) override;

 private:
  static QString cycles(std::uint64_t c, double mhz);
  void draw_figures(QPainter& p, const QRectF& area, const BarrierFrame& f);
  std::optional<BarrierModel> model_;
  BarrierFrame frame_;
  QSpinBox* pass_;
  std::uint32_t shown_block_ = 0xffffffffu;
};

}  // namespace threadmap::views
