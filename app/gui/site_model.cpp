#include "app/gui/site_model.h"

#include <QLocale>

#include "viz/views/trace_view.h"

namespace threadmap::gui {

void SiteModel::set_sites(std::vector<analysis::SiteTotals> sites) {
  beginResetModel();
  sites_ = std::move(sites);
  endResetModel();
}

int SiteModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(sites_.size());
}

int SiteModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SiteModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const analysis::SiteTotals& s = sites_[static_cast<std::size_t>(index.row())];
  const bool shared = s.space == Space::Shared;
  if (role == Qt::TextAlignmentRole)
    return index.column() == Access || index.column() == Source ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  const std::uint64_t n = s.requests();
  switch (index.column()) {
    case Line: return s.line;
    case Access:
      //: %1 the memory space (shared, global), %2 the direction (load, store, atomic)
      return tr("%1 %2", "space direction")
          .arg(shared ? tr("shared") : tr("global"),
               s.atomic ? views::TraceView::atomic_kind() : views::TraceView::access_kind(s.store, 1, 0));
    case Requests: return QVariant::fromValue<qulonglong>(n);
    case Wavefronts: return shared ? QVariant::fromValue<qulonglong>(s.work()) : QVariant();
    case Sectors: return shared ? QVariant() : QVariant::fromValue<qulonglong>(s.work());
    case IdealSectors:
      return shared ? QVariant()
                    : QVariant::fromValue<qulonglong>(s.store ? s.counters.global_st_ideal_sectors
                                                              : s.counters.global_ld_ideal_sectors);
    case PerRequest:
      return n ? QLocale().toString(static_cast<double>(s.work()) / static_cast<double>(n), 'f', 2) : QString();
    case Source: return QString::fromStdString(s.text);
  }
  return {};
}

QVariant SiteModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Line: return tr("line");
    case Access: return tr("access");
    case Requests: return tr("requests");
    case Wavefronts: return tr("wavefronts");
    case Sectors: return tr("sectors");
    case IdealSectors: return tr("ideal sectors");
    case PerRequest: return tr("per request");
    case Source: return tr("source");
  }
  return {};
}

}  // namespace threadmap::gui
