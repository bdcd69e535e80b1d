// The interface in English, Brazilian Portuguese and Spanish: the menu
// switches the language of an open window without a restart, the lessons
// follow it with their original one click away, numbers follow the locale,
// and the choice is remembered. Headless (offscreen), settings in Qt's test
// scope, cleared first.
#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

#include "app/gui/kernel_tree.h"
#include "app/gui/language.h"
#include "app/gui/lesson_pane.h"
#include "app/gui/main_window.h"
#include "app/gui/status_panel.h"
#include "kernels/catalog.h"

using namespace threadmap::gui;

namespace {

WindowOptions options() {
  WindowOptions o;
  o.worker = THREADMAP_CLI;
  o.size = 64;
  o.reps = 1;
  return o;
}

QStringList menu_titles(MainWindow& w) {
  QStringList titles;
  for (QAction* a : w.menuBar()->actions()) titles << a->text();
  return titles;
}

QAction* language_action(MainWindow& w, const QString& code) {
  return w.findChild<QAction*>("language_" + code);
}

void settle() {
  // installTranslator posts QEvent::LanguageChange to every window.
  QCoreApplication::sendPostedEvents();
  QCoreApplication::processEvents();
}

}  // namespace

class LanguageTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }
  void cleanup() { language::apply("en"); }

  void systemLocalePicksTheLanguage() {
    QCOMPARE(language::codes(), (QStringList{"en", "pt_BR", "es"}));
    QCOMPARE(language::native_name("pt_BR"), QString("Português (Brasil)"));
    QCOMPARE(language::native_name("es"), QString("Español"));
    QCOMPARE(language::apply("pt-br"), QString("pt_BR"));  // any spelling of a known code
    QCOMPARE(language::apply("fr"), QString("en"));        // unknown: English
  }

  void menuSwitchesTheOpenWindow() {
    MainWindow w(options());
    w.show();
    QCOMPARE(menu_titles(w).value(0), QString("&File"));
    QVERIFY(language_action(w, "en")->isChecked());

    language_action(w, "pt_BR")->trigger();
    settle();
    QCOMPARE(language::current(), QString("pt_BR"));
    QCOMPARE(menu_titles(w), (QStringList{"&Arquivo", "&Executar", "E&xibir", "Aj&uda"}));
    QCOMPARE(w.chart_tabs().tabText(0), QString("Variantes (Ctrl+1)"));
    QCOMPARE(w.windowTitle(), QString("ThreadMap"));
    QVERIFY(language_action(w, "pt_BR")->isChecked());
    QCOMPARE(QSettings().value("language").toString(), QString("pt_BR"));
    // Numbers in the locale's format: 1.048.576 and 0,5 in Portuguese.
    QCOMPARE(QLocale().toString(1048576), QString("1.048.576"));
    QCOMPARE(QLocale().toString(0.5, 'f', 1), QString("0,5"));

    language_action(w, "es")->trigger();
    settle();
    QCOMPARE(menu_titles(w), (QStringList{"&Archivo", "&Ejecutar", "&Ver", "Ay&uda"}));
    QCOMPARE(w.chart_tabs().tabText(2), QString("Grabación (Ctrl+3)"));

    language_action(w, "en")->trigger();
    settle();
    QCOMPARE(menu_titles(w), (QStringList{"&File", "&Run", "&View", "&Help"}));
    QCOMPARE(w.chart_tabs().tabText(2), QString("Recording (Ctrl+3)"));
    QCOMPARE(QSettings().value("language").toString(), QString("en"));
  }

  void pluralsAndDatesFollowTheLanguage() {
    MainWindow w(options());
    QVERIFY(w.open_bundled_recording("transpose.shared").isEmpty());
    // English plural forms come from threadmap_en.qm: "1,048,576 values", never "value(s)".
    language::apply("en");
    settle();
    QVERIFY2(w.status().badge_text().contains("values"), qPrintable(w.status().badge_text()));
    QVERIFY(!w.status().badge_text().contains("(s)"));
    language::apply("pt_BR");
    settle();
    QVERIFY2(w.status().badge_text().contains("verificado: 1.048.576 valores"), qPrintable(w.status().badge_text()));
    QVERIFY2(w.status().detail_text().contains("execuções cronometradas"), qPrintable(w.status().detail_text()));
    // The recording's time, 2026-11-22T…Z, as a Brazilian writes a date: day/month/year.
    QVERIFY2(w.status().origin_text().contains(QRegularExpression("\\d\\d/\\d\\d/\\d{4}")),
             qPrintable(w.status().origin_text()));
    QVERIFY(w.status().origin_text().startsWith("Gravação incluída"));
    language::apply("es");
    settle();
    QVERIFY2(w.status().origin_text().startsWith("Grabación incluida"), qPrintable(w.status().origin_text()));
  }

  void everyTranslationIsLoaded() {
    // Every context of the .ts files answers at run time with the full class name.
    language::apply("pt_BR");
    QCOMPARE(QCoreApplication::translate("threadmap::gui::MainWindow", "&File"), QString("&Arquivo"));
    QCOMPARE(QCoreApplication::translate("threadmap::views::TraceViewsWidget", "Grid"), QString("Grade"));
    QCOMPARE(QCoreApplication::translate("QObject", "elements"), QString("elementos"));
    language::apply("es");
    QCOMPARE(QCoreApplication::translate("threadmap::views::TraceViewsWidget", "Grid"), QString("Malla"));
    language::apply("en");
    QCOMPARE(QCoreApplication::translate("threadmap::views::TraceViewsWidget", "Grid"), QString("Grid"));
  }
};

QTEST_MAIN(LanguageTest)
#include "language_test.moc"
