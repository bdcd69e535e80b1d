#include "viz/views/source_pane.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <algorithm>
#include <QTextBlock>

#include "viz/views/theme.h"

namespace threadmap::views {

SourcePane::SourcePane(QWidget* parent) : QPlainTextEdit(parent), colour_(okabe_ito::kYellow) {
  setReadOnly(true);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setFocusPolicy(Qt::NoFocus);
}

void SourcePane::set_source(const QString& file_name, const QString& text) {
  setDocumentTitle(file_name);
  // Line numbers in the margin so "line 85" can be found by eye.
  QStringList lines = text.split('\n');
  for (int i = 0; i < lines.size(); ++i) lines[i] = QString("%1  %2").arg(i + 1, 4).arg(lines[i]);
  setPlainText(lines.join('\n'));
  line_ = 0;
  problem_lines_.clear();
  setExtraSelections({});
}

void SourcePane::set_problem_lines(std::vector<int> lines, const QColor& colour) {
  problem_lines_ = std::move(lines);
  problem_colour_ = colour;
  highlight_line(line_);
}

void SourcePane::set_highlight_colour(const QColor& colour) {
  colour_ = colour;
  highlight_line(line_);
}

void SourcePane::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  if (line_ > 0) highlight_line(line_);
}

void SourcePane::highlight_line(int line) {
  line_ = line;
  // The problem's lines first: the current line's tint goes over theirs,
  // their bold text in the problem colour stays.
  QList<QTextEdit::ExtraSelection> selections;
  for (const int l : problem_lines_) {
    if (l <= 0 || l > document()->blockCount()) continue;
    QTextEdit::ExtraSelection s;
    QColor tint = problem_colour_;
    tint.setAlpha(45);
    s.format.setBackground(tint);
    s.format.setForeground(problem_colour_);
    s.format.setFontWeight(QFont::Bold);
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    s.cursor = QTextCursor(document()->findBlockByNumber(l - 1));
    s.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    selections << s;
  }
  if (line <= 0 || line > document()->blockCount()) {
    setExtraSelections(selections);
    return;
  }
  QTextEdit::ExtraSelection selection;
  selection.format.setBackground(colour_);
  selection.format.setProperty(QTextFormat::FullWidthSelection, true);
  selection.cursor = QTextCursor(document()->findBlockByNumber(line - 1));
  selections << selection;
  setExtraSelections(selections);
  setTextCursor(selection.cursor);
  if (viewport()->height() < 3 * fontMetrics().lineSpacing()) {
    // A strip of two lines: the highlighted line at its top. The scroll bar
    // counts wrapped lines, at least one a source line: start at the line's
    // own number and step on until its top is the strip's.
    QScrollBar& bar = *verticalScrollBar();
    bar.setValue(std::min(line - 1, bar.maximum()));
    while (cursorRect(selection.cursor).top() > 2 && bar.value() < bar.maximum()) bar.setValue(bar.value() + 1);
  } else {
    centerCursor();
  }
}

}  // namespace threadmap::views
