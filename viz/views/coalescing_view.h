#pragma once
// The coalescing view: the current global request's 32 lanes above the
// 32-byte sectors their bytes fall in (filled as far as the bytes used), the
// count against the ideal, per request, per access site and per kernel.
#include <optional>
#include <vector>

#include <QRectF>

#include "viz/views/coalescing_model.h"
#include "viz/views/trace_view.h"

namespace threadmap::views {

class CoalescingView : public TraceView {
  Q_OBJECT
 public:
  using TraceView::TraceView;
  const CoalescingFrame& frame() const { return frame_; }

 protected:
  void document_changed() override;
  void step_changed() override;
  void paint(QPainter& p) override;

 private:
  QString not_global_note() const;
  QString caption_text() const;
  void paint_request(QPainter& p, qreal y);
  void draw_lanes(QPainter& p, qreal x, qreal y, qreal lane_h, const std::vector<QRectF>& boxes);
  void draw_sectors(QPainter& p, const std::vector<QRectF>& boxes, std::size_t per_row);

  std::optional<CoalescingModel> model_;
  CoalescingFrame frame_;
};

}  // namespace threadmap::views
