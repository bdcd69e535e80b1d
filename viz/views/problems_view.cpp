#include "viz/views/problems_view.h"

#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "viz/views/timeline.h"

namespace threadmap::views {

using analysis::ProblemKind;

ProblemsView::ProblemsView(QWidget* parent) : TraceView(parent) {
  setMinimumSize(200, 0);
  setFocusPolicy(Qt::StrongFocus);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

std::size_t ProblemsView::count() const { return foci_.size(); }

QString ProblemsView::kind_text(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::ReadAfterWrite: return tr("Data race: read after write");
    case ProblemKind::WriteAfterRead: return tr("Data race: write after read");
    case ProblemKind::WriteAfterWrite: return tr("Data race: write after write");
    case ProblemKind::UninitializedRead: return tr("Uninitialised read");
    case ProblemKind::OutOfBounds: return tr("Out of bounds");
    case ProblemKind::DivergentBarrier: return tr("Barrier in divergent code");
  }
  return {};
}

QString ProblemsView::thread_text(const Trace& trace, std::uint16_t thread) {
  if (trace.block[1] <= 1 && trace.block[2] <= 1) return tr("thread %1").arg(thread);
  const Coord2 c = thread_coord(trace, thread);
  return tr("thread %1 (%2,%3)").arg(thread).arg(c.x).arg(c.y);
}

QString ProblemsView::address_text(const analysis::TraceDocument& doc, const ProblemFocus& focus) {
  const analysis::Problem& p = focus.problem;
  if (p.kind == ProblemKind::OutOfBounds && p.space == Space::Global) {
    const auto& buffers = doc.trace().buffers;
    const std::uint64_t holds = p.buffer < buffers.size() ? buffers[p.buffer].bytes : 0;
    const QString name = QString::fromStdString(focus.buffer);
    return p.offset < 0 ? tr("%1 - %2 bytes (before the buffer's start)").arg(name).arg(-p.offset)
                        : tr("%1 + %2 bytes (the buffer holds %3)").arg(name).arg(p.offset).arg(holds);
  }
  if (!focus.element.empty()) return QString::fromStdString(focus.element);
  return tr("shared offset %1").arg(p.offset);
}

QString ProblemsView::sentence(const analysis::TraceDocument& doc, const ProblemFocus& focus) {
  const Trace& t = doc.trace();
  const analysis::Problem& p = focus.problem;
  const QString first = thread_text(t, p.first.thread), second = thread_text(t, p.second.thread);
  const QString what = address_text(doc, focus);
  switch (p.kind) {
    case ProblemKind::ReadAfterWrite:
      return tr("%1 writes %2 (line %3), then %4 reads it (line %5) in the same barrier interval")
          .arg(first, what)
          .arg(p.first.line)
          .arg(second)
          .arg(p.second.line);
    case ProblemKind::WriteAfterRead:
      return tr("%1 reads %2 (line %3) before %4 writes it (line %5) in the same barrier interval")
          .arg(first, what)
          .arg(p.first.line)
          .arg(second)
          .arg(p.second.line);
    case ProblemKind::WriteAfterWrite:
      return tr("%1 writes %2 (line %3), and %4 writes it too (line %5) in the same barrier interval")
          .arg(first, what)
          .arg(p.first.line)
          .arg(second)
          .arg(p.second.line);
    case ProblemKind::UninitializedRead:
      return tr("%1 reads %2 (line %3) before any thread of the block wrote it").arg(first, what).arg(p.first.line);
    case ProblemKind::OutOfBounds:
      if (p.space == Space::Shared)
        return (p.first.store ? tr("%1 writes %2 (line %3), in no shared array of the block")
                              : tr("%1 reads %2 (line %3), in no shared array of the block"))
            .arg(first, what)
            .arg(p.first.line);
      return (p.first.store ? tr("%1 writes %2 (line %3), in no buffer of the launch")
                            : tr("%1 reads %2 (line %3), in no buffer of the launch"))
          .arg(first, what)
          .arg(p.first.line);
    case ProblemKind::DivergentBarrier: {
      QStringList missing;
      for (std::size_t k = 0; k < p.warps_missing.size() && k < 8; ++k) missing << QString::number(p.warps_missing[k]);
      if (p.warps_missing.size() > 8) missing << QStringLiteral("…");
      const auto warp = p.first.thread / std::max<std::uint32_t>(t.warp_width, 1);
      return tr("the barrier at line %1 was reached by warp %2 but not by warp(s) %3")
          .arg(p.first.line)
          .arg(warp)
          .arg(missing.join(", "));
    }
  }
  return {};
}

ProblemsView::Row ProblemsView::row(std::size_t index) const {
  const ProblemFocus& f = foci_[index];
  const QString block = tr("block %1").arg(QString::fromStdString(block_name(doc_->trace(), f.problem.block)));
  QString where = block;
  if (f.problem.occurrences > 1)
    where += QStringLiteral(" · ") + tr("%n more like it", nullptr, static_cast<int>(f.problem.occurrences - 1));
  return {kind_text(f.problem.kind), sentence(*doc_, f) + QStringLiteral(" · ") + where};
}

void ProblemsView::document_changed() {
  foci_.clear();
  chosen_.reset();
  site_ = 0;
  first_ = 0;
  for (std::size_t i = 0; i < doc_->analysis.problems.list.size(); ++i)
    if (auto f = focus_on_problem(*doc_, i)) foci_.push_back(std::move(*f));
  fit_height();
}

QString ProblemsView::empty_text() const {
  if (!doc_) return {};
  QString s = tr("No problems found in the traced blocks.");
  if (!doc_->analysis.problems.races_checked)
    s += QLatin1Char(' ') +
         tr("Races were not looked for: this recording's barriers do not say where they fall among the accesses.");
  return s;
}

qreal ProblemsView::kind_width(const QFont& bold) const {
  qreal most = 0;
  for (const ProblemFocus& f : foci_)
    most = std::max(most, QFontMetricsF(bold).horizontalAdvance(kind_text(f.problem.kind)));
  return std::min(std::ceil(most) + margin(), 0.4 * (width() - 2 * margin()));
}

qreal ProblemsView::row_height(std::size_t index, const QFont& body, const QFont& bold, qreal width) const {
  const Row r = row(index);
  const qreal kind_w = kind_width(bold);
  return std::max(whole_height(bold, kind_w - margin(), r.kind), whole_height(body, width - kind_w, r.text)) + 4;
}

int ProblemsView::preferred_height() const {
  const qreal m = margin();
  const qreal w = width() - 2 * m;
  const QFont body = theme_.font(), bold = theme_.font(1.0, true);
  if (!doc_) return static_cast<int>(QFontMetricsF(body).height() + m);
  if (foci_.empty()) return static_cast<int>(std::ceil(whole_height(body, w, empty_text()) + m));
  qreal h = theme_.presentation ? 0 : QFontMetricsF(bold).height() + 2;
  const std::size_t from = theme_.presentation && chosen_ ? *chosen_ : 0;
  for (std::size_t i = from; i < std::min(foci_.size(), from + rows_wanted()); ++i) h += row_height(i, body, bold, w);
  return static_cast<int>(std::ceil(h + m));
}

void ProblemsView::fit_height() {
  const int h = preferred_height();
  if (h != height() || minimumHeight() != h) setFixedHeight(h);
  update();
}

void ProblemsView::resizeEvent(QResizeEvent* event) {
  TraceView::resizeEvent(event);
  if (preferred_height() != height()) fit_height();
}

void ProblemsView::changeEvent(QEvent* event) {
  TraceView::changeEvent(event);
  if (event->type() == QEvent::LanguageChange) fit_height();
}

void ProblemsView::paint(QPainter& p) {
  row_rects_.clear();
  const qreal m = margin();
  const qreal w = width() - 2 * m;
  qreal y = m / 2;
  const QFont body = theme_.font(), bold = theme_.font(1.0, true);
  if (foci_.empty()) {
    p.setFont(body);
    p.setPen(theme_.muted);
    const QString note = empty_text();
    text(p, QRectF(m, y, w, whole_height(body, w, note)), Qt::AlignLeft | Qt::AlignTop, note);
    return;
  }
  if (!theme_.presentation) {
    // The heading, and how to use the list where it fits.
    p.setFont(bold);
    p.setPen(theme_.text);
    const qreal h = QFontMetricsF(bold).height();
    const QString heading = tr("Problems found in the traced blocks: %1").arg(foci_.size());
    const QRectF took = text(p, QRectF(m, y, w, h), Qt::AlignLeft | Qt::AlignVCenter, heading);
    p.setFont(body);
    p.setPen(theme_.muted);
    const qreal hint_x = took.right() + m;
    if (hint_x < m + w)
      text(p, QRectF(hint_x, y, m + w - hint_x, h), Qt::AlignLeft | Qt::AlignVCenter,
           tr("Choose one to step to it; choose it again for the other access. Up/Down, Enter."), Fit::Elide);
    y += h + 2;
  }
  // The rows from first_ that fit; the chosen one is kept in sight.
  const qreal kind_w = kind_width(bold);
  if (theme_.presentation && chosen_) first_ = *chosen_;
  first_ = std::min(first_, foci_.size() - 1);
  for (std::size_t i = first_; i < foci_.size(); ++i) {
    const qreal h = row_height(i, body, bold, w);
    if (y + h > height() + 0.5) break;
    const Row r = row(i);
    const QRectF rect(m / 2, y, width() - m, h);
    const bool chosen = chosen_ == i;
    if (chosen) {
      QColor tint = theme_.problem;
      tint.setAlpha(40);
      p.fillRect(rect, tint);
      p.fillRect(QRectF(rect.left(), rect.top(), 3 * theme_.stroke + 1, rect.height()), theme_.problem);
      mark(rect, true);
    }
    p.setFont(bold);
    p.setPen(theme_.problem);
    text(p, QRectF(m, y + 2, kind_w - m, h - 4), Qt::AlignLeft | Qt::AlignTop, r.kind);
    p.setFont(body);
    p.setPen(theme_.text);
    text(p, QRectF(m + kind_w, y + 2, w - kind_w, h - 4), Qt::AlignLeft | Qt::AlignTop, r.text);
    row_rects_.push_back({rect, i});
    y += h;
  }
}

void ProblemsView::choose(std::size_t index, std::optional<int> site) {
  if (index >= foci_.size()) return;
  if (site) site_ = *site == 1 && foci_[index].requests[1] ? 1 : 0;
  else if (chosen_ == index && foci_[index].requests[1]) site_ = 1 - site_;
  else site_ = 0;
  chosen_ = index;
  // Keep the chosen row in sight.
  if (index < first_) first_ = index;
  if (index >= first_ + rows_wanted()) first_ = index + 1 - rows_wanted();
  if (theme_.presentation) fit_height();
  update();
  emit problem_chosen(index, site_);
}

void ProblemsView::clear_choice() {
  chosen_.reset();
  site_ = 0;
  update();
}

void ProblemsView::mousePressEvent(QMouseEvent* event) {
  for (const auto& [rect, index] : row_rects_)
    if (rect.contains(event->position())) {
      choose(index);
      return;
    }
  TraceView::mousePressEvent(event);
}

void ProblemsView::keyPressEvent(QKeyEvent* event) {
  if (foci_.empty()) return TraceView::keyPressEvent(event);
  switch (event->key()) {
    case Qt::Key_Up: choose(chosen_ && *chosen_ > 0 ? *chosen_ - 1 : 0); return;
    case Qt::Key_Down: choose(chosen_ ? std::min(*chosen_ + 1, foci_.size() - 1) : 0); return;
    case Qt::Key_Return:
    case Qt::Key_Enter: choose(chosen_.value_or(0)); return;
    default: TraceView::keyPressEvent(event);
  }
}

void ProblemsView::wheelEvent(QWheelEvent* event) {
  if (foci_.empty()) return TraceView::wheelEvent(event);
  const int notches = event->angleDelta().y() / 120;
  if (notches < 0) first_ = std::min(first_ + static_cast<std::size_t>(-notches), foci_.size() - 1);
  else first_ -= std::min(first_, static_cast<std::size_t>(notches));
  update();
}

}  // namespace threadmap::views
