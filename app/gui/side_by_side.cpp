#include "app/gui/side_by_side.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

#include "kernels/catalog.h"
#include "viz/views/bank_view.h"
#include "viz/views/barrier_view.h"
#include "viz/views/coalescing_view.h"
#include "viz/views/grid_view.h"
#include "viz/views/schedule_view.h"

namespace threadmap::gui {

namespace {

// 32, 16.5, 1.25: whole numbers bare, else up to two decimals.
QString number(double v) {
  return QLocale().toString(v, 'f', v == static_cast<double>(static_cast<long long>(v)) ? 0 : v < 10 ? 2 : 1);
}

}  // namespace

std::size_t paired_steps(const std::vector<std::size_t>& pane_steps) {
  return pane_steps.empty() ? 0 : *std::max_element(pane_steps.begin(), pane_steps.end());
}

std::size_t own_step(std::size_t step, std::size_t pane_steps) {
  return pane_steps == 0 ? 0 : std::min(step, pane_steps - 1);
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

PaneNumbers numbers_of(const analysis::TraceDocument& doc) {
  PaneNumbers n;
  const analysis::Counters& c = doc.analysis.totals;
  n.shared_requests = c.shared_ld_requests + c.shared_st_requests;
  n.shared_wavefronts = c.shared_ld_wavefronts + c.shared_st_wavefronts;
  n.shared_ideal_wavefronts = c.shared_ld_ideal_wavefronts + c.shared_st_ideal_wavefronts;
  n.global_requests = c.global_ld_requests + c.global_st_requests;
  n.global_sectors = c.global_ld_sectors + c.global_st_sectors;
  n.global_ideal_sectors = c.global_ld_ideal_sectors + c.global_st_ideal_sectors;
  for (const analysis::SiteTotals& site : doc.analysis.sites) {
    if (site.requests() == 0) continue;
    const double per_request = static_cast<double>(site.work()) / static_cast<double>(site.requests());
    double& worst = site.space == Space::Shared ? n.worst_wavefronts_per_request : n.worst_sectors_per_request;
    worst = std::max(worst, per_request);
  }
  const nlohmann::json& run = doc.session.run;
  if (run.is_object() && run.value("status", std::string()) == "ok") {
    if (run.contains("bandwidth_gbps") && run["bandwidth_gbps"].is_number())
      n.gbps = run["bandwidth_gbps"].get<double>();
    const nlohmann::json timing = run.value("timing", nlohmann::json::object()).value("kernel_ms", nlohmann::json::object());
    if (timing.contains("median") && timing["median"].is_number()) n.median_ms = timing["median"].get<double>();
  }
  return n;
}

QString counters_text(const PaneNumbers& n) {
  QStringList spaces;
  if (n.shared_requests > 0)
    spaces << QCoreApplication::translate("SideBySide", "shared: %1 wavefronts per request (ideal %2), %3 bank conflicts")
                  .arg(number(static_cast<double>(n.shared_wavefronts) / n.shared_requests),
                       number(static_cast<double>(n.shared_ideal_wavefronts) / n.shared_requests),
                       QLocale().toString(static_cast<qulonglong>(n.shared_wavefronts - n.shared_ideal_wavefronts)));
  if (n.global_requests > 0)
    spaces << QCoreApplication::translate("SideBySide", "global: %1 sectors per request (ideal %2)")
                  .arg(number(static_cast<double>(n.global_sectors) / n.global_requests),
                       number(static_cast<double>(n.global_ideal_sectors) / n.global_requests));
  if (spaces.isEmpty()) spaces << QCoreApplication::translate("SideBySide", "no memory requests traced");
  const QString timing = n.gbps ? QCoreApplication::translate("SideBySide", "%1 GB/s · median %2 ms")
                                      .arg(QLocale().toString(*n.gbps, 'f', 2),
                                           n.median_ms ? QLocale().toString(*n.median_ms, 'f', 4) : QString("?"))
                                : QCoreApplication::translate("SideBySide", "no timed run in this recording");
  return spaces.join(" · ") + "\n" + timing;
}

QString difference_text(const PaneNumbers& a, const PaneNumbers& b) {
  QStringList parts;
  if (a.shared_requests > 0 && b.shared_requests > 0 && a.worst_wavefronts_per_request != b.worst_wavefronts_per_request)
    parts << QCoreApplication::translate("SideBySide", "%1 → %2 wavefronts per request")
                 .arg(number(a.worst_wavefronts_per_request), number(b.worst_wavefronts_per_request));
  if (a.global_requests > 0 && b.global_requests > 0 && a.worst_sectors_per_request != b.worst_sectors_per_request)
    parts << QCoreApplication::translate("SideBySide", "%1 → %2 sectors per request")
                 .arg(number(a.worst_sectors_per_request), number(b.worst_sectors_per_request));
  if (parts.isEmpty()) parts << QCoreApplication::translate("SideBySide", "the same costliest accesses");
  if (a.gbps && b.gbps && *a.gbps > 0)
    parts << QCoreApplication::translate("SideBySide", "%1× the bandwidth").arg(QLocale().toString(*b.gbps / *a.gbps, 'f', *b.gbps / *a.gbps < 10 ? 1 : 0));
  return parts.join(", ");
}

QString comparable(const analysis::TraceDocument& a, const analysis::TraceDocument& b) {
  const Variant* va = find_variant(a.session.kernel_id);
  const Variant* vb = find_variant(b.session.kernel_id);
  for (const auto& [v, doc] : {std::pair{va, &a}, std::pair{vb, &b}})
    if (!v)
      return QCoreApplication::translate("SideBySide", "%1: the kernel '%2' is not in this catalog")
          .arg(QString::fromStdString(doc->origin), QString::fromStdString(doc->session.kernel_id));
  if (va->family != vb->family)
    return QCoreApplication::translate("SideBySide", "%1 and %2 are of different lessons (%3, %4): compare two variants of one family")
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
