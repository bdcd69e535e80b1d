#pragma once
// Simple colouring of OpenCL C and CUDA text: keywords, qualifiers, comments,
// preprocessor lines, numbers.
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace threadmap::gui {

class SourceHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  explicit SourceHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
};

}  // namespace threadmap::gui
