// The main window's Trace tab draws whatever traceDocumentChanged hands it.
#include <QTabWidget>
#include <QTest>

#include "app/gui/main_window.h"
#include "kernels/core/session.h"
#include "viz/views/grid_view.h"
#include "viz/views/playback_controller.h"
#include "viz/views/trace_views_widget.h"

using namespace threadmap;

class MainWindowTraceTest : public QObject {
  Q_OBJECT
 private slots:
  void trace_tab_follows_the_document() {
    gui::WindowOptions options;
    options.worker = THREADMAP_CLI;
    gui::MainWindow window(options);
    const std::string path = std::string(THREADMAP_RECORDINGS) + "/transpose.shared.threadmap";
    const auto doc = analysis::make_document(load_session(path), path);
    emit window.traceDocumentChanged(doc);
    QCOMPARE(window.trace_views().document(), doc);
    QVERIFY(window.chart_tabs().indexOf(&window.trace_views()) >= 0);
    QCOMPARE(window.trace_views().playback().steps(), doc->analysis.requests.size());
  }

  // A recording opened as a learner opens it (File > Open) reaches the
  // Trace tab whole, and its views draw it: the Grid view paints the
  // recording's matrices and a mark for the current request.
  void an_opened_recording_is_drawn() {
    gui::WindowOptions options;
    options.worker = THREADMAP_CLI;
    gui::MainWindow window(options);
    window.resize(1280, 800);
    window.show();
    const std::string path = std::string(THREADMAP_RECORDINGS) + "/transpose.shared.threadmap";
    QCOMPARE(window.open_from(QString::fromStdString(path)), QString());
    const auto expected = analysis::make_document(load_session(path), path);
    const auto& shown = window.trace_views().document();
    QVERIFY(shown != nullptr);
    QCOMPARE(shown->session.trace->kernel_id, std::string("transpose.shared"));
    QCOMPARE(shown->analysis.requests.size(), expected->analysis.requests.size());
    QCOMPARE(window.trace_views().playback().steps(), expected->analysis.requests.size());
    window.chart_tabs().setCurrentWidget(&window.trace_views());
    auto& grid = window.trace_views().grid();
    grid.resize(900, 600);
    grid.grab();
    QVERIFY(!grid.painted().marks.empty());
    bool names_the_input = false;
    for (const auto& t : grid.painted().texts) names_the_input |= t.text.contains("a (input)");
    QVERIFY2(names_the_input, "the Grid view names the transpose's input matrix");
  }
};

QTEST_MAIN(MainWindowTraceTest)
#include "main_window_trace_test.moc"
