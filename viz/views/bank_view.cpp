#include "viz/views/bank_view.h"

#include "viz/views/problems_view.h"
#include "viz/views/timeline.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>
#include <set>

namespace threadmap::views {

namespace {

// The parts, in order, that fit on one line `width` wide at the painter's
// font, joined by " · "; a part that does not fit is left out whole.
QString parts_that_fit(const QPainter& p, const QStringList& parts, qreal width) {
  const QFontMetricsF m(p.font());
  QString line;
  for (const QString& part : parts) {
    if (part.isEmpty()) continue;
    const QString longer = line.isEmpty() ? part : line + QStringLiteral(" · ") + part;
    if (m.horizontalAdvance(longer) <= width) line = longer;
  }
  return line;
}

// The smallest of 1, 2, 4, 8 cells that a label as wide as `label` fits.
int label_step(const QPainter& p, const QString& label, qreal cell_w) {
  const qreal w = QFontMetricsF(p.font()).horizontalAdvance(label) + 4;
  int step = 1;
  while (step < 8 && step * cell_w < w) step *= 2;
  return step;
}

}  // namespace

void BankView::document_changed() { model_.emplace(doc_); }

void BankView::step_changed() { frame_ = model_->frame(step_); }

QString BankView::headline() const {
  const BankFrame& f = frame_;
  const int replays = f.wavefronts - f.ideal_wavefronts;
  const QString waves = f.wavefronts == 1 ? tr("1 wavefront") : tr("%1 wavefronts").arg(f.wavefronts);
  return replays == 1 ? tr("%1 (ideal %2): 1 replay").arg(waves).arg(f.ideal_wavefronts)
                      : tr("%1 (ideal %2): %3 replays").arg(waves).arg(f.ideal_wavefronts).arg(replays);
}

// What the step is when it is no shared access: said plainly, with what the
// kernel's shared accesses come to, so no other request's lanes are shown.
QString BankView::not_shared_note() const {
  const BankFrame& f = frame_;
  const QString kind = f.step_store ? tr("store") : tr("load");
  const QString space = f.step_space == Space::Global ? tr("global") : tr("non-shared");
  return tr("This step is a %1 %2; shared accesses: %n request(s), %3 wavefronts (ideal %4), %5 so far.", nullptr,
            static_cast<int>(f.shared_requests_total))
      .arg(space, kind)
      .arg(f.total.shared_wavefronts)
      .arg(f.total.shared_ideal_wavefronts)
      .arg(f.so_far.shared_wavefronts);
}

void BankView::paint(QPainter& p) {
  const BankFrame& f = frame_;
  const int margin = theme_.font_px / 2 + 4;
  const qreal y = draw_title(p, tr("Shared-memory banks (%1 x %2 bytes)").arg(f.banks).arg(f.bank_bytes));
  if (!f.has_request) {
    draw_centred_note(p, tr("This kernel makes no shared-memory accesses."));
    return;
  }
  if (!f.at_step) {
    draw_note_below(p, y, not_shared_note());  // nothing of another request
    return;
  }
  paint_request(p, y + margin / 2.0);
}

void BankView::paint_request(QPainter& p, qreal y) {
  const BankFrame& f = frame_;
  const int margin = theme_.font_px / 2 + 4;
  const qreal width_in = width() - 2.0 * margin;
  // The chosen problem's stray word: a band under the grid (its wording
  // chosen below, once the rows the grid needs are known).
  std::optional<Stray> off = stray();
  qreal bottom = height() - margin / 2.0;
  int wording = kOutsideWordings - 1;
  qreal band_h = 0;

  // The figure of the picture, read whole: shrunk, then wrapped.
  const int replays = f.wavefronts - f.ideal_wavefronts;
  p.setFont(theme_.font(1.25, true));
  p.setPen(replays > 0 ? theme_.write : theme_.text);
  const QString big = headline();
  const qreal big_h = whole_height(p.font(), width_in, big);
  text(p, QRectF(margin, y, width_in, big_h), Qt::AlignLeft | Qt::AlignVCenter, big);
  y += big_h;

  // The grid's geometry: a lane row, the bank numbers, then word rows.
  p.setFont(theme_.font(0.8));
  QString widest_row = tr("row %1").arg(std::max<std::uint32_t>(f.rows, 1) - 1);
  const qreal label_w = std::max(QFontMetricsF(p.font()).horizontalAdvance(widest_row),
                                 QFontMetricsF(p.font()).horizontalAdvance(tr("bank"))) +
                        6;
  const qreal grid_x = margin + label_w;
  const qreal cell_w = (width() - grid_x - margin) / static_cast<qreal>(f.banks);
  const qreal number_h = lines(p, 1);
  const qreal lane_h = std::max<qreal>(number_h + 4, 18);
  p.setFont(theme_.font(0.75, true));
  // A word row is as high as a wavefront's number, so the number is read.
  const qreal min_row_h = std::max<qreal>(lines(p, 1), 8);
  p.setFont(theme_.font());
  const qreal line_h = lines(p, 1);

  // The rows the request touches, and how many rows the space can take.
  std::set<std::uint32_t> touched;
  for (const BankLane& lane : f.lanes) touched.insert(std::min(lane.row, f.rows ? f.rows - 1 : 0));
  const qreal fixed = lane_h + 4 + number_h;
  const auto rows_fitting = [&](qreal below) {
    return static_cast<int>(std::floor((bottom - below - fixed) / min_row_h));
  };

  // Secondary lines go in while the grid keeps the rows it needs (all the
  // request touches, or four): first the request line, then the tile's.
  const QString request = tr("block %1 warp %2, line %3 %4")
                              .arg(QString::fromStdString(block_name(doc_->trace(), f.block)))
                              .arg(f.warp)
                              .arg(f.line)
                              .arg(access_kind(f.store, f.merged, f.access_bytes, f.atomic));
  const int rows_wanted = std::min<int>(static_cast<int>(touched.size()), 4);
  // The stray's band: the fullest wording that leaves the grid its rows
  // under the shortest key, else one that leaves it one row; where none
  // does, the band without the key (it names the offset and the thread
  // too), then without the caption of the rows drawn; else no band (the
  // Problems list names it).
  bool with_key = shows_problem(), with_caption = true;
  if (off) {
    const qreal key_h = with_key ? QFontMetricsF(theme_.font(0.9, true)).height() : 0;
    const StrayBand band = place_stray_band(off->mark, width_in, [&](const StrayBand& b) {
      bottom = height() - margin / 2.0 - b.height;
      return rows_fitting(y + (b.key ? key_h : 0) + (b.caption ? line_h : 0)) >= (b.wording == 0 ? rows_wanted : 1);
    });
    band_h = band.height;
    bottom = height() - margin / 2.0 - band_h;
    wording = band.placed ? band.wording : wording;
    with_key = with_key && band.key;
    with_caption = band.caption;
  }
  // The problem's key: the first wording that takes one line; else the
  // fullest that leaves the grid its rows, else the shortest that leaves
  // it one (the Problems list says it all).
  if (with_key) {
    const QRectF area(margin, y, width_in, bottom - y);
    const qreal one_line = QFontMetricsF(theme_.font(0.9, true)).height();
    int chosen = -1;
    for (int wording = 0; wording < kProblemKeyWordings && chosen < 0; ++wording)
      if (draw_problem_key(p, area, wording, false) <= one_line + 0.5) chosen = wording;
    if (chosen < 0 && rows_fitting(y + draw_problem_key(p, area, 0, false)) >= rows_wanted) chosen = 0;
    if (chosen < 0 && rows_fitting(y + draw_problem_key(p, area, kProblemKeyWordings - 1, false)) >= 1)
      chosen = kProblemKeyWordings - 1;
    if (chosen >= 0) y += draw_problem_key(p, area, chosen, true);
    p.setFont(theme_.font());
  }
  p.setPen(theme_.muted);
  const qreal request_h = whole_height(p.font(), width_in, request);
  const bool show_request = rows_fitting(y + request_h + line_h) >= rows_wanted;
  if (show_request) {
    text(p, QRectF(margin, y, width_in, request_h), Qt::AlignLeft | Qt::AlignVCenter, request);
    y += request_h;
  }
  QStringList tile_parts{f.tile.known ? QString::fromStdString(f.tile.declaration) : tr("shared array"),
                         tr("wavefronts so far %1 / %2 (ideal %3)")
                             .arg(f.so_far.shared_wavefronts)
                             .arg(f.total.shared_wavefronts)
                             .arg(f.total.shared_ideal_wavefronts)};
  if (f.tile.known && f.tile.cols > f.tile.data_cols) tile_parts.insert(1, tr("padding hatched"));
  if (rows_fitting(y + 2 * line_h) >= rows_wanted) {
    text(p, QRectF(margin, y, width_in, line_h), Qt::AlignLeft | Qt::AlignVCenter,
         parts_that_fit(p, tile_parts, width_in));
    y += line_h;
  }
  y += 4;

  // Which rows are drawn: all where they fit at a legible height, else the
  // rows the request touches, as many as fit, the caption saying which.
  const std::vector<std::uint32_t> shown =
      rows_to_draw(touched, std::max(1, rows_fitting(y)), std::max(1, rows_fitting(y + (with_caption ? line_h : 0))));
  const bool all_rows = shown.size() == f.rows;
  const qreal lanes_y = y;
  const qreal header_y = lanes_y + lane_h + 4;
  const qreal grid_y = header_y + number_h;
  const qreal caption_h = all_rows || !with_caption ? 0 : line_h;
  const qreal room = bottom - grid_y - caption_h;
  const qreal cell_h =
      std::max<qreal>(3.0, std::min(std::max(cell_w, min_row_h), room / std::max<std::size_t>(shown.size(), 1)));
  draw_grid(p, shown, grid_x, grid_y, cell_w, cell_h, margin, label_w);
  draw_numbers(p, grid_x, header_y, cell_w, number_h, margin, label_w);
  draw_lanes(p, shown, grid_x, lanes_y, lane_h, grid_y, cell_w, cell_h);
  if (shows_problem()) draw_problem_marks(p, shown, grid_x, lanes_y, lane_h, grid_y, cell_w, cell_h);
  const qreal grid_bottom = grid_y + shown.size() * cell_h;
  if (off) {
    // The word's row drawn: outlined there, named only. Past the last row
    // drawn: an arrow down from the grid's foot under its bank, dashed
    // where rows left out lie between.
    OutsideMark& o = off->mark;
    const std::uint64_t row = off->word / f.banks;
    const bool shown_row = !off->before && std::find(shown.begin(), shown.end(), row - f.first_row) != shown.end();
    o.arrow = !off->before && !shown_row;
    o.dashed = !shown.empty() && shown.back() + 1 < f.rows;
    draw_stray_lanes(p, grid_x, lanes_y, lane_h, cell_w);
    draw_outside(p, o, QRectF(margin, grid_bottom, width_in, band_h), grid_x + (off->word % f.banks + 0.5) * cell_w,
                 grid_bottom, wording);
  }
  if (!all_rows && with_caption)
    draw_caption(p, shown, touched, QRectF(margin, grid_bottom + band_h, width_in, line_h));
}

// The stray's band: the first of its forms, fullest first, under which
// `fits` says the grid keeps the rows it needs; none placed: no band.
BankView::StrayBand BankView::place_stray_band(const OutsideMark& mark, qreal width_in,
                                               const std::function<bool(const StrayBand&)>& fits) const {
  for (StrayBand b : {StrayBand{0, true, true}, StrayBand{1, true, true}, StrayBand{0, false, true},
                      StrayBand{1, false, true}, StrayBand{1, false, false}}) {
    b.height = outside_height(mark, width_in, b.wording);
    if (fits(b)) {
      b.placed = true;
      return b;
    }
  }
  return StrayBand{kOutsideWordings - 1, true, true};  // height 0, not placed
}

// Which word rows are drawn: every row where `all_fit` rows fit, else the
// rows the request touches in one run of at most `can` with the rows around
// them, else as many of the touched rows as fit.
std::vector<std::uint32_t> BankView::rows_to_draw(const std::set<std::uint32_t>& touched, int all_fit, int can) const {
  const std::uint32_t rows = frame_.rows;
  std::vector<std::uint32_t> shown;
  if (static_cast<int>(rows) <= all_fit) {
    for (std::uint32_t r = 0; r < rows; ++r) shown.push_back(r);
  } else if (!touched.empty() && static_cast<int>(*touched.rbegin() - *touched.begin()) < can) {
    const std::uint32_t count = std::min<std::uint32_t>(static_cast<std::uint32_t>(can), rows);
    const std::uint32_t span = *touched.rbegin() - *touched.begin() + 1;
    const std::uint32_t first =
        std::min(*touched.begin() - std::min(*touched.begin(), (count - span) / 2), rows - count);
    for (std::uint32_t r = first; r < first + count; ++r) shown.push_back(r);
  } else {
    for (const std::uint32_t r : touched)
      if (static_cast<int>(shown.size()) < can) shown.push_back(r);
  }
  return shown;
}

std::optional<BankView::Stray> BankView::stray() const {
  if (!problem_ || problem_->strays.empty() || problem_->problem.kind != analysis::ProblemKind::OutOfBounds ||
      !shows_problem())
    return std::nullopt;
  const analysis::Problem& pr = problem_->problem;
  const Trace& t = doc_->trace();
  const std::uint32_t banks = std::max<std::uint32_t>(frame_.banks, 1);
  Stray s;
  s.word =
      static_cast<std::uint64_t>(std::max<std::int64_t>(pr.offset, 0)) / std::max<std::uint32_t>(frame_.bank_bytes, 1);
  s.before = s.word / banks < frame_.first_row;
  OutsideMark& o = s.mark;
  o.fill = pr.first.store ? theme_.write : theme_.read;
  o.threads = {-1};  // the cell is the word's
  o.place_short = tr("shared offset %1: in no array").arg(pr.offset);
  o.place = s.before ? o.place_short
                     : tr("shared offset %1 (bank %2, row %3): in no array")
                           .arg(pr.offset)
                           .arg(s.word % banks)
                           .arg(s.word / banks - frame_.first_row);
  const QString thread = ProblemsView::thread_text(t, pr.first.thread);
  o.who =
      (pr.first.store ? tr("%1 writes there, line %2") : tr("%1 reads there, line %2")).arg(thread).arg(pr.first.line);
  if (problem_->strays.size() > 1)
    o.who += QLatin1Char(' ') + (problem_->strays.size() == 2
                                     ? tr("(and 1 more lane of its warp)")
                                     : tr("(and %1 more lanes of its warp)").arg(problem_->strays.size() - 1));
  return s;
}

// The stray lanes' boxes in the lane row (lane i over bank i), hatched in
// the problem's colour: the request drawn has no lane of theirs.
void BankView::draw_stray_lanes(QPainter& p, qreal grid_x, qreal lanes_y, qreal lane_h, qreal cell_w) {
  const Trace& t = doc_->trace();
  const std::uint32_t width = std::max<std::uint32_t>(t.warp_width, 1);
  for (const std::uint32_t k : problem_->strays) {
    const std::uint16_t thread = t.strays[k].access.thread;
    const std::uint32_t lane = thread % width;
    if (lane >= frame_.banks) continue;
    const QRectF home(grid_x + lane * cell_w + 1, lanes_y, cell_w - 2, lane_h);
    p.setBrush(QBrush(theme_.problem, Qt::BDiagPattern));
    p.setPen(QPen(theme_.problem, 3 * theme_.stroke));
    p.drawRect(home);
    p.setBrush(Qt::NoBrush);
    mark_problem(home, thread);
    p.setFont(theme_.font(0.7, true));
    p.setPen(theme_.text);
    text(p, home, Qt::AlignCenter, QString::number(lane), Fit::Label);
  }
}

// Word cells: alternate tile rows in two tints so a tile row's wrap onto
// the next bank row shows; padding hatched. A row's number is at its left
// where it fits (every fourth when all rows are drawn).
void BankView::draw_grid(QPainter& p, const std::vector<std::uint32_t>& shown, qreal grid_x, qreal grid_y, qreal cell_w,
                         qreal cell_h, int margin, qreal label_w) {
  const BankFrame& f = frame_;
  const bool all_rows = shown.size() == f.rows;
  p.setFont(theme_.font(0.8));
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const std::uint32_t r = shown[i];
    const qreal top = grid_y + i * cell_h;
    if (!all_rows || r % 4 == 0) {
      p.setPen(theme_.muted);
      text(p, QRectF(margin, top, label_w, cell_h), Qt::AlignLeft | Qt::AlignVCenter, tr("row %1").arg(r), Fit::Label);
    }
    for (std::uint32_t b = 0; b < f.banks; ++b) {
      const BankWord& w = f.words[std::size_t{r} * f.banks + b];
      const QRectF rect(grid_x + b * cell_w, top, cell_w, cell_h);
      p.fillRect(rect, w.tile_row < 0 ? theme_.untouched : (w.tile_row % 2 ? theme_.tile_odd : theme_.tile_even));
      if (w.padding) p.fillRect(rect, QBrush(theme_.padding, Qt::BDiagPattern));
      p.setPen(QPen(theme_.grid, 0.5));
      p.drawRect(rect);
    }
    // A gap in the rows drawn: a thick line where rows are left out.
    if (i > 0 && shown[i - 1] + 1 != r) {
      p.setPen(QPen(theme_.text, 2 * theme_.stroke, Qt::DashLine));
      p.drawLine(QPointF(grid_x, top), QPointF(grid_x + f.banks * cell_w, top));
    }
  }
}

// The bank numbers, under the lanes (lane i sits over bank i), centred on
// their cells: every one where two digits fit a cell, else every second,
// fourth or eighth.
void BankView::draw_numbers(QPainter& p, qreal grid_x, qreal y, qreal cell_w, qreal h, int margin, qreal label_w) {
  const BankFrame& f = frame_;
  p.setFont(theme_.font(0.8));
  p.setPen(theme_.muted);
  text(p, QRectF(margin, y, label_w, h), Qt::AlignLeft | Qt::AlignVCenter, tr("bank"), Fit::Label);
  const int step = label_step(p, QString::number(f.banks - 1), cell_w);
  for (std::uint32_t b = 0; b < f.banks; b += step) {
    const QString number = QString::number(b);
    const qreal w = std::max(cell_w, QFontMetricsF(p.font()).horizontalAdvance(number) + 4);
    const qreal left = std::min(grid_x + (b + 0.5) * cell_w - w / 2, width() - w);
    text(p, QRectF(left, y, w, h), Qt::AlignCenter, number, Fit::Label);
  }
}

// The lanes: a paused view shows every lane served; while playing,
// wavefront k is served during the k-th share of the step's animation.
// Lanes whose row is not drawn point down past the last row.
void BankView::draw_lanes(QPainter& p, const std::vector<std::uint32_t>& shown, qreal grid_x, qreal lanes_y,
                          qreal lane_h, qreal grid_y, qreal cell_w, qreal cell_h) {
  const BankFrame& f = frame_;
  const int total_waves = std::max<int>(1, f.wavefronts);
  const double served = phase_ * total_waves;  // wavefronts finished (fractional)
  const qreal grid_bottom = grid_y + shown.size() * cell_h;
  const auto home_of = [&](const BankLane& lane) {
    return QRectF(grid_x + lane.lane * cell_w + 1, lanes_y, cell_w - 2, lane_h);
  };
  const auto row_of = [&](const BankLane& lane) {
    return std::find(shown.begin(), shown.end(), std::min(lane.row, f.rows ? f.rows - 1 : 0)) - shown.begin();
  };
  // Lane boxes and lines in flight first, so that no line crosses a disc.
  std::set<std::pair<std::size_t, std::uint32_t>> taken;  // (row drawn, bank) holding a served lane
  for (const BankLane& lane : f.lanes) {
    const QRectF home = home_of(lane);
    const double t = std::clamp(served - lane.wavefront, 0.0, 1.0);
    const QColor colour = theme_.wavefront(lane.wavefront);
    // Lane box in the lanes row: filled while waiting, outlined once gone.
    p.setPen(QPen(theme_.text, theme_.stroke));
    p.setBrush(t >= 1.0 ? QBrush(theme_.background) : QBrush(colour));
    p.drawRect(home);
    mark(home, true);
    p.setFont(theme_.font(0.7, true));
    text(p, home, Qt::AlignCenter, QString::number(lane.lane), Fit::Label);
    const std::size_t row = static_cast<std::size_t>(row_of(lane));
    if (t <= 0) continue;
    if (row < shown.size()) taken.insert({row, lane.bank});
    // Its row is left out: a line to the grid's foot while it flies, then a
    // notch there in its colour.
    const QPointF to = row < shown.size() ? QPointF(grid_x + (lane.bank + 0.5) * cell_w, grid_y + (row + 0.5) * cell_h)
                                          : QPointF(grid_x + (lane.bank + 0.5) * cell_w, grid_bottom);
    p.setPen(QPen(colour, 1.5 * theme_.stroke));
    if (t < 1.0) p.drawLine(home.center(), home.center() + (to - home.center()) * t);
    else if (row >= shown.size())
      p.fillRect(QRectF(grid_x + lane.bank * cell_w + 1, grid_bottom - 5, cell_w - 2, 5), colour);
  }
  for (const BankLane& lane : f.lanes) {
    const double t = std::clamp(served - lane.wavefront, 0.0, 1.0);
    const std::size_t row = static_cast<std::size_t>(row_of(lane));
    if (t <= 0 || row >= shown.size()) continue;
    const QPointF from = home_of(lane).center();
    const QPointF to(grid_x + (lane.bank + 0.5) * cell_w, grid_y + (row + 0.5) * cell_h);
    // A number may spread into the neighbouring cells where they are free.
    const bool alone = !taken.count({row, lane.bank - 1}) && !taken.count({row, lane.bank + 1});
    draw_served(p, lane, from + (to - from) * t, cell_w, cell_h, theme_.wavefront(lane.wavefront), alone);
  }
  p.setBrush(Qt::NoBrush);
}

// A served lane: a disc in its bank's cell carrying the number of the
// wavefront that serves it, counting from 1 (32 in a column is the lesson),
// where the number fits the row; a two-digit number widens the disc.
void BankView::draw_served(QPainter& p, const BankLane& lane, QPointF at, qreal cell_w, qreal cell_h,
                           const QColor& colour, bool alone) {
  p.setFont(theme_.font(0.75, true));
  const QString number = QString::number(lane.wavefront + 1);
  const QFontMetricsF m(p.font());
  const bool numbered = cell_h >= m.height() && (alone || cell_w >= m.horizontalAdvance(QStringLiteral("8")) + 2);
  qreal rx = std::max<qreal>(3.0, std::min(cell_w, cell_h) / 2.0 - 0.5), ry = rx;
  if (numbered) {
    ry = std::max(ry, m.height() / 2 - 1);
    rx = std::max({rx, ry, m.horizontalAdvance(number) / 2 + 3});
  }
  p.setPen(QPen(theme_.text, 0.8 * theme_.stroke));
  p.setBrush(colour);
  p.drawEllipse(at, rx, ry);
  if (numbered) text(p, QRectF(at.x() - rx, at.y() - cell_h / 2, 2 * rx, cell_h), Qt::AlignCenter, number, Fit::Label);
}

bool BankView::shows_problem() const {
  if (!problem_ || !frame_.has_request || !frame_.at_step) return false;
  const analysis::Problem& pr = problem_->problem;
  return pr.space == Space::Shared && pr.kind != analysis::ProblemKind::DivergentBarrier && pr.block == frame_.block &&
         problem_->at(frame_.request);
}

qreal BankView::draw_problem_key(QPainter& p, const QRectF& area, int wording, bool draw) {
  const analysis::Problem& pr = problem_->problem;
  const Trace& t = doc_->trace();
  p.setFont(theme_.font(0.9, true));
  const QFontMetricsF metrics(p.font());
  const qreal line_h = metrics.height(), box = line_h - 6, gap = line_h / 2;
  struct Part {
    int thread;  // -1: the word
    bool dashed;
    QString label;
  };
  std::vector<Part> parts;
  // Wordings, fullest first: the word and each thread with its (x,y); the
  // threads alone; the threads by number alone.
  if (wording == 0)
    parts.push_back({-1, false,
                     problem_->element.empty() ? tr("shared offset %1").arg(pr.offset)
                                               : QString::fromStdString(problem_->element)});
  const analysis::ProblemSite* sites[2] = {&pr.first, problem_->has_second() ? &pr.second : nullptr};
  for (int s = 0; s < 2; ++s) {
    if (!sites[s]) continue;
    const QString who =
        wording < 2 ? ProblemsView::thread_text(t, sites[s]->thread) : tr("thread %1").arg(sites[s]->thread);
    parts.push_back(
        {sites[s]->thread, problem_->requests[s] != frame_.request,
         (sites[s]->store ? tr("%1 writes it, line %2") : tr("%1 reads it, line %2")).arg(who).arg(sites[s]->line)});
  }
  qreal x = area.left(), y = area.top();
  for (const Part& part : parts) {
    const qreal w = box + 4 + std::ceil(metrics.horizontalAdvance(part.label)) + 1;
    if (x + w > area.right() && x > area.left()) {
      x = area.left();
      y += line_h;
    }
    if (draw) {
      const QRectF swatch(x + 1, y + 3, box - 2, box - 2);
      p.setBrush(Qt::NoBrush);
      QPen pen(theme_.problem, 2.5 * theme_.stroke);
      if (part.dashed) pen.setDashPattern({1.2, 1.0});  // short dashes: a small box keeps its corners
      p.setPen(pen);
      p.drawRect(swatch);
      mark_problem(swatch, part.thread);
      p.setPen(theme_.problem);
      text(p, QRectF(x + box + 4, y, std::min(w - box - 4, area.right() - x - box - 4), line_h),
           Qt::AlignLeft | Qt::AlignVCenter, part.label);
    }
    x += w + gap;
  }
  p.setPen(theme_.text);
  return y + line_h - area.top();
}

void BankView::draw_problem_marks(QPainter& p, const std::vector<std::uint32_t>& shown, qreal grid_x, qreal lanes_y,
                                  qreal lane_h, qreal grid_y, qreal cell_w, qreal cell_h) {
  const BankFrame& f = frame_;
  const analysis::Problem& pr = problem_->problem;
  p.setBrush(Qt::NoBrush);
  // The thread of this request: its lane box outlined.
  const analysis::ProblemSite* sites[2] = {&pr.first, problem_->has_second() ? &pr.second : nullptr};
  for (int s = 0; s < 2; ++s) {
    if (!sites[s] || problem_->requests[s] != f.request) continue;
    for (const BankLane& lane : f.lanes)
      if (lane.thread == sites[s]->thread) {
        const QRectF home = QRectF(grid_x + lane.lane * cell_w + 1, lanes_y, cell_w - 2, lane_h).adjusted(-2, -2, 2, 2);
        p.setPen(QPen(theme_.problem, 3 * theme_.stroke));
        p.drawRect(home);
        mark_problem(home, lane.thread);
      }
  }
  // The word they touch.
  const std::uint64_t word = static_cast<std::uint64_t>(pr.offset) / f.bank_bytes;
  const std::uint64_t row = word / f.banks;
  if (row < f.first_row) return;
  const auto at = std::find(shown.begin(), shown.end(), static_cast<std::uint32_t>(row - f.first_row));
  if (at == shown.end()) return;
  const QRectF cell(grid_x + (word % f.banks) * cell_w, grid_y + (at - shown.begin()) * cell_h, cell_w, cell_h);
  p.setPen(QPen(theme_.problem, 3 * theme_.stroke));
  p.drawRect(cell.adjusted(-1.5, -1.5, 1.5, 1.5));
  mark_problem(cell, -1);
  p.setPen(theme_.text);
}

// Which rows are drawn, where they are not all: the figures for the rows
// left out are in the headline.
void BankView::draw_caption(QPainter& p, const std::vector<std::uint32_t>& shown,
                            const std::set<std::uint32_t>& touched, const QRectF& box) {
  p.setFont(theme_.font());
  p.setPen(theme_.muted);
  QStringList parts;
  if (phase_ < 1.0) {
    const int waves = std::max<int>(1, frame_.wavefronts);
    parts
        << tr("serving wavefront %1 of %2").arg(std::min<int>(waves, static_cast<int>(phase_ * waves) + 1)).arg(waves);
  }
  if (!shown.empty()) {
    const QString which =
        shown.size() == 1 ? tr("row %1").arg(shown.front()) : tr("rows %1–%2").arg(shown.front()).arg(shown.back());
    const bool every = std::all_of(touched.begin(), touched.end(), [&](std::uint32_t r) {
      return std::find(shown.begin(), shown.end(), r) != shown.end();
    });
    // The longer wording where it fits, else the shorter.
    const QString longer = every ? tr("bank %1 of %2").arg(which).arg(frame_.rows)
                                 : tr("bank %1 of the %2 rows the request touches").arg(which).arg(touched.size());
    const QString shorter =
        every ? tr("%1 of %2").arg(which).arg(frame_.rows) : tr("%1 of %2 touched").arg(which).arg(touched.size());
    parts << (QFontMetricsF(p.font()).horizontalAdvance(longer) <= box.width() ? longer : shorter);
  }
  const QString line = parts_that_fit(p, parts, box.width());
  if (box.bottom() <= height()) text(p, box, Qt::AlignLeft | Qt::AlignVCenter, line);
}

}  // namespace threadmap::views
