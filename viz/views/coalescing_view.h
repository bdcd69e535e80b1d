#pragma once
// The coalescing view: the current global request's 32 lanes above the
// 32-byte sectors their bytes fall in (filled as far as the bytes used), the
// count against the ideal, per request, per access site and per kernel.
#include <optional>

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
  std::optional<CoalescingModel> model_;
  CoalescingFrame frame_;
};

}  // namespace threadmap::views
