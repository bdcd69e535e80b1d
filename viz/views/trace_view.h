#pragma once
// What every trace view has in common: the document it draws, the playback
// step (a request index) with how far its animation has run, and the theme.
// Subclasses rebuild their plain model frame on a change and paint it.
//
// Every text a view paints goes through text(), which fits it to its box
// (shrink to the theme's floor, then wrap, elide or leave it out, by what
// the text is) and records where it went; every cell, lane or bar is
// recorded by mark(). The legibility test reads the record (painted()).
#include <QRectF>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/analysis/document.h"
#include "viz/views/problem_focus.h"
#include "viz/views/theme.h"

class QPainter;

namespace threadmap::views {

// What the last paint drew.
struct PaintedText {
  QRectF rect;  // where the text's glyphs are
  QRectF box;   // the box it was given (drawn clipped to it)
  QString text;
  int pixel_size = 0;
  bool must_be_whole = false;  // a figure or heading: never elided
  bool elided = false;
  bool label = false;  // a label on a mark (a lane's number in its box)
};
struct PaintedMark {
  QRectF rect;
  bool current = false;  // drawn for the current step's request
  // Drawn for the chosen problem (ProblemFocus): a thread's lane or swatch
  // (`thread`), or the word they touch (thread -1).
  bool problem = false;
  int thread = -1;
};
struct PaintRecord {
  std::vector<PaintedText> texts;
  std::vector<PaintedMark> marks;
};

class TraceView : public QWidget {
  Q_OBJECT
 public:
  explicit TraceView(QWidget* parent = nullptr);

  void set_document(std::shared_ptr<const analysis::TraceDocument> doc);
  // phase in [0, 1]: 1 is the request fully served (what a paused view shows).
  void set_step(std::size_t step, double phase);
  void set_theme(const Theme& theme);
  const Theme& theme() const { return theme_; }
  // The problem chosen in the Problems list, drawn where the view shows one
  // of its sites' requests (nullopt: none). A new document clears it.
  void set_problem(std::optional<ProblemFocus> focus);
  const std::optional<ProblemFocus>& problem() const { return problem_; }
  std::size_t step() const { return step_; }
  double phase() const { return phase_; }
  // "load", "store", or "store (4 merged by the compiler into one 16-byte
  // access)" where the compiler merged the source's accesses.
  static QString access_kind(bool store, int merged, int access_bytes, AtomicOp atomic = AtomicOp::None);
  static QString atomic_kind();  // "atomic": a site of atomics, whatever their operation
  const PaintRecord& painted() const { return painted_; }

 protected:
  virtual void document_changed() = 0;  // build the model
  virtual void step_changed() = 0;      // build the frame
  virtual void problem_changed() {}     // the chosen problem changed (a view whose frame shows it)
  void paintEvent(QPaintEvent*) override;
  virtual void paint(QPainter& p) = 0;

  // How a text may be fitted to its box when it is too wide at the
  // painter's font: every kind first shrinks, down to the theme's floor.
  enum class Fit {
    Whole,  // then wraps onto the lines the box has; never elided
    Elide,  // then elided (a source line echoed from the source pane)
    Label,  // never shrinks: left out whole when it does not fit its box
            // or would overlap a text already drawn (tick labels, numbers)
  };
  // Draws `s` in `box` with the painter's pen and font (left as they were)
  // and records it; returns where its glyphs went (empty: left out).
  QRectF text(QPainter& p, const QRectF& box, int align, const QString& s, Fit fit = Fit::Whole);
  // Records a cell, lane or bar the caller painted.
  void mark(const QRectF& rect, bool current = false) { painted_.marks.push_back({rect, current}); }
  // Records a mark drawn for the chosen problem: thread -1 is the word.
  void mark_problem(const QRectF& rect, int thread) { painted_.marks.push_back({rect, false, true, thread}); }
  // The height of n lines of the painter's font.
  static qreal lines(const QPainter& p, qreal n);
  // The height text() gives `s` as Fit::Whole in `width` at `font`: one
  // line once shrunk (down to the theme's floor), else the lines it wraps
  // onto (two at least). Views measure their rows with it before painting.
  qreal whole_height(const QFont& font, qreal width, const QString& s) const;

  // The view's title, bold, on one line at the top (elided: the tab names
  // the view too); returns the y below it.
  int draw_title(QPainter& p, const QString& title);
  // A header line (bold) and a second line; returns the y below them. The
  // second line must be read whole up to `keep`, its beginning; what is past
  // it may be elided.
  int draw_heading(QPainter& p, const QString& title, const QString& detail, const QString& keep = {});
  // One line of detail at `at` in the painter's font, shrunk until `keep`,
  // its beginning that must be read whole, fits; past it the line is
  // elided. With may_wrap, a `keep` too wide even then is drawn alone on two
  // lines. Returns the height used.
  int draw_detail(QPainter& p, QPoint at, int width, const QString& detail, const QString& keep, bool may_wrap);
  void draw_centred_note(QPainter& p, const QString& text);
  // A note in the muted body font from `y` down, wrapped across the view;
  // left out whole when it does not fit above the bottom margin.
  void draw_note_below(QPainter& p, qreal y, const QString& note);
  // Shrinks the painter's font, down to the theme's floor, until `text` fits
  // `width` (a longer translation keeps the line whole where it can).
  void fit_font(QPainter& p, const QString& text, qreal width) const;
  // A time axis from x0 to x1 at height y over [0, end]: five ticks (whole
  // numbers when not `timed`: orders and ranks), each labelled by `label_of`,
  // and `caption` under the labels; text rows are `text_h` high.
  void draw_time_axis(QPainter& p, qreal x0, qreal x1, qreal y, qreal text_h, double end, bool timed,
                      const std::function<QString(double)>& label_of, const QString& caption);

  // An access of the chosen problem outside the picture (a matrix, the
  // bank grid): an arrow off the picture's edge to a hatched cell for it,
  // in `fill`, then `place` (where it went) and `who` (the threads) named.
  // Wording 0: the cell, both lines under it; 1: the arrow pointing at
  // `place_short` alone; 2: nothing (the Problems list names it).
  struct OutsideMark {
    QString place, who;
    QString place_short;  // wording 1's, where shorter ("" : `place`)
    bool up = false;      // before the picture's start: drawn over it, the arrow up
    bool arrow = true;    // false: the place named only (the word is in the picture)
    bool dashed = false;  // rows or cells left out between the edge and it
    QColor fill;
    std::vector<int> threads;  // marked on the cell (-1: the word)
  };
  static constexpr int kOutsideWordings = 3;
  qreal outside_height(const OutsideMark& m, qreal width, int wording) const;
  // Draws it in `band` (as high as outside_height), the arrow from the
  // picture's edge at `edge_y` under (or over) x.
  void draw_outside(QPainter& p, const OutsideMark& m, const QRectF& band, qreal x, qreal edge_y, int wording);

  std::shared_ptr<const analysis::TraceDocument> doc_;
  std::size_t step_ = 0;
  double phase_ = 1.0;
  Theme theme_ = Theme::standard();
  std::optional<ProblemFocus> problem_;

 private:
  PaintRecord painted_;
};

}  // namespace threadmap::views
