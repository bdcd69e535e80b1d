#pragma once
// The bank view: 32 banks as columns, the shared window's words as rows, the
// tile as the kernel declares it (padding hatched). The current shared
// request's lanes fly onto their banks, one wavefront at a time: lanes that
// share a bank with a different word wait for a later wavefront (a replay).
#include <optional>

#include "viz/views/bank_model.h"
#include "viz/views/trace_view.h"

namespace threadmap::views {

class BankView : public TraceView {
  Q_OBJECT
 public:
  using TraceView::TraceView;
  const BankFrame& frame() const { return frame_; }

 protected:
  void document_changed() override;
  void step_changed() override;
  void paint(QPainter& p) override;

 private:
  std::optional<BankModel> model_;
  BankFrame frame_;
};

}  // namespace threadmap::views
