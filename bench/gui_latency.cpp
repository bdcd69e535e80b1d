// Slider change -> updated chart, measured through the whole GUI path: the
// debounce, the request to the warm `threadmap-cli serve` worker, the run on
// the device, the reply and the replot. Prints median, min and max.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSlider>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "app/gui/charts.h"
#include "app/gui/kernel_tree.h"
#include "app/gui/main_window.h"
#include "app/gui/param_panel.h"

using namespace threadmap::gui;

namespace {

nlohmann::json latest(MainWindow& w, const std::string& kernel) {
  const auto& reports = w.runs().history().reports();
  for (auto it = reports.rbegin(); it != reports.rend(); ++it)
    if (it->value("kernel", "") == kernel) return *it;
  return {};
}

// Runs the event loop until the chart shows `kernel`'s run with tile == `tile`.
bool wait_for_chart(MainWindow& w, const std::string& kernel, int tile, int timeout_ms) {
  QEventLoop loop;
  auto shown = [&] {
    const auto report = latest(w, kernel);
    if (report.is_null() || report["parameters"].value("tile", 0) != tile) return false;
    for (const Bar& b : w.family_chart().drawn_bars())
      if (b.kernel == kernel) return b.gbps == report.value("bandwidth_gbps", -1.0);
    return false;
  };
  QObject::connect(&w.family_chart(), &QCustomPlot::afterReplot, &loop, [&] {
    if (shown()) loop.quit();
  });
  QTimer::singleShot(timeout_ms, &loop, [&] { loop.exit(1); });
  return shown() || loop.exec() == 0;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QCommandLineParser parser;
  parser.addHelpOption();
  QCommandLineOption size("size", "N x N matrices", "N", "256");
  QCommandLineOption reps("reps", "timed repetitions per run", "N", "3");
  QCommandLineOption moves("moves", "slider moves to time", "N", "12");
  QCommandLineOption debounce("debounce-ms", "the GUI's debounce (its default is 150)", "MS", "150");
  QCommandLineOption worker("worker", "threadmap-cli to serve", "PATH", THREADMAP_CLI);
  parser.addOptions({size, reps, moves, debounce, worker});
  parser.process(app);

  WindowOptions options;
  options.worker = parser.value(worker);
  options.size = parser.value(size).toLongLong();
  options.reps = parser.value(reps).toInt();
  options.debounce_ms = parser.value(debounce).toInt();
  MainWindow w(options);
  w.show();
  const std::string kernel = "transpose.shared";
  w.kernel_tree().select(kernel);
  if (!wait_for_chart(w, kernel, 16, 60000)) {
    std::fprintf(stderr, "gui_latency: the first run did not reach the chart\n");
    return 1;
  }
  auto* slider = w.params().control("tile")->findChild<QSlider*>();
  const int tiles[] = {4, 8, 16, 32};
  std::vector<double> ms;
  int position = slider->value();
  for (int i = 0; i < parser.value(moves).toInt(); ++i) {
    position = (position + 1) % 4;
    QElapsedTimer timer;
    timer.start();
    slider->setValue(position);
    if (!wait_for_chart(w, kernel, tiles[position], 60000)) {
      std::fprintf(stderr, "gui_latency: tile=%d did not reach the chart\n", tiles[position]);
      return 1;
    }
    ms.push_back(timer.nsecsElapsed() / 1e6);
  }
  std::sort(ms.begin(), ms.end());
  const auto report = latest(w, kernel);
  std::printf(
      "slider change -> updated chart: median %.1f ms, min %.1f ms, max %.1f ms "
      "(%zu moves; %s %lldx%lld, %d reps, debounce %d ms, on %s)\n",
      ms[ms.size() / 2], ms.front(), ms.back(), ms.size(), kernel.c_str(), options.size, options.size, options.reps,
      options.debounce_ms, report["device"].value("name", "?").c_str());
  return 0;
}
