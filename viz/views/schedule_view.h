#pragma once
// The schedule view: SMs by time, every block a bar from its recorded start
// to its end on the SM that ran it; traced blocks marked, the current one
// outlined. Order-only recordings (OpenCL) are drawn in order and say so.
#include <functional>
#include <optional>

#include "viz/views/schedule_model.h"
#include "viz/views/trace_view.h"

namespace threadmap::views {

class ScheduleView : public TraceView {
  Q_OBJECT
 public:
  using TraceView::TraceView;
  const ScheduleFrame& frame() const { return frame_; }

 protected:
  void document_changed() override;
  void step_changed() override;
  void paint(QPainter& p) override;

 private:
  void draw_bars(QPainter& p, const std::function<qreal(double)>& x_of, qreal y0, qreal row_h);
  std::optional<ScheduleModel> model_;
  ScheduleFrame frame_;
};

}  // namespace threadmap::views
