// The trace views against the analysis: every model's numbers equal the
// analysis' on every bundled H100 recording and on a live PoCL recording;
// the lessons' pictures (bank conflicts and their padding fix, the transpose's
// tile swap, the naive kernel's scattered reads); golden images; playback keys.
#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextBlock>
#include <QTest>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "kernels/pack/catalog.h"
#include "kernels/pack/manifest.h"
#include "kernels/pack/pack_variants.h"
#include "kernels/core/params.h"
#include "kernels/core/session.h"
#include "kernels/core/sources.h"
#include "kernels/engine/record.h"
#include "tests/test_devices.h"
#include "viz/views/bank_model.h"
#include "viz/views/bank_view.h"
#include "viz/views/barrier_model.h"
#include "viz/views/barrier_view.h"
#include "viz/views/coalescing_model.h"
#include "viz/views/coalescing_view.h"
#include "viz/views/grid_model.h"
#include "viz/views/grid_view.h"
#include "viz/views/layout.h"
#include "viz/views/playback_bar.h"
#include "viz/views/playback_controller.h"
#include "viz/views/schedule_model.h"
#include "viz/views/schedule_view.h"
#include "viz/views/source_pane.h"
#include "viz/views/trace_views_widget.h"

using namespace threadmap;
using namespace threadmap::views;
using analysis::TraceDocument;

namespace {

std::shared_ptr<const TraceDocument> bundled(const std::string& kernel) {
  const std::string path = std::string(THREADMAP_RECORDINGS) + "/" + kernel + ".threadmap";
  return analysis::make_document(load_session(path), path);
}

std::vector<std::size_t> requests_where(const TraceDocument& doc, Space space, bool store) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < doc.analysis.requests.size(); ++i)
    if (doc.analysis.requests[i].space == space && doc.analysis.requests[i].store == store) out.push_back(i);
  return out;
}

// Every model against the analysis of one document (QVERIFY returns from
// here; callers check QTest::currentTestFailed()).
void check_models(const std::shared_ptr<const TraceDocument>& doc) {
  const auto& a = doc->analysis;
  const Trace& trace = doc->trace();
  const auto& totals = a.totals;

  BankModel banks(doc);
  CoalescingModel coalescing(doc);
  GridModel grid(doc);
  std::uint64_t wavefronts = 0, sectors = 0, ideal_sectors = 0, global_lanes = 0;
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    const auto& r = a.requests[i];
    if (r.space == Space::Shared) {
      const BankFrame f = banks.frame(i);
      QVERIFY(f.has_request);
      QCOMPARE(f.request, i);
      QCOMPARE(f.wavefronts, r.wavefronts);
      QCOMPARE(f.lanes.size(), std::size_t{r.lanes});
      if (r.size <= 4) {
        std::uint16_t most = 0;
        for (const auto& lane : f.lanes) most = std::max<std::uint16_t>(most, lane.wavefront + 1);
        QCOMPARE(most, r.wavefronts);  // the lanes' replays add up to the analysis' count
      }
      wavefronts += f.wavefronts;
    } else {
      const CoalescingFrame f = coalescing.frame(i);
      QVERIFY(f.has_request);
      QCOMPARE(f.sectors.size(), std::size_t{r.sectors});
      QCOMPARE(f.request_ideal, r.ideal_sectors);
      sectors += f.sectors.size();
      ideal_sectors += f.request_ideal;
      global_lanes += r.lanes;
    }
  }
  QCOMPARE(wavefronts, totals.shared_ld_wavefronts + totals.shared_st_wavefronts);
  QCOMPARE(sectors, totals.global_ld_sectors + totals.global_st_sectors);
  QCOMPARE(ideal_sectors, totals.global_ld_ideal_sectors + totals.global_st_ideal_sectors);
  if (!a.requests.empty()) {
    const std::size_t last = a.requests.size() - 1;
    const CoalescingFrame end = coalescing.frame(last);
    QCOMPARE(end.so_far.global_sectors, totals.global_ld_sectors + totals.global_st_sectors);
    QCOMPARE(banks.frame(last).so_far.shared_wavefronts, totals.shared_ld_wavefronts + totals.shared_st_wavefronts);
    QCOMPARE(grid.frame(last).global_accesses_so_far, global_lanes);
  }

  ScheduleModel schedule(doc);
  const ScheduleFrame s = schedule.frame(0);
  QCOMPARE(s.bars.size(), std::size_t{trace.block_count()});  // one bar per block
  std::set<std::uint32_t> blocks;
  for (const auto& bar : s.bars) {
    blocks.insert(bar.block);
    QVERIFY(bar.end >= bar.start);
    QVERIFY(bar.row < s.sms.size());
    if (s.timed) QCOMPARE(s.sms[bar.row], trace.schedule[bar.block].sm);
  }
  QCOMPARE(blocks.size(), std::size_t{trace.block_count()});
  if (s.timed) {
    std::uint32_t most = 0;
    for (const auto& sm : a.sms) most = std::max(most, sm.most_at_once);
    QCOMPARE(s.slot_count, most);  // rows are as deep as the SM's busiest moment
  }

  BarrierModel barrier(doc);
  for (std::size_t step = 0; step < std::max<std::size_t>(a.requests.size(), 1); step += 1 + a.requests.size() / 8) {
    const BarrierFrame probe = barrier.frame(step, 0);
    for (std::size_t k = 0; k < probe.passes_in_block; ++k) {
      const BarrierFrame f = barrier.frame(step, k);
      QVERIFY(f.has_pass);
      const auto& pass = a.barriers[f.pass];
      QCOMPARE(f.block, pass.block);
      QCOMPARE(f.lanes.size(), std::size_t{pass.warps});
      QCOMPARE(f.slowest_warp, pass.slowest_warp);
      QCOMPARE(f.spread, pass.spread());
      std::vector<std::uint16_t> order(f.lanes.size());
      for (const auto& lane : f.lanes) order[lane.rank] = lane.warp;
      QCOMPARE(order, pass.arrival_order);
      for (const auto& lane : f.lanes) QVERIFY(lane.arrival <= f.barrier_at);
    }
  }
}

// What the views show of a recording's source: the source pane's file and
// text, each step's highlighted line and its text, each barrier pass's line,
// and each buffer's name (taken from the kernel's signature).
std::vector<std::string> shown_source(const std::shared_ptr<const TraceDocument>& doc) {
  TraceViewsWidget w;
  w.set_document(doc);
  std::vector<std::string> shown{w.source().documentTitle().toStdString(), w.source().toPlainText().toStdString()};
  for (std::size_t step = 0; step < doc->analysis.requests.size(); ++step) {
    w.playback().seek(step);
    const int line = w.source().highlighted_line();
    shown.push_back(std::to_string(line) + ": " +
                    w.source().document()->findBlockByNumber(line - 1).text().toStdString());
  }
  const BarrierModel barriers(doc);
  for (std::size_t pass = 0; pass < doc->analysis.barriers.size(); ++pass)
    shown.push_back(barriers.frame(0, pass).source);
  for (std::size_t b = 0; b < doc->trace().buffers.size(); ++b)
    shown.push_back(buffer_name(*doc, static_cast<std::uint8_t>(b)));
  return shown;
}

// The same kernel file in the other dialect: a text whose lines differ.
std::string other_dialect(const std::string& file) {
  return file.ends_with(".cu") ? file.substr(0, file.size() - 3) + ".cl" : file.substr(0, file.size() - 3) + ".cu";
}

std::vector<std::string> all_bundled() {
  std::vector<std::string> kernels;
  for (const QString& f : QDir(THREADMAP_RECORDINGS).entryList({"*.threadmap"}, QDir::Files, QDir::Name))
    kernels.push_back(f.chopped(QString(".threadmap").size()).toStdString());
  return kernels;
}

QImage render(QWidget& w, QSize size) {
  w.resize(size);
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  w.render(&image);
  return image;
}

// Anti-aliasing and font hinting may move a few edge pixels: a pixel differs
// when a channel is off by more than 48; at most 1% may differ.
QString compare_golden(const QImage& image, const QString& name) {
  const QString path = QString(THREADMAP_GOLDEN_DIR) + "/" + name + ".png";
  if (qEnvironmentVariableIsSet("THREADMAP_UPDATE_GOLDEN")) {
    image.save(path);
    return {};
  }
  QImage golden(path);
  if (golden.isNull()) return "no golden image " + path + " (make it: see tests/README.md)";
  golden = golden.convertToFormat(QImage::Format_ARGB32_Premultiplied);
  if (golden.size() != image.size()) return "size differs from " + path;
  qint64 differing = 0;
  for (int y = 0; y < image.height(); ++y) {
    const auto* a = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    const auto* b = reinterpret_cast<const QRgb*>(golden.constScanLine(y));
    for (int x = 0; x < image.width(); ++x) {
      const int d = std::max({std::abs(qRed(a[x]) - qRed(b[x])), std::abs(qGreen(a[x]) - qGreen(b[x])),
                              std::abs(qBlue(a[x]) - qBlue(b[x]))});
      differing += d > 48;
    }
  }
  const double fraction = static_cast<double>(differing) / (image.width() * image.height());
  if (fraction > 0.01) {
    image.save(QDir::temp().filePath(name + ".actual.png"));
    return QString("%1: %2% of pixels differ (actual in %3)")
        .arg(name)
        .arg(fraction * 100, 0, 'f', 2)
        .arg(QDir::temp().filePath(name + ".actual.png"));
  }
  return {};
}

}  // namespace

class ViewsTest : public QObject {
  Q_OBJECT
 private slots:
  void models_equal_analysis_on_every_bundled_recording() {
    for (const auto& kernel : all_bundled()) {
      const auto doc = bundled(kernel);
      QVERIFY2(doc, kernel.c_str());
      check_models(doc);
      if (QTest::currentTestFailed()) QFAIL(("in " + kernel).c_str());
    }
  }

  // Moving a line in a kernel file changes no bundled recording's view: each
  // keeps the text its lines refer to. The program's file is stood in for by
  // a text whose lines differ (the family's file in the other dialect); the
  // views draw from the kept text and show what they showed. Without it (a
  // file older than sessions keeping it) they would show the other text's.
  void a_kernel_file_edit_changes_no_bundled_view() {
    for (const auto& kernel : all_bundled()) {
      const Session kept = load_session(std::string(THREADMAP_RECORDINGS) + "/" + kernel + ".threadmap");
      QVERIFY2(!kept.kernel_text.empty(), kernel.c_str());
      QCOMPARE(kept.kernel_file, kept.trace->source_file);
      Session moved = kept;
      moved.trace->source_file = other_dialect(kept.trace->source_file);
      QVERIFY(!threadmap::embedded_source(moved.trace->source_file).empty());
      const auto shown = shown_source(analysis::make_document(kept, kernel));
      QCOMPARE(shown_source(analysis::make_document(moved, kernel)), shown);
      Session older = moved;
      older.kernel_file.clear();
      older.kernel_text.clear();
      QVERIFY2(shown_source(analysis::make_document(older, kernel)) != shown, kernel.c_str());
    }
  }

  // A shared atomic as the banks serve it: a count (add of 1, unused)
  // merges the lanes on one word, as a load does; an add serves every lane
  // of a bank in turn, lanes on one word too. Half a warp on word 0 and half
  // on word 32, both in bank 0: 2 wavefronts, then 32.
  void banks_serve_an_atomic_as_its_machine_form_does() {
    for (const AtomicOp op : {AtomicOp::AddOne, AtomicOp::Add}) {
      Session session;
      session.kernel_id = "histogram.shared";
      Trace t;
      t.kernel_id = session.kernel_id;
      t.block = {32, 1, 1};
      t.traced_blocks = {0};
      t.schedule.resize(1);
      t.timing_pass = kTracedPassName;
      t.sites = {{26, Space::Shared, true, "atomic_inc(&counts[BIN(v)]);"}};
      t.sites[0].atomic = true;
      for (std::uint16_t lane = 0; lane < 32; ++lane) {
        Access a;
        a.space = Space::Shared;
        a.offset = lane < 16 ? 0 : 128;
        a.size = 4;
        a.store = true;
        a.atomic = op;
        a.reduction = true;
        a.thread = lane;
        a.line = 26;
        t.accesses.push_back(a);
      }
      session.trace = t;
      const auto doc = analysis::make_document(session, "atomics");
      const BankFrame f = BankModel(doc).frame(0);
      const std::uint16_t expected = op == AtomicOp::AddOne ? 2 : 32;
      QCOMPARE(f.atomic, op);
      QCOMPARE(f.wavefronts, expected);
      std::set<std::uint16_t> turns;
      for (const auto& lane : f.lanes) turns.insert(lane.wavefront);
      QCOMPARE(turns.size(), std::size_t{expected});  // each wavefront serves a lane or a word
      QCOMPARE(doc->analysis.totals.shared_atom_requests, std::uint64_t{1});
      QCOMPARE(TraceView::access_kind(true, 1, 4, op), op == AtomicOp::AddOne ? QString("atomic add 1") : QString("atomic add"));
    }
  }

  // Where the compiler merged the source's accesses, the site says how many
  // and the views say so beside the line.
  void views_say_where_the_compiler_merged_accesses() {
    auto session = load_session(std::string(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap");
    for (AccessSite& s : session.trace->sites)
      if (s.space == Space::Shared && s.store) s.merged = 4;
    const auto doc = analysis::make_document(session, "merged");
    const auto stores = requests_where(*doc, Space::Shared, true);
    QVERIFY(!stores.empty());
    const BankFrame f = BankModel(doc).frame(stores.front());
    QCOMPARE(int{f.merged}, 4);
    QCOMPARE(int{f.access_bytes}, 4);
    const auto loads = requests_where(*doc, Space::Shared, false);
    QCOMPARE(int{BankModel(doc).frame(loads.front()).merged}, 1);
    const auto* site = doc->analysis.site_of(doc->analysis.requests[stores.front()]);
    QVERIFY(site);
    QCOMPARE(int{site->merged}, 4);
    // The bank view's caption carries the note.
    BankView view;
    view.set_document(doc);
    view.set_step(stores.front(), 1.0);
    render(view, {800, 600});
    QCOMPARE(int{view.frame().merged}, 4);
  }

  void bank_view_shows_conflicts_and_the_padding_fix() {
    for (const auto& [kernel, expected] : std::vector<std::pair<std::string, int>>{
             {"smem.setRowReadCol", 32}, {"smem.setRowReadColPad", 1}, {"smem.setRowReadRow", 1}}) {
      const auto doc = bundled(kernel);
      BankModel banks(doc);
      const auto loads = requests_where(*doc, Space::Shared, false);
      QVERIFY(!loads.empty());
      for (const std::size_t i : loads) QCOMPARE(int{banks.frame(i).wavefronts}, expected);
      const BankFrame f = banks.frame(loads.front());
      QVERIFY(f.tile.known);
      if (kernel == "smem.setRowReadColPad") {
        QCOMPARE(f.tile.declaration, std::string("tile[32][33]"));
        QVERIFY(std::any_of(f.words.begin(), f.words.end(), [](const BankWord& w) { return w.padding; }));
        // The padded column lands on 32 different banks.
        std::set<std::uint32_t> used;
        for (const auto& lane : f.lanes) used.insert(lane.bank);
        QCOMPARE(used.size(), std::size_t{32});
      }
      if (kernel == "smem.setRowReadCol") {
        QCOMPARE(f.tile.declaration, std::string("tile[32][32]"));
        std::set<std::uint32_t> used;
        for (const auto& lane : f.lanes) used.insert(lane.bank);
        QCOMPARE(used.size(), std::size_t{1});  // a column of the tile: one bank, 32 replays
      }
    }
  }

  void grid_view_swaps_the_transpose_tile() {
    const auto doc = bundled("transpose.shared");
    GridModel grid(doc);
    const GridFrame f = grid.frame(0);
    QCOMPARE(f.matrices.size(), std::size_t{2});
    const GridMatrix& in = f.matrices[0];
    const GridMatrix& out = f.matrices[1];
    QCOMPARE(in.role, std::string("input"));
    const Trace& trace = doc->trace();
    QCOMPARE(in.outlines.size(), trace.traced_blocks.size());
    bool swapped_somewhere = false;
    for (const auto& o : in.outlines) {
      const auto match = std::find_if(out.outlines.begin(), out.outlines.end(),
                                      [&](const BlockOutline& x) { return x.block == o.block; });
      QVERIFY(match != out.outlines.end());
      // Block (bx, by) reads tile (bx, by) and writes it at (by, bx).
      QCOMPARE(match->row0 + out.row0, o.col0 + in.col0);
      QCOMPARE(match->col0 + out.col0, o.row0 + in.row0);
      swapped_somewhere |= o.row0 != o.col0;
    }
    QVERIFY(swapped_somewhere);
  }

  void grid_view_scatters_the_naive_reads() {
    const auto doc = bundled("transpose.naive");
    GridModel grid(doc);
    auto rows_lit = [&](std::size_t step) -> std::size_t {
      const GridFrame f = grid.frame(step);
      std::set<std::uint64_t> rows;
      for (const auto& m : f.matrices)
        for (std::uint64_t r = 0; r < m.rows; ++r)
          for (std::uint64_t c = 0; c < m.cols; ++c)
            if (m.at(r, c).state == CellState::CurrentRead || m.at(r, c).state == CellState::CurrentWrite)
              rows.insert(r);
      if (f.current_cells != doc->analysis.requests[step].lanes) return 0;  // every lane lit
      return rows.size();
    };
    const auto loads = requests_where(*doc, Space::Global, false);
    const auto stores = requests_where(*doc, Space::Global, true);
    QCOMPARE(rows_lit(loads.front()), std::size_t{16});  // a warp reads down a column: 16 rows
    QCOMPARE(rows_lit(stores.front()), std::size_t{2});  // and writes along two rows
  }

  // transpose.coalesced: 16 x 16 threads move a 64 x 64 tile in 16-byte
  // strips. At a request of block (1, 1) the window shows that block's tile,
  // and each strip lights the 4 ints it touches.
  void grid_window_follows_the_request_and_wide_accesses_light_every_element() {
    const auto doc = bundled("transpose.coalesced");
    const Trace& trace = doc->trace();
    const std::uint32_t block = 1 + trace.grid[0];  // (1, 1)
    const auto& requests = doc->analysis.requests;
    const auto loads = requests_where(*doc, Space::Global, false);
    const auto at = std::find_if(loads.begin(), loads.end(), [&](std::size_t i) { return requests[i].block == block; });
    QVERIFY(at != loads.end());
    const auto& r = requests[*at];
    QCOMPARE(r.size, 16);
    const GridFrame f = GridModel(doc).frame(*at);
    QCOMPARE(f.current_block, block);
    QCOMPARE(f.current_cells, std::uint32_t{r.lanes});
    const GridMatrix& in = f.matrices[0];
    QCOMPARE(in.role, std::string("input"));
    QVERIFY(in.row0 <= 64 && in.row0 + in.rows >= 128 && in.col0 <= 64 && in.col0 + in.cols >= 128);
    const auto outline =
        std::find_if(in.outlines.begin(), in.outlines.end(), [&](const BlockOutline& o) { return o.current; });
    QVERIFY(outline != in.outlines.end());
    QCOMPARE(outline->block, block);
    QCOMPARE(outline->rows, std::uint64_t{64});
    std::size_t lit = 0;
    for (const auto& cell : in.cells) lit += cell.state == CellState::CurrentRead;
    QCOMPARE(lit, std::size_t{r.lanes} * 16 / in.shape.element_bytes);  // 4 ints a lane
    QCOMPARE(in.shape.element_bytes, std::uint32_t{4});
    // A smaller window still holds the current block's tile.
    const GridFrame small = GridModel(doc).frame(*at, 16);
    QVERIFY(small.matrices[0].rows <= 16 && small.current_cells > 0);
  }

  // The buffers go by the kernel's own parameter names.
  void grid_names_buffers_as_the_kernel_does() {
    const GridFrame naive = GridModel(bundled("transpose.naive")).frame(0);
    QCOMPARE(naive.matrices.size(), std::size_t{2});
    QCOMPARE(naive.matrices[0].name, std::string("a"));
    QCOMPARE(naive.matrices[1].name, std::string("trA"));
    const GridFrame coalesced = GridModel(bundled("transpose.coalesced")).frame(0);
    QCOMPARE(coalesced.matrices[0].name, std::string("in"));
    QCOMPARE(coalesced.matrices[1].name, std::string("out"));
  }

  void grid_tooltip_names_thread_and_access() {
    const auto doc = bundled("transpose.shared");
    GridView view;
    view.set_document(doc);
    render(view, {800, 600});
    const GridFrame& f = view.frame();
    const GridModel model(doc);
    for (std::uint64_t r = 0; r < f.matrices[0].rows; ++r)
      for (std::uint64_t c = 0; c < f.matrices[0].cols; ++c)
        if (f.matrices[0].at(r, c).state == CellState::CurrentRead) {
          const std::string text = model.describe(f, 0, r, c);
          QVERIFY2(text.find("read by thread (") != std::string::npos, text.c_str());
          // The line of transpose_shared's global load, wherever the source puts it.
          const auto& sites = doc->trace().sites;
          const auto load = std::find_if(sites.begin(), sites.end(),
                                         [](const auto& s) { return s.space == threadmap::Space::Global && !s.store; });
          QVERIFY(load != sites.end());
          const std::string line = "line " + std::to_string(load->line);
          QVERIFY2(text.find(line) != std::string::npos, (text + " lacks " + line).c_str());
          return;
        }
    QFAIL("no current read cell at step 0");
  }

  void schedule_bars_come_from_the_recording() {
    const auto doc = bundled("smem.setRowReadCol");
    ScheduleModel schedule(doc);
    const ScheduleFrame f = schedule.frame(0);
    QVERIFY(f.timed);
    QCOMPARE(f.sms.size(), doc->analysis.sms.size());
    const auto& b = doc->trace().schedule[5];
    QCOMPARE(f.bars[5].end - f.bars[5].start, static_cast<double>(b.end - b.start));
  }

  void playback_keys() {
    TraceViewsWidget w;
    w.set_document(bundled("smem.setRowReadCol"));
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setFocus();
    auto& play = w.playback();
    const std::size_t steps = w.document()->analysis.requests.size();
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(play.step(), std::size_t{1});
    QCOMPARE(w.banks().step(), std::size_t{1});
    QTest::keyClick(&w, Qt::Key_End);
    QCOMPARE(play.step(), steps - 1);
    QTest::keyClick(&w, Qt::Key_Left);
    QCOMPARE(play.step(), steps - 2);
    QTest::keyClick(&w, Qt::Key_Home);
    QCOMPARE(play.step(), std::size_t{0});
    QCOMPARE(w.source().highlighted_line(), int{w.document()->analysis.requests[0].line});
    const double speed = play.speed();
    QTest::keyClick(&w, Qt::Key_Plus);
    QCOMPARE(play.speed(), speed * 2);
    QTest::keyClick(&w, Qt::Key_Minus);
    QCOMPARE(play.speed(), speed);
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(play.playing());
    QTRY_VERIFY_WITH_TIMEOUT(play.step() > 0 || play.phase() > 0.05, 3000);
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(!play.playing());
    QCOMPARE(play.phase(), 1.0);
    w.playback_bar().scrubber().setValue(10);
    QCOMPARE(play.step(), std::size_t{10});
  }

  void presentation_mode_fits_1024x768() {
    TraceViewsWidget w;
    w.set_document(bundled("transpose.shared"));
    w.set_presentation(true);
    QVERIFY(w.presentation());
    QVERIFY(w.grid().theme().font_px >= 20);
    const QImage image = render(w, {1024, 768});
    QVERIFY(!image.isNull());
    QVERIFY(w.grid().width() >= 600);
    // What the grid painted: text, all of it at the room's 24 px at least, and
    // the current request's cells.
    const PaintRecord& painted = w.grid().painted();
    QVERIFY(!painted.texts.empty());
    for (const PaintedText& t : painted.texts) QVERIFY2(t.pixel_size >= 24, qPrintable(t.text));
    QVERIFY(std::any_of(painted.marks.begin(), painted.marks.end(), [](const PaintedMark& m) { return m.current; }));
    w.set_presentation(false);
    QVERIFY(!w.presentation());
  }

  void golden_images() {
    struct Case {
      const char* name;
      const char* kernel;
      std::function<TraceView*()> make;
      std::size_t step;
    };
    const std::vector<Case> cases{
        {"grid_transpose_shared", "transpose.shared", [] { return new GridView; }, 40},
        {"banks_setRowReadCol", "smem.setRowReadCol", [] { return new BankView; }, 64},
        {"banks_setRowReadColPad", "smem.setRowReadColPad", [] { return new BankView; }, 64},
        {"barrier_setRowReadCol", "smem.setRowReadCol", [] { return new BarrierView; }, 0},
        {"coalescing_transpose_naive", "transpose.naive", [] { return new CoalescingView; }, 0},
        {"schedule_transpose_shared", "transpose.shared", [] { return new ScheduleView; }, 0},
    };
    QStringList failures;
    for (const auto& c : cases) {
      std::unique_ptr<TraceView> view(c.make());
      view->set_document(bundled(c.kernel));
      view->set_step(c.step, 1.0);
      const QString problem = compare_golden(render(*view, {800, 600}), c.name);
      if (!problem.isEmpty()) failures << problem;
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    if (!qEnvironmentVariableIsSet("THREADMAP_UPDATE_GOLDEN")) {
      // The tolerance still tells the padded tile from the conflicting one.
      BankView padded;
      padded.set_document(bundled("smem.setRowReadColPad"));
      padded.set_step(64, 1.0);
      QVERIFY(!compare_golden(render(padded, {800, 600}), "banks_setRowReadCol").isEmpty());
    }
  }

  void live_pocl_recording() {
    auto td = testing::first_device("opencl");
    if (!td.device) QSKIP(td.skip_reason.c_str());
    for (const auto& [kernel, sets] :
         std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>{
             {"transpose.shared", {{"width", "64"}, {"height", "48"}, {"tile", "16"}, {"pad", "1"}}},
             {"smem.setRowReadCol", {{"block_x", "32"}, {"block_y", "32"}, {"blocks", "4"}}}}) {
      const Variant* v = find_variant(kernel);
      QVERIFY(v);
      const Params params = make_params(v->params, sets, v->id);
      const Recording rec = record_trace(*td.device, *v, params, {});
      QVERIFY2(rec.status == RunStatus::Ok, rec.error.c_str());
      Session session;
      session.kernel_id = kernel;
      for (const auto& [name, value] : sets) session.params[name] = value;
      session.params["type"] = "int";
      session.trace = rec.trace;
      const auto doc = analysis::make_document(std::move(session), "live run on " + td.device->info().name);
      QVERIFY(doc);
      QVERIFY(!doc->analysis.requests.empty());
      check_models(doc);
      if (QTest::currentTestFailed()) QFAIL(("live " + kernel).c_str());
      // OpenCL gives the order blocks ran in, not a clock or an SM id.
      QVERIFY(!ScheduleModel(doc).frame(0).timed);
      if (kernel == "smem.setRowReadCol") {
        BankModel banks(doc);
        for (const std::size_t i : requests_where(*doc, Space::Shared, false))
          QCOMPARE(int{banks.frame(i).wavefronts}, 32);
      }
      TraceViewsWidget w;
      w.set_document(doc);
      for (int tab = 0; tab < w.tabs().count(); ++tab) {
        w.tabs().setCurrentIndex(tab);
        QVERIFY(!render(w, {1024, 768}).isNull());
        // Each view drew its heading, and the schedule its current block.
        const auto& view = *static_cast<const TraceView*>(w.tabs().currentWidget());
        QVERIFY2(!view.painted().texts.empty(), qPrintable(w.tabs().tabText(tab)));
        if (&view == &w.schedule()) {
          const auto& marks = view.painted().marks;
          QVERIFY(std::any_of(marks.begin(), marks.end(), [](const PaintedMark& m) { return m.current; }));
        }
      }
    }
  }
  // At a step of the other memory space the bank and coalescing views say
  // what the step is and draw no other request's lanes (no stale picture).
  void views_draw_only_the_current_steps_request() {
    const auto doc = bundled("transpose.shared");
    const auto shared = requests_where(*doc, Space::Shared, false);
    const auto global = requests_where(*doc, Space::Global, false);
    QVERIFY(!shared.empty() && !global.empty());
    QVERIFY(BankModel(doc).frame(shared.front()).at_step);
    QVERIFY(!BankModel(doc).frame(global.front()).at_step);
    QVERIFY(CoalescingModel(doc).frame(global.front()).at_step);
    QVERIFY(!CoalescingModel(doc).frame(shared.front()).at_step);
    BankView banks;
    banks.set_document(doc);
    banks.set_step(global.front(), 1.0);
    render(banks, {800, 600});
    QVERIFY(banks.painted().marks.empty());
    QVERIFY(std::any_of(banks.painted().texts.begin(), banks.painted().texts.end(),
                        [](const PaintedText& t) { return t.text.startsWith("This step is a global load"); }));
    CoalescingView coalescing;
    coalescing.set_document(doc);
    coalescing.set_step(shared.front(), 1.0);
    render(coalescing, {800, 600});
    QVERIFY(coalescing.painted().marks.empty());
  }

  // In a presentation's short view the bank view draws fewer rows, each as
  // high as a wavefront's number (24 px type), and numbers the wavefronts;
  // the coalescing view paints no text over its sector boxes.
  void presented_banks_and_sectors_are_big_enough() {
    BankView banks;
    banks.set_theme(Theme::projector());
    banks.set_document(bundled("smem.setRowReadCol"));
    const auto loads = requests_where(*bundled("smem.setRowReadCol"), Space::Shared, false);
    banks.set_step(loads.front(), 1.0);
    render(banks, {1000, 330});
    const PaintRecord& b = banks.painted();
    // "2": lane 2, bank 2 and the second wavefront's disc.
    QVERIFY(std::count_if(b.texts.begin(), b.texts.end(), [](const PaintedText& t) { return t.text == "2"; }) >= 3);
    for (const PaintedText& t : b.texts) QVERIFY2(t.pixel_size >= 24, qPrintable(t.text));
    const QRectF lane0 = b.marks.front().rect;
    QVERIFY(lane0.width() * 32 >= 0.6 * 1000);

    CoalescingView coalescing;
    coalescing.set_theme(Theme::projector());
    coalescing.set_document(bundled("transpose.naive"));
    coalescing.set_step(0, 1.0);
    render(coalescing, {1000, 330});
    const PaintRecord& c = coalescing.painted();
    for (const PaintedMark& m : c.marks)
      for (const PaintedText& t : c.texts)
        if (!t.label) QVERIFY2(!m.rect.intersects(t.rect), qPrintable(t.text));
  }

  // The bundled recordings predate traces carrying layouts: read, they get
  // them from their parameters (fill_older_layouts), and draw exactly what
  // a recording of today, carrying what the family builder declares for the
  // same parameters, draws: every buffer's shape and name, and the tile.
  void older_recordings_draw_as_the_families_declare() {
    std::size_t tiles = 0, matrices = 0;
    for (const auto& kernel : all_bundled()) {
      const Session older = load_session(std::string(THREADMAP_RECORDINGS) + "/" + kernel + ".threadmap");
      const Variant* v = find_variant(older.kernel_id);
      QVERIFY2(v, kernel.c_str());
      std::vector<std::pair<std::string, std::string>> sets(traced_params(older).begin(), traced_params(older).end());
      const Workload w = v->build(*v, make_params(v->params, sets, v->id), 1);
      Session today = older;
      Trace& t = *today.trace;
      QCOMPARE(t.buffers.size(), w.buffers.size());
      for (std::size_t k = 0; k < w.buffers.size(); ++k) {
        t.buffers[k].row_elements = w.buffers[k].row_elements;
        t.buffers[k].argument = TracedBuffer::kNotPassed;
      }
      int place = 0;
      for (const KernelArg& a : w.launches.at(static_cast<std::size_t>(t.launch)).args)
        if (const auto* b = std::get_if<BufferArg>(&a))
          t.buffers[static_cast<std::size_t>(b->buffer)].argument = place++;
      t.tile = w.tile;
      const auto old_doc = analysis::make_document(older, kernel);
      const auto new_doc = analysis::make_document(today, kernel);
      for (std::size_t k = 0; k < w.buffers.size(); ++k) {
        const auto b = static_cast<std::uint8_t>(k);
        const MatrixShape a = matrix_shape(*old_doc, b), n = matrix_shape(*new_doc, b);
        QVERIFY2(a.rows == n.rows && a.cols == n.cols && a.element_bytes == n.element_bytes, kernel.c_str());
        QCOMPARE(buffer_name(*old_doc, b), buffer_name(*new_doc, b));
        matrices += a.cols != 32;
      }
      const TileShape a = tile_shape(*old_doc), n = tile_shape(*new_doc);
      QCOMPARE(a.known, n.known);
      QCOMPARE(a.declaration, n.declaration);
      QVERIFY2(a.rows == n.rows && a.cols == n.cols && a.data_cols == n.data_cols, kernel.c_str());
      tiles += a.known;
    }
    QVERIFY(tiles >= 10 && matrices >= 8);
    // What they draw, as the lessons have it.
    const auto shared = bundled("transpose.shared");
    const std::uint64_t width = param_or(*shared, "width", 0), height = param_or(*shared, "height", 0);
    QCOMPARE(matrix_shape(*shared, 0).cols, width);
    QCOMPARE(matrix_shape(*shared, 1).cols, height);
    QCOMPARE(tile_shape(*shared).declaration,
             "tile[" + std::to_string(param_or(*shared, "tile", 0)) + "][" +
                 std::to_string(param_or(*shared, "tile", 0) + param_or(*shared, "pad", 0)) + "]");
    QCOMPARE(tile_shape(*bundled("smem.setColReadCol")).declaration, std::string("tile[32][32]"));
    QCOMPARE(tile_shape(*bundled("smem.setRowReadColRectPad")).data_cols,
             static_cast<std::uint32_t>(param_or(*bundled("smem.setRowReadColRectPad"), "block_x", 0)));
    QVERIFY(!tile_shape(*bundled("reduce.sequential")).known);
    const auto reduce = bundled("reduce.sequential");
    QCOMPARE(matrix_shape(*reduce, 0).cols, std::uint64_t{32});  // 1-D: wrapped at a warp
    QCOMPARE(buffer_name(*reduce, 0), std::string("global_mem"));
    QCOMPARE(buffer_name(*reduce, 1), std::string("out"));
    if (reduce->trace().buffers.size() > 2) QCOMPARE(buffer_name(*reduce, 2), reduce->trace().buffers[2].name);
  }

  // A pack's buffer with a declared row (tests/data/packs/rowsum: m has
  // row = "width") is drawn as that matrix: a recording on PoCL carries the
  // row, and the grid view's m is width wide; sums, declaring none, wraps at 32.
  void a_packs_declared_row_draws_its_matrix() {
    auto td = testing::first_device("opencl");
    if (!td.device) QSKIP(td.skip_reason.c_str());
    const auto variants = pack::pack_variants(pack::load_pack(THREADMAP_TEST_DATA "/packs/rowsum"));
    const auto tree =
        std::find_if(variants.begin(), variants.end(), [](const Variant& v) { return v.id == "rowsum.tree"; });
    QVERIFY(tree != variants.end());
    const std::vector<std::pair<std::string, std::string>> sets = {{"width", "300"}, {"height", "6"}, {"wg", "32"}};
    const Recording rec = record_trace(*td.device, *tree, make_params(tree->params, sets, tree->id), {});
    QVERIFY2(rec.status == RunStatus::Ok, rec.error.c_str());
    QCOMPARE(rec.trace.buffers.at(0).row_elements, std::uint64_t{300});
    QVERIFY(!rec.trace.tile);
    Session session;
    session.kernel_id = tree->id;
    for (const auto& [name, value] : sets) session.params[name] = value;
    session.kernel_file = rec.trace.source_file;  // the pack's own file, kept as `record` keeps it
    session.kernel_text = tree->texts.at(threadmap::Dialect::OpenCL).text;
    session.trace = rec.trace;
    // Through a file, as the window opens it.
    const auto doc = analysis::make_document(decode_session(encode_session(session)), "rowsum.tree");
    QVERIFY(doc);
    const GridFrame f = GridModel(doc).frame(0);
    const auto m =
        std::find_if(f.matrices.begin(), f.matrices.end(), [](const GridMatrix& g) { return g.name == "m"; });
    QVERIFY(m != f.matrices.end());
    QCOMPARE(m->shape.cols, std::uint64_t{300});
    QCOMPARE(m->shape.rows, std::uint64_t{6});
    QCOMPARE(matrix_shape(*doc, 1).cols, std::uint64_t{32});
    QCOMPARE(buffer_name(*doc, 1), std::string("sums"));
    QVERIFY(!tile_shape(*doc).known);
  }
};

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  ViewsTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "views_test.moc"
