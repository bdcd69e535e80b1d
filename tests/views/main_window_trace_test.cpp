// The main window's Trace tab draws whatever traceDocumentChanged hands it.
#include <QTabWidget>
#include <QTest>

#include "app/gui/main_window.h"
#include "kernels/session.h"
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
};

QTEST_MAIN(MainWindowTraceTest)
#include "main_window_trace_test.moc"
