// The Problems list under the trace views (docs/gui.md, "Problems"), on a
// recording made here on PoCL of setRowReadCol without its barrier
// (tests/data/problems): the list says the race with both lines, choosing it
// steps the playback to the first access's request, highlights both lines,
// and the Banks view marks the word and exactly the two threads.
#include <QDir>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

#include "kernels/core/session.h"
#include "tests/test_devices.h"
#include "viz/views/bank_view.h"
#include "viz/views/barrier_view.h"
#include "viz/views/grid_view.h"
#include "viz/views/playback_controller.h"
#include "viz/views/problems_view.h"
#include "viz/views/source_pane.h"
#include "viz/views/trace_views_widget.h"

using namespace threadmap;
using namespace threadmap::views;

namespace {

const PaintedText* painted_text(const TraceView& view, const QString& part) {
  for (const PaintedText& t : view.painted().texts)
    if (t.text.contains(part)) return &t;
  return nullptr;
}

std::set<int> problem_threads(const TraceView& view) {
  std::set<int> threads;
  for (const PaintedMark& m : view.painted().marks)
    if (m.problem && m.thread >= 0) threads.insert(m.thread);
  return threads;
}

std::vector<QRectF> problem_marks_of(const TraceView& view, int thread) {
  std::vector<QRectF> out;
  for (const PaintedMark& m : view.painted().marks)
    if (m.problem && m.thread == thread) out.push_back(m.rect);
  return out;
}

// The lines the source pane tints, 1-based.
std::set<int> tinted_lines(const SourcePane& source) {
  std::set<int> lines;
  for (const auto& s : source.extraSelections()) lines.insert(s.cursor.blockNumber() + 1);
  return lines;
}

// Records `kernel` from tests/data/problems/`file` on PoCL into `out`.
QString record_on_pocl(const QString& kernel, const QString& file, const QStringList& sets, const QString& out) {
  QStringList args{"record",   kernel,       "--source", THREADMAP_SOURCE_DIR "/tests/data/problems/" + file,
                   "--device", "opencl:0:0", "--reps",   "1",
                   "-o",       out};
  for (const QString& set : sets) args << "--set" << set;
  QProcess cli;
  cli.setProcessChannelMode(QProcess::MergedChannels);
  cli.start(THREADMAP_CLI, args);
  cli.waitForFinished(120000);
  return QString::fromUtf8(cli.readAll());
}

std::vector<QRectF> current_marks(const TraceView& view) {
  std::vector<QRectF> out;
  for (const PaintedMark& m : view.painted().marks)
    if (m.current) out.push_back(m.rect);
  return out;
}

bool request_holds(const analysis::Analysis& a, std::size_t request, std::uint32_t access) {
  const auto lanes = a.lanes_of(a.requests[request]);
  return std::find(lanes.begin(), lanes.end(), access) != lanes.end();
}

}  // namespace

class ProblemsViewTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString race_;  // the recording with the race

  // THREADMAP_PROBLEMS_SHOTS=DIR: the widget with problem `index` chosen at
  // its first access, saved as DIR/NAME for docs/gui.md.
  void shoot(TraceViewsWidget& w, std::size_t index, const QString& name) {
    const QString dir = qEnvironmentVariable("THREADMAP_PROBLEMS_SHOTS");
    if (dir.isEmpty()) return;
    w.show_problem(index, 0);
    QCoreApplication::processEvents();
    QVERIFY(w.grab().save(QDir(dir).filePath(name)));
  }

 private slots:
  void initTestCase() {
    auto td = testing::first_device("opencl");
    if (!td.device) QSKIP(td.skip_reason.c_str());
    race_ = dir_.filePath("race.threadmap");
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(THREADMAP_CLI, {"record", "smem.setRowReadCol", "--source",
                              THREADMAP_SOURCE_DIR "/tests/data/problems/smem.setRowReadCol.no-barrier.cl", "--device",
                              "opencl:0:0", "--set", "blocks=2", "--reps", "1", "-o", race_});
    QVERIFY(cli.waitForFinished(120000));
    const QString out = QString::fromUtf8(cli.readAll());
    if (out.contains("libclang")) QSKIP(qPrintable(out));
    QVERIFY2(QFileInfo::exists(race_), qPrintable(out));
  }

  void race_is_listed_chosen_stepped_to_and_drawn() {
    TraceViewsWidget w;
    QCOMPARE(w.open_file(race_), QString());
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto doc = w.document();
    const auto& list = doc->analysis.problems.list;
    ProblemsView& problems = w.problems();
    QVERIFY(problems.isVisible());
    QCOMPARE(problems.count(), list.size());
    const auto race = std::find_if(list.begin(), list.end(), [](const analysis::Problem& p) {
      return p.kind == analysis::ProblemKind::ReadAfterWrite;
    });
    QVERIFY(race != list.end());
    const std::size_t index = static_cast<std::size_t>(race - list.begin());
    QCOMPARE(int{race->first.line}, 7);   // the tile's store
    QCOMPARE(int{race->second.line}, 8);  // its column read

    // The row: its kind, then both threads and both lines, in words.
    problems.grab();
    QVERIFY(painted_text(problems, "Data race: read after write"));
    const PaintedText* row = painted_text(problems, "then thread");
    QVERIFY(row);
    const QString expected = QString("thread %1 (%2,%3) writes tile[")
                                 .arg(race->first.thread)
                                 .arg(race->first.thread % 32)
                                 .arg(race->first.thread / 32);
    QVERIFY2(row->text.startsWith(expected), qPrintable(row->text));
    QVERIFY2(row->text.contains("(line 7), then thread") &&
                 row->text.contains("reads it (line 8) in the same barrier interval"),
             qPrintable(row->text));
    QVERIFY2(row->text.contains("block (0, 0)") && row->text.contains("more like it"), qPrintable(row->text));
    QVERIFY(!row->elided);

    // Chosen with a click: the banks come forward at the store's request.
    QTest::mouseClick(&problems, Qt::LeftButton, {}, row->rect.center().toPoint());
    QCOMPARE(problems.chosen(), std::optional<std::size_t>(index));
    QCOMPARE(w.tabs().currentWidget(), static_cast<QWidget*>(&w.banks()));
    const std::size_t step = w.playback().step();
    QVERIFY(!w.playback().playing());
    QVERIFY(request_holds(doc->analysis, step, race->first.record));
    QCOMPARE(w.source().problem_lines(), (std::vector<int>{7, 8}));
    QCOMPARE(tinted_lines(w.source()), (std::set<int>{7, 8}));
    QCOMPARE(w.source().highlighted_line(), 7);

    // The banks: the word outlined, the storing thread's lane outlined, both
    // threads in the key, and no other thread marked.
    BankView& banks = w.banks();
    banks.grab();
    QCOMPARE(problem_threads(banks), (std::set<int>{race->first.thread, race->second.thread}));
    auto word = problem_marks_of(banks, -1);
    QCOMPARE(word.size(), std::size_t{2});  // its key swatch and its cell
    std::sort(word.begin(), word.end(), [](const QRectF& a, const QRectF& b) { return a.top() > b.top(); });
    const auto first = problem_marks_of(banks, race->first.thread);
    QCOMPARE(first.size(), std::size_t{2});  // its key swatch and its lane box
    // Lane i sits over bank i: the word's bank is the storing lane's (offset / 4).
    const QRectF lane_box = *std::max_element(first.begin(), first.end(),
                                              [](const QRectF& a, const QRectF& b) { return a.width() < b.width(); });
    QCOMPARE(static_cast<int>(race->offset / 4 % 32), race->first.thread % 32);

    QVERIFY(std::abs(lane_box.center().x() - word.front().center().x()) < 1.0);
    QVERIFY(word.front().top() > lane_box.bottom());
    const QString element = QString::fromStdString(tile_element_name(*doc, race->offset));
    QVERIFY(element.startsWith("tile["));
    QVERIFY(painted_text(banks, element));
    QVERIFY(painted_text(banks, QString("thread %1 (%2,%3) writes it, line 7")
                                    .arg(race->first.thread)
                                    .arg(race->first.thread % 32)
                                    .arg(race->first.thread / 32)));
    QVERIFY(painted_text(banks, QString("thread %1 (%2,%3) reads it, line 8")
                                    .arg(race->second.thread)
                                    .arg(race->second.thread % 32)
                                    .arg(race->second.thread / 32)));

    // Chosen again: the other access, the reading thread's lane outlined.
    QTest::keyClick(&problems, Qt::Key_Return);
    QCOMPARE(problems.chosen_site(), 1);
    const std::size_t other = w.playback().step();
    QVERIFY(other != step);
    QVERIFY(request_holds(doc->analysis, other, race->second.record));
    QCOMPARE(w.source().highlighted_line(), 8);
    banks.grab();
    QCOMPARE(problem_threads(banks), (std::set<int>{race->first.thread, race->second.thread}));
    QCOMPARE(problem_marks_of(banks, race->second.thread).size(), std::size_t{2});
    QCOMPARE(problem_marks_of(banks, race->first.thread).size(), std::size_t{1});

    // Stepping on leaves the problem's requests: nothing of it is drawn.
    std::size_t away = w.playback().steps() - 1;
    while (away == step || away == other) --away;
    w.playback().seek(away);
    banks.grab();
    QVERIFY(problem_threads(banks).empty());
    QCOMPARE(tinted_lines(w.source()).count(7), std::size_t{1});  // the lines stay tinted

    // A presentation keeps the list, at the room's type, the chosen row whole.
    w.set_presentation(true);
    QCoreApplication::processEvents();
    QVERIFY(problems.isVisible());
    problems.grab();
    QVERIFY(!problems.painted().texts.empty());
    for (const PaintedText& t : problems.painted().texts) {
      QVERIFY2(t.pixel_size >= 24, qPrintable(t.text));
      QVERIFY2(!t.elided && t.rect.height() <= t.box.height() + 1 &&
                   QRectF(problems.rect()).adjusted(-1, -1, 1, 1).contains(t.rect),
               qPrintable(t.text));
    }
    QVERIFY(painted_text(problems, "Data race: read after write"));
    shoot(w, index, "problems_banks_presentation.png");
    w.set_presentation(false);
    QCoreApplication::processEvents();
    shoot(w, index, "problems_banks.png");
  }

  // A read past the end of the tile: one row naming the thread, the shared
  // offset and the line; choosing it steps to that thread's request.
  void shared_out_of_bounds_is_listed() {
    const QString file = dir_.filePath("past.threadmap");
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(THREADMAP_CLI, {"record", "smem.setRowReadCol", "--source",
                              THREADMAP_SOURCE_DIR "/tests/data/problems/smem.setRowReadCol.past-the-tile.cl",
                              "--device", "opencl:0:0", "--set", "blocks=2", "--reps", "1", "-o", file});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(QFileInfo::exists(file), qPrintable(QString::fromUtf8(cli.readAll())));
    TraceViewsWidget w;
    QCOMPARE(w.open_file(file), QString());
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto& list = w.document()->analysis.problems.list;
    QCOMPARE(list.size(), std::size_t{1});
    QCOMPARE(list.front().kind, analysis::ProblemKind::OutOfBounds);
    QCOMPARE(list.front().space, Space::Shared);
    w.problems().grab();
    QVERIFY(painted_text(w.problems(), "Out of bounds"));
    const PaintedText* row = painted_text(w.problems(), "in no shared array of the block");
    QVERIFY(row);
    QVERIFY2(row->text.startsWith("thread 1023 (31,31) reads shared offset 4096 (line 9)"), qPrintable(row->text));
    QVERIFY(!row->elided);
    w.show_problem(0, 0);
    QCOMPARE(w.source().highlighted_line(), 9);
    QCOMPARE(w.tabs().currentWidget(), static_cast<QWidget*>(&w.banks()));

    // The banks: the stray lane (31) hatched in the lane row, where its
    // warp's request has no lane of its own, and an arrow off the grid's
    // foot under bank 0 (offset 4096 is word 1024: row 32, one past the
    // tile's 32 rows) to a cell for the word, named under it.
    BankView& banks = w.banks();
    banks.grab();
    QCOMPARE(problem_threads(banks), (std::set<int>{1023}));
    const auto lanes = current_marks(banks);
    QCOMPARE(lanes.size(), std::size_t{31});  // lanes 0-30 read tile[lane + 1][0]
    const auto stray_lane = problem_marks_of(banks, 1023);
    QCOMPARE(stray_lane.size(), std::size_t{2});  // its key swatch and its lane box
    const QRectF lane_box =
        *std::max_element(stray_lane.begin(), stray_lane.end(),
                          [](const QRectF& a, const QRectF& b) { return a.center().x() < b.center().x(); });
    const QRectF lane0 = *std::min_element(
        lanes.begin(), lanes.end(), [](const QRectF& a, const QRectF& b) { return a.center().x() < b.center().x(); });
    for (const QRectF& lane : lanes) {
      QVERIFY(lane_box.center().x() > lane.right());  // lane 31: right of every other lane
      QVERIFY(std::abs(lane_box.center().y() - lane.center().y()) < 1.0);
    }
    auto word = problem_marks_of(banks, -1);
    QCOMPARE(word.size(), std::size_t{2});  // its key swatch and the stray word's cell
    const QRectF ghost =
        *std::max_element(word.begin(), word.end(), [](const QRectF& a, const QRectF& b) { return a.top() < b.top(); });
    QVERIFY(std::abs(ghost.center().x() - lane0.center().x()) < 1.0);  // bank 0
    const PaintedText* row_label = nullptr;                            // the last row drawn
    for (const PaintedText& t : banks.painted().texts)
      if (t.text.startsWith("row ") && (!row_label || t.rect.top() > row_label->rect.top())) row_label = &t;
    QVERIFY(row_label);
    QVERIFY2(ghost.top() > row_label->rect.bottom(), qPrintable(row_label->text));  // under the grid
    const PaintedText* place = painted_text(banks, "shared offset 4096 (bank 0, row 32): in no array");
    QVERIFY(place);
    QVERIFY(place->rect.top() >= ghost.bottom());
    QVERIFY(painted_text(banks, "thread 1023 (31,31) reads there, line 9"));
    shoot(w, 0, "problems_shared_out_of_bounds.png");
    w.set_presentation(true);
    QCoreApplication::processEvents();
    banks.grab();
    QVERIFY(painted_text(banks, "shared offset 4096 (bank 0, row 32): in no array"));
    QCOMPARE(problem_threads(banks), (std::set<int>{1023}));
    shoot(w, 0, "problems_shared_out_of_bounds_presentation.png");
  }

  // A store one element past the end of `res` (the last row's last
  // element): the Grid view draws its lane as a cell under `res`, an arrow
  // off the matrix's foot to it, and the address and the thread named.
  void global_out_of_bounds_is_drawn_outside_the_matrix() {
    const QString file = dir_.filePath("one-past.threadmap");
    const QString out =
        record_on_pocl("matadd.rows", "matadd.rows.one-past.cl", {"width=64", "height=64", "wg=32"}, file);
    QVERIFY2(QFileInfo::exists(file), qPrintable(out));
    TraceViewsWidget w;
    QCOMPARE(w.open_file(file), QString());
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto doc = w.document();
    const auto& list = doc->analysis.problems.list;
    QCOMPARE(list.size(), std::size_t{1});
    const analysis::Problem& p = list.front();
    QCOMPARE(p.kind, analysis::ProblemKind::OutOfBounds);
    QCOMPARE(p.space, Space::Global);
    QCOMPARE(int{p.first.thread}, 31);
    QCOMPARE(p.offset, std::int64_t{16384});
    w.show_problem(0, 0);
    QCOMPARE(w.tabs().currentWidget(), static_cast<QWidget*>(&w.grid()));
    // The step is the warp's store at line 8 its stray belongs to: the
    // 64th (j = 63), where lanes 0-30 store in bounds.
    const auto& r = doc->analysis.requests[w.playback().step()];
    QCOMPARE(int{r.line}, 8);
    QVERIFY(r.store);
    QCOMPARE(r.instance, std::uint32_t{63});
    QCOMPARE(int{r.lanes}, 31);

    GridView& grid = w.grid();
    grid.grab();
    QCOMPARE(problem_threads(grid), (std::set<int>{31}));
    const auto ghost = problem_marks_of(grid, 31);
    QCOMPARE(ghost.size(), std::size_t{1});
    // Under `res` (its caption's slot), below every cell the request lit.
    const PaintedText* res = painted_text(grid, "res (");
    QVERIFY(res);
    QVERIFY(ghost.front().center().x() > res->box.left() && ghost.front().center().x() < res->box.right());
    const auto cells = current_marks(grid);
    QCOMPARE(cells.size(), std::size_t{31});
    for (const QRectF& c : cells) QVERIFY(ghost.front().top() > c.bottom());
    const PaintedText* place = painted_text(grid, "outside: buffer 'res' + 16384 bytes (holds 16384)");
    QVERIFY(place);
    QVERIFY(place->rect.top() >= ghost.front().bottom());
    QVERIFY(painted_text(grid, "thread 31 writes there, line 8"));
    shoot(w, 0, "problems_global_out_of_bounds.png");
    w.set_presentation(true);
    QCoreApplication::processEvents();
    grid.grab();
    QVERIFY(painted_text(grid, "outside: buffer 'res' + 16384 bytes (holds 16384)"));
    QCOMPARE(problem_threads(grid), (std::set<int>{31}));
    shoot(w, 0, "problems_global_out_of_bounds_presentation.png");

    // Stepping elsewhere leaves it out.
    w.playback().seek(0);
    grid.grab();
    QVERIFY(problem_threads(grid).empty());
    QVERIFY(!painted_text(grid, "outside: buffer"));
  }

  // The last row stored four elements to the right, recorded on the H100
  // (PoCL's heap aborts on it): lanes 28-31 of one store go past the end of
  // `res` together, its 28 other lanes stay in it. The step is that store
  // (the 64th, i = 63), and its four stray lanes are one cell, named.
  void global_out_of_bounds_of_several_lanes() {
    TraceViewsWidget w;
    QCOMPARE(
        w.open_file(THREADMAP_SOURCE_DIR "/tests/data/problems/recorded/matadd.cols.last-row-shifted.h100.threadmap"),
        QString());
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto doc = w.document();
    const auto& list = doc->analysis.problems.list;
    QCOMPARE(list.size(), std::size_t{1});
    QCOMPARE(list.front().kind, analysis::ProblemKind::OutOfBounds);
    QCOMPARE(list.front().occurrences, std::uint64_t{4});
    w.show_problem(0, 0);
    const auto focus = w.grid().problem();
    QVERIFY(focus);
    QCOMPARE(focus->strays.size(), std::size_t{4});
    std::set<int> threads;
    for (const std::uint32_t k : focus->strays) threads.insert(doc->trace().strays[k].access.thread);
    QCOMPARE(threads, (std::set<int>{28, 29, 30, 31}));
    const auto& r = doc->analysis.requests[w.playback().step()];
    QCOMPARE(int{r.line}, 9);
    QVERIFY(r.store);
    QCOMPARE(r.block, list.front().block);
    QCOMPARE(r.instance, std::uint32_t{63});
    QCOMPARE(int{r.lanes}, 28);
    GridView& grid = w.grid();
    grid.grab();
    QCOMPARE(problem_threads(grid), threads);
    QVERIFY(painted_text(grid, "outside: buffer 'res' + 16384 bytes (holds 16384)"));
    QVERIFY(painted_text(grid, "thread 28 writes there, line 9 (and 3 more lanes of its warp)"));
  }

  // setRowReadCol with its barrier in a branch, recorded on the H100 (PoCL
  // cannot run it): the lower 16 warps reach the barrier, the upper 16
  // never do. The Barrier view opens on that barrier and draws the
  // missing warps' lanes hatched, named "never arrived".
  void divergent_barrier_marks_the_warps_that_never_arrived() {
    TraceViewsWidget w;
    QCOMPARE(w.open_file(THREADMAP_SOURCE_DIR
                         "/tests/data/problems/recorded/smem.setRowReadCol.divergent-barrier.h100.threadmap"),
             QString());
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto& list = w.document()->analysis.problems.list;
    const auto it = std::find_if(list.begin(), list.end(), [](const analysis::Problem& p) {
      return p.kind == analysis::ProblemKind::DivergentBarrier;
    });
    QVERIFY(it != list.end());
    const std::size_t index = static_cast<std::size_t>(it - list.begin());
    QCOMPARE(it->warps_missing.size(), std::size_t{16});
    BarrierView& barrier = w.barrier();
    barrier.grab();
    QVERIFY(problem_threads(barrier).empty());
    QVERIFY(!painted_text(barrier, "never arrived"));

    w.show_problem(index, 0);
    QCOMPARE(w.tabs().currentWidget(), static_cast<QWidget*>(&barrier));
    QCOMPARE(barrier.frame().block, it->block);
    QCOMPARE(barrier.frame().line, std::uint16_t{8});
    QCOMPARE(barrier.frame().never_arrived, it->warps_missing);
    QCOMPARE(barrier.frame().lanes.size(), std::size_t{16});
    barrier.grab();
    std::set<int> missing;
    for (const std::uint16_t warp : it->warps_missing) missing.insert(warp * 32);
    QCOMPARE(problem_threads(barrier), missing);
    QCOMPARE(current_marks(barrier).size(), std::size_t{16});  // the warps that arrived
    // The missing lanes lie below the arrived ones (warps 16-31 after 0-15).
    const auto arrived = current_marks(barrier);
    const auto first_missing = problem_marks_of(barrier, 16 * 32);
    QCOMPARE(first_missing.size(), std::size_t{1});
    for (const QRectF& a : arrived) QVERIFY(first_missing.front().top() >= a.bottom() - 0.5);
    QVERIFY(painted_text(barrier, "16 of 32 warps never arrived: a barrier in divergent code"));
    const PaintedText* run = painted_text(barrier, "warps 16–31 never arrived");
    QVERIFY(run);
    QVERIFY(run->rect.top() >= first_missing.front().top() - 0.5);
    shoot(w, index, "problems_divergent_barrier.png");
    w.set_presentation(true);
    QCoreApplication::processEvents();
    barrier.grab();
    QVERIFY(painted_text(barrier, "16 of 32 warps never arrived: a barrier in divergent code"));
    QCOMPARE(problem_threads(barrier), missing);
    shoot(w, index, "problems_divergent_barrier_presentation.png");
  }

  void empty_list_says_so() {
    TraceViewsWidget w;
    w.resize(1024, 768);
    w.show();
    QCOMPARE(w.open_file(THREADMAP_RECORDINGS "/transpose.naive.threadmap"), QString());
    QCOMPARE(w.problems().count(), std::size_t{0});
    w.problems().grab();
    QCOMPARE(w.problems().painted().texts.size(), std::size_t{1});
    QCOMPARE(w.problems().painted().texts.front().text, QString("No problems found in the traced blocks."));
    // A bundled recording with barriers: races were looked for, none found.
    QCOMPARE(w.open_file(THREADMAP_RECORDINGS "/smem.setRowReadCol.threadmap"), QString());
    QVERIFY(w.document()->analysis.problems.races_checked);
    QCOMPARE(w.problems().count(), std::size_t{0});
    // A recording older than the barriers' access marks (the bundled one as
    // it was): races were not looked for.
    QCOMPARE(w.open_file(THREADMAP_SOURCE_DIR "/tests/data/older/smem.setRowReadCol.no-access-marks.h100.threadmap"),
             QString());
    QVERIFY(!w.document()->analysis.problems.races_checked);
    w.problems().grab();
    QVERIFY(painted_text(w.problems(), "No problems found in the traced blocks. Races were not looked for"));
    // In a presentation an empty list gives its room to the views.
    w.set_presentation(true);
    QVERIFY(!w.problems().isVisible());
  }
};

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  ProblemsViewTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "problems_view_test.moc"
