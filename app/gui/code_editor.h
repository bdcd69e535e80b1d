#pragma once
// The exercise editor's text: a monospaced QPlainTextEdit with line numbers,
// C colouring (SourceHighlighter), undo, and the compiler's messages marked
// at their lines: a wavy underline, a marker in the line numbers, and the
// message as the line's tooltip, until the text is edited.
#include <QPlainTextEdit>

#include <map>

namespace threadmap::gui {

class SourceHighlighter;

class CodeEditor : public QPlainTextEdit {
  Q_OBJECT
 public:
  struct Mark {
    int line = 0;       // 1-based
    int column = 0;     // 1-based; 0: the whole line
    bool error = true;  // else a warning
    QString message;
  };

  explicit CodeEditor(QWidget* parent = nullptr);

  // Replaces the marks (none: clears them).
  void set_marks(const std::vector<Mark>& marks);
  const std::vector<Mark>& marks() const { return marks_; }
  // The text the marks of `line` say, joined; empty when it has none.
  QString message_at(int line) const;
  // Puts the cursor at the start of `line` (1-based) and shows it.
  void go_to_line(int line, int column = 0);
  // Replaces the whole text as one undoable edit (Reset keeps Ctrl+Z).
  void replace_text(const QString& text);

  int gutter_width() const;
  void paint_gutter(QPaintEvent* event);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void update_selections();

  QWidget* gutter_;
  SourceHighlighter* highlighter_;
  std::vector<Mark> marks_;
};

}  // namespace threadmap::gui
