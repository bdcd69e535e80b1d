#pragma once
// The two timing charts, drawn from RunHistory/SweepData values only.
#include <optional>
#include <vector>

#include <qcustomplot.h>

#include "app/gui/run_history.h"

namespace threadmap::gui {

// GB/s of the variants of one family run so far, with the device-to-device
// copy as the ceiling line.
class FamilyChart : public QCustomPlot {
  Q_OBJECT
 public:
  explicit FamilyChart(QWidget* parent = nullptr);
  void show_family(const QString& family, const std::vector<Bar>& bars,
                   std::optional<double> ceiling_gbps);
  // What is drawn, for tests and export: (kernel, GB/s).
  std::vector<Bar> drawn_bars() const { return drawn_; }
  std::optional<double> drawn_ceiling() const { return ceiling_; }

 private:
  QCPBars* bars_;
  QCPGraph* ceiling_line_;
  std::vector<QCPItemText*> value_labels_;
  std::vector<Bar> drawn_;
  std::optional<double> ceiling_;
};

// A sweep: the parameter on x, GB/s on y, one line per variant.
class SweepChart : public QCustomPlot {
  Q_OBJECT
 public:
  explicit SweepChart(QWidget* parent = nullptr);
  void show_sweep(const QString& title, const SweepData& data);
  int point_count() const;
};

}  // namespace threadmap::gui
