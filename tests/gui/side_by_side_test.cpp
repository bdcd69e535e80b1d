// How the Side by side tab pairs two recordings' steps and what it says of
// them (app/gui/side_by_side.h), on the bundled H100 recordings and on a
// small made-up pair, without widgets.
#include <QRegularExpression>
#include <QTest>

#include <set>

#include "app/gui/session_store.h"
#include "app/gui/side_by_side.h"

using namespace threadmap;
using analysis::Analysis;
using analysis::Request;
using gui::PairedStep;

namespace {

std::shared_ptr<const analysis::TraceDocument> load(const char* kernel) {
  Session s;
  const QString path = QString(THREADMAP_RECORDINGS) + "/" + kernel + ".threadmap";
  if (!gui::SessionStore::load(path, s).isEmpty()) return nullptr;
  return analysis::make_document(std::move(s), path.toStdString());
}

gui::AccessKind kind(const Request& r) { return gui::kind_of(r.space, r.store); }

// A block's coordinates in its recording's grid (its linear id where the
// analysis has no grid).
std::array<std::uint32_t, 3> at(const Analysis& a, std::uint32_t block) {
  if (a.grid[0] == 0) return {block, 0, 0};
  return {block % a.grid[0], block / a.grid[0] % a.grid[1], block / (a.grid[0] * a.grid[1])};
}

// Every request of each side in exactly one step; paired requests the same
// block (by its coordinates: the two grids may differ in shape), warp and
// instance at sites of one kind.
QString check_pairing(const Analysis& a, const Analysis& b, const std::vector<PairedStep>& steps) {
  std::array<std::set<std::size_t>, 2> seen;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const auto& [ia, ib] = steps[s].request;
    if (!ia && !ib) return QString("step %1 shows nothing").arg(s);
    if (ia && !seen[0].insert(*ia).second) return QString("a's request %1 twice").arg(*ia);
    if (ib && !seen[1].insert(*ib).second) return QString("b's request %1 twice").arg(*ib);
    if (!ia || !ib) continue;
    const Request &ra = a.requests[*ia], &rb = b.requests[*ib];
    if (at(a, ra.block) != at(b, rb.block) || ra.warp != rb.warp || ra.instance != rb.instance ||
        kind(ra) != kind(rb))
      return QString("step %1 pairs block %2 warp %3 with block %4 warp %5")
          .arg(s)
          .arg(ra.block)
          .arg(ra.warp)
          .arg(rb.block)
          .arg(rb.warp);
  }
  if (seen[0].size() != a.requests.size() || seen[1].size() != b.requests.size()) return "a request has no step";
  return {};
}

Request request(std::uint32_t block, std::uint16_t warp, std::uint16_t line, Space space, bool store) {
  Request r;
  r.block = block, r.warp = warp, r.line = line, r.space = space, r.store = store;
  return r;
}

analysis::SiteTotals site(std::uint16_t line, Space space, bool store) {
  analysis::SiteTotals s;
  s.line = line, s.space = space, s.store = store;
  return s;
}

}  // namespace

class SideBySideTest : public QObject {
  Q_OBJECT
 private slots:
  // The column read of setRowReadCol against its padded twin: block 0 warp
  // 0's shared load in both panes at one step.
  void rowReadColPairsTheSameWarpsColumnRead() {
    const auto a = load("smem.setRowReadCol"), b = load("smem.setRowReadColPad");
    QVERIFY(a && b);
    const std::vector<PairedStep> steps = gui::pair_steps(a->analysis, b->analysis);
    const QString problem = check_pairing(a->analysis, b->analysis, steps);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // Both recordings traced blocks 0 and 1, every warp: every request pairs.
    QCOMPARE(steps.size(), a->analysis.requests.size());
    QCOMPARE(steps.size(), b->analysis.requests.size());
    bool found = false;
    for (const PairedStep& s : steps) {
      const Request& ra = a->analysis.requests[*s.request[0]];
      if (ra.block != 0 || ra.warp != 0 || kind(ra) != gui::AccessKind::SharedLoad) continue;
      QVERIFY(s.request[1]);
      const Request& rb = b->analysis.requests[*s.request[1]];
      QCOMPARE(rb.block, 0u);
      QCOMPARE(rb.warp, std::uint16_t{0});
      QCOMPARE(kind(rb), gui::AccessKind::SharedLoad);
      QCOMPARE(gui::site_text(*a->analysis.site_of(ra)),
               QString("line 71 shared load: 32 wavefront(s) per request (ideal 1)"));
      found = true;
    }
    QVERIFY(found);
    const QString difference = gui::difference_text(*a, *b);
    QVERIFY2(difference.startsWith("shared load, wavefronts per request: 32 → 1 (bank conflicts → none) · "),
             qPrintable(difference));
    QVERIFY2(difference.contains("× the bandwidth"), qPrintable(difference));
  }

  // 64 requests against 1280: no pane sits on a request while the other
  // walks through unrelated ones; the lesson is the global load's sectors.
  void transposePairsLikeWithLike() {
    const auto a = load("transpose.naive"), b = load("transpose.coalesced");
    QVERIFY(a && b);
    const std::vector<PairedStep> steps = gui::pair_steps(a->analysis, b->analysis);
    const QString problem = check_pairing(a->analysis, b->analysis, steps);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    std::size_t both = 0;
    for (const PairedStep& s : steps) both += s.request[0] && s.request[1];
    QVERIFY(both > 0);
    // Where naive has none, it says why.
    for (const PairedStep& s : steps) {
      if (s.request[0]) continue;
      const Request& rb = b->analysis.requests[*s.request[1]];
      const QString why = gui::missing_text(*a, *b, *s.request[1]);
      if (kind(rb) == gui::AccessKind::SharedLoad) QCOMPARE(why, QString("no shared load here in transpose.naive"));
      // Block 16 of the 16-wide grid is (0, 1), which the naive kernel traced
      // too (its block 64): the coalesced kernel's further loads are what it lacks.
      if (rb.block == 16 && rb.space == Space::Global)
        QVERIFY2(why.startsWith("block (0, 1) warp ") && why.contains(" only 1 time(s) in transpose.naive"),
                 qPrintable(why));
      QVERIFY(!why.isEmpty());
    }
    const QString difference = gui::difference_text(*a, *b);
    QVERIFY2(difference.startsWith("global load, sectors per 128 bytes: 16 → 4 (uncoalesced → coalesced) · "
                                   "shared load, shared store only in transpose.coalesced · "),
             qPrintable(difference));
    QVERIFY2(difference.contains("× the bandwidth"), qPrintable(difference));
  }

  // The naive transpose's grid is 64 blocks a row, the coalesced one's 16:
  // blocks pair by coordinates, so block (0, 1) (naive's 64, coalesced's 16)
  // is the same moment in both panes, and every request of the naive kernel
  // (its global load and store in the four blocks both traced) has its
  // counterpart. Paired by linear id, at most 32 of about 1300 steps showed
  // both panes, and each said falsely it "traced no block (0, 1)".
  void transposePairsBlocksByTheirCoordinates() {
    const auto a = load("transpose.naive"), b = load("transpose.coalesced");
    QVERIFY(a && b);
    QVERIFY(a->analysis.grid[0] != b->analysis.grid[0]);  // two grids of other shapes
    const std::vector<PairedStep> steps = gui::pair_steps(a->analysis, b->analysis);
    std::size_t both = 0;
    for (const PairedStep& s : steps) both += s.request[0] && s.request[1];
    QCOMPARE(both, a->analysis.requests.size());
    for (const PairedStep& s : steps)
      if (!s.request[0]) {
        const QString why = gui::missing_text(*a, *b, *s.request[1]);
        QVERIFY2(!why.contains("traced no block"), qPrintable(why));
      }
  }

  // Steps follow a's order; b's unpaired requests come where b reached them;
  // a pane without a request holds the one it showed last.
  void madeUpPairKeepsOrderAndHolds() {
    Analysis a, b;
    a.sites = {site(10, Space::Global, false), site(20, Space::Shared, false)};
    b.sites = {site(30, Space::Global, false), site(35, Space::Shared, true), site(40, Space::Shared, false)};
    a.requests = {request(0, 0, 10, Space::Global, false), request(0, 1, 10, Space::Global, false),
                  request(0, 0, 20, Space::Shared, false)};
    b.requests = {request(0, 1, 30, Space::Global, false), request(0, 0, 35, Space::Shared, true),
                  request(0, 0, 30, Space::Global, false), request(0, 0, 40, Space::Shared, false),
                  request(0, 2, 30, Space::Global, false)};
    const std::vector<PairedStep> steps = gui::pair_steps(a, b);
    const QString problem = check_pairing(a, b, steps);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    using O = std::optional<std::size_t>;
    const std::vector<std::array<O, 2>> expected{{O{}, 1}, {0, 2}, {1, 0}, {2, 3}, {O{}, 4}};
    QCOMPARE(steps.size(), expected.size());
    for (std::size_t s = 0; s < steps.size(); ++s)
      QVERIFY2(steps[s].request == expected[s], qPrintable(QString::number(s)));
    QCOMPARE(gui::shown_request(steps, 0, 0), O{0});  // none yet: the first to come
    QCOMPARE(gui::shown_request(steps, 1, 0), O{0});
    QCOMPARE(gui::shown_request(steps, 4, 0), O{2});
    QCOMPARE(gui::shown_request({}, 0, 0), O{});
  }

  // Plural forms come from tr's %n, never "1 wavefronts".
  void noOneWavefronts() {
    for (const char* kernel : {"smem.setRowReadColPad", "transpose.coalesced", "transpose.naive"}) {
      const auto doc = load(kernel);
      QVERIFY(doc);
      for (const auto& s : doc->analysis.sites) {
        const QString text = gui::site_text(s);
        QVERIFY2(!text.contains(QRegularExpression("\\b1 (wavefronts|sectors)\\b")), qPrintable(text));
      }
    }
  }
};

QTEST_MAIN(SideBySideTest)
#include "side_by_side_test.moc"
