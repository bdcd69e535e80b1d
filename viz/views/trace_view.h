#pragma once
// What every trace view has in common: the document it draws, the playback
// step (a request index) with how far its animation has run, and the theme.
// Subclasses rebuild their plain model frame on a change and paint it.
#include <QWidget>
#include <functional>
#include <memory>

#include "viz/analysis/document.h"
#include "viz/views/theme.h"

class QPainter;

namespace threadmap::views {

class TraceView : public QWidget {
  Q_OBJECT
 public:
  explicit TraceView(QWidget* parent = nullptr);

  void set_document(std::shared_ptr<const analysis::TraceDocument> doc);
  // phase in [0, 1]: 1 is the request fully served (what a paused view shows).
  void set_step(std::size_t step, double phase);
  void set_theme(const Theme& theme);
  const Theme& theme() const { return theme_; }
  std::size_t step() const { return step_; }
  double phase() const { return phase_; }
  // "load", "store", or "store (4 merged by the compiler into one 16-byte
  // access)" where the compiler merged the source's accesses.
  static QString access_kind(bool store, int merged, int access_bytes);

 protected:
  virtual void document_changed() = 0;  // build the model
  virtual void step_changed() = 0;      // build the frame
  void paintEvent(QPaintEvent*) override;
  virtual void paint(QPainter& p) = 0;
  // A header line (bold) and a second line; returns the y below them. The
  // second line's font shrinks (to 3/4 at most) until `keep`, its beginning
  // that must be read whole, fits; what is past it may be elided.
  int draw_heading(QPainter& p, const QString& title, const QString& detail, const QString& keep = {}) const;
  // One line of detail at `at` in the painter's font, shrunk (to 3/4 at
  // most) until `keep`, its beginning that must be read whole, fits; past it
  // the line is elided. With may_wrap, a `keep` too wide even then is drawn
  // alone on two lines. Returns the height used.
  int draw_detail(QPainter& p, QPoint at, int width, const QString& detail, const QString& keep,
                  bool may_wrap) const;
  void draw_centred_note(QPainter& p, const QString& text) const;
  // Shrinks the painter's font, down to min_scale of its size, until `text`
  // fits `width` (a longer translation keeps the line whole where it can).
  static void fit_font(QPainter& p, const QString& text, qreal width, qreal min_scale = 0.75);
  // A time axis from x0 to x1 at height y over [0, end]: five ticks (whole
  // numbers when not `timed`: orders and ranks), each labelled by `label_of`,
  // and `caption` under the labels; text rows are `text_h` high.
  void draw_time_axis(QPainter& p, qreal x0, qreal x1, qreal y, qreal text_h, double end,
                      bool timed, const std::function<QString(double)>& label_of,
                      const QString& caption) const;

  std::shared_ptr<const analysis::TraceDocument> doc_;
  std::size_t step_ = 0;
  double phase_ = 1.0;
  Theme theme_ = Theme::standard();
};

}  // namespace threadmap::views
