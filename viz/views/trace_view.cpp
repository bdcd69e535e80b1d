#include "viz/views/trace_view.h"

#include <QFontMetricsF>

#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace threadmap::views {

TraceView::TraceView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 180);
  setMouseTracking(true);
}

void TraceView::set_document(std::shared_ptr<const analysis::TraceDocument> doc) {
  doc_ = std::move(doc);
  problem_.reset();
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

void TraceView::set_problem(std::optional<ProblemFocus> focus) {
  problem_ = std::move(focus);
  if (doc_) problem_changed();
  update();
}

void TraceView::set_theme(const Theme& theme) {
  theme_ = theme;
  update();
}

void TraceView::paintEvent(QPaintEvent*) {
  painted_ = {};
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), theme_.background);
  p.setPen(theme_.text);
  p.setFont(theme_.font());
  if (!doc_) {
    draw_centred_note(p, tr("Open a recording (.threadmap) or record a trace to see what the threads did."));
    return;
  }
  paint(p);
}

QRectF TraceView::text(QPainter& p, const QRectF& box, int align, const QString& s, Fit fit) {
  if (s.isEmpty() || box.width() <= 0) return {};
  QFont font = p.font();
  const auto width_at = [&](const QFont& f) { return QFontMetricsF(f).horizontalAdvance(s); };
  if (fit != Fit::Label && font.pixelSize() > 0)
    while (font.pixelSize() > theme_.floor_px && width_at(font) > box.width()) font.setPixelSize(font.pixelSize() - 1);
  const QFontMetricsF metrics(font);
  QString shown = s;
  int flags = align;
  if (metrics.horizontalAdvance(s) > box.width()) {
    if (fit == Fit::Label) return {};
    if (fit == Fit::Elide) shown = metrics.elidedText(s, Qt::ElideRight, box.width());
    else if (box.height() >= 2 * metrics.height()) flags |= Qt::TextWordWrap;
  }
  const QRectF took = metrics.boundingRect(box, flags, shown);
  if (fit == Fit::Label) {
    if (took.height() > box.height() + 0.5) return {};
    // A label the view's edge would cut is left out whole, like one that
    // does not fit its box.
    if (!QRectF(p.window()).adjusted(-0.5, -0.5, 0.5, 0.5).contains(took)) return {};
    for (const PaintedText& t : painted_.texts)
      if (t.rect.intersects(took)) return {};
  }
  const QFont before = p.font();
  p.setFont(font);
  p.drawText(box, flags, shown);
  p.setFont(before);
  painted_.texts.push_back({took, box, s, font.pixelSize(), fit == Fit::Whole, shown != s, fit == Fit::Label});
  return took;
}

qreal TraceView::lines(const QPainter& p, qreal n) { return n * QFontMetricsF(p.font()).height(); }

qreal TraceView::whole_height(const QFont& font, qreal width, const QString& s) const {
  QFont f = font;
  while (f.pixelSize() > theme_.floor_px && QFontMetricsF(f).horizontalAdvance(s) > width)
    f.setPixelSize(f.pixelSize() - 1);
  const QFontMetricsF m(f);
  if (m.horizontalAdvance(s) <= width) return std::ceil(m.height());
  const qreal wrapped = m.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, s).height();
  return std::ceil(std::max(2 * m.height(), wrapped));  // text() wraps from two lines up
}

void TraceView::fit_font(QPainter& p, const QString& text, qreal width) const {
  QFont font = p.font();
  if (font.pixelSize() <= 0) return;
  while (font.pixelSize() > theme_.floor_px && QFontMetricsF(font).horizontalAdvance(text) > width)
    font.setPixelSize(font.pixelSize() - 1);
  p.setFont(font);
}

QString TraceView::atomic_kind() { return tr("atomic"); }

QString TraceView::access_kind(bool store, int merged, int access_bytes, AtomicOp atomic) {
  //: %1 the operation as the machine names it (add, cas, exch, min, ...; "add 1": a count)
  if (atomic != AtomicOp::None) return tr("atomic %1").arg(QString::fromUtf8(atomic_op_name(atomic)));
  const QString kind = store ? tr("store") : tr("load");
  if (merged <= 1) return kind;
  return kind + tr(" (%1 merged by the compiler into one %2-byte access)").arg(merged).arg(access_bytes);
}

int TraceView::draw_title(QPainter& p, const QString& title) {
  const int margin = theme_.font_px / 2 + 4;
  p.setPen(theme_.text);
  p.setFont(theme_.font(1.15, true));
  const int h = p.fontMetrics().height();  // the line keeps its height when the text shrinks
  text(p, QRect(margin, margin, width() - 2 * margin, h), Qt::AlignLeft | Qt::AlignVCenter, title, Fit::Elide);
  return margin + h;
}

int TraceView::draw_heading(QPainter& p, const QString& title, const QString& detail, const QString& keep) {
  const int margin = theme_.font_px / 2 + 4;
  const int below_title = draw_title(p, title);
  p.setFont(theme_.font());
  p.setPen(theme_.muted);
  const int h2 =
      detail.isEmpty() ? 0 : draw_detail(p, QPoint(margin, below_title), width() - 2 * margin, detail, keep, false);
  p.setPen(theme_.text);
  return below_title + h2 + margin / 2;
}

int TraceView::draw_detail(QPainter& p, QPoint at, int width, const QString& detail, const QString& keep,
                           bool may_wrap) {
  const int line_h = p.fontMetrics().height();  // the line keeps its height when the text shrinks
  fit_font(p, keep, width);                     // what must be read whole: smaller, not cut
  if (may_wrap && QFontMetricsF(p.font()).horizontalAdvance(keep) > width) {
    QString kept = keep.trimmed();  // the beginning alone, without the separator before the rest
    if (kept.endsWith(':')) kept.chop(1);
    const int h = 2 * p.fontMetrics().height();
    text(p, QRect(at.x(), at.y(), width, h), Qt::AlignLeft | Qt::AlignVCenter, kept);
    return h;
  }
  // Past `keep` the line may be elided; `keep` itself fits (or is the whole).
  const bool keep_fits = QFontMetricsF(p.font()).horizontalAdvance(keep) <= width;
  text(p, QRect(at.x(), at.y(), width, line_h), Qt::AlignLeft | Qt::AlignVCenter, detail,
       keep_fits && detail != keep ? Fit::Elide : Fit::Whole);
  return line_h;
}

void TraceView::draw_centred_note(QPainter& p, const QString& note) {
  p.setPen(theme_.muted);
  p.setFont(theme_.font(1.1));
  text(p, rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, note);
}

void TraceView::draw_note_below(QPainter& p, qreal y, const QString& note) {
  const int margin = theme_.font_px / 2 + 4;
  const qreal width_in = width() - 2.0 * margin;
  p.setFont(theme_.font());
  p.setPen(theme_.muted);
  const qreal h = whole_height(p.font(), width_in, note);
  if (y + margin / 2.0 + h <= height() - margin)
    text(p, QRectF(margin, y + margin / 2.0, width_in, h), Qt::AlignLeft | Qt::AlignTop, note);
}

void TraceView::draw_time_axis(QPainter& p, qreal x0, qreal x1, qreal y, qreal text_h, double end, bool timed,
                               const std::function<QString(double)>& label_of, const QString& caption) {
  p.setPen(QPen(theme_.text, theme_.stroke));
  p.drawLine(QPointF(x0, y), QPointF(x1, y));
  auto x_of = [&](double v) { return x0 + (x1 - x0) * v / end; };
  const double tick = timed ? end / 5 : std::max(1.0, std::ceil(end / 5));
  for (double v = 0; v <= end + 1e-9; v += tick) {
    const qreal x = x_of(v);
    p.drawLine(QPointF(x, y), QPointF(x, y + 4));
    const QString label = label_of(v);
    const qreal w = QFontMetricsF(p.font()).horizontalAdvance(label) + 4;
    // A label stays inside the view; one that would touch its neighbour is left out.
    const qreal left = std::clamp(x - w / 2, 0.0, width() - w);
    text(p, QRectF(left, y + 4, w, text_h), Qt::AlignCenter, label, Fit::Label);
  }
  text(p, QRectF(x0, y + 4 + text_h, x1 - x0, text_h), Qt::AlignCenter, caption, Fit::Elide);
}

qreal TraceView::outside_height(const OutsideMark& m, qreal width, int wording) const {
  if (wording >= 2) return 0;
  const QFont bold = theme_.font(0.9, true), body = theme_.font(0.9);
  const qreal cell = std::max<qreal>(12, QFontMetricsF(theme_.font()).height());
  if (wording == 1) {
    const QString& place = m.place_short.isEmpty() ? m.place : m.place_short;
    return 4 + (m.arrow ? 0.8 * cell : 0) + whole_height(bold, width, place);
  }
  return 4 + (m.arrow ? 2.2 * cell + 2 : 0) + whole_height(bold, width, m.place) + whole_height(body, width, m.who);
}

void TraceView::draw_outside(QPainter& p, const OutsideMark& m, const QRectF& band, qreal x, qreal edge_y,
                             int wording) {
  if (wording >= 2) return;
  const QFont bold = theme_.font(0.9, true), body = theme_.font(0.9);
  const qreal cell = std::max<qreal>(12, QFontMetricsF(theme_.font()).height());
  const QString& place = wording == 1 && !m.place_short.isEmpty() ? m.place_short : m.place;
  const qreal place_h = whole_height(bold, band.width(), place);
  const qreal who_h = wording == 0 ? whole_height(body, band.width(), m.who) : 0;
  // Under the picture: arrow, cell, words; over it (before its start) the
  // same from the picture's edge upwards. Wording 1 has no cell: the arrow
  // points at the words.
  const qreal arrow = m.arrow ? (wording == 0 ? 1.2 : 0.8) * cell : 0;
  const qreal ghost_h = m.arrow && wording == 0 ? cell : 0;
  const qreal words_top = m.up ? band.top() : band.bottom() - place_h - who_h;
  if (m.arrow) {
    const qreal cx = std::clamp(x, band.left() + cell / 2, band.right() - cell / 2);
    const qreal ghost_top = m.up ? band.bottom() - 4 - arrow - ghost_h : band.top() + 4 + arrow;
    const QRectF ghost(cx - cell / 2, ghost_top, cell, ghost_h);
    const QPointF from(cx, edge_y + (m.up ? -2 : 2));
    const QPointF to(cx, m.up ? ghost.bottom() + 2 : ghost.top() - 2);
    p.setPen(QPen(theme_.problem, 2.5 * theme_.stroke, m.dashed ? Qt::DashLine : Qt::SolidLine));
    p.drawLine(from, to);
    const qreal head = std::max<qreal>(4, cell / 3), dir = m.up ? 1 : -1;
    p.setPen(QPen(theme_.problem, theme_.stroke));
    p.setBrush(theme_.problem);
    const QPolygonF tip({to, QPointF(to.x() - head, to.y() + dir * head), QPointF(to.x() + head, to.y() + dir * head)});
    p.drawPolygon(tip);
    p.setBrush(Qt::NoBrush);
    if (ghost_h > 0) {
      // The cell in the access's colour, hatched: nothing of the picture.
      p.fillRect(ghost, m.fill);
      p.fillRect(ghost, QBrush(theme_.background, Qt::BDiagPattern));
      p.setPen(QPen(theme_.problem, 2.5 * theme_.stroke));
      p.drawRect(ghost);
    }
    const QRectF marked = ghost_h > 0 ? ghost : tip.boundingRect();
    for (const int thread : m.threads) mark_problem(marked, thread);
  }
  p.setPen(theme_.problem);
  p.setFont(bold);
  text(p, QRectF(band.left(), words_top, band.width(), place_h), Qt::AlignLeft | Qt::AlignVCenter, place);
  if (who_h > 0) {
    p.setFont(body);
    text(p, QRectF(band.left(), words_top + place_h, band.width(), who_h), Qt::AlignLeft | Qt::AlignVCenter, m.who);
  }
  p.setPen(theme_.text);
}

}  // namespace threadmap::views
