#pragma once
// The barrier view: the block's warps as lanes on a time axis, each warp's
// recorded arrival, the barrier line at the last arrival, the release, and
// the slowest warp named. A spin box picks which of the block's barriers.
// Below, where it fits whole, every pass the recording timed: the
// distribution of arrival spreads and release latencies, with the shown
// pass marked.
#include <cstdint>
#include <optional>
#include <vector>

#include <QRectF>

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
  void problem_changed() override;
  void paint(QPainter& p) override;
  void resizeEvent(QResizeEvent*) override;

 private:
  // Where each part goes: measured top-down in the size the view has, each
  // text's box as high as its lines at the size text() will draw it.
  struct Layout {
    qreal pad = 0, gap = 0;
    QRectF title;          // the heading, left of the pass picker
    QRectF source;         // the barrier's line: on the title's row or its own (empty: left out)
    QRectF slowest;        // the slowest warp, named
    QRectF lanes;          // one lane per warp: the label column, then the plot
    qreal x0 = 0, x1 = 0;  // the plot's time axis, left to right
    QRectF released;       // "released" right of the plot (empty: no room)
    qreal axis_y = 0, tick_h = 0;
    QRectF caption, note, figures;  // empty: left out
  };
  // One strip of the all-passes figures: its label and the values it bins.
  struct Strip {
    QString label;
    qreal label_h = 0;
    const std::vector<std::uint64_t>* sorted = nullptr;
    std::optional<std::uint64_t> shown;
  };
  struct Figures {
    QString heading;
    qreal heading_h = 0, plot_h = 0, height = 0;
    std::vector<Strip> strips;
  };

  static QString cycles(std::uint64_t c, double mhz);
  void place_picker();
  QString block_title(const BarrierFrame& f) const;
  QString slowest_text(const BarrierFrame& f) const;
  QString caption_text(const BarrierFrame& f) const;
  QString note_text(const BarrierFrame& f) const;
  Layout layout(const BarrierFrame& f) const;
  void place_columns(Layout& l, const BarrierFrame& f) const;
  void draw_heading_rows(QPainter& p, const Layout& l, const BarrierFrame& f);
  void draw_lanes(QPainter& p, const Layout& l, const BarrierFrame& f);
  Figures figures(const BarrierFrame& f, qreal width) const;
  void draw_figures(QPainter& p, const QRectF& area, const BarrierFrame& f);
  void draw_strip(QPainter& p, const QRectF& area, const Strip& s, bool timed);
  // The chosen problem where it is a divergent barrier (else nullptr), and
  // which of the block's passes is its barrier.
  const analysis::Problem* divergent() const;
  std::optional<std::size_t> divergent_pass(std::uint32_t block) const;
  // The lanes top to bottom, by warp: those that arrived (frame().lanes)
  // and those that never did (frame().never_arrived).
  struct Row {
    std::uint16_t warp = 0;
    const BarrierLane* lane = nullptr;  // nullptr: never arrived
  };
  static std::vector<Row> rows(const BarrierFrame& f);
  QString never_arrived_text(const BarrierFrame& f) const;
  std::optional<BarrierModel> model_;
  BarrierFrame frame_;
  QSpinBox* pass_;
  std::uint32_t shown_block_ = 0xffffffffu;
};

}  // namespace threadmap::views
