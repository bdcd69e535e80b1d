#include "app/gui/charts.h"

#include <QLocale>

#include <algorithm>
#include <set>

#include "viz/views/retranslate.h"

namespace threadmap::gui {

namespace {

// Sized for a projector: read from the back of a lecture room.
void apply_style(QCustomPlot& plot) {
  QFont label = plot.font();
  label.setPointSize(15);
  QFont ticks = plot.font();
  ticks.setPointSize(13);
  for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
    axis->setLabelFont(label);
    axis->setTickLabelFont(ticks);
  }
  plot.legend->setVisible(true);
  plot.legend->setFont(ticks);
  // Below the plot in one row, so no bar, line or ceiling runs under it.
  plot.axisRect()->insetLayout()->take(plot.legend);
  plot.plotLayout()->addElement(1, 0, plot.legend);
  plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot.legend->setBorderPen(Qt::NoPen);
  plot.legend->setMargins(QMargins(8, 2, 8, 14));
  plot.plotLayout()->setRowStretchFactor(1, 0.001);
  plot.plotLayout()->insertRow(0);
  QFont title = plot.font();
  title.setPointSize(16);
  title.setBold(true);
  plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, "", title));
  plot.setMinimumSize(480, 320);
}

void set_title(QCustomPlot& plot, const QString& text) {
  if (auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0)))
    title->setText(text);
}

const QColor kPalette[] = {QColor(31, 119, 180), QColor(214, 39, 40),  QColor(44, 160, 44),
                           QColor(255, 127, 14), QColor(148, 103, 189), QColor(140, 86, 75),
                           QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                           QColor(23, 190, 207)};

QString unit_of(const std::string& parameter) {
  if (parameter == "wg" || parameter == "block_x" || parameter == "block_y")
    return QObject::tr("threads");
  if (parameter == "blocks") return QObject::tr("blocks");
  if (parameter == "strips") return QObject::tr("16-byte strips per thread");
  if (parameter == "per_thread") return QObject::tr("elements per thread");
  return QObject::tr("elements");
}

}  // namespace

FamilyChart::FamilyChart(QWidget* parent) : QCustomPlot(parent) {
  apply_style(*this);
  setObjectName("familyChart");
  bars_ = new QCPBars(xAxis, yAxis);
  bars_->setBrush(kPalette[0]);
  bars_->setPen(Qt::NoPen);
  bars_->setWidth(0.6);
  ceiling_line_ = addGraph();
  ceiling_line_->setPen(QPen(kPalette[1], 3, Qt::DashLine));
  legend->setVisible(false);
  (new views::Retranslator(this))->add([this] {
    setLocale(QLocale());  // the tick labels' decimal separator
    bars_->setName(tr("kernel bandwidth (GB/s)"));
    xAxis->setLabel(tr("variant"));
    yAxis->setLabel(tr("bandwidth (GB/s)"));
  });
}

void FamilyChart::show_family(const QString& family, const std::vector<Bar>& bars,
                              std::optional<double> ceiling_gbps) {
  drawn_ = bars;
  ceiling_ = ceiling_gbps;
  set_title(*this, bars.empty() ? tr("%1: no runs yet (F5 runs the selected kernel)").arg(family)
                                : tr("%1: measured bandwidth").arg(family));
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  QVector<double> keys, values;
  double top = 0;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    keys << static_cast<double>(i + 1);
    values << bars[i].gbps;
    // The title names the family; the tick keeps the variant ("transpose.naive" -> "naive").
    const std::string& id = bars[i].kernel;
    ticker->addTick(static_cast<double>(i + 1), QString::fromStdString(id.substr(id.find('.') + 1)));
    top = std::max(top, bars[i].gbps);
  }
  xAxis->setTicker(ticker);
  bars_->setData(keys, values, true);
  // The value over each bar: read from the back of the room without the axis.
  for (QCPItemText* label : value_labels_) removeItem(label);
  value_labels_.clear();
  for (std::size_t i = 0; i < bars.size(); ++i) {
    auto* label = new QCPItemText(this);
    label->position->setCoords(static_cast<double>(i + 1), bars[i].gbps);
    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    label->setText(QLocale().toString(bars[i].gbps, 'f', bars[i].gbps < 10 ? 2 : 1));
    label->setFont(xAxis->tickLabelFont());
    label->setPadding(QMargins(0, 0, 0, 4));
    value_labels_.push_back(label);
  }
  const double right = static_cast<double>(bars.size()) + 0.7;
  if (ceiling_gbps) {
    ceiling_line_->setData({0.3, right}, {*ceiling_gbps, *ceiling_gbps});
    ceiling_line_->setName(tr("device copy: %1 GB/s").arg(QLocale().toString(*ceiling_gbps, 'f', 1)));
    top = std::max(top, *ceiling_gbps);
  } else {
    ceiling_line_->data()->clear();
  }
  ceiling_line_->setVisible(ceiling_gbps.has_value());
  legend->setVisible(!bars.empty());
  ceiling_line_->removeFromLegend();
  if (ceiling_gbps) ceiling_line_->addToLegend();
  xAxis->setRange(0.3, std::max(right, 1.7));
  yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
  replot();
}

SweepChart::SweepChart(QWidget* parent) : QCustomPlot(parent) {
  apply_style(*this);
  setObjectName("sweepChart");
  legend->setVisible(false);
  (new views::Retranslator(this))->add([this] {
    setLocale(QLocale());
    yAxis->setLabel(tr("bandwidth (GB/s)"));
    // Before the first sweep; a sweep's own title is set again by the window.
    if (graphCount() == 0) set_title(*this, tr("Sweep: F6 runs every variant of the family over one parameter"));
    replot();
  });
}

void SweepChart::show_sweep(const QString& title, const SweepData& data) {
  clearGraphs();
  set_title(*this, title);
  xAxis->setLabel(tr("%1 (%2)").arg(QString::fromStdString(data.parameter()), unit_of(data.parameter())));
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  std::set<double> xs;
  double top = 0;
  int colour = 0;
  for (const SweepLine& line : data.lines()) {
    QCPGraph* graph = addGraph();
    graph->setName(QString::fromStdString(line.kernel));
    const QColor c = kPalette[colour++ % std::size(kPalette)];
    graph->setPen(QPen(c, 3));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 10));
    for (const auto& [x, gbps] : line.points) {
      graph->addData(x, gbps);
      xs.insert(x);
      top = std::max(top, gbps);
    }
  }
  for (double x : xs) ticker->addTick(x, QString::number(x));
  xAxis->setTicker(ticker);
  // Powers of two (tile, wg) spread evenly on a log axis; pad 0, 1, 2 cannot.
  const bool logarithmic = !xs.empty() && *xs.begin() > 0 && *xs.rbegin() >= 4 * *xs.begin();
  xAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (logarithmic)
    xAxis->setRange(*xs.begin() / 1.4, *xs.rbegin() * 1.4);
  else if (!xs.empty())
    xAxis->setRange(*xs.begin() - 0.5, *xs.rbegin() + 0.5);
  yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
  legend->setVisible(!data.lines().empty());
  replot();
}

int SweepChart::point_count() const {
  int n = 0;
  for (int i = 0; i < graphCount(); ++i) n += graph(i)->dataCount();
  return n;
}

}  // namespace threadmap::gui
