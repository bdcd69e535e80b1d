#include "viz/views/barrier_view.h"

#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <QSpinBox>
#include <cmath>

#include "viz/views/retranslate.h"

namespace threadmap::views {

BarrierView::BarrierView(QWidget* parent) : TraceView(parent), pass_(new QSpinBox(this)) {
  pass_->setRange(1, 1);
  (new Retranslator(this))->add([this] {
    pass_->setPrefix(tr("barrier "));
    pass_->setToolTip(tr("Which of the block's barriers to show"));
    pass_->setSuffix(pass_->maximum() > 1 || doc_ ? tr(" of %1").arg(pass_->maximum()) : QString());
    pass_->adjustSize();
  });
  connect(pass_, &QSpinBox::valueChanged, this, [this] {
    if (doc_) step_changed();
    update();
  });
}

void BarrierView::resizeEvent(QResizeEvent*) {
  pass_->adjustSize();
  pass_->move(width() - pass_->width() - 8, 8);
}

void BarrierView::document_changed() {
  model_.emplace(doc_);
  shown_block_ = 0xffffffffu;
}

void BarrierView::step_changed() {
  // A new block opens on its widest barrier; within a block the pick stays.
  const BarrierFrame probe = model_->frame(step_, 0);
  if (probe.block != shown_block_) {
    shown_block_ = probe.block;
    const QSignalBlocker quiet(pass_);
    pass_->setRange(1, std::max<int>(1, static_cast<int>(probe.passes_in_block)));
    pass_->setSuffix(tr(" of %1").arg(probe.passes_in_block));
    pass_->setValue(static_cast<int>(model_->widest_pass(step_)) + 1);
    pass_->adjustSize();
    pass_->move(width() - pass_->width() - 8, 8);
  }
  frame_ = model_->frame(step_, static_cast<std::size_t>(pass_->value() - 1));
}

void BarrierView::paint(QPainter& p) {
  const BarrierFrame& f = frame_;
  pass_->setFont(theme_.font());
  pass_->setVisible(f.passes_in_block > 1);
  const QString title = tr("Barrier: block %1").arg(f.block);
  if (!f.has_pass) {
    draw_heading(p, title, QString());
    draw_centred_note(p, tr("Block %1 recorded no barrier: this kernel has no __syncthreads / barrier().").arg(f.block));
    return;
  }
  const int top = draw_heading(p, title + tr(", line %1").arg(f.line), QString::fromStdString(f.source));
  const int margin = theme_.font_px;
  const BarrierFigures& g = f.figures;

  p.setFont(theme_.font(1.25, true));
  const int big_h = p.fontMetrics().height();
  p.setPen(theme_.write);
  const QString slowest = f.timed ? tr("slowest: warp %1 (+%2)").arg(f.slowest_warp).arg(cycles(f.spread, g.sm_clock_mhz))
                                  : tr("slowest: warp %1 (last of %2)").arg(f.slowest_warp).arg(f.lanes.size());
  text(p, QRect(margin, top, width() - 2 * margin, big_h), Qt::AlignLeft | Qt::AlignVCenter, slowest);

  p.setFont(theme_.font());
  const int small_h = p.fontMetrics().height();
  // Every pass the recording timed, below the single-block picture.
  const qreal figures_h =
      g.stats && g.stats->passes > 1 ? small_h * (g.stats->release_latencies.empty() ? 4.5 : 7.5) : 0;
  draw_figures(p, QRectF(margin, height() - figures_h - margin / 2, width() - 2 * margin, figures_h), f);
  // The label column holds the widest label drawn: the last warp's number,
  // in the slowest warp's bold.
  std::uint32_t last_warp = 0;
  std::size_t slowest_lane = f.lanes.size();
  for (std::size_t i = 0; i < f.lanes.size(); ++i) {
    last_warp = std::max<std::uint32_t>(last_warp, f.lanes[i].warp);
    if (f.lanes[i].slowest) slowest_lane = i;
  }
  const int label_w = static_cast<int>(std::ceil(QFontMetricsF(theme_.font(0.9, true))
                                                     .horizontalAdvance(tr("warp %1").arg(std::max<std::uint32_t>(last_warp, 10))))) + 8;
  const qreal x0 = margin + label_w;
  const qreal x1 = width() - margin - p.fontMetrics().horizontalAdvance(tr("released")) - margin;
  const qreal y0 = top + big_h + margin / 2;
  const qreal axis_h = small_h * 2 + 6;
  const qreal note_h = small_h + 4;
  const qreal lane_h = std::max<qreal>(
      4.0, (height() - y0 - axis_h - note_h - margin - figures_h) / std::max<std::size_t>(f.lanes.size(), 1));
  auto x_of = [&](double v) { return x0 + (x1 - x0) * v / f.axis_end; };

  for (std::size_t i = 0; i < f.lanes.size(); ++i) {
    const BarrierLane& lane = f.lanes[i];
    const qreal y = y0 + i * lane_h;
    const qreal mid = y + lane_h / 2;
    const std::size_t label_every = static_cast<std::size_t>(std::ceil(small_h * 1.1 / lane_h));
    // Every label_every-th lane is labelled, and the slowest; a regular
    // label that would overlap the slowest one gives way to it.
    const bool near_slowest = slowest_lane < f.lanes.size() && i != slowest_lane &&
                              (i > slowest_lane ? i - slowest_lane : slowest_lane - i) < label_every;
    if ((i % label_every == 0 && !near_slowest) || lane.slowest) {
      p.setFont(theme_.font(0.9, lane.slowest));
      p.setPen(lane.slowest ? theme_.write : theme_.text);
      text(p, QRectF(margin, mid - small_h / 2.0, label_w, small_h), Qt::AlignLeft | Qt::AlignVCenter,
           tr("warp %1").arg(lane.warp), Fit::Label);
    }
    const qreal bar_h = std::max<qreal>(2.0, lane_h * 0.5);
    // Running until its arrival, then waiting at the barrier.
    const QRectF bar(x0, mid - bar_h / 2, x_of(lane.arrival) - x0, bar_h);
    p.fillRect(bar, lane.slowest ? theme_.write : theme_.read);
    mark(bar, true);
    p.setPen(QPen(theme_.muted, theme_.stroke, Qt::DotLine));
    p.drawLine(QPointF(x_of(lane.arrival), mid), QPointF(x_of(f.barrier_at), mid));
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(lane.slowest ? theme_.write : theme_.read);
    const qreal r = std::max<qreal>(2.5, std::min<qreal>(lane_h * 0.35, 7));
    p.drawEllipse(QPointF(x_of(lane.arrival), mid), r, r);
    if (lane.release >= 0) {
      // The recorded release: the warp's first clock read after the barrier.
      const qreal rx = x_of(lane.release);
      p.setPen(QPen(theme_.wavefront(0), 2.5 * theme_.stroke));
      p.drawLine(QPointF(rx, mid - bar_h), QPointF(rx, mid + bar_h));
    }
    p.setBrush(Qt::NoBrush);
  }

  // The barrier line and the release.
  const qreal lanes_bottom = y0 + f.lanes.size() * lane_h;
  p.setPen(QPen(theme_.current, 3 * theme_.stroke));
  p.drawLine(QPointF(x_of(f.barrier_at), y0 - 4), QPointF(x_of(f.barrier_at), lanes_bottom + 4));
  p.setPen(QPen(theme_.wavefront(0), 3 * theme_.stroke));
  const qreal arrow_x = x_of(std::max(f.barrier_at, f.release_at)) + 6;
  p.drawLine(QPointF(arrow_x, (y0 + lanes_bottom) / 2), QPointF(x1 + margin / 2, (y0 + lanes_bottom) / 2));
  p.setFont(theme_.font(0.9, true));
  p.setPen(theme_.text);
  text(p, QRectF(x1 + margin / 2 + 2, (y0 + lanes_bottom) / 2 - small_h / 2.0, width() - x1 - margin / 2 - 2, small_h),
       Qt::AlignLeft | Qt::AlignVCenter, tr("released"));

  // Axis.
  p.setFont(theme_.font(0.85));
  draw_time_axis(p, x0, x1, lanes_bottom + 6, small_h, f.axis_end, f.timed,
                 [](double v) { return QString::number(std::llround(v)); },
                 // The unit the trace names: "clock64 cycles" on CUDA.
                 f.timed ? tr("%1 after the first arrival")
                               .arg(f.axis == "clock64 cycles" ? tr("clock64 cycles") : QString::fromStdString(f.axis))
                         : tr("arrival order (this device records no clock)"));

  p.setPen(f.release_after_arrivals ? theme_.muted : theme_.write);
  const QString note = f.release_after_arrivals
                           ? (f.release_at >= 0
                                  ? tr("green: each warp's recorded release, all after the last of %1 arrivals")
                                  : tr("every warp released after all %1 arrived (each saw every arrival)"))
                                 .arg(f.lanes.size())
                           : tr("a warp was released before all arrived: inconsistent recording");
  text(p, QRectF(margin, height() - figures_h - note_h - margin / 2, width() - 2 * margin, note_h),
       Qt::AlignLeft | Qt::AlignVCenter, note, Fit::Elide);
}

// "165 cycles (83 ns)": nanoseconds at the SM clock the recording measured.
QString BarrierView::cycles(std::uint64_t c, double mhz) {
  return mhz > 0 ? tr("%1 cycles (%2 ns)").arg(c).arg(std::llround(static_cast<double>(c) * 1000.0 / mhz))
                 : tr("%1 cycles").arg(c);
}

void BarrierView::draw_figures(QPainter& p, const QRectF& area, const BarrierFrame& f) {
  const BarrierFigures& g = f.figures;
  if (area.height() <= 0 || !g.stats) return;
  const analysis::BarrierStats& st = *g.stats;
  p.setFont(theme_.font(0.9, true));
  const qreal line_h = p.fontMetrics().height();
  p.setPen(theme_.grid);
  p.drawLine(area.topLeft(), area.topRight());
  const QString source = st.from == "clock pass"
                             ? (g.sm_clock_mhz > 0 ? tr("clock-only run, %1 MHz").arg(std::llround(g.sm_clock_mhz))
                                                   : tr("clock-only run"))
                             : (st.timed ? tr("traced run") : tr("arrival order only"));
  const QString heading = tr("%1 passes in %2 blocks (%3): warp %4 last in %5%")
                              .arg(st.passes)
                              .arg(st.blocks)
                              .arg(source)
                              .arg(st.most_often_last())
                              .arg(std::llround(100 * st.most_often_last_share()));
  p.setPen(theme_.text);
  // A line that does not fit even at the smallest size wraps onto a second
  // one (Portuguese and Spanish at 1024 px) rather than losing its end.
  const auto wrapped = [&](const QString& text) {
    fit_font(p, text, area.width());
    return p.fontMetrics().horizontalAdvance(text) > area.width();
  };
  const bool heading_wraps = wrapped(heading);
  const qreal heading_h = heading_wraps ? 2 * p.fontMetrics().height() : line_h;
  text(p, QRectF(area.left(), area.top() + 2, area.width(), heading_h), Qt::AlignLeft | Qt::AlignVCenter, heading);

  // One strip per figure: how many passes fall in each bin, the median, and
  // where the shown pass stands.
  auto strip = [&](qreal y, qreal h, const QString& label, const std::vector<std::uint64_t>& sorted,
                   std::optional<std::uint64_t> shown) {
    p.setFont(theme_.font(0.85));
    const bool wraps = wrapped(label);
    const qreal text_h = p.fontMetrics().height() * (wraps ? 2 : 1);
    p.setPen(theme_.text);
    text(p, QRectF(area.left(), y, area.width(), text_h), Qt::AlignLeft | Qt::AlignVCenter, label);
    const QRectF plot(area.left(), y + text_h + 2, area.width(), h - text_h - 4);
    if (sorted.empty() || plot.height() < 4) return;
    // The axis ends at the 99th percentile (or the shown pass), so one
    // outlier does not squeeze the rest into a column; the widest is in the label.
    const double end = std::max<double>(
        {1.0, static_cast<double>(sorted[(sorted.size() - 1) * 99 / 100]), shown ? static_cast<double>(*shown) : 0.0});
    const int bins = std::max(8, std::min(60, static_cast<int>(plot.width() / 8)));
    std::vector<int> count(bins, 0);
    for (std::uint64_t v : sorted)
      ++count[static_cast<std::size_t>(std::clamp(static_cast<double>(v) / end * bins, 0.0, bins - 1.0))];
    const int most = *std::max_element(count.begin(), count.end());
    p.setFont(theme_.font(0.75));
    p.setPen(theme_.muted);
    // The axis's end, with its unit where the figures are cycles.
    const QString end_text = st.timed ? tr("%1 cycles").arg(std::llround(end)) : QString::number(std::llround(end));
    const qreal tick_w = p.fontMetrics().horizontalAdvance(end_text) + 4;
    text(p, QRectF(plot.right() - tick_w, plot.top(), tick_w, p.fontMetrics().height()), Qt::AlignRight, end_text,
         Fit::Label);
    const qreal bw = (plot.width() - tick_w) / bins;
    for (int b = 0; b < bins; ++b) {
      const qreal bh = plot.height() * count[b] / std::max(most, 1);
      p.fillRect(QRectF(plot.left() + b * bw + 1, plot.bottom() - bh, bw - 2, bh), theme_.read);
    }
    const auto x_of = [&](double v) { return plot.left() + bw * bins * std::min(v, end) / end; };
    const double median = static_cast<double>(analysis::BarrierStats::median(sorted));
    p.setPen(QPen(theme_.current, 2.5 * theme_.stroke));
    p.drawLine(QPointF(x_of(median), plot.top()), QPointF(x_of(median), plot.bottom()));
    if (shown) {
      const qreal x = x_of(static_cast<double>(*shown));
      p.setPen(Qt::NoPen);
      p.setBrush(theme_.write);
      const qreal r = std::max<qreal>(4, plot.height() / 5);
      p.drawPolygon(QPolygonF({QPointF(x, plot.bottom() - r * 1.4), QPointF(x - r, plot.bottom()), QPointF(x + r, plot.bottom())}));
      p.setBrush(Qt::NoBrush);
    }
  };
  // A pass the clock pass did not stamp (a traced block outside its sample)
  // is shown with the traced run's stamps: not placed among the clock pass's.
  const bool comparable = f.from_clock_pass || st.from != "clock pass";
  const qreal y = area.top() + heading_h + 4;
  const qreal strip_h = (area.bottom() - y) / (st.release_latencies.empty() ? 1 : 2);
  const std::uint64_t widest = st.spreads.empty() ? 0 : st.spreads.back();
  strip(y, strip_h,
        st.timed ? tr("arrival spread: median %1, widest %2; this pass %3 (wider than %4%)")
                      .arg(cycles(analysis::BarrierStats::median(st.spreads), g.sm_clock_mhz))
                      .arg(widest)
                      .arg(f.spread)
                      .arg(std::llround(100.0 * g.spread_rank / std::max<std::size_t>(st.passes, 1)))
                : tr("arrival spread: median %1 places, widest %2").arg(analysis::BarrierStats::median(st.spreads)).arg(widest),
        st.spreads, comparable ? std::optional<std::uint64_t>(f.spread) : std::nullopt);
  if (!st.release_latencies.empty())
    strip(y + strip_h, strip_h,
          tr("release after the last arrival: median %1, max %2; this pass %3")
              .arg(cycles(analysis::BarrierStats::median(st.release_latencies), g.sm_clock_mhz))
              .arg(st.release_latencies.back())
              .arg(f.release_latency),
          st.release_latencies, comparable ? std::optional<std::uint64_t>(f.release_latency) : std::nullopt);
}

}  // namespace threadmap::views
