#include "app/gui/language.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include <memory>

namespace threadmap::gui::language {

namespace {

// lupdate (Qt 6.4) does not read C++17 nested namespace definitions
// (`namespace threadmap::gui {`), so the .ts contexts are the bare class names
// ("MainWindow") while tr() asks with the full one ("threadmap::gui::MainWindow").
// This translator looks a context up by its last component.
class ThreadMapTranslator : public QTranslator {
 public:
  QString translate(const char* context, const char* source, const char* disambiguation, int n) const override {
    if (context) {
      const char* bare = context;
      for (const char* p = context; *p; ++p)
        if (p[0] == ':' && p[1] == ':') bare = p + 2;
      context = bare;
    }
    return QTranslator::translate(context, source, disambiguation, n);
  }
};

struct Installed {
  QString code = "en";
  std::unique_ptr<QTranslator> app;
  std::unique_ptr<QTranslator> qt;  // Qt's own dialogs (file dialogs, message boxes), when installed
};

Installed& installed() {
  static Installed state;
  return state;
}

// "pt-BR", "pt_br" -> "pt_BR"; empty when ThreadMap has no such language.
QString normalise(QString code) {
  code.replace('-', '_');
  for (const QString& c : codes())
    if (c.compare(code, Qt::CaseInsensitive) == 0) return c;
  return {};
}

}  // namespace

QStringList codes() { return {"en", "pt_BR", "es"}; }

QString native_name(const QString& code) {
  if (code == "pt_BR") return QStringLiteral("Português (Brasil)");
  if (code == "es") return QStringLiteral("Español");
  return QStringLiteral("English");
}

QString system_choice() {
  // uiLanguages() is ordered by preference: "pt-BR", "pt", "en-US", ...
  for (QString ui : QLocale::system().uiLanguages()) {
    ui.replace('-', '_');
    if (ui.startsWith("pt")) return "pt_BR";  // the one Portuguese ThreadMap speaks
    if (ui.startsWith("es")) return "es";
    if (ui.startsWith("en")) return "en";
  }
  return "en";
}

QString initial_choice() {
  const QString saved = normalise(QSettings().value("language").toString());
  return saved.isEmpty() ? system_choice() : saved;
}

QString current() { return installed().code; }

QString apply(const QString& requested) {
  QString code = normalise(requested);
  if (code.isEmpty()) code = "en";
  Installed& state = installed();
  if (state.app) QCoreApplication::removeTranslator(state.app.get());
  if (state.qt) QCoreApplication::removeTranslator(state.qt.get());
  state.app.reset();
  state.qt.reset();

  // Numbers and dates: the system's own locale when it speaks this language
  // (es_AR, pt_PT, en_GB keep their formats), else the language's usual one.
  // Spanish falls back to Mexico's, the Spanish of the lessons; Qt 6.4 also
  // groups 1048576 as "1048.576" in es_ES.
  QLocale locale(code == "en" ? QStringLiteral("en_US") : code == "es" ? QStringLiteral("es_MX") : code);
  if (QLocale::system().language() == locale.language()) locale = QLocale(QLocale::system().name());
  QLocale::setDefault(locale);
  // English is the source text; its .qm holds only the plural forms.
  auto app = std::make_unique<ThreadMapTranslator>();
  if (app->load(QStringLiteral(":/i18n/threadmap_%1.qm").arg(code))) {
    QCoreApplication::installTranslator(app.get());
    state.app = std::move(app);
  }
  auto qt = std::make_unique<QTranslator>();
  if (code != "en" && qt->load(locale, "qtbase", "_", QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt.get());
    state.qt = std::move(qt);
  }
  state.code = code;
  return code;
}

QString date_time(const std::string& iso) {
  const QString text = QString::fromStdString(iso);
  const QDateTime when = QDateTime::fromString(text, Qt::ISODate);
  if (!when.isValid()) return text;
  const QLocale locale;
  return (locale.language() == QLocale::C ? when.toUTC().toString("yyyy-MM-dd HH:mm:ss")
                                          : locale.toString(when.toUTC(), QLocale::ShortFormat)) +
         " UTC";
}

QString lesson_suffix(const QString& code) { return normalise(code).isEmpty() ? "en" : normalise(code); }

}  // namespace threadmap::gui::language
