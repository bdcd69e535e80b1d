#include "viz/views/coalescing_view.h"

#include <QLocale>
#include <QPainter>
#include <cmath>

namespace threadmap::views {

void CoalescingView::document_changed() { model_.emplace(doc_); }

void CoalescingView::step_changed() { frame_ = model_->frame(step_); }

void CoalescingView::paint(QPainter& p) {
  const CoalescingFrame& f = frame_;
  const auto detail = [&](const QString& source) {
    return tr("line %1 %2 of %3: %4").arg(f.line)
        .arg(access_kind(f.store, f.merged, f.access_bytes))
        .arg(QString::fromStdString(f.buffer), source);
  };
  // The access kind, and where the compiler merged accesses, is read whole;
  // the source text, also in the source pane, may be elided.
  const int top = draw_heading(p, tr("Coalescing: 32-byte sectors per request"),
                               f.has_request ? detail(QString::fromStdString(f.source)) : QString(),
                               f.has_request ? detail(QString()) : QString());
  if (!f.has_request) {
    draw_centred_note(p, tr("This kernel makes no global accesses in the traced blocks."));
    return;
  }
  const int margin = theme_.font_px;
  const bool wasteful = f.request_sectors > f.request_ideal;
  p.setFont(theme_.font(1.35, true));
  const int big_h = p.fontMetrics().height();
  p.setPen(wasteful ? theme_.write : theme_.text);
  const QString big = tr("%n sector(s) for this request, ideal %1", nullptr, static_cast<int>(f.request_sectors))
                         .arg(f.request_ideal);
  text(p, QRect(margin, top, width() - 2 * margin, big_h), Qt::AlignLeft | Qt::AlignVCenter, big);

  p.setFont(theme_.font());
  const int small_h = p.fontMetrics().height();
  const qreal lanes_y = top + big_h + margin;
  const qreal lane_w = (width() - 2.0 * margin) / std::max<std::size_t>(f.lane_sector.size(), 1);
  const qreal lane_h = std::max<qreal>(small_h + 4, 18);
  p.setFont(theme_.font(0.75, true));
  for (std::size_t lane = 0; lane < f.lane_sector.size(); ++lane) {
    const QRectF box(margin + lane * lane_w + 1, lanes_y, lane_w - 2, lane_h);
    const bool active = f.lane_sector[lane] >= 0;
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(active ? QBrush(f.store ? theme_.write : theme_.read) : QBrush(theme_.untouched));
    p.drawRect(box);
    mark(box, active);
    p.setPen(active ? QColor(Qt::white) : theme_.muted);
    text(p, box, Qt::AlignCenter, QString::number(lane), Fit::Label);
  }

  // Sectors in address order, up to 16 a row; gaps between sectors that are
  // not adjacent in memory are marked.
  const std::size_t n = f.sectors.size();
  const std::size_t per_row = std::min<std::size_t>(16, std::max<std::size_t>(n, 1));
  const std::size_t rows = (n + per_row - 1) / per_row;
  const qreal sectors_y = lanes_y + lane_h + margin * 4;
  const qreal footer_h = small_h * 3 + margin;
  const qreal sector_w = (width() - 2.0 * margin) / per_row;
  const qreal sector_h = std::min<qreal>(sector_w * 1.2, (height() - sectors_y - footer_h) / std::max<std::size_t>(rows, 1) - margin);
  std::vector<QRectF> boxes;
  for (std::size_t i = 0; i < n; ++i) {
    const QRectF box(margin + (i % per_row) * sector_w + 3, sectors_y + (i / per_row) * (sector_h + margin), sector_w - 6, sector_h);
    boxes.push_back(box);
  }
  // Lines from each lane to its sector, under the boxes.
  for (std::size_t lane = 0; lane < f.lane_sector.size(); ++lane) {
    if (f.lane_sector[lane] < 0) continue;
    const QRectF& to = boxes[static_cast<std::size_t>(f.lane_sector[lane])];
    p.setPen(QPen(f.store ? theme_.write : theme_.read, theme_.stroke * 0.8));
    p.drawLine(QPointF(margin + (lane + 0.5) * lane_w, lanes_y + lane_h), QPointF(to.center().x(), to.top()));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const SectorBox& s = f.sectors[i];
    const QRectF& box = boxes[i];
    p.fillRect(box, theme_.untouched);
    const qreal used = box.width() * s.bytes_used / f.sector_bytes;
    p.fillRect(QRectF(box.left(), box.top(), used, box.height()), f.store ? theme_.earlier_write : theme_.earlier_read);
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(Qt::NoBrush);
    p.drawRect(box);
    p.setFont(theme_.font(0.75));
    const QString label = tr("%1 B").arg(s.bytes_used);
    mark(box, true);
    text(p, box, Qt::AlignCenter, label, Fit::Label);
    if (i > 0 && f.sectors[i - 1].sector + 1 != s.sector && i % per_row != 0) {
      p.setPen(QPen(theme_.muted, theme_.stroke, Qt::DashLine));
      p.drawLine(QPointF(box.left() - 3, box.top() - 4), QPointF(box.left() - 3, box.bottom() + 4));
    }
  }
  p.setFont(theme_.font(0.85));
  p.setPen(theme_.muted);
  if (n > 0) {
    const double stride = n > 1 ? static_cast<double>(f.sectors[1].sector - f.sectors[0].sector) * f.sector_bytes : 0;
    const qreal below = boxes.back().bottom() + 4;
    text(p, QRectF(margin, below, width() - 2 * margin, small_h), Qt::AlignLeft | Qt::AlignVCenter,
               n > 1 && stride > f.sector_bytes
                   ? tr("sectors of %1 by address, %2 bytes apart").arg(QString::fromStdString(f.buffer)).arg(stride)
                   : tr("sectors of %1 by address (bytes used of 32)").arg(QString::fromStdString(f.buffer)));
  }

  // Per site and per kernel.
  const qreal y = height() - footer_h;
  p.setFont(theme_.font());
  p.setPen(theme_.text);
  const double per_request = f.site_requests ? static_cast<double>(f.site_sectors) / f.site_requests : 0;
  text(p, QRectF(margin, y, width() - 2 * margin, small_h), Qt::AlignLeft | Qt::AlignVCenter,
             tr("line %1: %2 per request (%3 in %4), ideal %5")
                 .arg(f.line).arg(QLocale().toString(per_request, 'f', 2)).arg(f.site_sectors).arg(f.site_requests).arg(f.site_ideal));
  text(p, QRectF(margin, y + small_h, width() - 2 * margin, small_h), Qt::AlignLeft | Qt::AlignVCenter,
             tr("kernel so far: %1 / %2 sectors, ideal %3")
                 .arg(f.so_far.global_sectors).arg(f.total.global_sectors).arg(f.total.global_ideal_sectors));
}

}  // namespace threadmap::views
