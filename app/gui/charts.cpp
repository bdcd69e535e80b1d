#include "app/gui/charts.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <utility>
#include <set>

#include "viz/views/retranslate.h"
#include "viz/views/theme.h"

namespace threadmap::gui {

namespace {

// Sized for a projector: read from the back of a lecture room.
// Titles, axis captions and ticks: 16, 15 and 13 points on screen; in a
// presentation `px` pixels for ticks, larger for the rest.
void apply_fonts(QCustomPlot& plot, int px = 0) {
  QFont label = plot.font(), ticks = plot.font();
  if (px > 0) {
    label.setPixelSize(px + 2);
    ticks.setPixelSize(px);
  } else {
    label.setPointSize(15);
    ticks.setPointSize(13);
  }
  for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
    axis->setLabelFont(label);
    axis->setTickLabelFont(ticks);
  }
  plot.legend->setFont(ticks);
  if (auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0))) {
    QFont f = plot.font();
    if (px > 0) f.setPixelSize(px + 6);
    else f.setPointSize(16);
    f.setBold(true);
    title->setFont(f);
  }
}

void apply_style(QCustomPlot& plot) {
  plot.legend->setVisible(true);
  // Below the plot in one row, so no bar, line or ceiling runs under it.
  plot.axisRect()->insetLayout()->take(plot.legend);
  plot.plotLayout()->addElement(1, 0, plot.legend);
  plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot.legend->setBorderPen(Qt::NoPen);
  plot.legend->setMargins(QMargins(8, 2, 8, 14));
  plot.plotLayout()->setRowStretchFactor(1, 0.001);
  plot.plotLayout()->insertRow(0);
  plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, "", plot.font()));
  apply_fonts(plot);
  plot.setMinimumSize(480, 320);
}

QCPTextElement* title_of(const QCustomPlot& plot) {
  return qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
}

// Where a variant's name may break: after '_' or '-', and before a capital
// that follows a small letter ("shared_|dynamic", "setRow|Read|Col|Pad").
QStringList name_pieces(const QString& name) {
  QStringList pieces;
  QString piece;
  for (const QChar c : name) {
    if (c.isUpper() && !piece.isEmpty() && piece.back().isLower()) pieces << std::exchange(piece, QString());
    piece += c;
    if (c == '_' || c == '-') pieces << std::exchange(piece, QString());
  }
  if (!piece.isEmpty()) pieces << piece;
  return pieces;
}

// `pieces` joined into at most `max_lines` lines no wider than `width`, each
// joined with `glue`; what does not fit is elided (and `elided` set).
QString wrap_pieces(const QStringList& pieces, const QString& glue, const QFontMetrics& fm, int width, int max_lines,
                    bool* elided = nullptr) {
  QStringList lines;
  QString line;
  for (const QString& piece : pieces) {
    const QString longer = line.isEmpty() ? piece : line + glue + piece;
    if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
      lines << line;
      line = piece;
    } else {
      line = longer;
    }
  }
  if (!line.isEmpty()) lines << line;
  if (lines.size() > max_lines) {
    lines = lines.mid(0, max_lines);
    lines.back() += QStringLiteral("…");
    if (elided) *elided = true;
  }
  for (QString& l : lines) {
    const QString whole = l;
    l = fm.elidedText(l, Qt::ElideRight, width);
    if (elided && l != whole) *elided = true;
  }
  return lines.join('\n');
}

QString wrap_title(const QString& title, const QFont& font, int width, int max_lines) {
  const QFontMetrics fm(font);
  QStringList out;
  for (const QString& line : title.split('\n'))
    out << (fm.horizontalAdvance(line) <= width
                ? line
                : wrap_pieces(line.split(' ', Qt::SkipEmptyParts), " ", fm, width, max_lines));
  return out.join('\n');
}

const QColor kPalette[] = {QColor(31, 119, 180),  QColor(214, 39, 40), QColor(44, 160, 44),   QColor(255, 127, 14),
                           QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127),
                           QColor(188, 189, 34),  QColor(23, 190, 207)};

QString unit_of(const std::string& parameter) {
  if (parameter == "wg" || parameter == "block_x" || parameter == "block_y") return QObject::tr("threads");
  if (parameter == "blocks") return QObject::tr("blocks");
  if (parameter == "strips") return QObject::tr("16-byte strips per thread");
  if (parameter == "per_thread") return QObject::tr("elements per thread");
  return QObject::tr("elements");
}

// A caption and, for a shorter axis, what its last parentheses hold ("GB/s,
// log scale"): the unit, in every language, without another string to translate.
QStringList with_unit_alone(const QString& caption) {
  const qsizetype open = caption.lastIndexOf('('), close = caption.lastIndexOf(')');
  if (open < 0 || close < open) return {caption};
  return {caption, caption.mid(open + 1, close - open - 1)};
}

}  // namespace

FittedChart::FittedChart(QWidget* parent) : QCustomPlot(parent) {}

QString FittedChart::shown_title() const {
  const QCPTextElement* title = title_of(*this);
  return title ? title->text() : QString();
}

void FittedChart::set_full_title(const QString& text, const QString& kept_end) {
  full_title_ = text;
  kept_end_ = kept_end;
  setToolTip(text);
  fit_to_width();
}

void FittedChart::set_y_label(const QStringList& choices) {
  y_labels_ = choices;
  fit_to_width();
}

void FittedChart::set_x_labels(const std::map<double, QString>& labels) {
  x_labels_ = labels;
  fit_to_width();
}

void FittedChart::fit_to_width() { fit_to_size(size()); }

void FittedChart::fit_title(int width) {
  QCPTextElement* title = title_of(*this);
  if (!title) return;
  const QFontMetrics fm(title->font());
  if (kept_end_.isEmpty() || !full_title_.endsWith(kept_end_) || fm.horizontalAdvance(full_title_) <= width) {
    title->setText(wrap_title(full_title_, title->font(), width, title_lines_));
    return;
  }
  // The start gives way, so the kept end (the value the room reads) stays
  // whole: its last " · " parts go first, then the first is elided.
  QStringList parts = full_title_.chopped(kept_end_.size()).split(QStringLiteral(" · "));
  const int room = std::max(0, width - fm.horizontalAdvance(kept_end_));
  while (parts.size() > 1 && fm.horizontalAdvance(parts.join(QStringLiteral(" · "))) > room) parts.removeLast();
  title->setText(fm.elidedText(parts.join(QStringLiteral(" · ")), Qt::ElideRight, room) + kept_end_);
}

void FittedChart::fit_y_axis() {
  // A rotated caption longer than the axis runs into the title or is cut.
  const int room = axisRect()->height();
  const QFontMetrics fm(yAxis->labelFont());
  QString label;
  for (const QString& choice : y_labels_)
    if (fm.horizontalAdvance(choice) <= room) {
      label = choice;
      break;
    }
  yAxis->setLabel(label);
  // Tick labels at least two of their lines apart: a presentation's short axis gets two.
  yAxis->ticker()->setTickCount(std::clamp(room / (2 * QFontMetrics(yAxis->tickLabelFont()).height()), 2, 5));
}

void FittedChart::fit_to_size(const QSize& size) {
  fit_title(size.width() - 24);
  // The axis rect at that size: how tall the y axis is, where the x ticks fall.
  const QRect shown = viewport();
  setViewport(QRect(QPoint(0, 0), size));
  updateLayout();
  fit_y_axis();
  if (!x_labels_.empty()) {
    updateLayout();  // the caption and ticks chosen may move the axis' left edge
    fit_x_labels();
  }
  setViewport(shown);
}

void FittedChart::fit_x_labels() {
  double spacing = axisRect()->width();
  for (auto it = x_labels_.begin(); std::next(it) != x_labels_.end(); ++it)
    spacing = std::min(spacing, std::abs(xAxis->coordToPixel(std::next(it)->first) - xAxis->coordToPixel(it->first)));
  const int room = std::max(24, static_cast<int>(spacing) - 12);
  // Crowded labels first get a smaller type (down to 70 %), then are elided.
  if (!tick_font_) tick_font_ = xAxis->tickLabelFont();
  QFont font = *tick_font_;
  std::map<double, QString> fitted;
  for (double scale = 1.0; scale > min_tick_scale_ - 0.01; scale -= 0.05) {
    if (tick_font_->pixelSize() > 0) font.setPixelSize(static_cast<int>(tick_font_->pixelSize() * scale + 0.5));
    else font.setPointSizeF(tick_font_->pointSizeF() * scale);
    const QFontMetrics fm(font);
    bool elided = false;
    fitted.clear();
    for (const auto& [key, text] : x_labels_)
      fitted[key] = fm.horizontalAdvance(text) <= room
                        ? text
                        : wrap_pieces(name_pieces(text), "", fm, room, tick_lines_, &elided);
    if (!elided) break;
  }
  xAxis->setTickLabelFont(font);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (const auto& [key, text] : fitted) ticker->addTick(key, text);
  xAxis->setTicker(ticker);
}

void FittedChart::resizeEvent(QResizeEvent* event) {
  QCustomPlot::resizeEvent(event);
  fit_to_width();
  replot(rpQueuedReplot);
}

FamilyChart::FamilyChart(QWidget* parent) : FittedChart(parent) {
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
    xAxis->setLabel(presentation_ ? QString() : tr("variant"));
    set_axis_label();
  });
}

void FamilyChart::set_presentation(bool on, int font_px) {
  presentation_ = on;
  apply_fonts(*this, on ? font_px : 0);
  title_lines_ = on ? 1 : 2;
  setMinimumSize(on ? QSize(320, 160) : QSize(480, 320));  // a presentation gives the views the height
  tick_lines_ = on ? 3 : 5;
  reset_tick_font();
  bars_->setBrush(on ? views::okabe_ito::kBlue : kPalette[0]);
  ceiling_line_->setPen(QPen(on ? views::okabe_ito::kVermillion : kPalette[1], on ? 4 : 3, Qt::DashLine));
  xAxis->setLabel(on ? QString() : tr("variant"));
  // No legend row in a presentation (the title gives the ceiling's value).
  if (on && plotLayout()->take(legend)) {
    plotLayout()->simplify();
  } else if (!on && !legend->layout()) {
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
  }
  show_family(family_, drawn_, ceiling_);
}

bool FamilyChart::logarithmic() const { return yAxis->scaleType() == QCPAxis::stLogarithmic; }

void FamilyChart::set_axis_label() {
  set_y_label(with_unit_alone(logarithmic() ? tr("bandwidth (GB/s, log scale)") : tr("bandwidth (GB/s)")));
}

void FamilyChart::set_scale(Scale scale) {
  scale_ = scale;
  show_family(family_, drawn_, ceiling_);
}

void FamilyChart::show_family(const QString& family, const std::vector<Bar>& bars, std::optional<double> ceiling_gbps) {
  family_ = family;
  drawn_ = bars;
  ceiling_ = ceiling_gbps;
  QVector<double> keys, values;
  std::map<double, QString> labels;
  double top = 0;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    keys << static_cast<double>(i + 1);
    values << bars[i].gbps;
    // The title names the family; the tick keeps the variant ("transpose.naive" -> "naive").
    const std::string& id = bars[i].kernel;
    labels[static_cast<double>(i + 1)] = QString::fromStdString(id.substr(id.find('.') + 1));
    top = std::max(top, bars[i].gbps);
  }
  bars_->setData(keys, values, true);
  // The value over each bar: read from the back of the room without the axis.
  for (QCPItemText* label : value_labels_) removeItem(label);
  value_labels_.clear();
  for (std::size_t i = 0; i < bars.size(); ++i) {
    auto* label = new QCPItemText(this);
    label->position->setCoords(static_cast<double>(i + 1), bars[i].gbps);
    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    label->setText(QLocale().toString(bars[i].gbps, 'f', bars[i].gbps < 10 ? 2 : bars[i].gbps < 100 ? 1 : 0));
    label->setFont(yAxis->tickLabelFont());
    label->setPadding(QMargins(0, 0, 0, 4));
    label->setClipToAxisRect(false);  // the tallest bar's value may rise into the margin
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
  legend->setVisible(!bars.empty() && !presentation_);
  ceiling_line_->removeFromLegend();
  if (ceiling_gbps) ceiling_line_->addToLegend();
  xAxis->setRange(0.3, std::max(right, 1.7));
  double lowest = top;
  for (const Bar& b : bars)
    if (b.gbps > 0) lowest = std::min(lowest, b.gbps);
  const bool log =
      lowest > 0 && (scale_ == Scale::Logarithmic || (scale_ == Scale::Automatic && lowest < kVisibleShare * top));
  if (log) {
    // Whole decades around the bars and the ceiling; the bars rise from the floor.
    const double floor = std::pow(10.0, std::floor(std::log10(lowest / 1.5)));
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    yAxis->setRange(floor, std::pow(10.0, std::ceil(std::log10(top * 1.5))));
    bars_->setBaseValue(floor);
  } else {
    yAxis->setScaleType(QCPAxis::stLinear);
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    yAxis->setRange(0, top > 0 ? top * (presentation_ ? 1.3 : 1.15) : 1);
    bars_->setBaseValue(0);
  }
  set_axis_label();
  // A presentation: one line, with the ceiling's value (no legend), which
  // stays whole: the family and its device give way before it.
  if (presentation_ && ceiling_gbps) {
    const QString one_line = QString(family).replace('\n', " · ");
    const QString value = QLocale().toString(*ceiling_gbps, 'f', 0);
    set_full_title(tr("%1 · device copy %2 GB/s").arg(one_line, value),
                   tr("%1 · device copy %2 GB/s").arg(QString(), value));
  } else if (presentation_) set_full_title(QString(family).replace('\n', " · "));
  else
    set_full_title(bars.empty() ? tr("%1: no runs yet (F5 runs the selected kernel)").arg(family)
                                : tr("%1: measured bandwidth").arg(family));
  set_x_labels(labels);
  replot();
}

SweepChart::SweepChart(QWidget* parent) : FittedChart(parent) {
  apply_style(*this);
  setObjectName("sweepChart");
  legend->setVisible(false);
  (new views::Retranslator(this))->add([this] {
    setLocale(QLocale());
    set_y_label(with_unit_alone(tr("bandwidth (GB/s)")));
    // Before the first sweep; a sweep's own title is set again by the window.
    if (graphCount() == 0) set_full_title(tr("Sweep: F6 runs every variant of the family over one parameter"));
    replot();
  });
}

void SweepChart::show_sweep(const QString& title, const SweepData& data) {
  clearGraphs();
  xAxis->setLabel(tr("%1 (%2)").arg(QString::fromStdString(data.parameter()), unit_of(data.parameter())));
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
  // Powers of two (tile, wg) spread evenly on a log axis; pad 0, 1, 2 cannot.
  const bool logarithmic = !xs.empty() && *xs.begin() > 0 && *xs.rbegin() >= 4 * *xs.begin();
  xAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (logarithmic) xAxis->setRange(*xs.begin() / 1.4, *xs.rbegin() * 1.4);
  else if (!xs.empty()) xAxis->setRange(*xs.begin() - 0.5, *xs.rbegin() + 0.5);
  yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
  legend->setVisible(!data.lines().empty());
  std::map<double, QString> labels;
  for (double x : xs) labels[x] = QString::number(x);
  set_full_title(title);
  set_x_labels(labels);
  replot();
}

int SweepChart::point_count() const {
  int n = 0;
  for (int i = 0; i < graphCount(); ++i) n += graph(i)->dataCount();
  return n;
}

}  // namespace threadmap::gui
