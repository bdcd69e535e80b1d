#pragma once
// The lesson text (markdown, scrolled to the variant's section) beside the
// kernel source the device runs. The lesson is shown in the interface's
// language: its original, or the translation beside it (the built-in
// lessons' lessons/<stem>.<code>.txt, a pack's STEM.<code>.md); a button
// brings the original back in one click.
#include <QSplitter>
#include <QTextDocument>

#include <optional>

#include "kernels/pack/catalog.h"

class QTextBrowser;
class QPlainTextEdit;
class QToolButton;

namespace threadmap::gui {

class LessonPane : public QSplitter {
  Q_OBJECT
 public:
  explicit LessonPane(QWidget* parent = nullptr);
  // The variant's text in `dialect` (a pack's in another where it has none).
  void show_variant(const Variant& variant, threadmap::Dialect dialect);
  QString lesson_text() const;
  QString source_text() const;
  // The resource shown (":/lessons/003_….pt_BR.txt" or the original's path).
  QString lesson_resource() const { return shown_resource_; }
  // The button that switches between the translation and the original.
  QToolButton& original_button() { return *original_; }

  // The language code ("en", "pt_BR", "es") a lesson is written in, from the lesson's language ("pt" read as "pt_BR").
  static QString original_language(const LessonRef& lesson);
  // The resource holding `lesson` in `code`: the original when that is its language,
  // else its bundled translation; empty when there is none. A pack's lesson
  // is named "pack:FILE:CODE" (its texts came with the pack).
  static QString resource_for(const LessonRef& lesson, const QString& code);
  // The text of one of the lesson's resources; empty when it cannot be read.
  static QString lesson_text(const LessonRef& lesson, const QString& resource);
  // The lesson's section (named as in the original) as the `code` version
  // titles it: the heading at the same place; the original's name when there
  // is no such version or heading.
  static QString section_title(const LessonRef& lesson, const QString& code);
  // A lesson's markdown into `doc`, as the pane shows it: GitHub's dialect
  // without raw HTML, so a code cell's `#include <iostream>` or a launch's
  // `<<<grid, block>>>` stays text instead of opening an element that
  // swallows what follows (a section heading with it).
  static void set_lesson_markdown(QTextDocument& doc, const QString& text);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void show_lesson();
  void show_pack_kernel(const Variant& variant);

  QTextBrowser* lesson_;
  QPlainTextEdit* source_;
  QToolButton* original_;
  std::optional<LessonRef> lesson_ref_;
  QString shown_resource_;
};

}  // namespace threadmap::gui
