#include "viz/views/trace_view.h"

#include <QFontMetricsF>

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace threadmap::views {

TraceView::TraceView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 180);
  setMouseTracking(true);
}

void TraceView::set_document(std::shared_ptr<const analysis::TraceDocument> doc) {
  doc_ = std::move(doc);
  step_ = 0;
  phase_ = 1.0;
  if (doc_) {
    document_changed();
    step_changed();
  }
  update();
}

void TraceView::set_step(std::size_t step, double phase) {
  const bool moved = step != step_;
  step_ = step;
  phase_ = phase;
  if (doc_ && moved) step_changed();
  update();
}

void TraceView::set_theme(const Theme& theme) {
  theme_ = theme;
  update();
}

void TraceView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), theme_.background);
  p.setPen(theme_.text);
  if (!doc_) {
    draw_centred_note(p, tr("Open a recording (.threadmap) or record a trace to see what the threads did."));
    return;
  }
  paint(p);
}

void TraceView::fit_font(QPainter& p, const QString& text, qreal width, qreal min_scale) {
  QFont font = p.font();
  const int full = font.pixelSize();
  if (full <= 0) return;
  for (int px = full; px >= static_cast<int>(full * min_scale); --px) {
    font.setPixelSize(px);
    if (QFontMetricsF(font).horizontalAdvance(text) <= width) break;
  }
  p.setFont(font);
}

QString TraceView::access_kind(bool store, int merged, int access_bytes) {
  const QString kind = store ? tr("store") : tr("load");
  if (merged <= 1) return kind;
  return kind + tr(" (%1 merged by the compiler into one %2-byte access)").arg(merged).arg(access_bytes);
}

int TraceView::draw_heading(QPainter& p, const QString& title, const QString& detail, const QString& keep) const {
  const int margin = theme_.font_px / 2 + 4;
  p.setPen(theme_.text);
  p.setFont(theme_.font(1.15, true));
  const int h1 = p.fontMetrics().height();  // the line keeps its height when the text shrinks
  fit_font(p, title, width() - 2 * margin);
  p.drawText(QRect(margin, margin, width() - 2 * margin, h1), Qt::AlignLeft | Qt::AlignVCenter,
             p.fontMetrics().elidedText(title, Qt::ElideRight, width() - 2 * margin));
  p.setFont(theme_.font());
  p.setPen(theme_.muted);
  const int h2 = draw_detail(p, QPoint(margin, margin + h1), width() - 2 * margin, detail, keep, false);
  p.setPen(theme_.text);
  return margin + h1 + h2 + margin / 2;
}

int TraceView::draw_detail(QPainter& p, QPoint at, int width, const QString& detail, const QString& keep,
                           bool may_wrap) const {
  const int line_h = p.fontMetrics().height();  // the line keeps its height when the text shrinks
  fit_font(p, keep, width);  // what must be read whole: smaller, not cut
  if (may_wrap && QFontMetricsF(p.font()).horizontalAdvance(keep) > width) {
    QString kept = keep.trimmed();  // the beginning alone, without the separator before the rest
    if (kept.endsWith(':')) kept.chop(1);
    const int h = 2 * p.fontMetrics().height();
    p.drawText(QRect(at.x(), at.y(), width, h), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, kept);
    return h;
  }
  p.drawText(QRect(at.x(), at.y(), width, line_h), Qt::AlignLeft | Qt::AlignVCenter,
             p.fontMetrics().elidedText(detail, Qt::ElideRight, width));
  return line_h;
}

void TraceView::draw_centred_note(QPainter& p, const QString& text) const {
  p.setPen(theme_.muted);
  p.setFont(theme_.font(1.1));
  p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, text);
}

void TraceView::draw_time_axis(QPainter& p, qreal x0, qreal x1, qreal y, qreal text_h, double end,
                               bool timed, const std::function<QString(double)>& label_of,
                               const QString& caption) const {
  p.setPen(QPen(theme_.text, theme_.stroke));
  p.drawLine(QPointF(x0, y), QPointF(x1, y));
  auto x_of = [&](double v) { return x0 + (x1 - x0) * v / end; };
  const double tick = timed ? end / 5 : std::max(1.0, std::ceil(end / 5));
  for (double v = 0; v <= end + 1e-9; v += tick) {
    const qreal x = x_of(v);
    p.drawLine(QPointF(x, y), QPointF(x, y + 4));
    p.drawText(QRectF(x - 40, y + 4, 80, text_h), Qt::AlignCenter, label_of(v));
  }
  const QFont before = p.font();
  fit_font(p, caption, x1 - x0);
  p.drawText(QRectF(x0, y + 4 + text_h, x1 - x0, text_h), Qt::AlignCenter,
             p.fontMetrics().elidedText(caption, Qt::ElideRight, static_cast<int>(x1 - x0)));
  p.setFont(before);
}

}  // namespace threadmap::views
