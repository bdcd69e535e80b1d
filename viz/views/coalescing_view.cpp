#include "viz/views/coalescing_view.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <cmath>

namespace threadmap::views {

namespace {

// Whether `s` fits `width` at the painter's font shrunk down to `floor` px.
bool fits_shrunk(const QPainter& p, const QString& s, qreal width, int floor) {
  QFont font = p.font();
  font.setPixelSize(std::min(font.pixelSize(), floor));
  return QFontMetricsF(font).horizontalAdvance(s) <= width;
}

}  // namespace

void CoalescingView::document_changed() { model_.emplace(doc_); }

void CoalescingView::step_changed() { frame_ = model_->frame(step_); }

// What the step is when it is no global access: said plainly, with what the
// kernel's global accesses come to, so no other request's lanes are shown.
QString CoalescingView::not_global_note() const {
  const CoalescingFrame& f = frame_;
  const QString kind = f.step_store ? tr("store") : tr("load");
  const QString space = f.step_space == Space::Shared ? tr("shared") : tr("non-global");
  return tr("This step is a %1 %2; global accesses: %3 sectors (ideal %4), %5 so far.")
      .arg(space, kind)
      .arg(f.total.global_sectors)
      .arg(f.total.global_ideal_sectors)
      .arg(f.so_far.global_sectors);
}

void CoalescingView::paint(QPainter& p) {
  const CoalescingFrame& f = frame_;
  const int margin = theme_.font_px / 2 + 4;
  const qreal y = draw_title(p, tr("Coalescing: 32-byte sectors per request"));
  if (!f.has_request) {
    draw_centred_note(p, tr("This kernel makes no global accesses in the traced blocks."));
    return;
  }
  if (!f.at_step) {
    draw_note_below(p, y, not_global_note());  // nothing of another request
    return;
  }
  paint_request(p, y + margin / 2.0);
}

// Top-down: the big figure, the request line, the lanes, the sectors, the
// caption and the totals; each line measured, and what does not fit left
// out whole (the sectors are always drawn).
void CoalescingView::paint_request(QPainter& p, qreal y) {
  const CoalescingFrame& f = frame_;
  const int margin = theme_.font_px / 2 + 4;
  const qreal width_in = width() - 2.0 * margin;
  const qreal bottom = height() - margin / 2.0;

  const bool wasteful = f.request_sectors > f.request_ideal;
  p.setFont(theme_.font(1.35, true));
  p.setPen(wasteful ? theme_.write : theme_.text);
  const QString big =
      tr("%n sector(s) for this request, ideal %1", nullptr, static_cast<int>(f.request_sectors)).arg(f.request_ideal);
  const qreal big_h = whole_height(p.font(), width_in, big);
  text(p, QRectF(margin, y, width_in, big_h), Qt::AlignLeft | Qt::AlignVCenter, big);
  y += big_h;

  // What the sectors need at the least: a lane row, a gap for the lines
  // and each row of sectors as high as its "8 B".
  const std::size_t n = f.sectors.size();
  const std::size_t per_row = std::min<std::size_t>(16, std::max<std::size_t>(n, 1));
  const std::size_t rows = std::max<std::size_t>((n + per_row - 1) / per_row, 1);
  p.setFont(theme_.font(0.75, true));
  const qreal lane_h = std::max<qreal>(lines(p, 1) + 4, 18);
  const qreal min_sector_h = std::max<qreal>(lines(p, 1) + 4, 12);
  const qreal gap = std::max<qreal>(margin * 1.5, 12);
  const qreal sector_gap = rows > 1 ? margin / 2.0 : 0;
  const qreal needed = lane_h + gap + rows * min_sector_h + (rows - 1) * sector_gap;
  p.setFont(theme_.font());
  const qreal line_h = lines(p, 1);

  // The secondary lines, most wanted first, while the sectors keep their room.
  qreal room = bottom - y - needed;
  p.setPen(theme_.muted);
  const auto take = [&](qreal h) {
    if (h > room) return false;
    room -= h;
    return true;
  };
  const QString kind = tr("line %1 %2 of %3")
                           .arg(f.line)
                           .arg(access_kind(f.store, f.merged, f.access_bytes, f.atomic))
                           .arg(QString::fromStdString(f.buffer));
  const QString with_source = kind + QStringLiteral(": ") + QString::fromStdString(f.source);
  // The access kind (and a merge) is read whole; the source text, also in
  // the source pane, may be elided.
  const bool source_too = !f.source.empty() && fits_shrunk(p, kind + QStringLiteral(": …"), width_in, theme_.floor_px);
  const qreal kind_h = source_too ? line_h : whole_height(p.font(), width_in, kind);
  if (take(kind_h)) {
    if (source_too)
      text(p, QRectF(margin, y, width_in, line_h), Qt::AlignLeft | Qt::AlignVCenter, with_source, Fit::Elide);
    else text(p, QRectF(margin, y, width_in, kind_h), Qt::AlignLeft | Qt::AlignVCenter, kind);
    y += kind_h;
  }
  const double per_request = f.site_requests ? static_cast<double>(f.site_sectors) / f.site_requests : 0;
  const QString caption = caption_text();
  const QString site = tr("line %1: %2 per request (%3 in %4), ideal %5")
                           .arg(f.line)
                           .arg(QLocale().toString(per_request, 'f', 2))
                           .arg(f.site_sectors)
                           .arg(f.site_requests)
                           .arg(f.site_ideal);
  const QString kernel = tr("kernel so far: %1 / %2 sectors, ideal %3")
                             .arg(f.so_far.global_sectors)
                             .arg(f.total.global_sectors)
                             .arg(f.total.global_ideal_sectors);
  p.setFont(theme_.font(0.85));
  const qreal caption_h = whole_height(p.font(), width_in, caption);
  const bool show_caption = take(caption_h + 4);
  p.setFont(theme_.font());
  const qreal site_h = whole_height(p.font(), width_in, site);
  const bool show_site = take(site_h);
  const qreal kernel_h = whole_height(p.font(), width_in, kernel);
  const bool show_kernel = take(kernel_h);

  // What is left widens the gap and heightens the sectors.
  const qreal sector_w = width_in / per_row;
  const qreal sector_h = std::clamp(min_sector_h + room / rows, min_sector_h, std::max(min_sector_h, sector_w * 1.2));
  room -= rows * (sector_h - min_sector_h);
  const qreal lines_h = gap + std::clamp(room, 0.0, 3 * line_h);  // longer lines show the scatter better
  const qreal lanes_y = y + 4;
  const qreal sectors_y = lanes_y + lane_h + lines_h;
  std::vector<QRectF> boxes;
  for (std::size_t i = 0; i < n; ++i)
    boxes.push_back(QRectF(margin + (i % per_row) * sector_w + 3, sectors_y + (i / per_row) * (sector_h + sector_gap),
                           sector_w - 6, sector_h));
  draw_lanes(p, margin, lanes_y, lane_h, boxes);
  draw_sectors(p, boxes, per_row);

  y = sectors_y + rows * sector_h + (rows - 1) * sector_gap + 4;
  if (show_caption) {
    p.setFont(theme_.font(0.85));
    p.setPen(theme_.muted);
    text(p, QRectF(margin, y, width_in, caption_h), Qt::AlignLeft | Qt::AlignVCenter, caption);
    y += caption_h;
  }
  p.setFont(theme_.font());
  p.setPen(theme_.text);
  if (show_site) {
    text(p, QRectF(margin, y, width_in, site_h), Qt::AlignLeft | Qt::AlignVCenter, site);
    y += site_h;
  }
  if (show_kernel) text(p, QRectF(margin, y, width_in, kernel_h), Qt::AlignLeft | Qt::AlignVCenter, kernel);
}

QString CoalescingView::caption_text() const {
  const CoalescingFrame& f = frame_;
  const std::size_t n = f.sectors.size();
  const double stride = n > 1 ? static_cast<double>(f.sectors[1].sector - f.sectors[0].sector) * f.sector_bytes : 0;
  return n > 1 && stride > f.sector_bytes
             ? tr("sectors of %1 by address, %2 bytes apart").arg(QString::fromStdString(f.buffer)).arg(stride)
             : tr("sectors of %1 by address (bytes used of 32)").arg(QString::fromStdString(f.buffer));
}

// The 32 lanes, with a line from each to its sector (under the boxes).
void CoalescingView::draw_lanes(QPainter& p, qreal x, qreal y, qreal lane_h, const std::vector<QRectF>& boxes) {
  const CoalescingFrame& f = frame_;
  const qreal lane_w = (width() - 2.0 * x) / std::max<std::size_t>(f.lane_sector.size(), 1);
  p.setFont(theme_.font(0.75, true));
  for (std::size_t lane = 0; lane < f.lane_sector.size(); ++lane) {
    const QRectF box(x + lane * lane_w + 1, y, lane_w - 2, lane_h);
    const bool active = f.lane_sector[lane] >= 0;
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(active ? QBrush(f.store ? theme_.write : theme_.read) : QBrush(theme_.untouched));
    p.drawRect(box);
    mark(box, active);
    p.setPen(active ? QColor(Qt::white) : theme_.muted);
    text(p, box, Qt::AlignCenter, QString::number(lane), Fit::Label);
    if (!active) continue;
    const QRectF& to = boxes[static_cast<std::size_t>(f.lane_sector[lane])];
    p.setPen(QPen(f.store ? theme_.write : theme_.read, theme_.stroke * 0.8));
    p.drawLine(QPointF(box.center().x(), box.bottom()), QPointF(to.center().x(), to.top()));
  }
  p.setBrush(Qt::NoBrush);
}

// Sectors in address order, up to 16 a row, each filled as far as the bytes
// used and labelled with them where the label fits ("8 B", else "8"); a gap
// between sectors not adjacent in memory is a dashed line.
void CoalescingView::draw_sectors(QPainter& p, const std::vector<QRectF>& boxes, std::size_t per_row) {
  const CoalescingFrame& f = frame_;
  p.setFont(theme_.font(0.75));
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const SectorBox& s = f.sectors[i];
    const QRectF& box = boxes[i];
    p.fillRect(box, theme_.untouched);
    const qreal used = box.width() * s.bytes_used / f.sector_bytes;
    p.fillRect(QRectF(box.left(), box.top(), used, box.height()), f.store ? theme_.earlier_write : theme_.earlier_read);
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(Qt::NoBrush);
    p.drawRect(box);
    mark(box, true);
    const QString label = tr("%1 B").arg(s.bytes_used);
    const bool whole = QFontMetricsF(p.font()).horizontalAdvance(label) <= box.width();
    text(p, box, Qt::AlignCenter, whole ? label : QString::number(s.bytes_used), Fit::Label);
    if (i > 0 && f.sectors[i - 1].sector + 1 != s.sector && i % per_row != 0) {
      p.setPen(QPen(theme_.muted, theme_.stroke, Qt::DashLine));
      p.drawLine(QPointF(box.left() - 3, box.top() - 4), QPointF(box.left() - 3, box.bottom() + 4));
    }
  }
}

}  // namespace threadmap::views
