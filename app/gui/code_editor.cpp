#include "app/gui/code_editor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include "app/gui/source_highlighter.h"

namespace threadmap::gui {

namespace {

class Gutter : public QWidget {
 public:
  explicit Gutter(CodeEditor* editor) : QWidget(editor), editor_(editor) {}
  QSize sizeHint() const override { return {editor_->gutter_width(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { editor_->paint_gutter(event); }

 private:
  CodeEditor* editor_;
};

const QColor kErrorColour(0xD5, 0x5E, 0x00);    // Okabe-Ito vermillion
const QColor kWarningColour(0xE6, 0x9F, 0x00);  // Okabe-Ito orange

}  // namespace

CodeEditor::CodeEditor(QWidget* parent) : QPlainTextEdit(parent), gutter_(new Gutter(this)) {
  setObjectName("codeEditor");
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(font().pointSizeF());
  setFont(mono);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabStopDistance(fontMetrics().horizontalAdvance(' ') * 2);
  highlighter_ = new SourceHighlighter(document());
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutter_width(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
    if (dy != 0) gutter_->scroll(0, dy);
    else gutter_->update(0, rect.y(), gutter_->width(), rect.height());
  });
  // An edit makes the marks stale (their lines may have moved): they go, and
  // the list under the editor keeps the compiler's words until the next compile.
  connect(this, &QPlainTextEdit::textChanged, this, [this] {
    if (!marks_.empty()) set_marks({});
  });
  setViewportMargins(gutter_width(), 0, 0, 0);
}

int CodeEditor::gutter_width() const {
  const int digits = QString::number(std::max(1, blockCount())).size();
  return 10 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits) + fontMetrics().height() / 2;
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect r = contentsRect();
  gutter_->setGeometry(QRect(r.left(), r.top(), gutter_width(), r.height()));
}

void CodeEditor::paint_gutter(QPaintEvent* event) {
  QPainter painter(gutter_);
  painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  int bottom = top + qRound(blockBoundingRect(block).height());
  const int marker = fontMetrics().height() / 2;
  while (block.isValid() && top <= event->rect().bottom()) {
    if (block.isVisible() && bottom >= event->rect().top()) {
      const int line = block.blockNumber() + 1;
      bool error = false, warning = false;
      for (const Mark& m : marks_)
        if (m.line == line) (m.error ? error : warning) = true;
      if (error || warning) {
        painter.setBrush(error ? kErrorColour : kWarningColour);
        painter.setPen(Qt::NoPen);
        painter.drawEllipse(QRect(3, top + (fontMetrics().height() - marker) / 2, marker, marker));
      }
      painter.setPen(error ? kErrorColour : palette().color(QPalette::PlaceholderText));
      painter.drawText(0, top, gutter_->width() - 4, fontMetrics().height(), Qt::AlignRight, QString::number(line));
    }
    block = block.next();
    top = bottom;
    bottom = top + qRound(blockBoundingRect(block).height());
  }
}

void CodeEditor::set_marks(const std::vector<Mark>& marks) {
  marks_ = marks;
  update_selections();
  gutter_->update();
}

QString CodeEditor::message_at(int line) const {
  QStringList texts;
  for (const Mark& m : marks_)
    if (m.line == line) texts << m.message;
  return texts.join('\n');
}

void CodeEditor::update_selections() {
  QList<QTextEdit::ExtraSelection> selections;
  for (const Mark& m : marks_) {
    const QTextBlock block = document()->findBlockByNumber(m.line - 1);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(block);
    if (m.column > 0 && m.column <= block.length()) {
      // From the column to the end of the word there.
      s.cursor.setPosition(block.position() + m.column - 1);
      s.cursor.movePosition(QTextCursor::EndOfWord, QTextCursor::KeepAnchor);
      if (!s.cursor.hasSelection()) s.cursor.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor);
    } else {
      s.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    }
    s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    s.format.setUnderlineColor(m.error ? kErrorColour : kWarningColour);
    s.format.setToolTip(m.message);
    selections << s;
    QTextEdit::ExtraSelection line;
    line.cursor = QTextCursor(block);
    line.format.setProperty(QTextFormat::FullWidthSelection, true);
    QColor tint = m.error ? kErrorColour : kWarningColour;
    tint.setAlpha(40);
    line.format.setBackground(tint);
    selections << line;
  }
  setExtraSelections(selections);
}

void CodeEditor::go_to_line(int line, int column) {
  const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
  if (!block.isValid()) return;
  QTextCursor c(block);
  if (column > 0) c.setPosition(block.position() + std::min(column - 1, block.length() - 1));
  setTextCursor(c);
  centerCursor();
  setFocus();
}

void CodeEditor::replace_text(const QString& text) {
  QTextCursor c(document());
  c.beginEditBlock();
  c.select(QTextCursor::Document);
  c.insertText(text);
  c.endEditBlock();
  moveCursor(QTextCursor::Start);
}

// A marked line's tooltip is its message, over the line numbers too.
bool CodeEditor::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint in_viewport = viewport()->mapFrom(this, help->pos());
    const int line = cursorForPosition(in_viewport).blockNumber() + 1;
    const QString text = message_at(line);
    if (!text.isEmpty()) {
      QToolTip::showText(help->globalPos(), text, this);
      return true;
    }
    QToolTip::hideText();
  }
  return QPlainTextEdit::event(event);
}

}  // namespace threadmap::gui
