#pragma once
// The grid view: each global matrix as cells, the traced blocks' footprints
// outlined, the current request's lanes lit (read blue, write vermillion).
// Hovering a cell names the thread and the access.
#include <optional>

#include "viz/views/grid_model.h"
#include "viz/views/trace_view.h"

namespace threadmap::views {

class GridView : public TraceView {
  Q_OBJECT
 public:
  using TraceView::TraceView;
  const GridFrame& frame() const { return frame_; }
  // The tooltip text for a point of the widget ("" off the cells).
  QString describe_at(QPoint pos) const;

 protected:
  void document_changed() override;
  void step_changed() override;
  void paint(QPainter& p) override;
  bool event(QEvent* e) override;

 private:
  struct Placement {
    QPointF origin;
    qreal cell = 0;
  };
  std::optional<GridModel> model_;
  GridFrame frame_;
  std::vector<Placement> placements_;  // from the last paint, for hovering
};

}  // namespace threadmap::views
