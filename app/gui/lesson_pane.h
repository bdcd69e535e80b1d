#pragma once
// The lesson text (embedded markdown, scrolled to the variant's section)
// beside the kernel source the device runs.
#include <QSplitter>

#include "kernels/catalog.h"

class QTextBrowser;
class QPlainTextEdit;

namespace threadmap::gui {

class LessonPane : public QSplitter {
  Q_OBJECT
 public:
  explicit LessonPane(QWidget* parent = nullptr);
  // backend: "cuda" shows the .cu text, anything else the .cl text.
  void show_variant(const Variant& variant, const std::string& backend);
  QString lesson_text() const;
  QString source_text() const;

 private:
  QTextBrowser* lesson_;
  QPlainTextEdit* source_;
  QString shown_lesson_;
};

}  // namespace threadmap::gui
