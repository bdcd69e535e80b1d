// Not a test: writes docs/images/view_*.png, one per view, from the bundled
// H100 recordings, as a projector shows them (presentation mode, 1024x768).
// Usage: view_screenshots OUTPUT_DIR            the docs' shots
//        view_screenshots OUTPUT_DIR --lang L   the docs' shots in pt_BR or es (view_*_L.png)
//        view_screenshots OUTPUT_DIR FILE [--lang L] [--step N]   every tab of one recording
//                                               (any device), at its first step or step N
#include <QApplication>
#include <QDir>
#include <QImage>
#include <QTabWidget>

#include <iostream>

#include "app/gui/language.h"
#include "viz/views/bank_view.h"
#include "viz/views/playback_controller.h"
#include "viz/views/trace_views_widget.h"

using namespace threadmap::views;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  // OUTPUT_DIR, then an optional FILE, then --lang L and --step N in any order.
  QString file_arg, lang;
  long step_arg = 0;
  bool usage = argc < 2;
  for (int i = 2; i < argc && !usage; ++i) {
    const QString a = argv[i];
    if ((a == "--lang" || a == "--step") && i + 1 < argc) {
      if (a == "--lang") lang = argv[++i];
      else step_arg = QString(argv[++i]).toLong(&usage), usage = !usage || step_arg < 0;
    } else if (i == 2 && !a.startsWith("--")) {
      file_arg = a;
    } else {
      usage = true;
    }
  }
  const bool one_file = !file_arg.isEmpty();
  if (usage || (step_arg && !one_file)) {
    std::cerr << "usage: view_screenshots OUTPUT_DIR [FILE.threadmap] [--lang pt_BR|es] [--step N]\n";
    return 2;
  }
  const QDir out(argv[1]);
  threadmap::gui::language::apply(lang.isEmpty() ? "en" : lang);
  if (one_file) {
    TraceViewsWidget w;
    if (const QString problem = w.open_file(file_arg); !problem.isEmpty()) {
      std::cerr << problem.toStdString() << "\n";
      return 1;
    }
    w.set_presentation(true);
    w.playback().seek(static_cast<std::size_t>(step_arg));
    w.resize(1024, 768);
    w.show();
    for (int tab = 0; tab < w.tabs().count(); ++tab) {
      w.tabs().setCurrentIndex(tab);
      app.processEvents();
      for (auto* view : w.findChildren<TraceView*>()) view->set_step(static_cast<std::size_t>(step_arg), 0.6);
      const QString file = out.filePath(QString("tab_%1.png").arg(w.tabs().tabText(tab).toLower()));
      if (!w.grab().toImage().save(file)) return 1;
      std::cout << file.toStdString() << "\n";
    }
    return 0;
  }
  struct Shot {
    const char* file;
    const char* kernel;
    int tab;
    threadmap::Space space;  // the step shown: the n-th request in this space and direction
    bool store;
    std::size_t nth;
    double phase;
    std::int64_t block = -1;  // only this block's requests (-1: any)
  };
  using threadmap::Space;
  // Steps chosen to show the lesson: the tile written out swapped, a strided
  // read, a conflicting load half served and its padded twin, a strided load.
  const std::vector<Shot> shots{
      {"view_grid.png", "transpose.shared", 0, Space::Global, true, 3, 1.0, 1},
      {"view_grid_naive.png", "transpose.naive", 0, Space::Global, false, 5, 1.0},
      {"view_banks.png", "smem.setRowReadCol", 1, Space::Shared, false, 0, 0.3},
      {"view_banks_padded.png", "smem.setRowReadColPad", 1, Space::Shared, false, 0, 1.0},
      {"view_barrier.png", "smem.setRowReadCol", 2, Space::Shared, false, 0, 1.0},
      {"view_coalescing.png", "transpose.naive", 3, Space::Global, false, 0, 1.0},
      {"view_schedule.png", "transpose.shared", 4, Space::Global, false, 0, 1.0},
  };
  for (const auto& s : shots) {
    TraceViewsWidget w;
    const QString path = QString(THREADMAP_RECORDINGS) + "/" + s.kernel + ".threadmap";
    if (const QString problem = w.open_file(path); !problem.isEmpty()) {
      std::cerr << problem.toStdString() << "\n";
      return 1;
    }
    w.set_presentation(true);
    w.tabs().setCurrentIndex(s.tab);
    std::size_t step = 0, seen = 0;
    const auto& requests = w.document()->analysis.requests;
    for (std::size_t i = 0; i < requests.size(); ++i)
      if (requests[i].space == s.space && requests[i].store == s.store &&
          (s.block < 0 || requests[i].block == s.block) && seen++ == s.nth) {
        step = i;
        break;
      }
    w.playback().seek(step);
    w.resize(1024, 768);
    w.show();
    app.processEvents();
    // A half-served request shows lanes on their way to the banks.
    for (auto* view : w.findChildren<TraceView*>()) view->set_step(step, s.phase);
    QString name = s.file;
    if (!lang.isEmpty()) name.replace(".png", "_" + lang + ".png");
    const QString file = out.filePath(name);
    if (!w.grab().toImage().save(file)) {
      std::cerr << "cannot write " << file.toStdString() << "\n";
      return 1;
    }
    std::cout << file.toStdString() << "\n";
  }
  return 0;
}
