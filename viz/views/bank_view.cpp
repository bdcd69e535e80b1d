#include "viz/views/bank_view.h"

#include <QPainter>
#include <cmath>

namespace threadmap::views {

void BankView::document_changed() { model_.emplace(doc_); }

void BankView::step_changed() { frame_ = model_->frame(step_); }

void BankView::paint(QPainter& p) {
  const BankFrame& f = frame_;
  QString detail = tr("%1 · wavefronts so far %2 / %3 (ideal %4)")
                       .arg(f.tile.known ? QString::fromStdString(f.tile.declaration) : tr("shared array"))
                       .arg(f.so_far.shared_wavefronts).arg(f.total.shared_wavefronts)
                       .arg(f.total.shared_ideal_wavefronts);
  if (f.tile.known && f.tile.cols > f.tile.data_cols)
    detail += tr(" · padding hatched");
  const int top = draw_heading(p, tr("Shared-memory banks (%1 x %2 bytes)").arg(f.banks).arg(f.bank_bytes), detail,
                               detail);
  if (!f.has_request) {
    draw_centred_note(p, tr("This kernel makes no shared-memory accesses."));
    return;
  }

  // The current request's numbers, large: the point of the picture.
  const int margin = theme_.font_px;
  const int replays = f.wavefronts - f.ideal_wavefronts;
  p.setFont(theme_.font(1.25, true));
  const int big_h = p.fontMetrics().height();
  p.setPen(replays > 0 ? theme_.write : theme_.text);
  const QString waves = f.wavefronts == 1 ? tr("1 wavefront") : tr("%1 wavefronts").arg(f.wavefronts);
  QString big = replays == 1 ? tr("%1 (ideal %2): 1 replay").arg(waves).arg(f.ideal_wavefronts)
                              : tr("%1 (ideal %2): %3 replays").arg(waves).arg(f.ideal_wavefronts).arg(replays);
  text(p, QRect(margin, top, width() - 2 * margin, big_h), Qt::AlignLeft | Qt::AlignVCenter, big);
  p.setFont(theme_.font());
  const int small_h = p.fontMetrics().height();
  const auto request_line = [&](const QString& source) {
    return tr("block %1 warp %2, line %3 %4: %5")
        .arg(f.block).arg(f.warp).arg(f.line)
        .arg(access_kind(f.store, f.merged, f.access_bytes))
        .arg(source);
  };
  // The access kind, and where the compiler merged accesses, is read whole
  // (on two lines in Portuguese and Spanish at 1024 px); the source text,
  // also in the source pane, may be elided.
  p.setPen(theme_.muted);
  const int detail_h = draw_detail(p, QPoint(margin, top + big_h), width() - 2 * margin,
                                   request_line(QString::fromStdString(f.source)), request_line(QString()), true);
  p.setFont(theme_.font());

  // Lanes row, bank header, then the words.
  const int label_w = p.fontMetrics().horizontalAdvance("row 00") + 6;
  const qreal grid_x = margin + label_w;
  const qreal cell_w = (width() - grid_x - margin) / static_cast<qreal>(f.banks);
  const qreal lanes_y = top + big_h + detail_h + margin / 2;
  const qreal lane_h = std::max<qreal>(small_h + 4, 18);
  const qreal header_y = lanes_y + lane_h + small_h + 4;
  const qreal grid_y = header_y + small_h + 2;
  const qreal cell_h = std::max<qreal>(3.0, std::min<qreal>(cell_w, (height() - grid_y - margin) / std::max<std::uint32_t>(f.rows, 1)));

  if (phase_ < 1.0) {
    // Which wavefront the banks are serving, while playing.
    const int waves = std::max<int>(1, f.wavefronts);
    p.setFont(theme_.font(0.9, true));
    p.setPen(theme_.text);
    const QString serving =
        tr("serving wavefront %1 of %2").arg(std::min<int>(waves, static_cast<int>(phase_ * waves) + 1)).arg(waves);
    text(p, QRectF(grid_x, lanes_y + lane_h, width() - grid_x - margin, small_h + 4), Qt::AlignRight | Qt::AlignVCenter,
         serving);
  }
  p.setFont(theme_.font(0.8));
  p.setPen(theme_.muted);
  text(p, QRectF(margin, lanes_y, label_w, lane_h), Qt::AlignLeft | Qt::AlignVCenter, tr("lanes"));
  text(p, QRectF(margin, header_y, label_w, small_h), Qt::AlignLeft | Qt::AlignVCenter, tr("bank"));
  for (std::uint32_t b = 0; b < f.banks; ++b)
    text(p, QRectF(grid_x + b * cell_w, header_y, cell_w, small_h), Qt::AlignCenter, QString::number(b), Fit::Label);

  // Word cells: alternate tile rows in two tints so a tile row's wrap onto
  // the next bank row shows; padding hatched.
  for (std::uint32_t r = 0; r < f.rows; ++r) {
    if (cell_h >= small_h * 0.8 && r % 4 == 0) {
      p.setPen(theme_.muted);
      text(p, QRectF(margin, grid_y + r * cell_h, label_w, cell_h), Qt::AlignLeft | Qt::AlignVCenter,
           tr("row %1").arg(r), Fit::Label);
    }
    for (std::uint32_t b = 0; b < f.banks; ++b) {
      const BankWord& w = f.words[std::size_t{r} * f.banks + b];
      const QRectF rect(grid_x + b * cell_w, grid_y + r * cell_h, cell_w, cell_h);
      QColor fill = w.tile_row < 0 ? theme_.untouched : (w.tile_row % 2 ? theme_.tile_odd : theme_.tile_even);
      p.fillRect(rect, fill);
      if (w.padding) p.fillRect(rect, QBrush(theme_.padding, Qt::BDiagPattern));
      p.setPen(QPen(theme_.grid, 0.5));
      p.drawRect(rect);
    }
  }

  // The wavefronts: a paused view shows every lane served; while playing,
  // wavefront k is served during the k-th share of the step's animation.
  const int total_waves = std::max<int>(1, f.wavefronts);
  const double served = phase_ * total_waves;  // wavefronts finished (fractional)
  p.setFont(theme_.font(0.7, true));
  for (const BankLane& lane : f.lanes) {
    const QRectF home(grid_x + lane.lane * cell_w + 1, lanes_y, cell_w - 2, lane_h);
    const QRectF target(grid_x + lane.bank * cell_w, grid_y + std::min(lane.row, f.rows ? f.rows - 1 : 0) * cell_h,
                        cell_w, cell_h);
    const double t = std::clamp(served - lane.wavefront, 0.0, 1.0);
    const QColor colour = theme_.wavefront(lane.wavefront);
    // Lane box in the lanes row: filled while waiting, outlined once gone.
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(t >= 1.0 ? QBrush(theme_.background) : QBrush(colour));
    p.drawRect(home);
    mark(home, true);
    text(p, home, Qt::AlignCenter, QString::number(lane.lane), Fit::Label);
    if (t <= 0) continue;
    const QPointF from = home.center(), to = target.center();
    const QPointF at = from + (to - from) * t;
    if (t < 1.0) {
      p.setPen(QPen(colour, 1.5 * theme_.stroke));
      p.drawLine(from, at);
    }
    const qreal r = std::max<qreal>(3.0, std::min(cell_w, cell_h) / 2.0 - 0.5);
    p.setPen(QPen(theme_.text, 0.8 * theme_.stroke));
    p.setBrush(colour);
    p.drawEllipse(at, r, r);
    if (r >= 6) {
      // The wavefront that serves it, counting from 1: 32 in a column is the lesson.
      p.setFont(theme_.font(std::min(0.7, r * 1.5 / theme_.font_px), true));
      text(p, QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r), Qt::AlignCenter, QString::number(lane.wavefront + 1), Fit::Label);
      p.setFont(theme_.font(0.7, true));
    }
  }
  p.setBrush(Qt::NoBrush);

}

}  // namespace threadmap::views
