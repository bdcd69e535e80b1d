#include "app/gui/side_by_side.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>

#include "kernels/pack/catalog.h"
#include "kernels/core/report.h"
#include "viz/views/timeline.h"
#include "viz/views/bank_view.h"
#include "viz/views/barrier_view.h"
#include "viz/views/coalescing_view.h"
#include "viz/views/grid_view.h"
#include "viz/views/schedule_view.h"

namespace threadmap::gui {

using analysis::Analysis;
using analysis::Request;
using analysis::SiteTotals;
using analysis::TraceDocument;

namespace {

bool whole(double v) { return v == std::floor(v); }

// 32, 16.5, 1.25: whole numbers bare, else up to two decimals.
QString number(double v) { return QLocale().toString(v, 'f', whole(v) ? 0 : v < 10 ? 2 : 1); }

double ratio(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0 : static_cast<double>(a) / static_cast<double>(b); }

// Each site's rank among the sites of its kind (sites are by line).
std::vector<std::size_t> ranks_of(const Analysis& a) {
  std::array<std::size_t, 4> next{};
  std::vector<std::size_t> ranks;
  for (const SiteTotals& s : a.sites) ranks.push_back(next[static_cast<int>(kind_of(s.space, s.store))]++);
  return ranks;
}

// A request's block as coordinates in its grid: the two kernels of a pair
// may have grids of different shapes (transpose.naive's 64 blocks a row
// against transpose.coalesced's 16), where one linear id is two blocks.
// An analysis made without a trace (no grid) keeps the linear id.
std::array<std::uint32_t, 3> block_coordinates(const Analysis& a, std::uint32_t block) {
  if (a.grid[0] == 0 || a.grid[1] == 0) return {block, 0, 0};
  return {block % a.grid[0], block / a.grid[0] % a.grid[1], block / (a.grid[0] * a.grid[1])};
}

// What pairs a request with its counterpart: its site's kind and rank, its
// block's coordinates, warp and instance.
using RequestKey = std::tuple<int, std::size_t, std::array<std::uint32_t, 3>, std::uint16_t, std::uint32_t>;
std::optional<RequestKey> key_of(const Analysis& a, const std::vector<std::size_t>& ranks, const Request& r) {
  const SiteTotals* site = a.site_of(r);
  if (!site) return std::nullopt;
  const std::size_t rank = ranks[static_cast<std::size_t>(site - a.sites.data())];
  return RequestKey{static_cast<int>(kind_of(r.space, r.store)), rank, block_coordinates(a, r.block), r.warp,
                    r.instance};
}

// The site of `kind` and `rank` in a, if it has one.
const SiteTotals* site_at(const Analysis& a, AccessKind kind, std::size_t rank) {
  for (const SiteTotals& s : a.sites)
    if (kind_of(s.space, s.store) == kind && rank-- == 0) return &s;
  return nullptr;
}

// "32 wavefronts per request" (the singular from the English plural forms).
QString per_request(double v, Space space) {
  if (whole(v)) {
    const int n = static_cast<int>(v);
    if (space == Space::Shared)
      return QCoreApplication::translate("SideBySide", "%n wavefront(s) per request", nullptr, n);
    return QCoreApplication::translate("SideBySide", "%n sector(s) per request", nullptr, n);
  }
  return (space == Space::Shared ? QCoreApplication::translate("SideBySide", "%1 wavefronts per request")
                                 : QCoreApplication::translate("SideBySide", "%1 sectors per request"))
      .arg(number(v));
}

// One pair of corresponding sites where they differ, else "". Sites that
// move different bytes per request (a wider access) compare per a's bytes.
QString site_difference(const SiteTotals& a, const SiteTotals& b) {
  const double work_a = ratio(a.work(), a.requests()), ideal_a = ratio(a.ideal_work(), a.requests());
  const double ideal_b = ratio(b.ideal_work(), b.requests());
  const bool same_bytes = std::abs(ideal_a - ideal_b) < 1e-9;
  // b's work for a's bytes: its work per ideal, times a's ideal.
  const double work_b = same_bytes ? ratio(b.work(), b.requests()) : ratio(b.work(), b.ideal_work()) * ideal_a;
  if (std::abs(work_a - work_b) < 0.005) return {};
  const bool shared = a.space == Space::Shared;
  QString measure;
  if (same_bytes)
    measure = shared ? QCoreApplication::translate("SideBySide", "wavefronts per request")
                     : QCoreApplication::translate("SideBySide", "sectors per request");
  else  // a wavefront serves 128 bytes; a sector holds 32
    measure = (shared ? QCoreApplication::translate("SideBySide", "wavefronts per %1 bytes")
                      : QCoreApplication::translate("SideBySide", "sectors per %1 bytes"))
                  .arg(number(ideal_a * (shared ? 128 : 32)));
  QString text = QCoreApplication::translate("SideBySide", "%1, %2: %3 → %4")
                     .arg(kind_name(kind_of(a.space, a.store)), measure, number(work_a), number(work_b));
  // The lesson in words, where one side is ideal and the other not.
  const bool a_ideal = a.work() == a.ideal_work(), b_ideal = b.work() == b.ideal_work();
  if (a_ideal != b_ideal) {
    if (shared)
      text += b_ideal ? QCoreApplication::translate("SideBySide", " (bank conflicts → none)")
                      : QCoreApplication::translate("SideBySide", " (no bank conflicts → conflicts)");
    else
      text += b_ideal ? QCoreApplication::translate("SideBySide", " (uncoalesced → coalesced)")
                      : QCoreApplication::translate("SideBySide", " (coalesced → uncoalesced)");
  }
  return text;
}

}  // namespace

AccessKind kind_of(Space space, bool store) {
  if (space == Space::Shared) return store ? AccessKind::SharedStore : AccessKind::SharedLoad;
  return store ? AccessKind::GlobalStore : AccessKind::GlobalLoad;
}

QString kind_name(AccessKind kind) {
  switch (kind) {
    case AccessKind::GlobalLoad: return QCoreApplication::translate("SideBySide", "global load");
    case AccessKind::GlobalStore: return QCoreApplication::translate("SideBySide", "global store");
    case AccessKind::SharedLoad: return QCoreApplication::translate("SideBySide", "shared load");
    case AccessKind::SharedStore: return QCoreApplication::translate("SideBySide", "shared store");
  }
  return {};
}

std::vector<SitePair> matched_sites(const Analysis& a, const Analysis& b) {
  std::vector<SitePair> pairs;
  for (AccessKind kind :
       {AccessKind::GlobalLoad, AccessKind::GlobalStore, AccessKind::SharedLoad, AccessKind::SharedStore})
    for (std::size_t rank = 0;; ++rank) {
      const SitePair pair{site_at(a, kind, rank), site_at(b, kind, rank)};
      if (!pair[0] && !pair[1]) break;
      pairs.push_back(pair);
    }
  return pairs;
}

QString lesson_view(const Analysis& a, const Analysis& b) {
  for (const SitePair& pair : matched_sites(a, b))
    if (pair[0] && pair[1] && !site_difference(*pair[0], *pair[1]).isEmpty())
      return pair[0]->space == Space::Shared ? "banks" : "coalescing";
  return "banks";
}

std::vector<PairedStep> pair_steps(const Analysis& a, const Analysis& b) {
  const std::vector<std::size_t> ranks_a = ranks_of(a), ranks_b = ranks_of(b);
  std::map<RequestKey, std::size_t> in_b;
  for (std::size_t j = 0; j < b.requests.size(); ++j)
    if (const auto key = key_of(b, ranks_b, b.requests[j])) in_b.emplace(*key, j);
  std::vector<std::optional<std::size_t>> partner(a.requests.size());
  std::vector<bool> paired_b(b.requests.size(), false);
  for (std::size_t i = 0; i < a.requests.size(); ++i)
    if (const auto key = key_of(a, ranks_a, a.requests[i]))
      if (const auto found = in_b.find(*key); found != in_b.end()) {
        partner[i] = found->second;
        paired_b[found->second] = true;
      }
  std::vector<PairedStep> steps;
  std::size_t next_b = 0;
  // b's unpaired requests up to `limit`, each a step where a has none.
  const auto b_alone_until = [&](std::size_t limit) {
    for (; next_b < limit; ++next_b)
      if (!paired_b[next_b]) steps.push_back({{std::nullopt, next_b}});
  };
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    if (partner[i]) b_alone_until(*partner[i]);
    steps.push_back({{i, partner[i]}});
  }
  b_alone_until(b.requests.size());
  return steps;
}

std::optional<std::size_t> shown_request(const std::vector<PairedStep>& steps, std::size_t step, int side) {
  if (steps.empty()) return std::nullopt;
  step = std::min(step, steps.size() - 1);
  for (std::size_t s = step + 1; s-- > 0;)
    if (steps[s].request[side]) return steps[s].request[side];
  for (std::size_t s = step + 1; s < steps.size(); ++s)
    if (steps[s].request[side]) return steps[s].request[side];
  return std::nullopt;
}

const std::vector<QString>& view_names() {
  static const std::vector<QString> names{"grid", "banks", "barrier", "coalescing", "schedule"};
  return names;
}

std::unique_ptr<views::TraceView> make_view(const QString& name) {
  if (name == "grid") return std::make_unique<views::GridView>();
  if (name == "banks") return std::make_unique<views::BankView>();
  if (name == "barrier") return std::make_unique<views::BarrierView>();
  if (name == "coalescing") return std::make_unique<views::CoalescingView>();
  if (name == "schedule") return std::make_unique<views::ScheduleView>();
  return nullptr;
}

PaneNumbers numbers_of(const TraceDocument& doc) {
  PaneNumbers n;
  const std::optional<RunReport> run = report_if_any(doc.session.run);
  if (run && run->ok()) {
    n.gbps = run->bandwidth_gbps;
    if (run->timing) n.median_ms = run->timing->kernel_ms.median;
  }
  return n;
}

QString site_text(const SiteTotals& site) {
  return QCoreApplication::translate("SideBySide", "line %1 %2: %3 (ideal %4)")
      .arg(QString::number(site.line), kind_name(kind_of(site.space, site.store)),
           per_request(ratio(site.work(), site.requests()), site.space),
           number(ratio(site.ideal_work(), site.requests())));
}

QString missing_text(const TraceDocument& own, const TraceDocument& other, std::size_t other_request) {
  const Request& r = other.analysis.requests[other_request];
  const AccessKind kind = kind_of(r.space, r.store);
  const QString name = QString::fromStdString(own.session.kernel_id);
  const QString block = QString::fromStdString(views::block_name(other.trace(), r.block));
  const auto key = key_of(other.analysis, ranks_of(other.analysis), r);
  const SiteTotals* site = key ? site_at(own.analysis, kind, std::get<1>(*key)) : nullptr;
  if (!site) return QCoreApplication::translate("SideBySide", "no %1 here in %2").arg(kind_name(kind), name);
  // The block at the same coordinates in own's grid, which may be shaped otherwise.
  const std::array<std::uint32_t, 3> at = block_coordinates(other.analysis, r.block);
  const std::array<std::uint32_t, 3> own_grid = own.analysis.grid;
  const bool in_grid = own_grid[0] == 0 || (at[0] < own_grid[0] && at[1] < own_grid[1] && at[2] < own_grid[2]);
  const std::uint32_t own_block = own_grid[0] == 0 ? r.block : at[0] + own_grid[0] * (at[1] + own_grid[1] * at[2]);
  const auto& blocks = own.analysis.blocks;
  if (!in_grid || std::none_of(blocks.begin(), blocks.end(), [&](const auto& b) { return b.block == own_block; }))
    return QCoreApplication::translate("SideBySide", "%1 traced no block %2").arg(name, block);
  const auto same_warp = [&](const Request& o) {
    return o.block == own_block && o.warp == r.warp && own.analysis.site_of(o) == site;
  };
  const int times =
      static_cast<int>(std::count_if(own.analysis.requests.begin(), own.analysis.requests.end(), same_warp));
  if (times == 0)
    return QCoreApplication::translate("SideBySide", "no block %1 warp %2 %3 in %4")
        .arg(block)
        .arg(r.warp)
        .arg(kind_name(kind), name);
  return QCoreApplication::translate("SideBySide", "block %1 warp %2 did this %3 only %n time(s) in %4", nullptr, times)
      .arg(block)
      .arg(r.warp)
      .arg(kind_name(kind), name);
}

QString timing_text(const PaneNumbers& n) {
  if (!n.gbps) return QCoreApplication::translate("SideBySide", "no timed run in this recording");
  return QCoreApplication::translate("SideBySide", "%1 GB/s · median %2 ms")
      .arg(QLocale().toString(*n.gbps, 'f', 2), n.median_ms ? QLocale().toString(*n.median_ms, 'f', 4) : QString("?"));
}

QString difference_text(const TraceDocument& a, const TraceDocument& b) {
  QStringList parts;
  std::array<QStringList, 2> only;  // kinds one side alone has
  for (const SitePair& pair : matched_sites(a.analysis, b.analysis)) {
    if (pair[0] && pair[1]) {
      if (const QString d = site_difference(*pair[0], *pair[1]); !d.isEmpty()) parts << d;
      continue;
    }
    const SiteTotals& alone = pair[0] ? *pair[0] : *pair[1];
    QStringList& list = only[pair[0] ? 0 : 1];
    if (const QString kind = kind_name(kind_of(alone.space, alone.store)); !list.contains(kind)) list << kind;
  }
  if (parts.isEmpty()) parts << QCoreApplication::translate("SideBySide", "the same work at every corresponding site");
  for (int side = 0; side < 2; ++side)
    if (!only[side].isEmpty())
      parts << QCoreApplication::translate("SideBySide", "%1 only in %2")
                   .arg(only[side].join(", "), QString::fromStdString((side ? b : a).session.kernel_id));
  const PaneNumbers na = numbers_of(a), nb = numbers_of(b);
  if (na.gbps && nb.gbps && *na.gbps > 0) {
    const double times = *nb.gbps / *na.gbps;
    parts << QCoreApplication::translate("SideBySide", "%1× the bandwidth")
                 .arg(QLocale().toString(times, 'f', times < 10 ? 1 : 0));
  }
  return parts.join(" · ");
}

QString comparable(const analysis::TraceDocument& a, const analysis::TraceDocument& b) {
  const Variant* va = find_variant(a.session.kernel_id);
  const Variant* vb = find_variant(b.session.kernel_id);
  for (const auto& [v, doc] : {std::pair{va, &a}, std::pair{vb, &b}})
    if (!v)
      return QCoreApplication::translate("SideBySide", "%1: the kernel '%2' is not in this catalog")
          .arg(QString::fromStdString(doc->origin), QString::fromStdString(doc->session.kernel_id));
  if (va->family != vb->family)
    return QCoreApplication::translate(
               "SideBySide", "%1 and %2 are of different lessons (%3, %4): compare two variants of one family")
        .arg(QString::fromStdString(va->id), QString::fromStdString(vb->id), QString::fromStdString(va->family),
             QString::fromStdString(vb->family));
  return {};
}

QString recording_name(const analysis::TraceDocument& doc) {
  const QString kernel = QString::fromStdString(doc.session.kernel_id);
  if (doc.session.source_text.empty()) return kernel;
  return QCoreApplication::translate("SideBySide", "%1 (yours: %2)")
      .arg(kernel, QString::fromStdString(doc.session.source_name));
}

}  // namespace threadmap::gui
