#pragma once
// What the open recording holds: where and when it was made, the traced
// blocks, accesses and warp-level requests, and per access site the
// wavefronts or sectors it cost (the analysis of its trace).
#include <QWidget>

#include "kernels/analysis/document.h"

class QLabel;
class QTableView;

namespace threadmap::gui {

class SiteModel;

class RecordingPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RecordingPanel(QWidget* parent = nullptr);
  void show_document(const analysis::TraceDocument& doc);

  QString summary_text() const;
  const SiteModel& sites() const { return *sites_; }

 private:
  QLabel* summary_;
  SiteModel* sites_;
  QTableView* table_;
  bool showing_ = false;  // a document is shown (else the hint)
};

}  // namespace threadmap::gui
