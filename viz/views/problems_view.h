#pragma once
// The Problems list: what kernels/analysis/problems.h found in the trace, one row
// a problem, as a compiler's problems pane lists errors: its kind, then a
// sentence a learner reads ("thread 32 writes tile[1][0] (line 7), then
// thread 1 reads it (line 8) in the same barrier interval"), the block and
// how many like it. Choosing a row (click, Up/Down, Enter) sends
// problem_chosen with the site to step to: the first access, or, choosing
// the chosen row again, the other one. A TraceView, so its texts go through
// the legibility door like every view's.
#include <optional>
#include <vector>

#include "viz/views/trace_view.h"

namespace threadmap::views {

class ProblemsView : public TraceView {
  Q_OBJECT
 public:
  explicit ProblemsView(QWidget* parent = nullptr);

  std::size_t count() const;
  std::optional<std::size_t> chosen() const { return chosen_; }
  int chosen_site() const { return site_; }
  // The height the list wants at its width: its heading and up to `rows`
  // problems (one in a presentation, where it has no heading).
  int preferred_height() const;
  // Takes the preferred height (after a new document, theme or language).
  void fit_height();

  // The texts of a problem, as the list and the views say it.
  static QString kind_text(analysis::ProblemKind kind);
  static QString thread_text(const Trace& trace, std::uint16_t thread);
  // "tile[1][0]", "shared offset 64", "out + 16384 bytes (the buffer holds 16384)".
  static QString address_text(const analysis::TraceDocument& doc, const ProblemFocus& focus);
  static QString sentence(const analysis::TraceDocument& doc, const ProblemFocus& focus);

 public slots:
  // Chooses problem `index` at `site` (0: its first access, 1: the other);
  // without one, choosing the chosen problem again goes to its other site.
  void choose(std::size_t index, std::optional<int> site = std::nullopt);
  void clear_choice();

 signals:
  void problem_chosen(std::size_t index, int site);

 protected:
  void document_changed() override;
  void step_changed() override {}
  void paint(QPainter& p) override;
  void mousePressEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  struct Row {
    QString kind, text;
  };
  Row row(std::size_t index) const;
  int margin() const { return theme_.font_px / 2 + 4; }
  std::size_t rows_wanted() const { return theme_.presentation ? 1 : 3; }
  qreal kind_width(const QFont& bold) const;
  qreal row_height(std::size_t index, const QFont& body, const QFont& bold, qreal width) const;
  QString empty_text() const;

  std::vector<ProblemFocus> foci_;  // each problem's, computed once per document
  std::optional<std::size_t> chosen_;
  int site_ = 0;
  std::size_t first_ = 0;                                  // the first row drawn
  std::vector<std::pair<QRectF, std::size_t>> row_rects_;  // from the last paint
};

}  // namespace threadmap::views
