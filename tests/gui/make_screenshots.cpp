// Regenerates the screenshots in docs/images from real runs on the first
// OpenCL device: the main window, the sweep chart and an exported PNG chart.
//   QT_QPA_PLATFORM=offscreen build/tests/gui/gui_screenshots docs/images
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QTabWidget>
#include <QTest>

#include <cstdio>

#include "app/gui/charts.h"
#include "app/gui/kernel_tree.h"
#include "app/gui/main_window.h"
#include "app/gui/run_controller.h"

using namespace threadmap::gui;

namespace {

bool has_bar(MainWindow& w, const std::string& kernel) {
  for (const Bar& b : w.family_chart().drawn_bars())
    if (b.kernel == kernel) return true;
  return false;
}

bool save(QWidget& widget, const QString& path) {
  const bool ok = widget.grab().save(path);
  std::printf("%s %s\n", ok ? "wrote" : "could not write", qPrintable(path));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QFont font = QApplication::font();
  font.setPointSizeF(std::max(font.pointSizeF(), 12.0));
  QApplication::setFont(font);
  const QDir out(argc > 1 ? argv[1] : "docs/images");
  WindowOptions options;
  options.worker = THREADMAP_CLI;
  options.size = 512;
  options.reps = 5;
  MainWindow w(options);
  w.resize(1600, 1000);
  w.show();

  for (const char* kernel : {"transpose.copy", "transpose.naive", "transpose.shared_dynamic",
                             "transpose.coalesced", "transpose.shared"}) {
    w.kernel_tree().select(kernel);
    if (!QTest::qWaitFor([&] { return has_bar(w, kernel); }, 120000)) {
      std::fprintf(stderr, "gui_screenshots: %s did not run\n", kernel);
      return 1;
    }
  }
  QTest::qWaitFor([&] { return w.family_chart().drawn_ceiling().has_value(); }, 30000);
  bool ok = save(w, out.filePath("main_window.png"));
  ok &= w.export_to(out.filePath("exported_chart.png")).isEmpty();

  w.findChild<QComboBox*>("sweepParameter")->setCurrentText("tile");
  bool finished = false;
  QObject::connect(&w.runs(), &RunController::sweep_finished, [&] { finished = true; });
  w.sweep_now();
  if (!QTest::qWaitFor([&] { return finished; }, 300000)) return 1;
  ok &= save(w.sweep_chart(), out.filePath("sweep_chart.png"));
  ok &= save(w, out.filePath("main_window_sweep.png"));

  // Another family, its lesson in Portuguese.
  w.findChild<QTabWidget*>()->setCurrentIndex(0);
  for (const char* kernel : {"reduce.interleaved", "reduce.divergent", "reduce.sequential"}) {
    w.kernel_tree().select(kernel);
    if (!QTest::qWaitFor([&] { return has_bar(w, kernel); }, 120000)) return 1;
  }
  QTest::qWaitFor([&] { return w.family_chart().drawn_ceiling().has_value(); }, 30000);
  ok &= save(w, out.filePath("main_window_reduction.png"));
  return ok ? 0 : 1;
}
