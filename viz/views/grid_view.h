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
  struct Swatch {
    QColor colour;
    QString text;
  };
  // The heading: the title where the height allows, then what the request
  // is and how many global accesses so far, whole (wrapped if it must be).
  // Returns the y below it.
  qreal draw_heading_lines(QPainter& p, qreal margin);
  // How tall `s` is wrapped to `width` at the smallest the painter's font may go.
  qreal wrapped_height(const QPainter& p, const QString& s, qreal width) const;
  // The first of `candidates` that fits `width` at the theme's floor ("" none).
  QString first_fitting(const QPainter& p, const QStringList& candidates, qreal width) const;
  std::vector<Swatch> swatches() const;
  // Swatches flowing into `area` line by line (one a line in a `column`);
  // those past its bottom are left out whole. Returns the height they take.
  qreal draw_legend(QPainter& p, const QRectF& area, bool column, bool draw);
  void draw_matrix(QPainter& p, const GridMatrix& m, QPointF origin, qreal cell);
  void draw_outlines(QPainter& p, const GridMatrix& m, QPointF origin, qreal cell);
  QString role_name(const std::string& role) const;
  struct Captions {
    QStringList heads, ranges;
    bool ranges_fit = true;
  };
  Captions captions(QPainter& p, qreal slot_w) const;

  // An access of the chosen problem outside every buffer, where the frame
  // shows its warp's request: its lanes drawn as one cell off the matrix's
  // edge (past its end below, before its start above), with an arrow to it
  // and the address and the threads named (TraceView::OutsideMark).
  struct Stray {
    OutsideMark mark;
    int matrix = -1;      // frame_.matrices index of the nearest buffer (-1: not drawn)
    double column = 0.5;  // the window's column (cells, from its left) the cell stands under
  };
  std::optional<Stray> stray() const;

  std::optional<GridModel> model_;
  GridFrame frame_;
  std::uint64_t side_ = GridModel::kMaxSide;  // the window's side the last paint had room for
  std::vector<Placement> placements_;         // from the last paint, for hovering
};

}  // namespace threadmap::views
