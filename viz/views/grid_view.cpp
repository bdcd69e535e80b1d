#include "viz/views/grid_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include "viz/views/timeline.h"

namespace threadmap::views {

void GridView::document_changed() { model_.emplace(doc_); }

void GridView::step_changed() { frame_ = model_->frame(step_); }

namespace {

QString block_name(const Trace& trace, std::uint32_t block) {
  const Coord2 c = block_coord(trace, block);
  return QString("(%1, %2)").arg(c.x).arg(c.y);
}

}  // namespace

void GridView::paint(QPainter& p) {
  const Trace& trace = doc_->trace();
  const auto& requests = doc_->analysis.requests;
  QString title = tr("Grid: what the traced blocks read and wrote");
  QString detail;
  if (frame_.has_request) {
    const auto& r = requests[std::min(step_, requests.size() - 1)];
    const analysis::SiteTotals* site = doc_->analysis.site_of(r);
    detail = tr("block %1, warp %2, line %3 %4 %5 · global accesses %6 / %7")
                 .arg(block_name(trace, r.block))
                 .arg(r.warp)
                 .arg(r.line)
                 .arg(r.space == Space::Shared ? tr("shared") : tr("global"))
                 .arg(access_kind(r.store, site ? site->merged : 1, r.size))
                 .arg(frame_.global_accesses_so_far)
                 .arg(frame_.global_accesses_total);
  }
  int top = draw_heading(p, title, detail, detail);
  placements_.clear();
  if (frame_.matrices.empty()) {
    draw_centred_note(p, tr("This kernel made no global accesses in the traced blocks."));
    return;
  }

  const int margin = theme_.font_px;
  p.setFont(theme_.font(0.9));
  const int legend_h = 2 * p.fontMetrics().height() + margin / 2;
  const int caption_h = p.fontMetrics().height() * 2 + 4;
  const int n = static_cast<int>(frame_.matrices.size());
  const qreal slot_w = (width() - margin * (n + 1)) / static_cast<qreal>(n);
  const qreal avail_h = height() - top - caption_h - legend_h - margin;
  for (int i = 0; i < n; ++i) {
    const GridMatrix& m = frame_.matrices[static_cast<std::size_t>(i)];
    // A window of a few cells (a reduction's partial sums) stays cell-sized.
    const qreal cell = std::clamp<qreal>(std::min(slot_w / m.cols, avail_h / m.rows), 1.0, 2.5 * theme_.font_px);
    const QPointF origin(margin + i * (slot_w + margin) + (slot_w - cell * m.cols) / 2, top + caption_h);
    placements_.push_back({origin, cell});

    p.setPen(theme_.text);
    p.setFont(theme_.font(1.0, true));
    const QRectF cap(margin + i * (slot_w + margin), top, slot_w, caption_h / 2.0);
    text(p, cap, Qt::AlignCenter,
         tr("%1 (%2), %3 x %4").arg(QString::fromStdString(m.name), QString::fromStdString(m.role))
             .arg(m.shape.rows).arg(m.shape.cols),
         Fit::Elide);
    p.setFont(theme_.font(0.85));
    p.setPen(theme_.muted);
    text(p, cap.translated(0, caption_h / 2.0), Qt::AlignCenter,
               tr("rows %1-%2, cols %3-%4").arg(m.row0).arg(m.row0 + m.rows - 1).arg(m.col0).arg(m.col0 + m.cols - 1));

    const bool lines = cell >= 6;
    for (std::uint64_t r = 0; r < m.rows; ++r)
      for (std::uint64_t c = 0; c < m.cols; ++c) {
        QColor fill = theme_.untouched;
        switch (m.at(r, c).state) {
          case CellState::Untouched: break;
          case CellState::EarlierOtherBlock: fill = theme_.other_block; break;
          case CellState::EarlierRead: fill = theme_.earlier_read; break;
          case CellState::EarlierWrite: fill = theme_.earlier_write; break;
          case CellState::CurrentRead: fill = theme_.read; break;
          case CellState::CurrentWrite: fill = theme_.write; break;
        }
        const QRectF rect(origin.x() + c * cell, origin.y() + r * cell, cell, cell);
        p.fillRect(rect, fill);
        const CellState state = m.at(r, c).state;
        if (state == CellState::CurrentRead || state == CellState::CurrentWrite) mark(rect, true);
        if (lines) {
          p.setPen(QPen(theme_.grid, 0.5));
          p.drawRect(rect);
        }
      }
    // Block outlines: other blocks thin and dashed, the current one thick.
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& o : m.outlines) {
        if (o.current != (pass == 1)) continue;
        const QRectF rect(origin.x() + o.col0 * cell, origin.y() + o.row0 * cell, o.cols * cell, o.rows * cell);
        QPen pen(o.current ? theme_.current : theme_.muted, o.current ? 3 * theme_.stroke : 1.2 * theme_.stroke,
                 o.current ? Qt::SolidLine : Qt::DashLine);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect);
        p.setFont(theme_.font(0.8, o.current));
        const QString label = tr("block %1").arg(block_name(trace, o.block));
        const QRectF text_rect = p.fontMetrics().boundingRect(label).adjusted(-2, 0, 2, 0);
        if (text_rect.width() < rect.width() && text_rect.height() < rect.height()) {
          const QRectF at(rect.topLeft() + QPointF(2, 2), text_rect.size());
          p.fillRect(at, QColor(255, 255, 255, 210));
          p.setPen(theme_.text);
          text(p, at, Qt::AlignCenter, label, Fit::Label);
        }
      }
  }

  // Legend.
  p.setFont(theme_.font(0.9));
  const std::array<std::pair<QColor, QString>, 5> legend{{
      {theme_.read, tr("read now")},
      {theme_.write, tr("written now")},
      {theme_.earlier_read, tr("read earlier (this block)")},
      {theme_.earlier_write, tr("written earlier (this block)")},
      {theme_.other_block, tr("other traced blocks")},
  }};
  qreal x = margin;
  qreal y = height() - legend_h;
  const int box = p.fontMetrics().height() - 4;
  for (const auto& [colour, text] : legend) {
    const qreal w = box + 4 + p.fontMetrics().horizontalAdvance(text);
    if (x + w > width() - margin && x > margin) {
      x = margin;
      y += p.fontMetrics().height();
    }
    p.fillRect(QRectF(x, y + 2, box, box), colour);
    p.setPen(theme_.text);
    p.drawRect(QRectF(x, y + 2, box, box));
    this->text(p, QRectF(x + box + 4, y, w - box - 4, p.fontMetrics().height()), Qt::AlignLeft | Qt::AlignVCenter, text);
    x += w + margin;
  }
}

QString GridView::describe_at(QPoint pos) const {
  if (!model_) return {};
  for (std::size_t i = 0; i < placements_.size() && i < frame_.matrices.size(); ++i) {
    const auto& place = placements_[i];
    const auto& m = frame_.matrices[i];
    const QPointF local = QPointF(pos) - place.origin;
    if (local.x() < 0 || local.y() < 0) continue;
    const auto col = static_cast<std::uint64_t>(local.x() / place.cell);
    const auto row = static_cast<std::uint64_t>(local.y() / place.cell);
    if (row < m.rows && col < m.cols) return QString::fromStdString(model_->describe(frame_, i, row, col));
  }
  return {};
}

bool GridView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = describe_at(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return TraceView::event(e);
}

}  // namespace threadmap::views
