// The lecture room's legibility (docs/views.md): every trace view of every
// bundled H100 recording, in en, pt_BR and es, in the Trace tab, in the
// presentation mode and side by side, stepped through the first request of
// each access site and the last, on the screen size the test entry sets
// (1024x768, 1280x720, 1920x1080; one test entry each). Each view records the rectangle of every
// text and mark it paints (views::PaintRecord); a paint fails on
//   - two texts over each other (or a text under a child widget),
//   - a text clipped by its box or by the view,
//   - a figure that must be read whole, elided,
//   - in a presentation, type under 24 px,
//   - no mark for the current request where the view has one to show.
#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QScreen>
#include <QSet>
#include <QTabWidget>
#include <QTest>

#include <map>
#include <set>

#include "app/gui/compare_view.h"
#include "app/gui/export_animation.h"
#include "app/gui/side_by_side.h"
#include "app/gui/language.h"
#include "app/gui/main_window.h"
#include "kernels/core/session.h"
#include "viz/views/bank_view.h"
#include "viz/views/barrier_view.h"
#include "viz/views/coalescing_view.h"
#include "viz/views/grid_view.h"
#include "viz/views/playback_controller.h"
#include "viz/views/problems_view.h"
#include "viz/views/schedule_view.h"
#include "viz/views/trace_views_widget.h"

using namespace threadmap;
using views::TraceView;

namespace {

constexpr int kPresentationFloorPx = 24;

// The bundled recordings: the seed lessons' (H100) and the bundled packs' (H200).
const QStringList kRecordingFolders{THREADMAP_RECORDINGS, THREADMAP_PACK_RECORDINGS};

std::vector<std::string> bundled_kernels() {
  std::vector<std::string> out;
  for (const QString& folder : kRecordingFolders)
    for (const QString& f : QDir(folder).entryList({"*.threadmap"}, QDir::Files, QDir::Name))
      out.push_back(f.chopped(QString(".threadmap").size()).toStdString());
  return out;
}

QString recording_path(const QString& kernel) {
  for (const QString& folder : kRecordingFolders)
    if (QFileInfo::exists(folder + "/" + kernel + ".threadmap")) return folder + "/" + kernel + ".threadmap";
  return {};
}

// The first request of each access site, and the last request.
std::vector<std::size_t> steps_of(const analysis::TraceDocument& doc) {
  const auto& requests = doc.analysis.requests;
  std::vector<std::size_t> steps;
  std::set<std::tuple<int, int, bool>> seen;
  for (std::size_t i = 0; i < requests.size(); ++i)
    if (seen.insert({requests[i].line, static_cast<int>(requests[i].space), requests[i].store}).second)
      steps.push_back(i);
  if (!requests.empty() && steps.back() != requests.size() - 1) steps.push_back(requests.size() - 1);
  return steps;
}

// Whether the view has something of the current step to draw.
bool has_current(const TraceView& view, const analysis::TraceDocument& doc) {
  const auto& requests = doc.analysis.requests;
  if (requests.empty()) return false;
  const auto& r = requests[std::min(view.step(), requests.size() - 1)];
  if (qobject_cast<const views::GridView*>(&view) || qobject_cast<const views::CoalescingView*>(&view))
    return r.space == Space::Global;
  if (qobject_cast<const views::BankView*>(&view)) return r.space == Space::Shared;
  if (auto* barrier = qobject_cast<const views::BarrierView*>(&view)) return barrier->frame().has_pass;
  if (auto* schedule = qobject_cast<const views::ScheduleView*>(&view)) return !schedule->frame().bars.empty();
  return false;
}

QString rect_text(const QRectF& r) {
  return QString("(%1,%2 %3x%4)")
      .arg(r.x(), 0, 'f', 0)
      .arg(r.y(), 0, 'f', 0)
      .arg(r.width(), 0, 'f', 0)
      .arg(r.height(), 0, 'f', 0);
}

// What is wrong with the view's last paint, each problem one line.
QStringList problems_of(TraceView& view, const analysis::TraceDocument& doc, bool presenting) {
  view.grab();  // paints it at its size now
  const views::PaintRecord& record = view.painted();
  QStringList out;
  const QRectF bounds = QRectF(view.rect()).adjusted(-0.5, -0.5, 0.5, 0.5);
  std::vector<std::pair<QRectF, QString>> taken;  // texts and the child widgets over the view
  for (const QWidget* child : view.findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
    if (child->isVisible())
      taken.push_back({QRectF(child->geometry()), QString("[%1]").arg(child->metaObject()->className())});
  for (const views::PaintedText& t : record.texts) {
    const QString name = "\"" + t.text + "\"";
    if (!bounds.contains(t.rect)) out << name + " clipped by the view " + rect_text(t.rect);
    else if (t.rect.width() > t.box.width() + 1 || t.rect.height() > t.box.height() + 1)
      out << name + " clipped by its box " + rect_text(t.rect) + " in " + rect_text(t.box);
    if (t.must_be_whole && t.elided) out << name + " elided";
    if (presenting && t.pixel_size < kPresentationFloorPx) out << name + QString(" at %1 px").arg(t.pixel_size);
    for (const auto& [rect, other] : taken) {
      const QRectF both = rect.intersected(t.rect);
      if (both.width() > 1 && both.height() > 1) out << name + " over " + other + " " + rect_text(both);
    }
    taken.push_back({t.rect, name});
  }
  if (has_current(view, doc) &&
      std::none_of(record.marks.begin(), record.marks.end(), [](const views::PaintedMark& m) { return m.current; }))
    out << "no mark for the current request";
  return out;
}

std::shared_ptr<const analysis::TraceDocument> bundled(const std::string& kernel) {
  const std::string path = recording_path(QString::fromStdString(kernel)).toStdString();
  return analysis::make_document(load_session(path), path);
}

const std::vector<QString> kLanguages{"en", "pt_BR", "es"};

// THREADMAP_LEGIBILITY_SHOTS=DIR: the window as the room sees it, saved for
// the docs: each view on the recording that teaches with it, at the first
// load the view has of its own to draw (presentation_VIEW_LANG.png),
// and each pair in its lesson's view (presentation_pair_KERNEL_VIEW_LANG.png).
const std::map<QString, std::string> kShownKernel{{"grid", "transpose.coalesced"},
                                                  {"banks", "smem.setRowReadCol"},
                                                  {"barrier", "smem.setRowReadCol"},
                                                  {"coalescing", "transpose.naive"},
                                                  {"schedule", "transpose.shared"}};
const std::vector<QString> kViewNames{"grid", "banks", "barrier", "coalescing", "schedule"};

}  // namespace

class LegibilityTest : public QObject {
  Q_OBJECT

  std::unique_ptr<gui::MainWindow> window_;
  QStringList failures_;
  int paints_ = 0;

  void check(TraceView& view, const analysis::TraceDocument& doc, const QString& where) {
    ++paints_;
    for (const QString& problem : problems_of(view, doc, window_->presenting())) failures_ << where + ": " + problem;
  }

  // Fails with the first problems found, and how many in all.
  void report(const QString& what) {
    const QString size =
        QString("%1x%2").arg(window_->screen()->geometry().width()).arg(window_->screen()->geometry().height());
    qInfo("%s at %s: %d paints, %d problems", qPrintable(what), qPrintable(size), paints_,
          static_cast<int>(failures_.size()));
    // THREADMAP_LEGIBILITY_LOG=FILE: every problem, appended to FILE.
    if (const QString log = qEnvironmentVariable("THREADMAP_LEGIBILITY_LOG"); !log.isEmpty() && !failures_.isEmpty()) {
      QFile file(log);
      if (file.open(QIODevice::Append | QIODevice::Text)) file.write((failures_.join("\n") + "\n").toUtf8());
    }
    QStringList first = failures_.mid(0, 40);
    if (failures_.size() > 40) first << QString("... and %1 more").arg(failures_.size() - 40);
    QVERIFY2(failures_.isEmpty(), qPrintable("\n" + first.join("\n")));
  }

  // Saves the window once per (name) when THREADMAP_LEGIBILITY_SHOTS is set.
  void shoot(const QString& name) {
    const QString dir = qEnvironmentVariable("THREADMAP_LEGIBILITY_SHOTS");
    if (dir.isEmpty() || !window_->presenting() || shot_.contains(name)) return;
    shot_ << name;
    QVERIFY(window_->grab().save(QDir(dir).filePath(name + ".png")));
  }
  QSet<QString> shot_;

  // The Trace tab's five views over every bundled recording.
  void walk_trace_views(const QString& mode) {
    auto& views = window_->trace_views();
    for (const std::string& kernel : bundled_kernels()) {
      // As a lecturer opens it: the family's H100 runs in the chart above.
      const QString problem = window_->open_bundled_recording(kernel);
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
      const auto doc = views.document();
      QVERIFY(doc && doc->session.kernel_id == kernel);
      const std::vector<std::size_t> steps = steps_of(*doc);
      for (const QString& lang : kLanguages) {
        gui::language::apply(lang);
        for (int tab = 0; tab < views.tabs().count(); ++tab) {
          views.tabs().setCurrentIndex(tab);
          auto* view = static_cast<TraceView*>(views.tabs().currentWidget());
          for (std::size_t step : steps) {
            views.playback().seek(step);
            QCoreApplication::processEvents();
            check(*view, *doc,
                  QString("%1 %2 %3 %4 step %5")
                      .arg(mode, QString::fromStdString(kernel), lang, views.tabs().tabText(tab))
                      .arg(step));
            if (tab == 0 && step == steps.front() && views.problems().isVisible())
              check(views.problems(), *doc,
                    QString("%1 %2 %3 problems list").arg(mode, QString::fromStdString(kernel), lang));
            const QString name = kViewNames[static_cast<std::size_t>(tab)];
            if (kShownKernel.at(name) == kernel && has_current(*view, *doc) && !doc->analysis.requests[step].store)
              shoot(QString("presentation_%1_%2").arg(name, lang));
          }
        }
      }
    }
    gui::language::apply("en");
  }

  void walk_pairs(const QString& mode) {
    auto& pair = window_->compare_view();
    const std::pair<const char*, const char*> pairs[] = {{"smem.setRowReadCol", "smem.setRowReadColPad"},
                                                         {"transpose.naive", "transpose.coalesced"},
                                                         {"histogram.global", "histogram.shared"}};
    for (const auto& [a, b] : pairs) {
      const QString problem = window_->compare_files(recording_path(a), recording_path(b));
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
      const std::vector<std::size_t> steps = steps_of(*pair.document(0));
      for (const QString& lang : kLanguages) {
        gui::language::apply(lang);
        for (int v = 0; v < 5; ++v) {
          pair.set_view(v);
          for (std::size_t step : steps) {
            pair.playback().seek(step);
            QCoreApplication::processEvents();
            for (int side = 0; side < 2; ++side)
              check(pair.pane(side), *pair.document(side),
                    QString("%1 %2 | %3 %4 %5 step %6 pane %7")
                        .arg(mode, a, b, lang, pair.view_name())
                        .arg(step)
                        .arg(side));
            if (pair.view_name() == (QString(a).startsWith("smem") ? "banks" : "coalescing") &&
                has_current(pair.pane(0), *pair.document(0)) && pair.pane_request(0) &&
                !pair.document(0)->analysis.requests[*pair.pane_request(0)].store)
              shoot(QString("presentation_pair_%1_%2_%3").arg(a, pair.view_name(), lang));
          }
        }
      }
    }
    gui::language::apply("en");
  }

 private slots:
  void initTestCase() {
    gui::WindowOptions options;
    options.worker = THREADMAP_CLI;
    window_ = std::make_unique<gui::MainWindow>(options);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    window_->setGeometry(window_->screen()->availableGeometry());
    QTest::qWait(50);
  }

  void init() {
    failures_.clear();
    paints_ = 0;
  }

  void trace_tab() {
    window_->chart_tabs().setCurrentWidget(&window_->trace_views());
    walk_trace_views("trace tab");
    report("Trace tab");
  }

  void presentation() {
    window_->chart_tabs().setCurrentWidget(&window_->trace_views());
    window_->set_presentation(true);
    QTRY_COMPARE(window_->size(), window_->screen()->geometry().size());
    walk_trace_views("presentation");
    window_->set_presentation(false);
    report("Presentation");
  }

  void side_by_side() {
    window_->chart_tabs().setCurrentWidget(&window_->compare_view());
    walk_pairs("side by side");
    report("Side by side");
  }

  void side_by_side_presentation() {
    window_->chart_tabs().setCurrentWidget(&window_->compare_view());
    window_->set_presentation(true);
    QTRY_COMPARE(window_->size(), window_->screen()->geometry().size());
    walk_pairs("presented pair");
    window_->set_presentation(false);
    report("Side by side, presented");
  }

  // `threadmap export` frames (GIF, WebM, PNG): each view drawn alone and
  // as half of a pair, in the projector theme, at the size a frame gives it.
  // The frames do not depend on the screen: run by the 1920x1080 entry only.
  void exported_frames() {
    if (window_->screen()->geometry().width() != 1920) QSKIP("run by the legibility_1920x1080 entry");
    const QSize frames[] = {{1280, 720}, {1920, 1080}};
    for (const std::string& kernel : bundled_kernels()) {
      const auto doc = bundled(kernel);
      const std::vector<std::size_t> steps = steps_of(*doc);
      for (const QString& lang : kLanguages) {
        gui::language::apply(lang);
        for (const QString& name : gui::view_names()) {
          std::unique_ptr<TraceView> view = gui::make_view(name);
          views::Theme theme = views::Theme::projector();
          view->set_theme(theme);
          view->set_document(doc);
          for (const QSize frame : frames)
            for (int panes = 1; panes <= 2; ++panes) {
              view->resize(gui::exported_view_size(frame, panes));
              for (std::size_t step : steps) {
                view->set_step(step, 1.0);
                ++paints_;
                // The frames are drawn in the projector theme: 24 px at least.
                for (const QString& problem : problems_of(*view, *doc, true))
                  failures_ << QString("export %1x%2 %3 pane(s) %4 %5 %6 step %7: %8")
                                   .arg(frame.width())
                                   .arg(frame.height())
                                   .arg(panes)
                                   .arg(QString::fromStdString(kernel), lang, name)
                                   .arg(step)
                                   .arg(problem);
              }
            }
        }
      }
    }
    gui::language::apply("en");
    report("Exported frames");
  }

  // The Problems list and the problem drawn in its view, every problem and
  // both its accesses, in the Trace tab and in a presentation: a race, a
  // shared and a global access out of bounds, recorded here on PoCL, and a
  // barrier in divergent code and four lanes of a store out of bounds
  // recorded on an H100 (PoCL crashes on both).
  void problems_list() {
    QTemporaryDir dir;
    struct Recording {
      QString name, kernel, file;
      QStringList sets;
    };
    const std::vector<Recording> on_pocl{
        {"race", "smem.setRowReadCol", "smem.setRowReadCol.no-barrier.cl", {"blocks=2"}},
        {"shared_out_of_bounds", "smem.setRowReadCol", "smem.setRowReadCol.past-the-tile.cl", {"blocks=2"}},
        {"global_out_of_bounds", "matadd.rows", "matadd.rows.one-past.cl", {"width=64", "height=64", "wg=32"}}};
    std::vector<std::pair<QString, QString>> files;  // name, session file
    for (const Recording& r : on_pocl) {
      const QString path = dir.filePath(r.name + ".threadmap");
      QStringList args{"record",   r.kernel,     "--source", THREADMAP_SOURCE_DIR "/tests/data/problems/" + r.file,
                       "--device", "opencl:0:0", "--reps",   "1",
                       "-o",       path};
      for (const QString& set : r.sets) args << "--set" << set;
      QProcess cli;
      cli.setProcessChannelMode(QProcess::MergedChannels);
      cli.start(THREADMAP_CLI, args);
      QVERIFY(cli.waitForFinished(120000));
      if (!QFileInfo::exists(path)) QSKIP(qPrintable("no recording on PoCL: " + QString::fromUtf8(cli.readAll())));
      files.push_back({r.name, path});
    }
    files.push_back({"divergent_barrier", THREADMAP_SOURCE_DIR
                     "/tests/data/problems/recorded/smem.setRowReadCol.divergent-barrier.h100.threadmap"});
    files.push_back({"global_out_of_bounds_lanes",
                     THREADMAP_SOURCE_DIR "/tests/data/problems/recorded/matadd.cols.last-row-shifted.h100.threadmap"});
    window_->chart_tabs().setCurrentWidget(&window_->trace_views());
    auto& views = window_->trace_views();
    for (const auto& [name, path] : files) {
      QCOMPARE(views.open_file(path), QString());
      const auto doc = views.document();
      QVERIFY(!doc->analysis.problems.list.empty());
      for (const bool presenting : {false, true}) {
        if (presenting) {
          window_->set_presentation(true);
          QTRY_COMPARE(window_->size(), window_->screen()->geometry().size());
        }
        for (const QString& lang : kLanguages) {
          gui::language::apply(lang);
          for (std::size_t i = 0; i < doc->analysis.problems.list.size(); ++i)
            for (int site = 0; site < 2; ++site) {
              views.show_problem(i, site);
              QCoreApplication::processEvents();
              const QString where = QString("%1 %2 %3 problem %4 site %5")
                                        .arg(name, presenting ? "presentation" : "trace tab", lang)
                                        .arg(i)
                                        .arg(site);
              QVERIFY(views.problems().isVisible());
              check(views.problems(), *doc, where + " list");
              check(*static_cast<TraceView*>(views.tabs().currentWidget()), *doc, where + " view");
              // The race's shot keeps its old name; each other kind its own.
              const bool shown_kind =
                  name == "race" ? i == 0
                                 : doc->analysis.problems.list[i].kind != analysis::ProblemKind::ReadAfterWrite;
              if (presenting && lang == "en" && shown_kind && site == 0)
                shoot(name == "race" ? QString("presentation_problem_banks_en")
                                     : "presentation_problem_" + name + "_en");
            }
        }
        gui::language::apply("en");
        if (presenting) window_->set_presentation(false);
      }
    }
    report("Problems list");
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(LegibilityTest)
#include "legibility_test.moc"
