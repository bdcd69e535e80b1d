// Regenerates the screenshots in docs/images from the bundled H100 recordings
// (the window a machine without a GPU opens with, and its Recording tab) and
// from real runs on the first OpenCL device: the live main window, the sweep
// chart and an exported PNG chart.
//   QT_QPA_PLATFORM=offscreen build/tests/gui/gui_screenshots docs/images
// With a language (pt_BR, es) it writes the window in that language from the
// bundled recordings only: main_window_<lang>.png, its Recording and Trace
// tabs, and the reduction family with its lesson.
//   QT_QPA_PLATFORM=offscreen build/tests/gui/gui_screenshots docs/images pt_BR
// With "projector", on a 1024x768 X screen, it writes the window as it opens
// there, its presentation mode and a side-by-side pair:
//   xvfb-run -s "-screen 0 1024x768x24" env QT_QPA_PLATFORM=xcb \
//     build/tests/gui/gui_screenshots docs/images projector
// With "exercises" (and a language) it walks an exercise on the first OpenCL
// device at the screen's size: the prediction revealed, the trace at the
// first request unlike it, a compile error, the goal met:
//   xvfb-run -s "-screen 0 1024x768x24" env QT_QPA_PLATFORM=xcb \
//     build/tests/gui/gui_screenshots docs/images exercises [pt_BR|es]
// With "pack DIR KERNEL[,KERNEL...] [pt_BR|es]" it opens a pack and runs
// those of its kernels on the first OpenCL device, the window at 1024x768.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTabBar>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>

#include <cstdio>

#include "app/gui/charts.h"
#include "app/gui/kernel_tree.h"
#include "app/gui/language.h"
#include "app/gui/main_window.h"
#include "app/gui/run_controller.h"
#include "app/gui/status_panel.h"
#include "app/gui/code_editor.h"
#include "app/gui/compare_view.h"
#include "app/gui/exercise_panel.h"
#include "viz/views/playback_controller.h"
#include "viz/views/trace_views_widget.h"

using namespace threadmap::gui;

namespace {

bool has_bar(MainWindow& w, const std::string& kernel) {
  for (const Bar& b : w.family_chart().drawn_bars())
    if (b.kernel == kernel) return true;
  return false;
}

// The kernel's own run is in the status area (not the previous kernel's, nor a recording's).
bool shows_run_of(MainWindow& w, const std::string& kernel) {
  return has_bar(w, kernel) && !w.runs().running() && w.status().origin_text().isEmpty() &&
         w.status().detail_text().startsWith(QString::fromStdString(kernel) + " ");
}

bool save(QWidget& widget, const QString& path) {
  QTest::qWait(300);  // let the last layout and replot land
  const bool ok = widget.grab().save(path);
  std::printf("%s %s\n", ok ? "wrote" : "could not write", qPrintable(path));
  return ok;
}

// The lecture room on a 1024 x 768 screen: the window at the size it opens
// with there, the presentation mode, a side-by-side pair and the pair presented.
bool projector_shots(MainWindow& w, const QDir& out) {
  w.show();
  (void)QTest::qWaitForWindowExposed(&w);
  (void)QTest::qWaitFor([&] { return w.device_picker().currentData().toString().contains(':'); }, 60000);
  const QString recordings = ":/recordings/h100/";
  if (!w.open_bundled_recording("smem.setRowReadCol").isEmpty()) return false;
  bool ok = save(w, out.filePath("main_window_1024x768.png"));
  w.chart_tabs().setCurrentWidget(&w.trace_views());
  w.trace_views().tabs().setCurrentIndex(1);
  // The column read of block 0 warp 0: the 32-way conflict the lesson is about.
  const auto& requests = w.trace_views().document()->analysis.requests;
  for (std::size_t i = 0; i < requests.size(); ++i)
    if (requests[i].space == threadmap::Space::Shared && !requests[i].store && requests[i].block == 0 &&
        requests[i].warp == 0) {
      w.trace_views().playback().seek(i);
      break;
    }
  w.set_presentation(true);
  ok &= save(w, out.filePath("presentation_1024x768.png"));
  w.set_presentation(false);
  if (!w.compare_files(recordings + "smem.setRowReadCol.threadmap", recordings + "smem.setRowReadColPad.threadmap")
           .isEmpty())
    return false;
  w.compare_view().set_view(1);
  // The same column read in both panes.
  auto& pair = w.compare_view();
  for (std::size_t step = 0; step < pair.playback().steps(); ++step) {
    pair.playback().seek(step);
    const auto r = pair.pane_request(0);
    const auto& req = pair.document(0)->analysis.requests;
    if (r && req[*r].space == threadmap::Space::Shared && !req[*r].store && req[*r].block == 0 && req[*r].warp == 0)
      break;
  }
  ok &= save(w, out.filePath("side_by_side_1024x768.png"));
  w.set_presentation(true);
  ok &= save(w, out.filePath("presentation_pair_1024x768.png"));
  w.set_presentation(false);
  return ok;
}

// An exercise walked as a learner walks it; files exercise_*[_LANG].png.
bool exercise_shots(MainWindow& w, const QDir& out, const QString& lang) {
  const QString suffix = lang == "en" ? QString() : "_" + lang;
  w.show();
  (void)QTest::qWaitForWindowExposed(&w);
  if (!QTest::qWaitFor([&] { return w.device_picker().currentData().toString().startsWith("opencl"); }, 60000))
    return false;
  const threadmap::Exercise* e = threadmap::find_exercise("smem-conflict-free");
  w.open_exercise(e);
  ExercisePanel& panel = w.exercise_panel();
  auto run = [&](const char* shown) {
    w.run_learner();
    if (QTest::qWaitFor([&] { return !panel.running() && panel.result_text().contains(shown); }, 120000)) return true;
    std::fprintf(stderr, "gui_screenshots: the exercise's run did not show %s; the panel says: %s\n", shown,
                 qPrintable(panel.result_text()));
    return false;
  };
  panel.set_prediction(1, 4, 1);
  if (!run("<br><br>")) return false;
  bool ok = save(w, out.filePath("exercise_prediction" + suffix + ".png"));
  w.chart_tabs().setCurrentWidget(&w.trace_views());
  ok &= save(w, out.filePath("exercise_trace" + suffix + ".png"));
  w.chart_tabs().setCurrentWidget(&panel);
  QTextCursor c = panel.editor().document()->find("out[idx] = tile[");
  c.clearSelection();
  c.movePosition(QTextCursor::Left, QTextCursor::MoveAnchor, 5);
  c.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, 4);
  c.insertText("tiel");
  if (!run("✘")) return false;
  ok &= save(w, out.filePath("exercise_compile_error" + suffix + ".png"));
  panel.editor().undo();
  panel.editor().document()->find("[BLOCK_X]").insertText("[BLOCK_X + 1]");
  panel.set_prediction(1, 4, 1);
  if (!run("<br><br>")) return false;
  ok &= save(w, out.filePath("exercise_goal_met" + suffix + ".png"));
  return ok;
}

}  // namespace

// "pack DIR KERNELS [LANG]": the window at 1024x768 with the pack in DIR
// opened and each of KERNELS (comma-separated) run in turn on the first
// OpenCL device, the last one's lesson beside the chart:
// pack_LAST[_LANG].png.
bool pack_shot(MainWindow& w, const QDir& out, const QString& folder, const QString& kernels, const QString& lang) {
  w.resize(1024, 768);
  w.show();
  (void)QTest::qWaitFor([&] { return w.device_picker().currentData().toString().contains(':'); }, 60000);
  const QStringList ids = kernels.split(',');
  // A bundled pack is open already (the window opens them at start).
  if (!threadmap::find_variant(ids.front().toStdString()))
    if (const QString error = w.open_pack(folder); !error.isEmpty()) {
      std::fprintf(stderr, "gui_screenshots: %s\n", qPrintable(error));
      return false;
    }
  for (const QString& kernel : ids) {
    w.kernel_tree().select(kernel.toStdString());
    if (!QTest::qWaitFor([&] { return shows_run_of(w, kernel.toStdString()); }, 120000)) return false;
  }
  return save(w, out.filePath("pack_" + ids.back() + (lang == "en" ? "" : "_" + lang) + ".png"));
}

// "bundled KERNEL [LANG]": the window at 1024x768 with KERNEL's bundled
// recording open, its family's other recordings in the chart, then the
// Trace tab at its first request: bundled_KERNEL[_LANG].png and
// bundled_KERNEL_trace[_LANG].png.
bool bundled_shot(MainWindow& w, const QDir& out, const QString& kernel, const QString& lang) {
  w.resize(1024, 768);
  w.show();
  (void)QTest::qWaitFor([&] { return w.device_picker().currentData().toString().contains(':'); }, 60000);
  if (const QString error = w.open_bundled_recording(kernel.toStdString()); !error.isEmpty()) {
    std::fprintf(stderr, "gui_screenshots: %s\n", qPrintable(error));
    return false;
  }
  const QString suffix = lang == "en" ? QString() : "_" + lang;
  bool ok = save(w, out.filePath("bundled_" + kernel + suffix + ".png"));
  w.chart_tabs().setCurrentWidget(&w.trace_views());
  ok &= save(w, out.filePath("bundled_" + kernel + "_trace" + suffix + ".png"));
  return ok;
}

// "pack-exercise ID [LANG [FILE]]": the exercise ID (a pack's or a built-in
// one) opened, its Task page shown (pack_exercise_ID_task[_LANG].png), then
// its start (or FILE's text, a learner's) run on the first OpenCL device:
// pack_exercise_ID[_STEM][_LANG].png.
bool pack_exercise_shot(MainWindow& w, const QDir& out, const QString& id, const QString& lang, const QString& file) {
  w.resize(1024, 768);
  w.show();
  if (!QTest::qWaitFor([&] { return w.device_picker().currentData().toString().startsWith("opencl"); }, 60000))
    return false;
  const threadmap::Exercise* e = threadmap::find_exercise(id.toStdString());
  if (!e) return false;
  w.open_exercise(e);
  ExercisePanel& panel = w.exercise_panel();
  const QString suffix = lang == "en" ? QString() : "_" + lang;
  bool ok = save(w, out.filePath("pack_exercise_" + id + "_task" + suffix + ".png"));
  QString stem;
  if (!file.isEmpty()) {
    QFile text(file);
    if (!text.open(QIODevice::ReadOnly)) return false;
    panel.editor().setPlainText(QString::fromUtf8(text.readAll()));
    stem = "_" + QFileInfo(file).completeBaseName().section('.', 1);
  }
  w.run_learner();
  if (!QTest::qWaitFor([&] { return !panel.running() && panel.result_text().contains("<br>"); }, 120000)) return false;
  return save(w, out.filePath("pack_exercise_" + id + stem + suffix + ".png")) && ok;
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QFont font = QApplication::font();
  font.setPointSizeF(std::max(font.pointSizeF(), 12.0));
  QApplication::setFont(font);
  const QDir out(argc > 1 ? argv[1] : "docs/images");
  const QString lang = argc > 2 ? QString(argv[2]) : QString();
  QStandardPaths::setTestModeEnabled(true);  // the shots do not read or change the user's settings
  const QString exercise_lang = lang == "exercises" ? (argc > 3 ? QString(argv[3]) : QString("en")) : QString();
  const QString pack_lang = lang == "pack" ? (argc > 5 ? QString(argv[5]) : QString("en")) : QString();
  const bool one_item = lang == "bundled" || lang == "pack-exercise";  // MODE ITEM [LANG]
  const QString item_lang = one_item ? (argc > 4 ? QString(argv[4]) : QString("en")) : QString();
  language::apply(lang.isEmpty() || lang == "projector" ? "en"
                  : lang == "exercises"                ? exercise_lang
                  : lang == "pack"                     ? pack_lang
                  : one_item                           ? item_lang
                                                       : lang);
  if (one_item && argc < 4) {
    std::fprintf(stderr, "usage: gui_screenshots OUTPUT_DIR bundled KERNEL | pack-exercise ID [en|pt_BR|es [FILE]]\n");
    return 2;
  }
  if (lang == "pack-exercise") QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
  if (lang == "pack" && argc < 5) {
    std::fprintf(stderr, "usage: gui_screenshots OUTPUT_DIR pack DIR KERNEL[,KERNEL...] [pt_BR|es]\n");
    return 2;
  }
  // A learner's first visit: no profile yet (test mode: not the user's own).
  if (lang == "exercises") QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
  WindowOptions options;
  options.worker = THREADMAP_CLI;
  options.size = 512;
  options.reps = 5;
  MainWindow w(options);
  if (lang == "projector") return projector_shots(w, out) ? 0 : 1;
  if (lang == "exercises") return exercise_shots(w, out, exercise_lang) ? 0 : 1;
  if (lang == "pack") return pack_shot(w, out, argv[3], argv[4], pack_lang) ? 0 : 1;
  if (lang == "bundled") return bundled_shot(w, out, argv[3], item_lang) ? 0 : 1;
  if (lang == "pack-exercise")
    return pack_exercise_shot(w, out, argv[3], item_lang, argc > 5 ? QString(argv[5]) : QString()) ? 0 : 1;
  w.resize(1600, 1000);
  w.show();

  (void)QTest::qWaitFor([&] { return w.device_picker().currentData().toString().contains(':'); }, 60000);
  if (const QString error = w.open_bundled_recording("transpose.shared"); !error.isEmpty()) {
    std::fprintf(stderr, "gui_screenshots: %s\n", qPrintable(error));
    return 1;
  }
  if (!lang.isEmpty()) {
    bool ok = save(w, out.filePath("main_window_" + lang + ".png"));
    w.chart_tabs().setCurrentIndex(2);
    ok &= save(w, out.filePath("main_window_recording_" + lang + ".png"));
    w.chart_tabs().setCurrentIndex(3);
    ok &= save(w, out.filePath("main_window_trace_" + lang + ".png"));
    w.chart_tabs().setCurrentIndex(0);
    ok &= w.open_bundled_recording("reduce.sequential").isEmpty();
    ok &= save(w, out.filePath("main_window_reduction_" + lang + ".png"));
    return ok ? 0 : 1;
  }
  bool ok = save(w, out.filePath("main_window.png"));
  // Every family's chart as the bundled recordings draw it, before any live run.
  for (const auto& [kernel, file] : {std::pair{"transpose.shared", "recorded_transpose.png"},
                                     {"matadd.elements", "recorded_matadd.png"},
                                     {"reduce.warp_shuffle", "recorded_reduce.png"},
                                     {"smem.setRowReadColPad", "recorded_smem.png"}}) {
    if (const QString error = w.open_bundled_recording(kernel); !error.isEmpty()) return 1;
    ok &= save(w.family_chart(), out.filePath(file));
  }
  w.open_bundled_recording("transpose.shared");
  w.chart_tabs().setCurrentIndex(2);
  ok &= save(w, out.filePath("main_window_recording.png"));
  w.chart_tabs().setCurrentIndex(0);
  // F5: the recording's kernel live here; the charts then show this device's runs.
  w.run_now();
  if (!QTest::qWaitFor([&] { return w.status().origin_text().isEmpty(); }, 120000)) return 1;

  for (const char* kernel :
       {"transpose.copy", "transpose.naive", "transpose.shared_dynamic", "transpose.coalesced", "transpose.shared"}) {
    w.kernel_tree().select(kernel);
    if (!QTest::qWaitFor([&] { return shows_run_of(w, kernel); }, 120000)) {
      std::fprintf(stderr, "gui_screenshots: %s did not run\n", kernel);
      return 1;
    }
  }
  (void)QTest::qWaitFor([&] { return w.family_chart().drawn_ceiling().has_value(); }, 30000);
  ok &= save(w, out.filePath("main_window_live.png"));
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
    if (!QTest::qWaitFor([&] { return shows_run_of(w, kernel); }, 120000)) return 1;
  }
  (void)QTest::qWaitFor([&] { return w.family_chart().drawn_ceiling().has_value(); }, 30000);
  ok &= save(w, out.filePath("main_window_reduction.png"));
  return ok ? 0 : 1;
}
