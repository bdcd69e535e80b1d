// The interface in English, Brazilian Portuguese and Spanish: the menu
// switches the language of an open window without a restart, the lessons
// follow it with their original one click away, numbers follow the locale,
// and the choice is remembered. Headless (offscreen), settings in Qt's test
// scope, cleared first.
#include <QAction>
#include <QFile>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidgetItem>

#include "app/gui/catalog_text.h"
#include "app/gui/kernel_tree.h"
#include "app/gui/language.h"
#include "app/gui/lesson_pane.h"
#include "app/gui/main_window.h"
#include "app/gui/param_panel.h"
#include "app/gui/status_panel.h"
#include "viz/views/trace_views_widget.h"
#include "kernels/pack/catalog.h"
#include "kernels/pack/manifest.h"
#include "kernels/pack/pack_variants.h"

#include <map>
#include <set>

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

QAction* language_action(MainWindow& w, const QString& code) { return w.findChild<QAction*>("language_" + code); }

QString read(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// What a translation must carry over verbatim: fenced code blocks, figure
// lines, and notebook cells ("In [22]:" up to the next section heading).
QStringList verbatim_parts(const QString& text) {
  QStringList parts;
  QRegularExpression fence("^```.*?^```[ \\t]*$",
                           QRegularExpression::MultilineOption | QRegularExpression::DotMatchesEverythingOption);
  for (auto it = fence.globalMatch(text); it.hasNext();) parts << it.next().captured(0);
  const QStringList lines = text.split('\n');
  for (int i = 0; i < lines.size(); ++i) {
    if (lines[i].trimmed().startsWith("![")) parts << lines[i];
    if (QRegularExpression("^In \\[\\d+\\]:$").match(lines[i]).hasMatch())
      for (int j = i; j < lines.size() && !(j + 1 < lines.size() && lines[j + 1].startsWith("---")); ++j)
        if (!lines[j].trimmed().isEmpty()) parts << lines[j];
  }
  return parts;
}

int headings(const QString& markdown) {
  QTextDocument doc;
  doc.setMarkdown(markdown);
  int n = 0;
  for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) n += b.blockFormat().headingLevel() > 0;
  return n;
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
  // Qt's test settings (~/.qttest/config/…/language_tests.conf), never the
  // user's; the test that reads them clears them first. The language_from_*
  // runs of this binary touch no settings, so they may run beside it.
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void cleanup() { language::apply("en"); }

  void systemLocalePicksTheLanguage() {
    QCOMPARE(language::codes(), (QStringList{"en", "pt_BR", "es"}));
    QCOMPARE(language::native_name("pt_BR"), QString("Português (Brasil)"));
    QCOMPARE(language::native_name("es"), QString("Español"));
    QCOMPARE(language::apply("pt-br"), QString("pt_BR"));  // any spelling of a known code
    QCOMPARE(language::apply("fr"), QString("en"));        // unknown: English
    // ctest runs this with LANG / LANGUAGE set and names the language expected.
    const QString expected = qEnvironmentVariable("THREADMAP_EXPECT_SYSTEM_LANGUAGE");
    if (expected.isEmpty()) QSKIP("THREADMAP_EXPECT_SYSTEM_LANGUAGE is not set");
    QCOMPARE(language::system_choice(), expected);
    // Formats follow the system's locale when it speaks the language (pt_PT keeps Portugal's).
    language::apply(expected);
    if (QLocale::system().language() == QLocale(expected).language())
      QCOMPARE(QLocale().name(), QLocale::system().name());
  }

  void menuSwitchesTheOpenWindow() {
    MainWindow w(options());
    w.show();
    QCOMPARE(menu_titles(w).value(0), QString("&File"));
    QVERIFY(language_action(w, "en")->isChecked());

    language_action(w, "pt_BR")->trigger();
    settle();
    QCOMPARE(language::current(), QString("pt_BR"));
    QCOMPARE(menu_titles(w), (QStringList{"&Arquivo", "&Executar", "E&xibir", "Exer&cício", "Aj&uda"}));
    QCOMPARE(w.chart_tabs().tabText(0), QString("Variantes"));  // the key is in the tooltip
    QCOMPARE(w.chart_tabs().tabToolTip(0), QString("Variantes (Ctrl+1)"));
    QCOMPARE(w.windowTitle(), QString("ThreadMap"));
    QVERIFY(language_action(w, "pt_BR")->isChecked());
    QCOMPARE(QSettings().value("language").toString(), QString("pt_BR"));
    // Numbers in the locale's format: 1.048.576 and 0,5 in Portuguese.
    QCOMPARE(QLocale().toString(1048576), QString("1.048.576"));
    QCOMPARE(QLocale().toString(0.5, 'f', 1), QString("0,5"));

    language_action(w, "es")->trigger();
    settle();
    QCOMPARE(menu_titles(w), (QStringList{"&Archivo", "&Ejecutar", "&Ver", "E&jercicio", "Ay&uda"}));
    // Without a Spanish system locale, Mexico's formats (the lessons' Spanish).
    QCOMPARE(QLocale().name(), QString("es_MX"));
    QCOMPARE(QLocale().toString(1048576), QString("1,048,576"));
    QCOMPARE(w.chart_tabs().tabToolTip(2), QString("Grabación (Ctrl+3)"));

    language_action(w, "en")->trigger();
    settle();
    QCOMPARE(menu_titles(w), (QStringList{"&File", "&Run", "&View", "E&xercise", "&Help"}));
    QCOMPARE(w.chart_tabs().tabToolTip(2), QString("Recording (Ctrl+3)"));
    QCOMPARE(QSettings().value("language").toString(), QString("en"));
  }

  // In every language each menu's items have distinct Alt letters, and
  // every menu title and item is translated (no English left in pt_BR or es).
  void menusHaveDistinctAccessKeysInEveryLanguage() {
    MainWindow w(options());
    std::map<QString, QString> english;  // object address -> English text
    auto menus = [&w] {
      QList<QMenu*> all;
      for (QAction* a : w.menuBar()->actions())
        if (a->menu()) all << a->menu();
      for (int i = 0; i < all.size(); ++i)
        for (QAction* a : all[i]->actions())
          if (a->menu()) all << a->menu();
      return all;
    };
    auto key_of = [](const QString& text) {
      const qsizetype at = text.indexOf('&');
      return at >= 0 && at + 1 < text.size() ? text.at(at + 1).toLower() : QChar();
    };
    for (const QString& code : {QString("en"), QString("pt_BR"), QString("es")}) {
      language::apply(code);
      settle();
      QSet<QChar> top;
      for (QAction* a : w.menuBar()->actions()) {
        QVERIFY2(!top.contains(key_of(a->text())), qPrintable(code + ": " + a->text()));
        top << key_of(a->text());
      }
      for (QMenu* menu : menus()) {
        QSet<QChar> keys;
        for (QAction* a : menu->actions()) {
          if (a->isSeparator() || a->text().isEmpty() || a->objectName().startsWith("language_")) continue;
          const QChar key = key_of(a->text());
          QVERIFY2(!key.isNull(), qPrintable(code + ": no access key in " + a->text()));
          QVERIFY2(!keys.contains(key), qPrintable(code + ": " + a->text() + " repeats &" + key));
          keys << key;
          const QString id = QString::number(reinterpret_cast<quintptr>(a));
          if (code == "en") english[id] = a->text();
          else
            QVERIFY2(a->text() != english[id] || a->text().startsWith("&Kernel"),
                     qPrintable(code + ": untranslated " + a->text()));
        }
      }
    }
  }

  void pluralsAndDatesFollowTheLanguage() {
    MainWindow w(options());
    QVERIFY(w.open_bundled_recording("transpose.shared").isEmpty());
    // English plural forms come from threadmap_en.qm: "67,108,864 values", never "value(s)".
    language::apply("en");
    settle();
    QVERIFY2(w.status().badge_text().contains("values"), qPrintable(w.status().badge_text()));
    QVERIFY(!w.status().badge_text().contains("(s)"));
    language::apply("pt_BR");
    settle();
    QVERIFY2(w.status().badge_text().contains("verificado: 67.108.864 valores"), qPrintable(w.status().badge_text()));
    QVERIFY2(w.status().detail_text().contains("execuções cronometradas"), qPrintable(w.status().detail_text()));
    // The recording's time, 2026-11-22T…Z, as a Brazilian writes a date: day/month/year.
    QVERIFY2(w.status().origin_text().contains(QRegularExpression("\\d\\d/\\d\\d/\\d{4}")),
             qPrintable(w.status().origin_text()));
    QVERIFY(w.status().origin_text().startsWith("Gravação incluída"));
    language::apply("es");
    settle();
    QVERIFY2(w.status().origin_text().startsWith("Grabación incluida"), qPrintable(w.status().origin_text()));
  }

  // Every lesson in all three languages: the original verbatim, each
  // translation marked as one on its first line, with the original's code,
  // figures and headings.
  void everyLessonInEveryLanguage() {
    std::set<std::string> files;
    for (const threadmap::Variant& v : threadmap::catalog()) {
      if (!v.pack.empty()) continue;  // a pack's lesson is its own (read with the pack: docs/packs.md)
      if (!files.insert(v.lesson.file).second) continue;
      const QString original = ":/lessons/" + QString::fromStdString(v.lesson.file);
      const QString original_text = read(original);
      QVERIFY2(!original_text.isEmpty(), qPrintable(original));
      const QString original_code = LessonPane::original_language(v.lesson);
      const QStringList parts = verbatim_parts(original_text);
      QVERIFY(!parts.isEmpty());
      for (const QString& code : language::codes()) {
        const QString path = LessonPane::resource_for(v.lesson, code);
        QVERIFY2(!path.isEmpty(), qPrintable(QString("%1 has no %2 translation").arg(original, code)));
        if (code == original_code) {
          QCOMPARE(path, original);
          continue;
        }
        const QString text = read(path);
        const QString first = text.section('\n', 0, 0);
        const QString marker = code == "en"   ? "translation of the"
                               : code == "es" ? "Traducción al español del original"
                                              : "Tradução para o português do Brasil do original";
        QVERIFY2(first.contains(marker), qPrintable(path + ": " + first));
        for (const QString& part : parts)
          QVERIFY2(text.contains(part), qPrintable(path + " lacks, verbatim: " + part.left(80)));
        QCOMPARE(headings(text), headings(original_text));
      }
    }
    QCOMPARE(files.size(), std::size_t{5});
  }

  // A pack's lesson (tests/data/packs/rowsum with the texts of
  // rowsum_lesson beside it): shown at the variant's section, in the
  // interface's language where the pack brings a translation, its original
  // one click away, as the built-in lessons are.
  // The built-in lessons' manifest names its sections without reading the
  // lessons (they are the window's resources): the lesson pane must find
  // each in its lesson, as it finds it (QTextDocument::find on the markdown).
  void everyBuiltInSectionIsInItsLesson() {
    for (const threadmap::Variant& v : threadmap::catalog()) {
      if (!v.pack.empty()) continue;
      QTextDocument doc;
      LessonPane::set_lesson_markdown(doc, read(":/lessons/" + QString::fromStdString(v.lesson.file)));
      QVERIFY2(!doc.find(QString::fromStdString(v.lesson.section)).isNull(),
               qPrintable(QString::fromStdString(v.id + ": '" + v.lesson.section + "' is not in " + v.lesson.file)));
    }
  }

  void aPacksLessonFollowsTheLanguage() {
    const QString data = QString(THREADMAP_SOURCE_DIR) + "/tests/data/packs/";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const QString& file :
         {"rowsum/rowsum.cl", "rowsum_lesson/rowsum.md", "rowsum_lesson/rowsum.pt_BR.md", "rowsum_lesson/rowsum.es.md"})
      QVERIFY(QFile::copy(data + file, dir.filePath(file.section('/', 1))));
    QString manifest = read(data + "rowsum/pack.toml");
    manifest.replace("opencl = \"rowsum.cl\"\n",
                     "opencl = \"rowsum.cl\"\nlesson = \"rowsum.md\"\nsection = \"Summing the rows of a matrix\"\n");
    manifest.replace("kernel = \"row_sum_serial\"\n",
                     "kernel = \"row_sum_serial\"\n  section = \"One thread per row\"\n");
    manifest.replace("kernel = \"row_sum_tree\"\n", "kernel = \"row_sum_tree\"\n  section = \"A block per row\"\n");
    QFile out(dir.filePath("pack.toml"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(manifest.toUtf8());
    out.close();
    const auto variants = threadmap::pack::pack_variants(threadmap::pack::load_pack(dir.path().toStdString()));
    const auto tree =
        std::find_if(variants.begin(), variants.end(), [](const auto& v) { return v.id == "rowsum.tree"; });
    QVERIFY(tree != variants.end());

    language::apply("en");
    LessonPane pane;
    pane.resize(1200, 600);
    pane.show();
    pane.show_variant(*tree, threadmap::Dialect::OpenCL);
    auto* text = pane.findChild<QTextBrowser*>("lessonText");
    QVERIFY2(pane.lesson_text().contains("gives each row a block"), qPrintable(pane.lesson_text()));
    QCOMPARE(text->textCursor().block().text(), QString("A block per row"));
    QVERIFY(!pane.original_button().isVisible());  // English shown, English written: nothing to switch to
    language::apply("pt_BR");
    settle();
    QCOMPARE(text->textCursor().block().text(), QString("Um bloco por linha"));
    QVERIFY(pane.original_button().isVisible());
    QCOMPARE(pane.original_button().text(), QString("Original (English)"));
    pane.original_button().click();
    QCOMPARE(text->textCursor().block().text(), QString("A block per row"));
    language::apply("es");
    settle();
    QCOMPARE(text->textCursor().block().text(), QString("Un bloque por fila"));
    // The kernel list names the section as the shown lesson titles it.
    QCOMPARE(LessonPane::section_title(tree->lesson, "es"), QString("Un bloque por fila"));
    QCOMPARE(LessonPane::section_title(tree->lesson, "en"), QString("A block per row"));
    // A language the pack brings no text for shows the original.
    std::map<std::string, std::string> texts = *tree->lesson.texts;
    texts.erase("es");
    threadmap::Variant without_spanish = *tree;
    without_spanish.lesson.texts = std::make_shared<const std::map<std::string, std::string>>(texts);
    pane.show_variant(without_spanish, threadmap::Dialect::OpenCL);
    QVERIFY(!pane.original_button().isVisible());
    QCOMPARE(text->textCursor().block().text(), QString("A block per row"));
  }

  // The lesson pane shows the interface's language, scrolled to the same
  // section; the original is one click away.
  void lessonPaneFollowsTheLanguage() {
    MainWindow w(options());
    w.resize(1600, 1000);
    w.show();
    QVERIFY(w.kernel_tree().select("reduce.sequential"));  // its lesson is Portuguese
    LessonPane& pane = w.lesson();
    QCOMPARE(pane.lesson_resource(), QString(":/lessons/003_a865efd981f8c9db.en.txt"));
    QVERIFY(pane.lesson_text().contains("Using local memory"));
    QVERIFY(pane.original_button().isVisible());
    QCOMPARE(pane.original_button().text(), QString("Original (Português (Brasil))"));
    pane.original_button().click();
    QCOMPARE(pane.lesson_resource(), QString(":/lessons/003_a865efd981f8c9db.txt"));
    QVERIFY(pane.lesson_text().contains("Usando memória local"));
    pane.original_button().click();
    QVERIFY(pane.lesson_text().contains("Using local memory"));

    language::apply("es");
    settle();
    QCOMPARE(pane.lesson_resource(), QString(":/lessons/003_a865efd981f8c9db.es.txt"));
    QVERIFY(pane.original_button().text().startsWith("Original (Portugu"));
    language::apply("pt_BR");
    settle();
    // In its own language the original is shown and there is nothing to switch to.
    QCOMPARE(pane.lesson_resource(), QString(":/lessons/003_a865efd981f8c9db.txt"));
    QVERIFY(!pane.original_button().isVisible());

    // Scrolled to the variant's section in the translation too: the second
    // heading of the layout lesson is "Memória compartilhada quadrada".
    QVERIFY(w.kernel_tree().select("smem.setRowReadRow"));
    QCOMPARE(pane.lesson_resource(), QString(":/lessons/004_354aa9cbd9ceddef.pt_BR.txt"));
    auto* text = w.findChild<QTextBrowser*>("lessonText");
    QVERIFY(text->textCursor().block().text().contains("Memória compartilhada quadrada"));
    QVERIFY(w.kernel_tree().select("transpose.shared"));
    QVERIFY(text->textCursor().block().text().contains("Implementação com memória compartilhada"));
    // The kernel list names the section as the shown lesson titles it.
    QTreeWidgetItem* item = w.kernel_tree().currentItem();
    QCOMPARE(item->text(1), QString("2 Implementação com memória compartilhada"));
    language::apply("es");
    settle();
    QCOMPARE(item->text(1), QString("2 Implementación con memoria compartida"));
    QVERIFY(w.kernel_tree().select("smem.setRowReadRow"));
    QCOMPARE(w.kernel_tree().currentItem()->text(1), QString("Memoria Compartida Cuadrada"));  // its original
  }

  // The room is remembered: device, kernel, parameters, repetitions, language
  // and layout come back at the next start; File > Reset layout brings back
  // the default layout.
  void settingsRestoreTheRoom() {
    QSettings().clear();
    WindowOptions first = options();
    first.restore_settings = true;
    first.first_start = true;
    QList<int> sizes;
    QString device;
    {
      MainWindow w(first);
      w.show();
      QVERIFY(QTest::qWaitFor([&] { return w.device_picker().currentData().toString().contains(':'); }, 60000));
      device = w.device_picker().currentData().toString();
      QVERIFY(w.kernel_tree().select("transpose.coalesced"));
      QVERIFY(w.params().set_value("tile", "32"));
      QVERIFY(w.params().set_value("strips", "2"));
      w.findChild<QSpinBox*>("reps")->setValue(3);
      w.set_language("es");
      settle();
      w.resize(1300, 900);
      auto* split = w.findChild<QSplitter*>("mainSplitter");
      split->setSizes({600, 700});
      sizes = split->sizes();
      w.close();  // saves
    }
    QVERIFY(QSettings().contains("window/geometry"));
    language::apply("en");
    QCOMPARE(language::initial_choice(), QString("es"));

    MainWindow w(first);
    w.show();
    QVERIFY(QTest::qWaitFor(
        [&] {
          const threadmap::Variant* v = w.kernel_tree().current_variant();
          return v && v->id == "transpose.coalesced";
        },
        60000));
    QCOMPARE(w.device_picker().currentData().toString(), device);
    QCOMPARE(w.params().values().at("tile"), std::string("32"));
    QCOMPARE(w.params().values().at("strips"), std::string("2"));
    QCOMPARE(w.findChild<QSpinBox*>("reps")->value(), 3);
    QCOMPARE(w.size(), QSize(1300, 900));
    auto* split = w.findChild<QSplitter*>("mainSplitter");
    QCOMPARE(split->sizes(), sizes);
    // Restored, not the first start's bundled recording.
    QVERIFY(w.status().origin_text().isEmpty());

    QAction* reset = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == "Reset &layout") reset = a;
    QVERIFY(reset);
    reset->trigger();
    QCOMPARE(w.size(), w.default_size());
    QVERIFY(split->sizes() != sizes);
    // The splits are those of a new window of the default size.
    WindowOptions fresh = options();
    MainWindow reference(fresh);
    reference.show();
    QTest::qWait(50);
    auto main_splits = [](MainWindow& m) {
      QList<QList<int>> all;
      for (QSplitter* s : m.findChildren<QSplitter*>())
        if (!qobject_cast<threadmap::views::TraceViewsWidget*>(s->parent()) && s->objectName() != "presentation")
          all << s->sizes();
      return all;
    };
    const auto expected = main_splits(reference);
    const auto got = main_splits(w);
    QCOMPARE(got.size(), 6);  // main, controls, charts and lesson, lesson pane; the exercise tab's two
    QCOMPARE(got.size(), expected.size());
    for (int i = 0; i < got.size(); ++i)
      for (int j = 0; j < got[i].size(); ++j)
        QVERIFY2(
            std::abs(got[i][j] - expected[i][j]) <= 40,
            qPrintable(
                QString("splitter %1: %2 after reset, %3 in a new window").arg(i).arg(got[i][j]).arg(expected[i][j])));
    QVERIFY(!QSettings().contains("window/geometry"));
    QVERIFY(QSettings().contains("run/kernel"));  // the room stays; only the layout is reset
  }

  // The catalog's titles, summaries and parameter meanings (English in the
  // engine) are all known to the GUI's table, and translated.
  void catalogTextsAreTranslated() {
    const QStringList known = catalog_text::known();
    QStringList texts;
    for (const threadmap::Variant& v : threadmap::catalog()) {
      if (!v.pack.empty()) continue;  // a pack's texts are its manifest's, in its own words
      for (const std::string& t : {v.title, v.summary})
        if (t.find(' ') != std::string::npos) texts << QString::fromStdString(t);
      for (const threadmap::ParamSpec& p : v.params) texts << QString::fromStdString(p.meaning);
    }
    texts.removeDuplicates();
    for (const QString& t : texts)
      QVERIFY2(known.contains(t), qPrintable("app/gui/catalog_text.cpp lacks the catalog text: " + t));
    for (const QString& code : {QString("pt_BR"), QString("es")}) {
      language::apply(code);
      for (const QString& t : texts)
        QVERIFY2(catalog_text::text(t.toStdString()) != t, qPrintable(code + ": untranslated: " + t));
    }
    language::apply("pt_BR");
    const threadmap::Variant* v = threadmap::find_variant("transpose.shared");
    QCOMPARE(catalog_text::range(*v->param("tile")), QString("um de 4, 8, 16 ou 32"));
    QCOMPARE(catalog_text::range(*v->param("width")), QString("1 a 32.768"));
    QCOMPARE(catalog_text::range(*v->param("type")), QString("int, float ou double"));
    QVERIFY(catalog_text::tooltip(*v).startsWith("Ladrilho em memória compartilhada (lição): tile[T][T+P]"));
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
