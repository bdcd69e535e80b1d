#pragma once
// The grid view's drawing model: each global matrix the traced blocks touched
// as cells, each traced block's footprint outlined, and at a playback step
// which cells the current warp-level request reads or writes and which
// earlier requests did. The window is what the traced blocks touched where
// that fits the side asked for; otherwise it follows the data: the current
// block's tile and as many of its neighbours as fit, or the current request.
// An access wider than an element (a 16-byte strip) lights every element.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/analysis/document.h"
#include "viz/views/layout.h"

namespace threadmap::views {

enum class CellState : std::uint8_t {
  Untouched,
  EarlierOtherBlock,  // touched before this step by another traced block
  EarlierRead,        // read before this step by the current block
  EarlierWrite,
  CurrentRead,  // a lane of the current request
  CurrentWrite,
};

struct GridCell {
  CellState state = CellState::Untouched;
  std::int64_t access = -1;  // the last access to it so far (Trace::accesses index)
};

struct BlockOutline {
  std::uint32_t block = 0;
  std::uint64_t row0 = 0, col0 = 0, rows = 0, cols = 0;  // in the window's cells
  bool current = false;
};

struct GridMatrix {
  std::uint8_t buffer = 0;
  std::string name;  // the kernel's parameter name ("a", "trA")
  std::string role;  // input, output, scratch
  MatrixShape shape;
  std::uint64_t row0 = 0, col0 = 0;  // the window's first matrix row and column
  std::uint64_t rows = 0, cols = 0;  // the window's size in cells
  std::vector<GridCell> cells;       // rows * cols, row-major
  std::vector<BlockOutline> outlines;

  const GridCell& at(std::uint64_t row, std::uint64_t col) const { return cells[row * cols + col]; }
};

struct GridFrame {
  std::vector<GridMatrix> matrices;
  bool has_request = false;
  std::uint32_t current_block = 0;
  std::uint64_t global_accesses_so_far = 0;  // thread-level, through this step
  std::uint64_t global_accesses_total = 0;
  std::uint32_t current_cells = 0;  // lanes of the current request inside a window
  std::uint64_t side = 0;           // the most cells a window has a side
};

class GridModel {
 public:
  // Windows larger than this many cells a side are cut (a matrix of a
  // million elements is not a picture).
  static constexpr std::uint64_t kMaxSide = 64;

  explicit GridModel(std::shared_ptr<const analysis::TraceDocument> doc);
  // `side`: the most cells a window may have a side (a small view asks for
  // fewer, bigger cells).
  GridFrame frame(std::size_t step, std::uint64_t side = kMaxSide) const;
  // What a tooltip says about a cell at that step ("" for an untouched one).
  std::string describe(const GridFrame& frame, std::size_t matrix, std::uint64_t row, std::uint64_t col) const;

 private:
  // Matrix rows and columns, inclusive.
  struct Box {
    std::uint64_t row0 = UINT64_MAX, col0 = UINT64_MAX, row1 = 0, col1 = 0;
    void add(std::uint64_t r, std::uint64_t c);
    bool empty() const { return row0 > row1; }
  };
  struct Matrix {
    std::uint8_t buffer = 0;
    std::string name, role;
    MatrixShape shape;
    Box touched;
    std::vector<std::pair<std::uint32_t, Box>> footprints;  // per traced block, by block
  };
  struct Placed {
    std::int32_t matrix = -1;    // -1: shared
    std::uint64_t element = 0;   // the first element the access touches
    std::uint32_t elements = 1;  // how many: access size / element size
  };
  // Marks a cell with access i (of the current request or an earlier one).
  void mark(GridCell& cell, std::size_t i, bool current, std::uint32_t current_block) const;
  GridMatrix window(const Matrix& m, std::uint32_t block, const Box& request, std::uint64_t side) const;
  std::shared_ptr<const analysis::TraceDocument> doc_;
  std::vector<Matrix> matrices_;  // inputs first, then outputs, in the kernel's argument order
  std::vector<Placed> placed_;    // per access
  std::vector<std::uint32_t> request_of_access_;
  std::uint64_t global_total_ = 0;
};

}  // namespace threadmap::views
