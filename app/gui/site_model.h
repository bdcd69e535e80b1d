#pragma once
// One row per access site of a recorded trace (analysis::SiteTotals): its
// requests and the wavefronts (shared) or sectors (global) they cost, in
// Nsight Compute's terms. A thin adapter: the analysis holds the numbers.
#include <QAbstractTableModel>

#include <vector>

#include "kernels/analysis/analysis.h"

namespace threadmap::gui {

class SiteModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Line, Access, Requests, Wavefronts, Sectors, IdealSectors, PerRequest, Source, ColumnCount };

  using QAbstractTableModel::QAbstractTableModel;
  void set_sites(std::vector<analysis::SiteTotals> sites);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // Requests of a site, and the wavefronts (shared) or sectors (global) they took.

 private:
  std::vector<analysis::SiteTotals> sites_;
};

}  // namespace threadmap::gui
