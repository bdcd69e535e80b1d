#include "viz/views/grid_view.h"

#include <QHelpEvent>
#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <QToolTip>

#include "viz/views/problems_view.h"
#include "viz/views/timeline.h"

namespace threadmap::views {

void GridView::document_changed() { model_.emplace(doc_); }

void GridView::step_changed() { frame_ = model_->frame(step_, side_); }

namespace {

QString block_label(const Trace& trace, std::uint32_t block) {
  return QString::fromStdString(block_name(trace, block));
}

}  // namespace

QString GridView::role_name(const std::string& role) const {
  if (role == "input") return tr("input");
  if (role == "output") return tr("output");
  if (role == "scratch") return tr("scratch");
  return QString::fromStdString(role);
}

qreal GridView::wrapped_height(const QPainter& p, const QString& s, qreal width) const {
  QFont font = p.font();
  font.setPixelSize(std::min(font.pixelSize(), theme_.floor_px));
  const QFontMetricsF floor(font);
  if (floor.horizontalAdvance(s) <= width) return lines(p, 1);
  const qreal h = floor.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, s).height();
  return lines(p, std::ceil(h / floor.height()));
}

QString GridView::first_fitting(const QPainter& p, const QStringList& candidates, qreal width) const {
  QFont font = p.font();
  font.setPixelSize(std::min(font.pixelSize(), theme_.floor_px));
  for (const QString& s : candidates)
    if (QFontMetricsF(font).horizontalAdvance(s) <= width) return s;
  return {};
}

qreal GridView::draw_heading_lines(QPainter& p, qreal margin) {
  const qreal w = width() - 2 * margin;
  qreal y = margin / 2;
  p.setFont(theme_.font());
  // A short view (a presentation, a pane) spends its height on the cells:
  // the tab already names the view.
  if (height() >= 14 * lines(p, 1)) {
    p.setFont(theme_.font(1.15, true));
    p.setPen(theme_.text);
    const qreal h = lines(p, 1);
    text(p, QRectF(margin, y, w, h), Qt::AlignLeft | Qt::AlignVCenter,
         tr("Grid: what the traced blocks read and wrote"), Fit::Elide);
    y += h;
    p.setFont(theme_.font());
  }
  if (!frame_.has_request) return y + margin / 2;
  const auto& requests = doc_->analysis.requests;
  const auto& r = requests[std::min(step_, requests.size() - 1)];
  const analysis::SiteTotals* site = doc_->analysis.site_of(r);
  const QString what = tr("block %1, warp %2, line %3 %4 %5")
                           .arg(block_label(doc_->trace(), r.block))
                           .arg(r.warp)
                           .arg(r.line)
                           .arg(r.space == Space::Shared ? tr("shared") : tr("global"))
                           .arg(access_kind(r.store, site ? site->merged : 1, r.size, r.atomic));
  const QString count =
      tr("global accesses %1 / %2").arg(frame_.global_accesses_so_far).arg(frame_.global_accesses_total);
  p.setPen(theme_.muted);
  const QString joined = what + " · " + count;
  // One line where both fit; else the request (wrapped if it must be) over the count.
  if (!first_fitting(p, {joined}, w).isEmpty()) {
    text(p, QRectF(margin, y, w, lines(p, 1)), Qt::AlignLeft | Qt::AlignVCenter, joined);
    y += lines(p, 1);
  } else {
    const qreal h = wrapped_height(p, what, w);
    text(p, QRectF(margin, y, w, h), Qt::AlignLeft | Qt::AlignVCenter, what);
    y += h;
    const qreal h2 = wrapped_height(p, count, w);
    text(p, QRectF(margin, y, w, h2), Qt::AlignLeft | Qt::AlignVCenter, count);
    y += h2;
  }
  p.setPen(theme_.text);
  return y + margin / 2;
}

std::vector<GridView::Swatch> GridView::swatches() const {
  return {{theme_.read, tr("read now")},
          {theme_.write, tr("written now")},
          {theme_.earlier_read, tr("read earlier (this block)")},
          {theme_.earlier_write, tr("written earlier (this block)")},
          {theme_.other_block, tr("other traced blocks")}};
}

qreal GridView::draw_legend(QPainter& p, const QRectF& area, bool column, bool draw) {
  p.setFont(theme_.font(0.9));
  const QFontMetricsF metrics(p.font());
  const qreal line_h = metrics.height(), box = line_h - 6, gap = line_h / 2;
  qreal x = area.left(), y = area.top();
  for (const auto& [colour, label] : swatches()) {
    const qreal w = box + 4 + std::ceil(metrics.horizontalAdvance(label)) + 1;
    if ((column || x + w > area.right()) && x > area.left()) {
      x = area.left();
      y += line_h;
    }
    // A swatch that does not fit is left out whole, and so are those after it.
    if (y + line_h > area.bottom() + 0.5 || x + w > area.right() + 0.5) break;
    if (draw) {
      const QRectF swatch(x, y + 3, box, box);
      p.fillRect(swatch, colour);
      p.setPen(theme_.text);
      p.setBrush(Qt::NoBrush);
      p.drawRect(swatch);
      text(p, QRectF(x + box + 4, y, w - box - 4, line_h), Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    x += w + gap;
  }
  return y + line_h - area.top();
}

// Each matrix's caption in a slot `slot_w` wide: its name and role (its
// size where it fits), and its window's rows and columns where they fit.
GridView::Captions GridView::captions(QPainter& p, qreal slot_w) const {
  Captions c;
  for (const auto& m : frame_.matrices) {
    const QString name = QString::fromStdString(m.name);
    const QString role = role_name(m.role);
    p.setFont(theme_.font(1.0, true));
    const QString head = first_fitting(
        p, {tr("%1 (%2), %3 x %4").arg(name, role).arg(m.shape.rows).arg(m.shape.cols), tr("%1 (%2)").arg(name, role)},
        slot_w);
    c.heads << (head.isEmpty() ? name : head);
    p.setFont(theme_.font(0.85));
    const QString range = first_fitting(
        p,
        {tr("rows %1-%2, cols %3-%4").arg(m.row0).arg(m.row0 + m.rows - 1).arg(m.col0).arg(m.col0 + m.cols - 1),
         QString("[%1-%2, %3-%4]").arg(m.row0).arg(m.row0 + m.rows - 1).arg(m.col0).arg(m.col0 + m.cols - 1)},
        slot_w);
    c.ranges_fit &= !range.isEmpty();
    c.ranges << range;
  }
  return c;
}

void GridView::paint(QPainter& p) {
  const qreal margin = theme_.font_px / 2 + 4;
  const qreal top = draw_heading_lines(p, margin);
  placements_.clear();
  if (frame_.matrices.empty()) {
    draw_centred_note(p, tr("This kernel made no global accesses in the traced blocks."));
    return;
  }

  // The legend beside the cells or under them (in as many lines as a
  // quarter of the height gives), wherever the cells get bigger.
  QRectF body(margin, top, width() - 2 * margin, height() - top - margin / 2);
  p.setFont(theme_.font(0.9));
  const qreal legend_line = lines(p, 1);
  qreal legend_w = 0;
  for (const auto& s : swatches())
    legend_w = std::max(legend_w, legend_line + std::ceil(QFontMetricsF(p.font()).horizontalAdvance(s.text)) + 1);
  const qreal most = std::max(legend_line, std::floor(body.height() / 4 / legend_line) * legend_line);
  const qreal under_h = draw_legend(p, QRectF(body.left(), 0, body.width(), most), false, false);
  p.setFont(theme_.font(1.0, true));
  const qreal captions_h = lines(p, 1) + lines(p, 0.85) + 2;
  const int n = static_cast<int>(frame_.matrices.size());
  const qreal under = std::min((body.width() - margin * (n - 1)) / n, body.height() - under_h - captions_h);
  const qreal beside = std::min((body.width() - legend_w - margin * n) / n, body.height() - captions_h);
  if (beside > under) {
    draw_legend(p, QRectF(body.right() - legend_w, body.top(), legend_w, body.height()), true, true);
    body.setRight(body.right() - legend_w - margin);
  } else {
    body.setBottom(body.bottom() - under_h - margin / 4);  // drawn right under the cells
  }

  // Captions: the matrix's name and role (its size where it fits), then the
  // window's rows and columns where they fit.
  const qreal slot_w = (body.width() - margin * (n - 1)) / n;
  auto [heads, ranges, ranges_fit] = captions(p, slot_w);
  p.setFont(theme_.font(1.0, true));
  const qreal head_h = lines(p, 1);
  p.setFont(theme_.font(0.85));
  qreal range_h = ranges_fit ? lines(p, 1) : 0;
  qreal cells_top = body.top() + head_h + range_h + 2;
  // The chosen problem's stray access: a band over or under the cells, in
  // the fullest wording that leaves the cells a window of 8 a side, the
  // windows' row and column ranges given up before the band.
  const std::optional<Stray> off = stray();
  const qreal least_cells = 8 * std::max(4, theme_.font_px / 3);
  int wording = kOutsideWordings - 1;
  qreal band_h = 0;
  if (off) {
    struct Try {
      int wording;
      bool ranges;
    };
    for (const Try t : {Try{0, true}, Try{1, true}, Try{1, false}}) {
      const qreal top = body.top() + head_h + (t.ranges ? range_h : 0) + 2;
      const qreal h = outside_height(off->mark, body.width(), t.wording);
      if (body.bottom() - top - h < least_cells) continue;
      wording = t.wording;
      band_h = h;
      cells_top = top;
      if (!t.ranges) {
        ranges_fit = false;
        range_h = 0;
      }
      break;
    }
  }
  if (off && off->mark.up) cells_top += band_h;
  const qreal avail_h = body.bottom() - cells_top - (off && !off->mark.up ? band_h : 0);

  // Cells big enough to see: fewer of them (the current block's tile and its
  // neighbours) where the room is small.
  const qreal min_cell = std::max(4, theme_.font_px / 3);
  // A power of two, as tiles are: windows then start at round indices.
  const double fit =
      std::clamp(std::floor(std::min(slot_w, avail_h) / min_cell), 4.0, static_cast<double>(GridModel::kMaxSide));
  const auto side = std::uint64_t{1} << static_cast<int>(std::floor(std::log2(fit)));
  if (side != side_) {
    side_ = side;
    frame_ = model_->frame(step_, side_);
  }

  qreal cells_bottom = cells_top;
  std::optional<QRectF> stray_matrix;  // where the stray's matrix was drawn
  qreal stray_cell = 0;
  for (int i = 0; i < n; ++i) {
    const GridMatrix& m = frame_.matrices[static_cast<std::size_t>(i)];
    const qreal x0 = body.left() + i * (slot_w + margin);
    p.setPen(theme_.text);
    p.setFont(theme_.font(1.0, true));
    text(p, QRectF(x0, body.top(), slot_w, head_h), Qt::AlignCenter, heads[i]);
    if (ranges_fit) {
      p.setFont(theme_.font(0.85));
      p.setPen(theme_.muted);
      text(p, QRectF(x0, body.top() + head_h, slot_w, range_h), Qt::AlignCenter, ranges[i]);
    }
    // A window of a few cells (a reduction's partial sums) stays cell-sized.
    const qreal cell = std::clamp<qreal>(std::min(slot_w / m.cols, avail_h / m.rows), 1.0, 2.5 * theme_.font_px);
    const QPointF origin(x0 + (slot_w - cell * m.cols) / 2, cells_top);
    placements_.push_back({origin, cell});
    draw_matrix(p, m, origin, cell);
    draw_outlines(p, m, origin, cell);
    cells_bottom = std::max(cells_bottom, origin.y() + cell * m.rows);
    if (off && off->matrix == i) {
      stray_matrix = QRectF(origin, QSizeF(cell * m.cols, cell * m.rows));
      stray_cell = cell;
    }
  }
  if (off && band_h > 0) {
    const bool up = off->mark.up;
    const QRectF band(body.left(), up ? cells_top - band_h : cells_bottom, body.width(), band_h);
    const qreal x = stray_matrix ? stray_matrix->left() + off->column * stray_cell : band.left();
    const qreal edge =
        stray_matrix ? (up ? stray_matrix->top() : stray_matrix->bottom()) : (up ? band.bottom() : band.top());
    draw_outside(p, off->mark, band, x, edge, wording);
    if (!up) cells_bottom += band_h;
  }
  if (!(beside > under))
    draw_legend(p, QRectF(body.left(), cells_bottom + margin / 4, body.width(), under_h), false, true);
}

std::optional<GridView::Stray> GridView::stray() const {
  if (!problem_ || !frame_.has_request || problem_->strays.empty()) return std::nullopt;
  const analysis::Problem& pr = problem_->problem;
  const auto& requests = doc_->analysis.requests;
  if (pr.kind != analysis::ProblemKind::OutOfBounds || pr.space != Space::Global || requests.empty() ||
      !problem_->at(std::min(step_, requests.size() - 1)))
    return std::nullopt;
  const Trace& t = doc_->trace();
  if (pr.buffer >= t.buffers.size()) return std::nullopt;
  Stray s;
  OutsideMark& o = s.mark;
  o.up = pr.offset < 0;
  o.fill = pr.first.store ? theme_.write : theme_.read;
  for (const std::uint32_t k : problem_->strays) o.threads.push_back(t.strays[k].access.thread);
  const QString name = QString::fromStdString(problem_->buffer.empty() ? t.buffers[pr.buffer].name : problem_->buffer);
  const auto bytes = static_cast<qulonglong>(t.buffers[pr.buffer].bytes);
  o.place_short = o.up ? tr("outside: '%1' − %2 bytes").arg(name).arg(-pr.offset)
                       : tr("outside: '%1' + %2 bytes").arg(name).arg(pr.offset);
  o.place = o.up ? tr("outside: buffer '%1' − %2 bytes (holds %3)").arg(name).arg(-pr.offset).arg(bytes)
                 : tr("outside: buffer '%1' + %2 bytes (holds %3)").arg(name).arg(pr.offset).arg(bytes);
  const QString thread = ProblemsView::thread_text(t, pr.first.thread);
  o.who =
      (pr.first.store ? tr("%1 writes there, line %2") : tr("%1 reads there, line %2")).arg(thread).arg(pr.first.line);
  if (o.threads.size() > 1)
    o.who +=
        QLatin1Char(' ') + (o.threads.size() == 2 ? tr("(and 1 more lane of its warp)")
                                                  : tr("(and %1 more lanes of its warp)").arg(o.threads.size() - 1));
  for (std::size_t i = 0; i < frame_.matrices.size(); ++i) {
    const GridMatrix& m = frame_.matrices[i];
    if (m.buffer != pr.buffer || m.cols == 0) continue;
    s.matrix = static_cast<int>(i);
    // The column the address would have in the matrix's rows, where the
    // window shows it; else the window's nearest edge.
    const std::int64_t element_bytes = std::max<std::int64_t>(m.shape.element_bytes, 1);
    const std::int64_t cols = static_cast<std::int64_t>(std::max<std::uint64_t>(m.shape.cols, 1));
    const std::int64_t element =
        pr.offset >= 0 ? pr.offset / element_bytes : -((-pr.offset + element_bytes - 1) / element_bytes);
    const std::int64_t col = ((element % cols) + cols) % cols - static_cast<std::int64_t>(m.col0);
    s.column = std::clamp<double>(static_cast<double>(col), 0.0, static_cast<double>(m.cols) - 1.0) + 0.5;
  }
  return s;
}

void GridView::draw_matrix(QPainter& p, const GridMatrix& m, QPointF origin, qreal cell) {
  const bool lines = cell >= 6;
  for (std::uint64_t r = 0; r < m.rows; ++r)
    for (std::uint64_t c = 0; c < m.cols; ++c) {
      const CellState state = m.at(r, c).state;
      QColor fill = theme_.untouched;
      switch (state) {
        case CellState::Untouched: break;
        case CellState::EarlierOtherBlock: fill = theme_.other_block; break;
        case CellState::EarlierRead: fill = theme_.earlier_read; break;
        case CellState::EarlierWrite: fill = theme_.earlier_write; break;
        case CellState::CurrentRead: fill = theme_.read; break;
        case CellState::CurrentWrite: fill = theme_.write; break;
      }
      const QRectF rect(origin.x() + c * cell, origin.y() + r * cell, cell, cell);
      p.fillRect(rect, fill);
      if (state == CellState::CurrentRead || state == CellState::CurrentWrite) mark(rect, true);
      if (lines) {
        p.setPen(QPen(theme_.grid, 0.5));
        p.drawRect(rect);
      }
    }
}

// Block outlines: other blocks thin and dashed, the current one thick; a
// block's name where its outline has room for it and leaves most cells seen.
void GridView::draw_outlines(QPainter& p, const GridMatrix& m, QPointF origin, qreal cell) {
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& o : m.outlines) {
      if (o.current != (pass == 1)) continue;
      const QRectF rect(origin.x() + o.col0 * cell, origin.y() + o.row0 * cell, o.cols * cell, o.rows * cell);
      p.setPen(QPen(o.current ? theme_.current : theme_.muted, o.current ? 3 * theme_.stroke : 1.2 * theme_.stroke,
                    o.current ? Qt::SolidLine : Qt::DashLine));
      p.setBrush(Qt::NoBrush);
      p.drawRect(rect);
      p.setFont(theme_.font(0.8, o.current));
      const QString label = tr("block %1").arg(block_label(doc_->trace(), o.block));
      const QRectF size = QFontMetricsF(p.font()).boundingRect(label).adjusted(-2, 0, 2, 0);
      if (size.width() >= rect.width() || 3 * size.height() > rect.height()) continue;
      const QRectF at(rect.topLeft() + QPointF(2, 2), size.size());
      const auto& texts = painted().texts;
      if (std::any_of(texts.begin(), texts.end(), [&](const PaintedText& t) { return t.rect.intersects(at); }))
        continue;
      p.fillRect(at, QColor(255, 255, 255, 210));
      p.setPen(theme_.text);
      text(p, at, Qt::AlignCenter, label, Fit::Label);
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
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return TraceView::event(e);
}

}  // namespace threadmap::views
