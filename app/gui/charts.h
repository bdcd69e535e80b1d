#pragma once
// The two timing charts, drawn from RunHistory/SweepData values only.
#include <map>
#include <optional>
#include <vector>

#include <qcustomplot.h>

#include "app/gui/run_history.h"

namespace threadmap::gui {

// A chart whose title and x tick labels are fitted to its width whenever it
// is resized or redrawn: a title too wide is wrapped after its colon, then
// elided; a tick label wider than the space between two ticks is broken
// where a name breaks (after '_', before a capital), then elided, so no two
// labels overlap on a 1024 x 768 projector. The y axis' caption is the
// longest of its choices that fits the axis' height, and its ticks are as
// many as fit without touching.
class FittedChart : public QCustomPlot {
  Q_OBJECT
 public:
  explicit FittedChart(QWidget* parent = nullptr);
  // The whole title, whatever the chart shows of it.
  QString full_title() const { return full_title_; }
  // The x tick labels' type changed (a presentation's): fit from it.
  void reset_tick_font() { tick_font_.reset(); }
  QString shown_title() const;
  // Fits the title and labels to a drawing of this size (an export's), or
  // to the widget's own.
  void fit_to_size(const QSize& size);
  void fit_to_width();

 protected:
  // kept_end: the title's end that is never elided (a presentation's
  // device-copy value); the rest is elided before it.
  void set_full_title(const QString& text, const QString& kept_end = {});
  // The y caption: the first of `choices` (longest first) that fits the
  // axis' height; none when none fits.
  void set_y_label(const QStringList& choices);
  // Labels (key -> whole text) for the x axis; fitted on each layout.
  void set_x_labels(const std::map<double, QString>& labels);
  // How far crowded x labels may shrink before they are elided.
  double min_tick_scale_ = 0.7;
  int tick_lines_ = 5;   // an x label's most lines
  int title_lines_ = 2;  // each line of the title wraps into at most this many
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fit_title(int width);
  void fit_y_axis();
  void fit_x_labels();

  QString full_title_, kept_end_;
  QStringList y_labels_;
  std::map<double, QString> x_labels_;
  std::optional<QFont> tick_font_;  // the x tick labels' type before any fitting
};

// GB/s of the variants of one family run so far, with the device-to-device
// copy as the ceiling line.
//
// The bandwidth axis is linear, or logarithmic when a bar would be too short
// to see under the tallest bar or the ceiling (PoCL's 1 GB/s reductions
// under a 73 GB/s copy); the choice is automatic unless set by hand, and an
// export draws what the chart shows.
class FamilyChart : public FittedChart {
  Q_OBJECT
 public:
  enum class Scale { Automatic, Linear, Logarithmic };
  // A bar below this share of the axis' top is too short to compare.
  static constexpr double kVisibleShare = 0.05;

  explicit FamilyChart(QWidget* parent = nullptr);
  void show_family(const QString& family, const std::vector<Bar>& bars, std::optional<double> ceiling_gbps);
  // Draws the shown family again on the chosen axis.
  void set_scale(Scale scale);
  // The presentation mode: type of `font_px` pixels (titles larger), the
  // Okabe-Ito palette, no axis caption under the variants; off: as built.
  void set_presentation(bool on, int font_px = 24);
  bool presentation() const { return presentation_; }
  Scale scale() const { return scale_; }
  // What the axis is now (the automatic choice resolved).
  bool logarithmic() const;
  // What is drawn, for tests and export: (kernel, GB/s).
  std::vector<Bar> drawn_bars() const { return drawn_; }
  std::optional<double> drawn_ceiling() const { return ceiling_; }

 private:
  void set_axis_label();

  Scale scale_ = Scale::Automatic;
  bool presentation_ = false;
  QString family_;
  QCPBars* bars_;
  QCPGraph* ceiling_line_;
  std::vector<QCPItemText*> value_labels_;
  std::vector<Bar> drawn_;
  std::optional<double> ceiling_;
};

// A sweep: the parameter on x, GB/s on y, one line per variant.
class SweepChart : public FittedChart {
  Q_OBJECT
 public:
  explicit SweepChart(QWidget* parent = nullptr);
  void show_sweep(const QString& title, const SweepData& data);
  int point_count() const;
};

}  // namespace threadmap::gui
