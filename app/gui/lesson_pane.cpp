#include "app/gui/lesson_pane.h"

#include <QFile>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBrowser>

#include "app/gui/source_highlighter.h"
#include "kernels/sources.h"

// The lessons live in a static library's resources, which the linker drops
// unless something names them.
static void init_lesson_resources() { Q_INIT_RESOURCE(lessons); }

namespace threadmap::gui {

namespace {

void scroll_to(QTextEdit& view, const QString& text) {
  QTextCursor found = view.document()->find(text);
  if (found.isNull()) return;
  view.setTextCursor(found);
  // Put the match at the top rather than wherever ensureCursorVisible stops.
  view.moveCursor(QTextCursor::End);
  view.setTextCursor(found);
}

}  // namespace

LessonPane::LessonPane(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {
  init_lesson_resources();
  lesson_ = new QTextBrowser(this);
  lesson_->setObjectName("lessonText");
  lesson_->setOpenExternalLinks(false);
  source_ = new QPlainTextEdit(this);
  source_->setObjectName("kernelSource");
  source_->setReadOnly(true);
  source_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSize(font().pointSize());
  source_->setFont(mono);
  new SourceHighlighter(source_->document());
  addWidget(lesson_);
  addWidget(source_);
  setStretchFactor(0, 1);
  setStretchFactor(1, 1);
}

void LessonPane::show_variant(const Variant& variant, const std::string& backend) {
  const QString file = QString::fromStdString(variant.lesson.file);
  if (file != shown_lesson_) {
    QFile lesson(":/lessons/" + file);
    if (lesson.open(QIODevice::ReadOnly))
      lesson_->setMarkdown(QString::fromUtf8(lesson.readAll()));
    else
      lesson_->setPlainText(tr("The lesson %1 is not bundled with this build.").arg(file));
    shown_lesson_ = file;
  }
  scroll_to(*lesson_, QString::fromStdString(variant.lesson.section));

  const std::string name = variant.source + (backend == "cuda" ? ".cu" : ".cl");
  const std::string_view text = embedded_source(name);
  source_->setPlainText(text.empty() ? tr("No embedded source named %1.").arg(QString::fromStdString(name))
                                     : QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
  // Jump to the kernel's definition: the name followed by "(".
  const QRegularExpression definition(QString::fromStdString(variant.kernel) + "\\s*\\(");
  QTextCursor found = source_->document()->find(definition);
  if (!found.isNull()) {
    source_->moveCursor(QTextCursor::End);
    source_->setTextCursor(found);
    source_->centerCursor();
  }
}

QString LessonPane::lesson_text() const { return lesson_->toPlainText(); }
QString LessonPane::source_text() const { return source_->toPlainText(); }

}  // namespace threadmap::gui
