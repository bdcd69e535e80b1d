#include "app/gui/lesson_pane.h"

#include <QEvent>
#include <QFile>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/gui/language.h"
#include "app/gui/source_highlighter.h"
#include "kernels/core/sources.h"

// The lessons live in a static library's resources, which the linker drops
// unless something names them.
static void init_lesson_resources() { Q_INIT_RESOURCE(lessons); }

namespace threadmap::gui {

namespace {

void scroll_to(QTextEdit& view, const QTextCursor& found) {
  if (found.isNull()) return;
  // Put the match's first line at the top rather than wherever
  // ensureCursorVisible stops (a heading may wrap onto two lines), then select it.
  view.moveCursor(QTextCursor::End);
  QTextCursor start = found;
  start.setPosition(found.selectionStart());
  view.setTextCursor(start);
  view.setTextCursor(found);
}

QString read_resource(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// How many headings lie at or before `block`: translations keep the
// original's headings in order, so the n-th heading is the same section.
int heading_ordinal(const QTextBlock& block) {
  int n = 0;
  for (QTextBlock b = block.document()->begin(); b.isValid(); b = b.next()) {
    if (b.blockFormat().headingLevel() > 0) ++n;
    if (b == block) break;
  }
  return n;
}

QTextCursor nth_heading(QTextDocument& doc, int n) {
  for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
    if (b.blockFormat().headingLevel() > 0 && --n == 0) {
      QTextCursor heading(b);  // selected, as find() selects the section in the original
      heading.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
      return heading;
    }
  return {};
}

// The kernel's definition: its __global__ or __kernel line, not the first
// mention of its name (a comment naming it comes before it in smem.cl).
// Failing that (a qualifier on the line before), the first call-like mention.
QTextCursor kernel_definition(QTextDocument& source, const QString& kernel) {
  const QString name = QRegularExpression::escape(kernel);
  const QTextCursor definition =
      source.find(QRegularExpression("\\b(__global__|__kernel)\\b[^;{}()]*\\b" + name + "\\s*\\("));
  return definition.isNull() ? source.find(QRegularExpression("\\b" + name + "\\s*\\(")) : definition;
}

}  // namespace

QString LessonPane::original_language(const LessonRef& lesson) {
  if (lesson.language == "pt" || lesson.language == "pt_BR") return "pt_BR";
  if (lesson.language == "es") return "es";
  return "en";
}

QString LessonPane::resource_for(const LessonRef& lesson, const QString& code) {
  const QString file = QString::fromStdString(lesson.file);
  if (lesson.texts)  // a pack's lesson: the texts it brought
    return lesson.texts->count(code.toStdString()) ? QString("pack:%1:%2").arg(file, code) : QString();
  if (code == original_language(lesson)) return ":/lessons/" + file;
  QString stem = file;
  stem.chop(file.endsWith(".txt") ? 4 : 0);
  const QString path = QString(":/lessons/%1.%2.txt").arg(stem, code);
  return QFile::exists(path) ? path : QString();
}

QString LessonPane::lesson_text(const LessonRef& lesson, const QString& resource) {
  if (!lesson.texts || !resource.startsWith("pack:")) return read_resource(resource);
  const auto text = lesson.texts->find(resource.section(':', -1).toStdString());
  return text == lesson.texts->end() ? QString() : QString::fromStdString(text->second);
}

void LessonPane::set_lesson_markdown(QTextDocument& doc, const QString& text) {
  doc.setMarkdown(text, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub |
                                                        QTextDocument::MarkdownNoHTML));
}

QString LessonPane::section_title(const LessonRef& lesson, const QString& code) {
  init_lesson_resources();
  const QString section = QString::fromStdString(lesson.section);
  const QString path = resource_for(lesson, code);
  if (path.isEmpty() || code == original_language(lesson)) return section;
  QTextDocument original, translated;
  set_lesson_markdown(original, lesson_text(lesson, resource_for(lesson, original_language(lesson))));
  set_lesson_markdown(translated, lesson_text(lesson, path));
  const QTextCursor found = original.find(section);
  if (found.isNull() || found.block().blockFormat().headingLevel() == 0) return section;
  const QTextCursor heading = nth_heading(translated, heading_ordinal(found.block()));
  return heading.isNull() ? section : heading.block().text();
}

LessonPane::LessonPane(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {
  init_lesson_resources();
  auto* lesson_column = new QWidget(this);
  auto* column = new QVBoxLayout(lesson_column);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  original_ = new QToolButton(lesson_column);
  original_->setObjectName("lessonOriginal");
  original_->setCheckable(true);
  original_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  original_->hide();
  connect(original_, &QToolButton::toggled, this, [this] { show_lesson(); });
  column->addWidget(original_, 0, Qt::AlignRight);
  lesson_ = new QTextBrowser(lesson_column);
  lesson_->setObjectName("lessonText");
  lesson_->setOpenExternalLinks(false);
  column->addWidget(lesson_, 1);
  source_ = new QPlainTextEdit(this);
  source_->setObjectName("kernelSource");
  source_->setReadOnly(true);
  source_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSize(font().pointSize());
  source_->setFont(mono);
  new SourceHighlighter(source_->document());
  addWidget(lesson_column);
  addWidget(source_);
  setStretchFactor(0, 1);
  setStretchFactor(1, 1);
}

void LessonPane::changeEvent(QEvent* event) {
  QSplitter::changeEvent(event);
  if (event->type() == QEvent::LanguageChange && lesson_ref_) {
    original_->setChecked(false);  // a new language: its translation first
    show_lesson();
  }
}

// The lesson in the interface's language (or its original when asked or
// when no translation is bundled), scrolled to the variant's section.
void LessonPane::show_lesson() {
  const LessonRef& ref = *lesson_ref_;
  const QString original_code = original_language(ref);
  const QString original = resource_for(ref, original_code);
  const QString translated = resource_for(ref, language::current());
  const bool has_translation = !translated.isEmpty() && translated != original;
  original_->setVisible(has_translation);
  original_->setText(tr("Original (%1)").arg(language::native_name(original_code)));
  original_->setToolTip(original_->isChecked() ? tr("Show the lesson in the interface's language again")
                                               : tr("Show the lesson as it was written"));
  const QString resource = has_translation && !original_->isChecked() ? translated : original;
  // A pack's lesson is read again each time: another pack's may have the
  // same file name, and a reloaded pack brings its edited text.
  if (resource != shown_resource_ || ref.texts) {
    const QString text = lesson_text(ref, resource);
    if (text.isEmpty())
      lesson_->setPlainText(tr("The lesson %1 is not bundled with this build.").arg(QString::fromStdString(ref.file)));
    else set_lesson_markdown(*lesson_->document(), text);
    shown_resource_ = resource;
  }
  // The section is named as the original names it; in a translation, the
  // same-numbered heading.
  const QString section = QString::fromStdString(ref.section);
  if (resource == original) {
    scroll_to(*lesson_, lesson_->document()->find(section));
    return;
  }
  QTextDocument source_doc;
  set_lesson_markdown(source_doc, lesson_text(ref, original));
  const QTextCursor in_original = source_doc.find(section);
  if (!in_original.isNull())
    scroll_to(*lesson_, nth_heading(*lesson_->document(), heading_ordinal(in_original.block())));
}

// A kernel with no lesson (a pack's): its title and summary, and its pack.
void LessonPane::show_pack_kernel(const Variant& variant) {
  lesson_ref_.reset();
  shown_resource_.clear();
  original_->setVisible(false);
  lesson_->setMarkdown(
      QString("## %1\n\n%2\n\n%3")
          .arg(QString::fromStdString(variant.title), QString::fromStdString(variant.summary),
               tr("From the pack %1; it brings no lesson text.").arg(QString::fromStdString(variant.pack))));
}

void LessonPane::show_variant(const Variant& variant, Dialect dialect) {
  {
    const QSignalBlocker quiet(original_);
    // Another lesson opens in the interface's language.
    if (!lesson_ref_ || lesson_ref_->file != variant.lesson.file) original_->setChecked(false);
  }
  if (variant.lesson.file.empty()) {
    show_pack_kernel(variant);
  } else {
    lesson_ref_ = variant.lesson;
    show_lesson();
  }

  // A kernel written in other dialects than the device's (the coalescing
  // lesson's simd loops are OpenMP alone): its own first.
  if (!variant.written_in(dialect)) dialect = variant.dialects.front();
  // A pack's kernel: its own file in the device's dialect, else its other one.
  const Variant::KernelText* own = pack_text(variant, dialect);
  if (!own && !variant.texts.empty()) own = &variant.texts.begin()->second;
  const std::string name = own ? own->file : source_file_for(variant, dialect);
  const std::string_view text = own ? std::string_view(own->text) : embedded_source(name);
  source_->setPlainText(text.empty() ? tr("No embedded source named %1.").arg(QString::fromStdString(name))
                                     : QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
  const QTextCursor found = kernel_definition(*source_->document(), QString::fromStdString(variant.kernel));
  if (!found.isNull()) {
    source_->moveCursor(QTextCursor::End);
    source_->setTextCursor(found);
    source_->centerCursor();
  }
}

QString LessonPane::lesson_text() const { return lesson_->toPlainText(); }
QString LessonPane::source_text() const { return source_->toPlainText(); }

}  // namespace threadmap::gui
