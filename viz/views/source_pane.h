#pragma once
// The kernel source the trace's line numbers refer to (embedded in the
// binary), with the current access site's line highlighted.
#include <QPlainTextEdit>
#include <vector>

namespace threadmap::views {

class SourcePane : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit SourcePane(QWidget* parent = nullptr);
  void set_source(const QString& file_name, const QString& text);
  void highlight_line(int line);  // 1-based; 0 clears
  int highlighted_line() const { return line_; }
  void set_highlight_colour(const QColor& colour);
  // The chosen problem's lines (docs/gui.md, "Problems"): bold in the
  // problem colour on a pale tint, kept while the current line moves; {} clears.
  void set_problem_lines(std::vector<int> lines, const QColor& colour);
  const std::vector<int>& problem_lines() const { return problem_lines_; }

 protected:
  // A new size (a presentation's strip) scrolls the line into place again.
  void resizeEvent(QResizeEvent* event) override;

 private:
  int line_ = 0;
  QColor colour_;
  std::vector<int> problem_lines_;
  QColor problem_colour_;
};

}  // namespace threadmap::views
