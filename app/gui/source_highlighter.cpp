#include "app/gui/source_highlighter.h"

namespace threadmap::gui {

namespace {

QTextCharFormat char_format(const QColor& colour, bool bold = false) {
  QTextCharFormat f;
  f.setForeground(colour);
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

}  // namespace

SourceHighlighter::SourceHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
  const QString keywords =
      "\\b(if|else|for|while|do|return|const|static|extern|template|typename|struct|void|int|"
      "unsigned|float|double|long|short|char|bool|size_t|ushort|uint|auto|inline|sizeof)\\b";
  const QString gpu =
      "(__kernel|__global__|__global|__local|__shared__|__device__|__constant|__restrict__|"
      "restrict|__syncthreads|barrier|CLK_LOCAL_MEM_FENCE|CLK_GLOBAL_MEM_FENCE|"
      "get_global_id|get_local_id|get_group_id|get_local_size|get_num_groups|get_global_size|"
      "threadIdx|blockIdx|blockDim|gridDim|__shfl_down_sync|sub_group_shuffle_down)\\b";
  rules_.push_back({QRegularExpression(keywords), char_format(QColor(0, 0, 160), true)});
  rules_.push_back({QRegularExpression(gpu), char_format(QColor(150, 0, 120), true)});
  rules_.push_back({QRegularExpression("\\b[0-9]+(\\.[0-9]+)?[fuU]?\\b"), char_format(QColor(160, 80, 0))});
  rules_.push_back({QRegularExpression("^\\s*#.*$"), char_format(QColor(0, 110, 0))});
  comment_ = char_format(QColor(110, 110, 110));
  comment_.setFontItalic(true);
  rules_.push_back({QRegularExpression("//.*$"), comment_});
}

void SourceHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : rules_)
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      const auto match = it.next();
      setFormat(static_cast<int>(match.capturedStart()), static_cast<int>(match.capturedLength()), rule.format);
    }
  // Block comments may span lines: state 1 means "inside /* */".
  setCurrentBlockState(0);
  qsizetype start = previousBlockState() == 1 ? 0 : text.indexOf("/*");
  while (start >= 0) {
    const qsizetype end = text.indexOf("*/", start);
    const qsizetype length = end < 0 ? text.length() - start : end - start + 2;
    if (end < 0) setCurrentBlockState(1);
    setFormat(static_cast<int>(start), static_cast<int>(length), comment_);
    start = end < 0 ? -1 : text.indexOf("/*", start + length);
  }
}

}  // namespace threadmap::gui
