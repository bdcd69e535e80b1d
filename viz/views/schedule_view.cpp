#include "viz/views/schedule_view.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <vector>

#include "viz/views/timeline.h"

namespace threadmap::views {

void ScheduleView::document_changed() { model_.emplace(doc_); }

void ScheduleView::step_changed() { frame_ = model_->frame(step_); }

// Every block a bar on its SM's row: untraced blocks first, traced over
// them, the current one last.
void ScheduleView::draw_bars(QPainter& p, const std::function<qreal(double)>& x_of, qreal y0, qreal row_h) {
  const ScheduleFrame& f = frame_;
  const qreal slot_h = row_h / f.slot_count;
  for (int pass = 0; pass < 3; ++pass)
    for (const ScheduleBar& bar : f.bars) {
      const int want = bar.current ? 2 : bar.traced ? 1 : 0;
      if (want != pass) continue;
      const qreal left = x_of(bar.start);
      // Traced and current bars are drawn at least a few pixels tall so they
      // stand out of a grid of thousands.
      const qreal min_h = bar.current ? 10 * theme_.stroke : bar.traced ? 5 * theme_.stroke : 1.0;
      const qreal top = y0 + bar.row * row_h + bar.slot * slot_h;
      const qreal h = std::max<qreal>(min_h, slot_h - (slot_h > 3 ? 1 : 0));
      const QRectF rect(left, top + slot_h / 2 - h / 2, std::max<qreal>(2.0, x_of(bar.end) - left), h);
      const QColor fill = bar.current ? theme_.write : bar.traced ? okabe_ito::kOrange : theme_.earlier_read;
      if (bar.current) mark(rect, true);
      if (bar.current || bar.traced) {
        p.setPen(QPen(theme_.current, theme_.stroke));
        p.setBrush(fill);
        p.drawRect(rect);
        p.setBrush(Qt::NoBrush);
      } else {
        p.fillRect(rect, fill);
      }
    }
}

void ScheduleView::paint(QPainter& p) {
  const ScheduleFrame& f = frame_;
  const Trace& trace = doc_->trace();
  const bool ns = f.clock.rfind("globaltimer", 0) == 0;
  QString detail;
  if (f.current_block < f.bars.size()) {
    const auto& b = trace.schedule[f.current_block];
    const Coord2 c = block_coord(trace, f.current_block);
    detail = f.timed ? tr("block (%1, %2): SM %3, %4-%5 us · %6 blocks, %7 SMs")
                           .arg(c.x)
                           .arg(c.y)
                           .arg(b.sm)
                           .arg(QLocale().toString(f.bars[f.current_block].start / 1000.0, 'f', 1))
                           .arg(QLocale().toString(f.bars[f.current_block].end / 1000.0, 'f', 1))
                           .arg(f.bars.size())
                           .arg(f.sms.size())
                     : tr("%1 blocks in the order they ran (no clock or SM id on this device)").arg(f.bars.size());
  }
  // The current block's SM and times are read whole; the grid's totals
  // after the separator may be elided in a narrow view.
  const QString keep = detail.contains(QStringLiteral(" · ")) ? detail.section(QStringLiteral(" · "), 0, 0) : QString();
  const int top = draw_heading(p, tr("Schedule: blocks on SMs over time"), detail, keep);
  if (f.bars.empty()) {
    draw_centred_note(p, tr("No schedule was recorded."));
    return;
  }
  const int margin = theme_.font_px;
  p.setFont(theme_.font(0.85));
  const int small_h = p.fontMetrics().height();
  const int label_w = p.fontMetrics().horizontalAdvance(f.timed ? "SM 000" : "order") + 8;
  const qreal x0 = margin + label_w, x1 = width() - margin;
  const qreal y0 = top;
  const std::array<std::pair<QColor, QString>, 3> legend{{
      {theme_.earlier_read, tr("block")},
      {okabe_ito::kOrange, tr("traced block")},
      {theme_.write, tr("current block")},
  }};
  // The legend flows onto as many rows as the view's width needs.
  const int box = small_h - 4;
  const qreal legend_row = small_h + 6;
  std::vector<QPointF> legend_at;  // each entry's top left, from the legend's top
  qreal lx = margin, rows = 1;
  for (const auto& entry : legend) {
    const qreal w = box + 4 + p.fontMetrics().horizontalAdvance(entry.second) + 1;
    if (lx > margin && lx + w > width() - margin) {
      lx = margin;
      ++rows;
    }
    legend_at.emplace_back(lx, (rows - 1) * legend_row);
    lx += w + margin;
  }
  const qreal legend_h = rows * legend_row;
  // The axis's caption across the view, on as many lines as it needs.
  const bool micros = f.timed && ns;
  const QString caption =
      micros ? tr("microseconds since the first block started (%globaltimer)") : tr("order in which blocks ran");
  const qreal caption_h = whole_height(p.font(), width() - 2 * margin, caption);
  const qreal y1 = height() - small_h - caption_h - legend_h - margin;
  const qreal row_h = (y1 - y0) / f.sms.size();
  auto x_of = [&](double v) { return x0 + (x1 - x0) * v / f.axis_end; };

  const int label_every = std::max(1, static_cast<int>(std::ceil(small_h / std::max<qreal>(row_h, 0.1))));
  p.setPen(theme_.muted);
  for (std::size_t r = 0; r < f.sms.size(); ++r) {
    if (r % label_every == 0)
      text(p, QRectF(margin, y0 + r * row_h, label_w, std::max<qreal>(row_h, small_h)), Qt::AlignLeft | Qt::AlignTop,
           f.timed ? tr("SM %1").arg(f.sms[r]) : tr("order"), Fit::Label);
    if (row_h >= 6) {
      p.setPen(QPen(theme_.grid, 0.5));
      p.drawLine(QPointF(x0, y0 + r * row_h), QPointF(x1, y0 + r * row_h));
      p.setPen(theme_.muted);
    }
  }
  draw_bars(p, x_of, y0, row_h);

  // Time axis.
  draw_time_axis(
      p, x0, x1, y1 + 2, small_h, f.axis_end, f.timed,
      [micros](double v) { return micros ? QLocale().toString(v / 1000.0, 'f', 1) : QString::number(std::llround(v)); },
      QString());
  p.setPen(theme_.text);
  text(p, QRectF(margin, y1 + 6 + small_h, width() - 2 * margin, caption_h), Qt::AlignHCenter | Qt::AlignVCenter,
       caption);

  const qreal ly = height() - legend_h;
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const auto& [colour, label] = legend[i];
    const QPointF at = legend_at[i] + QPointF(0, ly);
    p.fillRect(QRectF(at.x(), at.y() + 2, box, box), colour);
    p.setPen(theme_.text);
    // A label longer than the row is (a narrow pane) shrinks to fit it.
    const qreal w = std::min<qreal>(p.fontMetrics().horizontalAdvance(label) + 1, width() - margin - at.x() - box - 4);
    text(p, QRectF(at.x() + box + 4, at.y(), w, p.fontMetrics().height()), Qt::AlignLeft | Qt::AlignVCenter, label);
  }
}

}  // namespace threadmap::views
