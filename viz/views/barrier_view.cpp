#include "viz/views/barrier_view.h"

#include "viz/views/timeline.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

#include "viz/views/retranslate.h"

namespace threadmap::views {

namespace {
// The thinnest a warp's lane gets: the picture is always drawn, however
// little height the view has.
constexpr qreal kMinLane = 3.0;
}  // namespace

BarrierView::BarrierView(QWidget* parent) : TraceView(parent), pass_(new QSpinBox(this)) {
  pass_->setRange(1, 1);
  (new Retranslator(this))->add([this] {
    pass_->setPrefix(tr("barrier "));
    pass_->setToolTip(tr("Which of the block's barriers to show"));
    pass_->setSuffix(pass_->maximum() > 1 || doc_ ? tr(" of %1").arg(pass_->maximum()) : QString());
    place_picker();
  });
  connect(pass_, &QSpinBox::valueChanged, this, [this] {
    if (doc_) step_changed();
    update();
  });
}

void BarrierView::resizeEvent(QResizeEvent*) { place_picker(); }

// Top right, in the theme's body type (24 px in a presentation) and sized
// for it; layout() keeps the text rows level with it left of it.
void BarrierView::place_picker() {
  if (pass_->font() != theme_.font()) pass_->setFont(theme_.font());
  pass_->adjustSize();
  const int pad = theme_.font_px / 2 + 4;
  pass_->move(width() - pass_->width() - pad, (pad + 1) / 2);
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
    // A divergent barrier chosen in the Problems list opens on its pass.
    const std::optional<std::size_t> chosen = divergent_pass(probe.block);
    pass_->setValue(static_cast<int>(chosen ? *chosen : model_->widest_pass(step_)) + 1);
    place_picker();
  }
  frame_ = model_->frame(step_, static_cast<std::size_t>(pass_->value() - 1), divergent());
}

void BarrierView::problem_changed() {
  if (const std::optional<std::size_t> pass = divergent_pass(shown_block_)) {
    const QSignalBlocker quiet(pass_);
    pass_->setValue(static_cast<int>(*pass) + 1);
  }
  step_changed();
}

const analysis::Problem* BarrierView::divergent() const {
  return problem_ && problem_->problem.kind == analysis::ProblemKind::DivergentBarrier ? &problem_->problem : nullptr;
}

std::optional<std::size_t> BarrierView::divergent_pass(std::uint32_t block) const {
  const analysis::Problem* p = divergent();
  if (!p || p->block != block || !model_) return std::nullopt;
  return model_->pass_of_instance(block, p->interval);
}

std::vector<BarrierView::Row> BarrierView::rows(const BarrierFrame& f) {
  std::vector<Row> out;
  for (const BarrierLane& lane : f.lanes) out.push_back({lane.warp, &lane});
  for (const std::uint16_t w : f.never_arrived) out.push_back({w, nullptr});
  std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.warp < b.warp; });
  return out;
}

QString BarrierView::never_arrived_text(const BarrierFrame& f) const {
  // "n of m warps" reads whole for one warp too: no plural forms to fill.
  return tr("%1 of %2 warps never arrived: a barrier in divergent code")
      .arg(f.never_arrived.size())
      .arg(f.lanes.size() + f.never_arrived.size());
}

// "Barrier: block (1, 0)".
QString BarrierView::block_title(const BarrierFrame& f) const {
  return tr("Barrier: block %1").arg(QString::fromStdString(block_name(doc_->trace(), f.block)));
}

QString BarrierView::slowest_text(const BarrierFrame& f) const {
  if (!f.never_arrived.empty()) return never_arrived_text(f);
  return f.timed ? tr("slowest: warp %1 (+%2)").arg(f.slowest_warp).arg(cycles(f.spread, f.figures.sm_clock_mhz))
                 : tr("slowest: warp %1 (last of %2)").arg(f.slowest_warp).arg(f.lanes.size());
}

QString BarrierView::caption_text(const BarrierFrame& f) const {
  // The unit the trace names: "clock64 cycles" on CUDA.
  return f.timed ? tr("%1 after the first arrival")
                       .arg(f.axis == "clock64 cycles" ? tr("clock64 cycles") : QString::fromStdString(f.axis))
                 : tr("arrival order (this device records no clock)");
}

QString BarrierView::note_text(const BarrierFrame& f) const {
  if (!f.never_arrived.empty())
    return tr("the %1 warps that arrived were let go without the others: a barrier not every warp reaches is undefined behaviour")
        .arg(f.lanes.size());
  if (!f.release_after_arrivals) return tr("a warp was released before all arrived: inconsistent recording");
  return (f.release_at >= 0 ? tr("green: each warp's recorded release, all after the last of %1 arrivals")
                            : tr("every warp released after all %1 arrived (each saw every arrival)"))
      .arg(f.lanes.size());
}

BarrierView::Layout BarrierView::layout(const BarrierFrame& f) const {
  Layout l;
  l.pad = theme_.font_px / 2 + 4;
  l.gap = std::ceil(l.pad / 2);
  const qreal left = l.pad, full = width() - 2 * l.pad;
  // A row that starts level with the pass picker ends left of it.
  const QRectF picker = pass_->isHidden() ? QRectF() : QRectF(pass_->geometry());
  const auto row_width = [&](qreal top) {
    return !picker.isEmpty() && top < picker.bottom() + l.gap ? picker.left() - l.gap - left : full;
  };

  // The heading: the title, and the barrier's line after it where a few of
  // its characters fit on the row, else on a row of its own.
  const QString title = block_title(f) + tr(", line %1").arg(f.line);
  const QFontMetricsF title_m(theme_.font(1.15, true)), source_m(theme_.font());
  // The heading starts a gap from the top, level with the picker: every
  // line of height goes to the picture.
  const qreal title_w = row_width(l.gap);
  l.title = QRectF(left, l.gap, title_w, whole_height(theme_.font(1.15, true), title_w, title));
  const qreal after_title = std::ceil(title_m.horizontalAdvance(title)) + 2 * l.gap;
  const QString source = QString::fromStdString(f.source).trimmed();
  const qreal source_min = std::min(source_m.horizontalAdvance(source), 8 * source_m.averageCharWidth());
  qreal source_h = 0;  // the source's own row, when it has one
  if (title_w - after_title >= source_min) {
    l.source = QRectF(left + after_title, l.gap, title_w - after_title, l.title.height());
    l.title.setWidth(after_title - l.gap);
  } else if (!source.isEmpty()) {
    source_h = std::ceil(source_m.height());
  }
  const QString slowest = slowest_text(f);
  const QFont slowest_font = theme_.font(1.25, true);
  const auto slowest_height = [&](qreal top) { return whole_height(slowest_font, row_width(top), slowest); };

  // What the lanes must leave below them: the axis, its caption, the note.
  const QFont axis_font = theme_.font(0.85);
  l.tick_h = std::ceil(QFontMetricsF(axis_font).height());
  const qreal caption_h = whole_height(axis_font, full, caption_text(f));
  const qreal axis_h = 6 + 4 + l.tick_h + caption_h;  // the axis line 6 below the lanes, labels 4 below it
  qreal note_h = whole_height(theme_.font(), full, note_text(f));
  const qreal label_h = std::ceil(QFontMetricsF(theme_.font(0.9, true)).height());
  const qreal lanes_min = std::max(kMinLane * static_cast<qreal>(rows(f).size()), label_h);
  const qreal bottom = height() - l.gap;
  const auto lanes_top = [&] {
    const qreal y = l.title.bottom() + source_h + l.gap;
    return y + slowest_height(y) + l.gap + 4;  // the barrier line stands 4 above the lanes
  };
  const auto lanes_room = [&] { return bottom - lanes_top() - axis_h - (note_h > 0 ? note_h + l.gap : 0); };
  // Where the lanes would get less than their least, the source's own row
  // gives way (the source pane shows the line too), then the note.
  if (lanes_room() < lanes_min) source_h = 0;
  if (lanes_room() < lanes_min) note_h = 0;
  if (source_h > 0) l.source = QRectF(left, l.title.bottom(), row_width(l.title.bottom()), source_h);
  const qreal slowest_top = l.title.bottom() + source_h + l.gap;
  l.slowest = QRectF(left, slowest_top, row_width(slowest_top), slowest_height(slowest_top));

  // Too low even then: the lanes thinner still, the texts below them whole.
  qreal lanes_h = std::max(lanes_room(), label_h);
  // The figures of every pass, whole below the note where they fit.
  const Figures all = figures(f, full);
  const bool with_figures = all.height > 0 && lanes_h - all.height - l.gap >= lanes_min;
  qreal figures_h = 0;
  if (with_figures) {
    // Lanes roomier than comfortable give the rest to the figures' plots,
    // up to three lines of their labels each.
    const qreal comfortable = label_h * 0.75 * static_cast<qreal>(rows(f).size());
    const qreal spare = lanes_h - all.height - l.gap - std::max(comfortable, lanes_min);
    const qreal most = static_cast<qreal>(all.strips.size()) * all.plot_h;
    figures_h = all.height + std::clamp(spare, 0.0, most);
    lanes_h -= figures_h + l.gap;
  }
  l.lanes = QRectF(left, lanes_top(), full, lanes_h);

  place_columns(l, f);

  l.axis_y = l.lanes.bottom() + 6;
  l.caption = QRectF(left, l.axis_y + 4 + l.tick_h, full, caption_h);
  qreal y = l.caption.bottom();
  if (note_h > 0) {
    l.note = QRectF(left, y + l.gap, full, note_h);
    y = l.note.bottom();
  }
  if (with_figures) l.figures = QRectF(left, y + l.gap, full, figures_h);
  return l;
}

// The plot between the label column (the widest warp label, in the
// slowest's bold) and "released" at the right, where that leaves the plot
// half the width.
void BarrierView::place_columns(Layout& l, const BarrierFrame& f) const {
  const QFontMetricsF label_m(theme_.font(0.9, true));
  const qreal left = l.lanes.left(), full = l.lanes.width(), label_h = std::ceil(label_m.height());
  std::uint32_t last_warp = 10;
  for (const BarrierLane& lane : f.lanes) last_warp = std::max<std::uint32_t>(last_warp, lane.warp);
  for (const std::uint16_t w : f.never_arrived) last_warp = std::max<std::uint32_t>(last_warp, w);
  l.x0 = left + std::ceil(label_m.horizontalAdvance(tr("warp %1").arg(last_warp))) + l.gap;
  const qreal released_w = std::ceil(label_m.horizontalAdvance(tr("released"))) + 1;
  l.x1 = left + full - released_w - l.pad;
  if (l.x1 - l.x0 >= full / 2) {
    l.released = QRectF(left + full - released_w, l.lanes.center().y() - label_h / 2, released_w, label_h);
  } else {
    l.x1 = left + full - l.gap;
  }
}

void BarrierView::paint(QPainter& p) {
  const BarrierFrame& f = frame_;
  place_picker();
  pass_->setVisible(f.passes_in_block > 1);
  if (!f.has_pass) {
    draw_heading(p, block_title(f), QString());
    draw_centred_note(p,
                      tr("Block %1 recorded no barrier: this kernel has no __syncthreads / barrier().").arg(f.block));
    return;
  }
  const Layout l = layout(f);
  draw_heading_rows(p, l, f);
  draw_lanes(p, l, f);

  p.setFont(theme_.font(0.85));
  draw_time_axis(
      p, l.x0, l.x1, l.axis_y, l.tick_h, f.axis_end, f.timed, [](double v) { return QString::number(std::llround(v)); },
      QString());
  // The caption across the view's width, wrapped where it must be.
  p.setPen(theme_.text);
  text(p, l.caption, Qt::AlignHCenter | Qt::AlignVCenter, caption_text(f));

  if (!l.note.isEmpty()) {
    p.setFont(theme_.font());
    p.setPen(!f.never_arrived.empty() ? theme_.problem : f.release_after_arrivals ? theme_.muted : theme_.write);
    text(p, l.note, Qt::AlignLeft | Qt::AlignVCenter, note_text(f));
  }
  if (!l.figures.isEmpty()) draw_figures(p, l.figures, f);
}

void BarrierView::draw_heading_rows(QPainter& p, const Layout& l, const BarrierFrame& f) {
  p.setPen(theme_.text);
  p.setFont(theme_.font(1.15, true));
  text(p, l.title, Qt::AlignLeft | Qt::AlignVCenter, block_title(f) + tr(", line %1").arg(f.line));
  if (!l.source.isEmpty()) {
    // Echoed source: elided rather than pushing the picture down.
    p.setFont(theme_.font());
    p.setPen(theme_.muted);
    text(p, l.source, Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(f.source).trimmed(), Fit::Elide);
  }
  p.setFont(theme_.font(1.25, true));
  p.setPen(f.never_arrived.empty() ? theme_.write : theme_.problem);
  text(p, l.slowest, Qt::AlignLeft | Qt::AlignVCenter, slowest_text(f));
}

void BarrierView::draw_lanes(QPainter& p, const Layout& l, const BarrierFrame& f) {
  const std::vector<Row> all = rows(f);
  const std::size_t n = std::max<std::size_t>(all.size(), 1);
  const qreal lane_h = l.lanes.height() / n;
  const qreal y0 = l.lanes.top();
  auto x_of = [&](double v) { return l.x0 + (l.x1 - l.x0) * v / f.axis_end; };

  // Labels: the slowest warp's always, then every label_every-th warp's
  // where it does not touch a label already drawn (Fit::Label leaves it
  // out). A label stays inside the lanes: a thin lane is lower than its label.
  const QFont label_font = theme_.font(0.9), slowest_font = theme_.font(0.9, true);
  const qreal label_h = std::ceil(QFontMetricsF(slowest_font).height());
  const auto label_box = [&](std::size_t i) {
    const qreal mid = y0 + (i + 0.5) * lane_h;
    const qreal top = std::max(y0, std::min(mid - label_h / 2, l.lanes.bottom() - label_h));
    return QRectF(l.lanes.left(), top, l.x0 - l.lanes.left(), label_h);
  };
  const auto slowest = [&](std::size_t i) { return all[i].lane && all[i].lane->slowest && f.never_arrived.empty(); };
  for (std::size_t i = 0; i < all.size(); ++i)
    if (slowest(i)) {
      p.setFont(slowest_font);
      p.setPen(theme_.write);
      text(p, label_box(i), Qt::AlignLeft | Qt::AlignVCenter, tr("warp %1").arg(all[i].warp));
    }
  const std::size_t label_every = static_cast<std::size_t>(std::max(1.0, std::ceil(label_h * 1.1 / lane_h)));
  p.setFont(label_font);
  // A regular label moved off its lane's middle would name the lane next
  // to it: those are left out (the slowest's is in its colour).
  const auto centred = [&](std::size_t i) {
    return std::abs(label_box(i).center().y() - (y0 + (i + 0.5) * lane_h)) < 0.5;
  };
  const auto first = static_cast<std::size_t>(std::max(0.0, std::ceil(label_h / 2 / lane_h - 0.5)));
  for (std::size_t i = first; i < all.size(); i += label_every)
    if (!slowest(i) && centred(i)) {
      p.setPen(all[i].lane ? theme_.text : theme_.problem);
      text(p, label_box(i), Qt::AlignLeft | Qt::AlignVCenter, tr("warp %1").arg(all[i].warp), Fit::Label);
    }

  const std::uint32_t width = std::max<std::uint32_t>(doc_->trace().warp_width, 1);
  const qreal bar_h = std::max<qreal>(2.0, lane_h * 0.5);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const qreal mid = y0 + (i + 0.5) * lane_h;
    if (!all[i].lane) {
      // Never arrived: hatched across the whole axis, past the barrier line.
      const QRectF bar(l.x0, mid - bar_h / 2, l.x1 - l.x0, bar_h);
      p.fillRect(bar, QBrush(theme_.problem, Qt::BDiagPattern));
      p.setPen(QPen(theme_.problem, theme_.stroke));
      p.drawRect(bar);
      mark_problem(bar, static_cast<int>(all[i].warp * width));
      continue;
    }
    const BarrierLane& lane = *all[i].lane;
    const bool last = slowest(i);
    // Running until its arrival, then waiting at the barrier.
    const QRectF bar(l.x0, mid - bar_h / 2, x_of(lane.arrival) - l.x0, bar_h);
    p.fillRect(bar, last ? theme_.write : theme_.read);
    mark(bar, true);
    p.setPen(QPen(theme_.muted, theme_.stroke, Qt::DotLine));
    p.drawLine(QPointF(x_of(lane.arrival), mid), QPointF(x_of(f.barrier_at), mid));
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(last ? theme_.write : theme_.read);
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

  // The barrier line at the last arrival, and the release arrow after it.
  const qreal lanes_bottom = l.lanes.bottom();
  p.setPen(QPen(theme_.current, 3 * theme_.stroke));
  p.drawLine(QPointF(x_of(f.barrier_at), y0 - 4), QPointF(x_of(f.barrier_at), lanes_bottom + 4));
  p.setPen(QPen(theme_.wavefront(0), 3 * theme_.stroke));
  const qreal arrow_x = x_of(std::max(f.barrier_at, f.release_at)) + 6;
  const qreal arrow_end = l.released.isEmpty() ? l.x1 + l.gap : l.released.left() - l.gap / 2;
  p.drawLine(QPointF(arrow_x, l.lanes.center().y()), QPointF(arrow_end, l.lanes.center().y()));
  if (!l.released.isEmpty()) {
    p.setFont(slowest_font);
    p.setPen(theme_.text);
    text(p, l.released, Qt::AlignLeft | Qt::AlignVCenter, tr("released"));
  }

  // Each run of warps that never arrived named over its hatching, in the
  // plot's middle, on a plate where the run is tall enough for a line.
  p.setFont(slowest_font);
  for (std::size_t i = 0; i < all.size();) {
    if (all[i].lane) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < all.size() && !all[j].lane) ++j;
    const QString label = j - i == 1 ? tr("warp %1 never arrived").arg(all[i].warp)
                                     : tr("warps %1–%2 never arrived").arg(all[i].warp).arg(all[j - 1].warp);
    const qreal w = l.x1 - l.x0;
    const qreal run_top = y0 + i * lane_h, run_h = (j - i) * lane_h;
    const QFontMetricsF m(p.font());
    if (run_h >= label_h && w > 0 && m.horizontalAdvance(label) + 8 <= w) {
      const qreal plate_w = m.horizontalAdvance(label) + 8;
      const QRectF plate(l.x0 + (w - plate_w) / 2, run_top + (run_h - label_h) / 2, plate_w, label_h);
      p.fillRect(plate, theme_.background);
      p.setPen(theme_.problem);
      text(p, plate, Qt::AlignCenter, label, Fit::Label);
    }
    i = j;
  }
}

// "165 cycles (83 ns)": nanoseconds at the SM clock the recording measured.
QString BarrierView::cycles(std::uint64_t c, double mhz) {
  return mhz > 0 ? tr("%1 cycles (%2 ns)").arg(c).arg(std::llround(static_cast<double>(c) * 1000.0 / mhz))
                 : tr("%1 cycles").arg(c);
}

BarrierView::Figures BarrierView::figures(const BarrierFrame& f, qreal width) const {
  Figures out;
  const BarrierFigures& g = f.figures;
  if (!g.stats || g.stats->passes <= 1) return out;
  const analysis::BarrierStats& st = *g.stats;
  const QString source =
      st.from == "clock pass"
          ? (g.sm_clock_mhz > 0 ? tr("clock-only run, %1 MHz").arg(std::llround(g.sm_clock_mhz)) : tr("clock-only run"))
          : (st.timed ? tr("traced run") : tr("arrival order only"));
  out.heading = tr("%1 passes in %2 blocks (%3): warp %4 last in %5%")
                    .arg(st.passes)
                    .arg(st.blocks)
                    .arg(source)
                    .arg(st.most_often_last())
                    .arg(std::llround(100 * st.most_often_last_share()));
  out.heading_h = whole_height(theme_.font(0.9, true), width, out.heading);

  // A pass the clock pass did not stamp (a traced block outside its sample)
  // is shown with the traced run's stamps: not placed among the clock pass's.
  const bool comparable = f.from_clock_pass || st.from != "clock pass";
  const std::uint64_t widest = st.spreads.empty() ? 0 : st.spreads.back();
  Strip spread;
  spread.label = st.timed ? tr("arrival spread: median %1, widest %2; this pass %3 (wider than %4%)")
                                .arg(cycles(analysis::BarrierStats::median(st.spreads), g.sm_clock_mhz))
                                .arg(widest)
                                .arg(f.spread)
                                .arg(std::llround(100.0 * g.spread_rank / std::max<std::size_t>(st.passes, 1)))
                          : tr("arrival spread: median %1 places, widest %2")
                                .arg(analysis::BarrierStats::median(st.spreads))
                                .arg(widest);
  spread.sorted = &st.spreads;
  if (comparable) spread.shown = f.spread;
  out.strips.push_back(spread);
  if (!st.release_latencies.empty()) {
    Strip release;
    release.label = tr("release after the last arrival: median %1, max %2; this pass %3")
                        .arg(cycles(analysis::BarrierStats::median(st.release_latencies), g.sm_clock_mhz))
                        .arg(st.release_latencies.back())
                        .arg(f.release_latency);
    release.sorted = &st.release_latencies;
    if (comparable) release.shown = f.release_latency;
    out.strips.push_back(release);
  }
  // A plot is at least one and a half lines of its axis's end label high.
  out.plot_h = std::ceil(1.5 * QFontMetricsF(theme_.font(0.75)).height());
  out.height = 2 + out.heading_h;
  for (Strip& s : out.strips) {
    s.label_h = whole_height(theme_.font(0.85), width, s.label);
    out.height += 4 + s.label_h + 2 + out.plot_h;
  }
  return out;
}

void BarrierView::draw_figures(QPainter& p, const QRectF& area, const BarrierFrame& f) {
  const Figures all = figures(f, area.width());
  p.setPen(theme_.grid);
  p.drawLine(area.topLeft(), area.topRight());
  p.setFont(theme_.font(0.9, true));
  p.setPen(theme_.text);
  text(p, QRectF(area.left(), area.top() + 2, area.width(), all.heading_h), Qt::AlignLeft | Qt::AlignVCenter,
       all.heading);
  // The plots share what the area has over the least (layout() may give more).
  const qreal plot_h = all.plot_h + std::max(0.0, area.height() - all.height) / all.strips.size();
  qreal y = area.top() + 2 + all.heading_h;
  for (const Strip& s : all.strips) {
    y += 4;
    draw_strip(p, QRectF(area.left(), y, area.width(), s.label_h + 2 + plot_h), s, f.figures.stats->timed);
    y += s.label_h + 2 + plot_h;
  }
}

// One strip per figure: its label, then how many passes fall in each bin,
// the median, and where the shown pass stands.
void BarrierView::draw_strip(QPainter& p, const QRectF& area, const Strip& s, bool timed) {
  p.setFont(theme_.font(0.85));
  p.setPen(theme_.text);
  text(p, QRectF(area.left(), area.top(), area.width(), s.label_h), Qt::AlignLeft | Qt::AlignVCenter, s.label);
  const QRectF plot(area.left(), area.top() + s.label_h + 2, area.width(), area.height() - s.label_h - 2);
  const std::vector<std::uint64_t>& sorted = *s.sorted;
  if (sorted.empty()) return;
  // The axis ends at the 99th percentile (or the shown pass), so one
  // outlier does not squeeze the rest into a column; the widest is in the label.
  const double end = std::max<double>({1.0, static_cast<double>(sorted[(sorted.size() - 1) * 99 / 100]),
                                       s.shown ? static_cast<double>(*s.shown) : 0.0});
  const int bins = std::max(8, std::min(60, static_cast<int>(plot.width() / 8)));
  std::vector<int> count(bins, 0);
  for (std::uint64_t v : sorted)
    ++count[static_cast<std::size_t>(std::clamp(static_cast<double>(v) / end * bins, 0.0, bins - 1.0))];
  const int most = *std::max_element(count.begin(), count.end());
  p.setFont(theme_.font(0.75));
  p.setPen(theme_.muted);
  // The axis's end, with its unit where the figures are cycles.
  const QString end_text = timed ? tr("%1 cycles").arg(std::llround(end)) : QString::number(std::llround(end));
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
  if (s.shown) {
    const qreal x = x_of(static_cast<double>(*s.shown));
    p.setPen(Qt::NoPen);
    p.setBrush(theme_.write);
    const qreal r = std::max<qreal>(4, plot.height() / 5);
    p.drawPolygon(
        QPolygonF({QPointF(x, plot.bottom() - r * 1.4), QPointF(x - r, plot.bottom()), QPointF(x + r, plot.bottom())}));
    p.setBrush(Qt::NoBrush);
  }
}

}  // namespace threadmap::views
