#include "viz/views/grid_model.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "viz/views/timeline.h"

namespace threadmap::views {

void GridModel::Box::add(std::uint64_t r, std::uint64_t c) {
  row0 = std::min(row0, r), col0 = std::min(col0, c);
  row1 = std::max(row1, r), col1 = std::max(col1, c);
}

namespace {

// Where a window's side starts and how long it is, along one axis: all of
// [lo, hi] where it fits in `side`; else the focus [f0, f1] (a block's tile)
// with as many whole tiles around it as fit, kept inside [lo, hi]. A focus
// longer than `side` (or a request's cells: `tiled` false) is shown from the
// multiple of `side` before it, so that windows start at round indices.
std::pair<std::uint64_t, std::uint64_t> span(std::uint64_t lo, std::uint64_t hi, std::uint64_t f0, std::uint64_t f1,
                                             std::uint64_t side, bool tiled) {
  if (hi + 1 - lo <= side) return {lo, hi + 1 - lo};
  const std::uint64_t tile = f1 + 1 - f0;
  if (!tiled || tile >= side) {
    std::uint64_t start = f0 / side * side;
    if (f1 >= start + side && tile <= side) start = f0;  // straddles a multiple: the focus whole
    return {std::min(std::max(start, lo), hi + 1 - side), side};
  }
  const std::uint64_t tiles = side / tile, count = tiles * tile;
  const std::uint64_t before = (tiles - 1) / 2 * tile;
  const std::uint64_t start = f0 >= lo + before ? f0 - before : lo;
  return {std::min(start, hi + 1 - count), count};
}

}  // namespace

GridModel::GridModel(std::shared_ptr<const analysis::TraceDocument> doc) : doc_(std::move(doc)) {
  const Trace& trace = doc_->trace();
  const auto& accesses = trace.accesses;
  placed_.assign(accesses.size(), {});

  std::map<std::uint8_t, Matrix> by_buffer;
  std::map<std::pair<std::uint8_t, std::uint32_t>, Box> footprints;
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const auto& a = accesses[i];
    if (a.space != Space::Global) continue;
    ++global_total_;
    auto [it, fresh] = by_buffer.try_emplace(a.buffer);
    Matrix& m = it->second;
    if (fresh) {
      m.buffer = a.buffer;
      m.name = buffer_name(*doc_, a.buffer);
      m.role = a.buffer < trace.buffers.size() ? trace.buffers[a.buffer].role : "";
      m.shape = matrix_shape(*doc_, a.buffer);
    }
    const std::uint32_t elements = std::max<std::uint32_t>(1, a.size / m.shape.element_bytes);
    placed_[i] = {static_cast<std::int32_t>(a.buffer), a.offset / m.shape.element_bytes, elements};
    for (std::uint64_t e = placed_[i].element; e < placed_[i].element + elements; ++e) {
      m.touched.add(e / m.shape.cols, e % m.shape.cols);
      footprints[{a.buffer, a.block}].add(e / m.shape.cols, e % m.shape.cols);
    }
  }
  for (const auto& [key, box] : footprints) by_buffer[key.first].footprints.emplace_back(key.second, box);

  // Inputs first, then outputs, in the kernel's argument order.
  for (auto& [buffer, m] : by_buffer) matrices_.push_back(std::move(m));
  std::stable_sort(matrices_.begin(), matrices_.end(),
                   [](const Matrix& a, const Matrix& b) { return (a.role == "input") > (b.role == "input"); });
  // placed_ named buffers; from here on, matrices_ indices.
  std::map<std::uint8_t, std::int32_t> index;
  for (std::size_t m = 0; m < matrices_.size(); ++m) index[matrices_[m].buffer] = static_cast<std::int32_t>(m);
  for (std::size_t i = 0; i < accesses.size(); ++i)
    if (accesses[i].space == Space::Global) placed_[i].matrix = index[accesses[i].buffer];

  const auto& analysis = doc_->analysis;
  request_of_access_.assign(accesses.size(), std::numeric_limits<std::uint32_t>::max());
  for (std::uint32_t q = 0; q < analysis.requests.size(); ++q)
    for (const std::uint32_t a : analysis.lanes_of(analysis.requests[q])) request_of_access_[a] = q;
}

GridMatrix GridModel::window(const Matrix& m, std::uint32_t block, const Box& request, std::uint64_t side) const {
  // The focus: the current block's footprint, or the request where the
  // footprint is larger than the window (or the block left this matrix alone).
  const auto own =
      std::find_if(m.footprints.begin(), m.footprints.end(), [&](const auto& fp) { return fp.first == block; });
  Box focus = own != m.footprints.end() ? own->second : m.footprints.front().second;
  const bool too_big = focus.row1 + 1 - focus.row0 > side || focus.col1 + 1 - focus.col0 > side;
  const bool tiled = request.empty() || (!too_big && own != m.footprints.end());
  if (!tiled) focus = request;

  GridMatrix g;
  g.buffer = m.buffer;
  g.name = m.name;
  g.role = m.role;
  g.shape = m.shape;
  std::tie(g.row0, g.rows) = span(m.touched.row0, m.touched.row1, focus.row0, focus.row1, side, tiled);
  std::tie(g.col0, g.cols) = span(m.touched.col0, m.touched.col1, focus.col0, focus.col1, side, tiled);
  g.cells.assign(g.rows * g.cols, {});
  // Each footprint as much as the window shows of it.
  for (const auto& [b, fp] : m.footprints) {
    const std::uint64_t r0 = std::max(fp.row0, g.row0), c0 = std::max(fp.col0, g.col0);
    const std::uint64_t r1 = std::min(fp.row1 + 1, g.row0 + g.rows), c1 = std::min(fp.col1 + 1, g.col0 + g.cols);
    if (r0 >= r1 || c0 >= c1) continue;
    g.outlines.push_back({b, r0 - g.row0, c0 - g.col0, r1 - r0, c1 - c0, b == block});
  }
  return g;
}

GridFrame GridModel::frame(std::size_t step, std::uint64_t side) const {
  GridFrame f;
  f.global_accesses_total = global_total_;
  f.side = side = std::max<std::uint64_t>(1, side);
  const auto& analysis = doc_->analysis;
  const auto& accesses = doc_->trace().accesses;
  std::vector<Box> request(matrices_.size());
  if (!analysis.requests.empty()) {
    step = std::min(step, analysis.requests.size() - 1);
    f.has_request = true;
    f.current_block = analysis.requests[step].block;
    for (const std::uint32_t a : analysis.lanes_of(analysis.requests[step])) {
      const Placed& p = placed_[a];
      if (p.matrix < 0) continue;
      const MatrixShape& shape = matrices_[p.matrix].shape;
      for (std::uint64_t e = p.element; e < p.element + p.elements; ++e)
        request[p.matrix].add(e / shape.cols, e % shape.cols);
    }
  }
  for (std::size_t m = 0; m < matrices_.size(); ++m)
    f.matrices.push_back(window(matrices_[m], f.current_block, request[m], side));
  if (!f.has_request) return f;

  // Requests in device order: every access of requests [0, step] is marked,
  // later marks over earlier ones, the current request's lanes on top.
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const std::uint32_t q = request_of_access_[i];
    if (q > step || accesses[i].space != Space::Global) continue;
    ++f.global_accesses_so_far;
    const Placed& p = placed_[i];
    GridMatrix& g = f.matrices[p.matrix];
    bool inside = false;
    for (std::uint64_t e = p.element; e < p.element + p.elements; ++e) {
      const std::uint64_t r = e / g.shape.cols, c = e % g.shape.cols;
      if (r < g.row0 || c < g.col0 || r >= g.row0 + g.rows || c >= g.col0 + g.cols) continue;
      inside = true;
      mark(g.cells[(r - g.row0) * g.cols + (c - g.col0)], i, q == step, f.current_block);
    }
    if (inside && q == step) ++f.current_cells;
  }
  return f;
}

void GridModel::mark(GridCell& cell, std::size_t i, bool current, std::uint32_t current_block) const {
  const auto& a = doc_->trace().accesses[i];
  if (!current && (cell.state == CellState::CurrentRead || cell.state == CellState::CurrentWrite)) return;
  if (!current && cell.access >= 0 && request_of_access_[cell.access] > request_of_access_[i]) return;
  cell.access = static_cast<std::int64_t>(i);
  if (current) cell.state = a.store ? CellState::CurrentWrite : CellState::CurrentRead;
  else if (a.block != current_block) cell.state = CellState::EarlierOtherBlock;
  else cell.state = a.store ? CellState::EarlierWrite : CellState::EarlierRead;
}

std::string GridModel::describe(const GridFrame& frame, std::size_t matrix, std::uint64_t row,
                                std::uint64_t col) const {
  if (matrix >= frame.matrices.size()) return "";
  const GridMatrix& m = frame.matrices[matrix];
  if (row >= m.rows || col >= m.cols) return "";
  const GridCell& cell = m.at(row, col);
  const std::string where = m.name + "[" + std::to_string(m.row0 + row) + "][" + std::to_string(m.col0 + col) + "]";
  if (cell.access < 0) return where + ": not touched so far";
  const Trace& trace = doc_->trace();
  const Access& a = trace.accesses[static_cast<std::size_t>(cell.access)];
  const Coord2 b = block_coord(trace, a.block), t = thread_coord(trace, a.thread);
  std::string text = where + ": " + (a.store ? "written" : "read") + " by thread (" + std::to_string(t.x) + ", " +
                     std::to_string(t.y) + ") of block (" + std::to_string(b.x) + ", " + std::to_string(b.y) +
                     "), warp " + std::to_string(a.thread / trace.warp_width) + ", lane " +
                     std::to_string(a.thread % trace.warp_width) + "\nline " + std::to_string(a.line);
  for (const auto& site : trace.sites)
    if (site.line == a.line && site.space == a.space && site.store == a.store) text += ": " + site.text;
  return text;
}

}  // namespace threadmap::views
