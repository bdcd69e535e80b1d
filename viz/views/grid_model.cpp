#include "viz/views/grid_model.h"

#include <algorithm>
#include <limits>
#include <map>

#include "viz/views/timeline.h"

namespace threadmap::views {

namespace {

struct Box {
  std::uint64_t row0 = std::numeric_limits<std::uint64_t>::max(), col0 = row0;
  std::uint64_t row1 = 0, col1 = 0;  // inclusive
  void add(std::uint64_t r, std::uint64_t c) {
    row0 = std::min(row0, r), col0 = std::min(col0, c);
    row1 = std::max(row1, r), col1 = std::max(col1, c);
  }
  bool empty() const { return row0 > row1; }
};

}  // namespace

GridModel::GridModel(std::shared_ptr<const analysis::TraceDocument> doc) : doc_(std::move(doc)) {
  const Trace& trace = doc_->trace();
  const auto& accesses = trace.accesses;
  placed_.assign(accesses.size(), {});

  std::map<std::uint8_t, Box> touched;
  std::map<std::pair<std::uint8_t, std::uint32_t>, Box> footprints;
  std::map<std::uint8_t, MatrixShape> shapes;
  for (const auto& a : accesses) {
    if (a.space != Space::Global) continue;
    ++global_total_;
    auto [it, fresh] = shapes.try_emplace(a.buffer);
    if (fresh) it->second = matrix_shape(*doc_, a.buffer);
    const std::uint64_t element = a.offset / it->second.element_bytes;
    const std::uint64_t r = element / it->second.cols, c = element % it->second.cols;
    touched[a.buffer].add(r, c);
    footprints[{a.buffer, a.block}].add(r, c);
  }

  // Inputs first, then outputs, in the kernel's argument order.
  for (const auto& [buffer, box] : touched) {
    GridMatrix m;
    m.buffer = buffer;
    m.name = buffer < trace.buffers.size() ? trace.buffers[buffer].name : "buffer";
    m.role = buffer < trace.buffers.size() ? trace.buffers[buffer].role : "";
    m.shape = shapes[buffer];
    // The window starts on a block-sized boundary so outlines line up with it.
    const std::uint64_t align_r = std::max<std::uint64_t>(1, trace.block[1]);
    const std::uint64_t align_c = std::max<std::uint64_t>(1, trace.block[0]);
    m.row0 = box.row0 / align_r * align_r;
    m.col0 = box.col0 / align_c * align_c;
    m.rows = std::min(box.row1 + 1 - m.row0, kMaxSide);
    m.cols = std::min(box.col1 + 1 - m.col0, kMaxSide);
    m.cells.assign(m.rows * m.cols, {});
    for (const auto& [key, fp] : footprints) {
      if (key.first != buffer || fp.row0 >= m.row0 + m.rows || fp.col0 >= m.col0 + m.cols) continue;
      BlockOutline o;
      o.block = key.second;
      o.row0 = fp.row0 - m.row0;
      o.col0 = fp.col0 - m.col0;
      o.rows = std::min(fp.row1 + 1 - m.row0, m.rows) - o.row0;
      o.cols = std::min(fp.col1 + 1 - m.col0, m.cols) - o.col0;
      m.outlines.push_back(o);
    }
    empty_.push_back(std::move(m));
  }
  std::stable_sort(empty_.begin(), empty_.end(), [](const GridMatrix& a, const GridMatrix& b) {
    return (a.role == "input") > (b.role == "input");
  });

  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const auto& a = accesses[i];
    if (a.space != Space::Global) continue;
    for (std::size_t m = 0; m < empty_.size(); ++m) {
      const GridMatrix& g = empty_[m];
      if (g.buffer != a.buffer) continue;
      const std::uint64_t element = a.offset / g.shape.element_bytes;
      const std::uint64_t r = element / g.shape.cols, c = element % g.shape.cols;
      if (r < g.row0 || c < g.col0 || r >= g.row0 + g.rows || c >= g.col0 + g.cols) break;
      placed_[i] = {static_cast<std::int32_t>(m), (r - g.row0) * g.cols + (c - g.col0)};
      break;
    }
  }

  const auto& analysis = doc_->analysis;
  request_of_access_.assign(accesses.size(), std::numeric_limits<std::uint32_t>::max());
  for (std::uint32_t q = 0; q < analysis.requests.size(); ++q)
    for (const std::uint32_t a : analysis.lanes_of(analysis.requests[q])) request_of_access_[a] = q;
}

GridFrame GridModel::frame(std::size_t step) const {
  GridFrame f;
  f.matrices = empty_;
  f.global_accesses_total = global_total_;
  const auto& analysis = doc_->analysis;
  const auto& accesses = doc_->trace().accesses;
  if (analysis.requests.empty()) return f;
  step = std::min(step, analysis.requests.size() - 1);
  f.has_request = true;
  f.current_block = analysis.requests[step].block;
  for (auto& m : f.matrices)
    for (auto& o : m.outlines) o.current = o.block == f.current_block;

  // Requests in device order: every access of requests [0, step] is marked,
  // later marks over earlier ones, the current request's lanes on top.
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const std::uint32_t q = request_of_access_[i];
    if (q > step || accesses[i].space != Space::Global) continue;
    ++f.global_accesses_so_far;
    if (placed_[i].matrix < 0) continue;
    const auto& a = accesses[i];
    GridCell& cell = f.matrices[placed_[i].matrix].cells[placed_[i].cell];
    const bool current = q == step;
    if (!current && (cell.state == CellState::CurrentRead || cell.state == CellState::CurrentWrite))
      continue;
    if (!current && cell.access >= 0 && request_of_access_[cell.access] > q) continue;
    cell.access = static_cast<std::int64_t>(i);
    if (current) {
      cell.state = a.store ? CellState::CurrentWrite : CellState::CurrentRead;
      ++f.current_cells;
    } else if (a.block != f.current_block) {
      cell.state = CellState::EarlierOtherBlock;
    } else {
      cell.state = a.store ? CellState::EarlierWrite : CellState::EarlierRead;
    }
  }
  return f;
}

std::string GridModel::describe(const GridFrame& frame, std::size_t matrix, std::uint64_t row,
                                std::uint64_t col) const {
  if (matrix >= frame.matrices.size()) return "";
  const GridMatrix& m = frame.matrices[matrix];
  if (row >= m.rows || col >= m.cols) return "";
  const GridCell& cell = m.at(row, col);
  const std::string where = m.name + "[" + std::to_string(m.row0 + row) + "][" +
                            std::to_string(m.col0 + col) + "]";
  if (cell.access < 0) return where + ": not touched so far";
  const Trace& trace = doc_->trace();
  const Access& a = trace.accesses[static_cast<std::size_t>(cell.access)];
  const Coord2 b = block_coord(trace, a.block), t = thread_coord(trace, a.thread);
  std::string text = where + ": " + (a.store ? "written" : "read") + " by thread (" +
                     std::to_string(t.x) + ", " + std::to_string(t.y) + ") of block (" +
                     std::to_string(b.x) + ", " + std::to_string(b.y) + "), warp " +
                     std::to_string(a.thread / trace.warp_width) + ", lane " +
                     std::to_string(a.thread % trace.warp_width) + "\nline " +
                     std::to_string(a.line);
  for (const auto& site : trace.sites)
    if (site.line == a.line && site.space == a.space && site.store == a.store)
      text += ": " + site.text;
  return text;
}

}  // namespace threadmap::views
