#pragma once
// How the kernel lays out its data, as the trace carries it: the row length
// of each global matrix (so a byte offset becomes a cell) and the shared tile
// as the kernel declares it (so a word gets its tile element or its padding).
// Whoever builds the workload declares them (a family builder, a pack's
// manifest: Workload::tile, HostBuffer::row_elements); the recording keeps
// them in the trace, and a session recorded before that gets them from its
// parameters when it is read (fill_older_layouts, kernels/core/session.h).
#include <cstdint>
#include <string>

#include "kernels/analysis/document.h"

namespace threadmap::views {

struct MatrixShape {
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;  // elements per row
  std::uint32_t element_bytes = 4;
};

// The matrix a global buffer holds (1-D buffers wrap at 32 elements, a warp).
MatrixShape matrix_shape(const analysis::TraceDocument& doc, std::uint8_t buffer);

struct TileShape {
  std::uint32_t rows = 0;       // first index of the declaration
  std::uint32_t cols = 0;       // second index, padding included
  std::uint32_t data_cols = 0;  // the columns the kernel stores into
  std::uint32_t element_bytes = 4;
  std::string declaration;  // "tile[32][33]", as the learner reads it
  bool known = false;       // a 2-D tile; otherwise a 1-D array of words
};

TileShape tile_shape(const analysis::TraceDocument& doc);

// What the kernel calls a global buffer: the pointer parameter the traced
// launch passes it as ("a", "trA"; TracedBuffer::argument), read from the
// signature of the traced source; the workload's name ("in", "out") where
// the launch passes it as none or the signature does not say.
std::string buffer_name(const analysis::TraceDocument& doc, std::uint8_t buffer);

// A session parameter as a number, or `fallback` when the run had none.
std::int64_t param_or(const analysis::TraceDocument& doc, const std::string& name, std::int64_t fallback);

}  // namespace threadmap::views
