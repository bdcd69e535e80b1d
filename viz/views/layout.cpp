#include "viz/views/layout.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace threadmap::views {

std::int64_t param_or(const analysis::TraceDocument& doc, const std::string& name, std::int64_t fallback) {
  const auto& params = traced_params(doc.session);
  const auto it = params.find(name);
  if (it == params.end()) return fallback;
  std::int64_t value = fallback;
  const auto& s = it->second;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() ? value : fallback;
}

namespace {

std::uint32_t element_bytes_of(const analysis::TraceDocument& doc) {
  const auto& params = traced_params(doc.session);
  const auto it = params.find("type");
  const auto type = it == params.end() ? std::nullopt : parse_element_type(it->second);
  return static_cast<std::uint32_t>(element_size(type.value_or(ElementType::Int)));
}

// The names of the global pointer parameters of `kernel` in `source`, in
// order ("" where the signature is not found).
std::vector<std::string> pointer_params(std::string_view source, const std::string& kernel) {
  const std::size_t at = source.find("void " + kernel + "(");
  if (at == std::string_view::npos) return {};
  const std::size_t open = at + 5 + kernel.size();
  const std::size_t close = source.find(')', open);
  if (close == std::string_view::npos) return {};
  std::vector<std::string> out;
  std::string_view rest = source.substr(open + 1, close - open - 1);
  while (!rest.empty()) {
    const std::size_t comma = std::min(rest.find(','), rest.size());
    const std::string_view param = rest.substr(0, comma);
    rest = rest.substr(std::min(comma + 1, rest.size()));
    // OpenCL's __local pointers are shared tiles, not buffers.
    if (param.find('*') == std::string_view::npos || param.find("__local") != std::string_view::npos) continue;
    std::size_t end = param.size();
    while (end > 0 && std::isspace(static_cast<unsigned char>(param[end - 1]))) --end;
    std::size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(param[begin - 1])) || param[begin - 1] == '_'))
      --begin;
    out.emplace_back(param.substr(begin, end - begin));
  }
  return out;
}

}  // namespace

std::string buffer_name(const analysis::TraceDocument& doc, std::uint8_t buffer) {
  const Trace& trace = doc.trace();
  if (buffer >= trace.buffers.size()) return "buffer";
  const TracedBuffer& b = trace.buffers[buffer];
  // The parameter the traced launch passes the buffer as (the recording
  // says which); the workload's name where it passes it as none.
  const auto names = pointer_params(traced_source_text(doc.session), trace.kernel);
  if (b.argument < 0 || b.argument >= static_cast<int>(names.size())) return b.name;
  const std::string& name = names[static_cast<std::size_t>(b.argument)];
  return name.empty() ? b.name : name;
}

MatrixShape matrix_shape(const analysis::TraceDocument& doc, std::uint8_t buffer) {
  const Trace& trace = doc.trace();
  MatrixShape shape;
  if (buffer < trace.buffers.size())
    shape.element_bytes = static_cast<std::uint32_t>(element_size(trace.buffers[buffer].type));
  const std::uint64_t elements = buffer < trace.buffers.size() ? trace.buffers[buffer].bytes / shape.element_bytes : 0;
  // The row length the workload declared; a buffer that is no matrix wraps at a warp.
  const std::uint64_t row = buffer < trace.buffers.size() ? trace.buffers[buffer].row_elements : 0;
  shape.cols = row > 0 ? row : 32;
  shape.rows = (elements + shape.cols - 1) / shape.cols;
  return shape;
}

TileShape tile_shape(const analysis::TraceDocument& doc) {
  const Trace& trace = doc.trace();
  TileShape tile;
  tile.element_bytes = element_bytes_of(doc);
  if (trace.tile) {
    tile.rows = trace.tile->rows;
    tile.cols = trace.tile->cols;
    tile.data_cols = trace.tile->data_cols;
    tile.known = true;
    tile.declaration = "tile[" + std::to_string(tile.rows) + "][" + std::to_string(tile.cols) + "]";
  }
  return tile;
}

}  // namespace threadmap::views
