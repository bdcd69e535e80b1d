#include "viz/views/layout.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace threadmap::views {

std::int64_t param_or(const analysis::TraceDocument& doc, const std::string& name,
                      std::int64_t fallback) {
  const auto& params = traced_params(doc.session);
  const auto it = params.find(name);
  if (it == params.end()) return fallback;
  std::int64_t value = fallback;
  const auto& s = it->second;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() ? value : fallback;
}

namespace {

std::string family_of(const std::string& kernel_id) {
  return kernel_id.substr(0, kernel_id.find('.'));
}

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
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(param[begin - 1])) || param[begin - 1] == '_')) --begin;
    out.emplace_back(param.substr(begin, end - begin));
  }
  return out;
}

}  // namespace

std::string buffer_name(const analysis::TraceDocument& doc, std::uint8_t buffer) {
  const Trace& trace = doc.trace();
  const std::string fallback = buffer < trace.buffers.size() ? trace.buffers[buffer].name : "buffer";
  // A reduction's launch k reads buffer k (the input or the last partials)
  // and writes buffer k + 1; every other family passes its buffers in order.
  std::int64_t position = buffer;
  if (family_of(trace.kernel_id) == "reduce") position -= trace.launch;
  const auto names = pointer_params(traced_source_text(doc.session), trace.kernel);
  if (position < 0 || position >= static_cast<std::int64_t>(names.size())) return fallback;
  const std::string& name = names[static_cast<std::size_t>(position)];
  return name.empty() ? fallback : name;
}

MatrixShape matrix_shape(const analysis::TraceDocument& doc, std::uint8_t buffer) {
  const Trace& trace = doc.trace();
  MatrixShape shape;
  if (buffer < trace.buffers.size())
    shape.element_bytes = static_cast<std::uint32_t>(element_size(trace.buffers[buffer].type));
  const std::uint64_t elements =
      buffer < trace.buffers.size() ? trace.buffers[buffer].bytes / shape.element_bytes : 0;
  const std::string family = family_of(trace.kernel_id);
  const std::int64_t width = param_or(doc, "width", 0);
  const std::int64_t height = param_or(doc, "height", 0);
  std::int64_t cols = 32;
  if (family == "transpose" && width > 0 && height > 0) {
    // The input is height x width; a transpose writes width x height.
    const bool output = buffer < trace.buffers.size() && trace.buffers[buffer].role == "output";
    cols = output && trace.kernel_id != "transpose.copy" ? height : width;
  } else if (family == "matadd" && width > 0) {
    cols = width;
  } else if (family == "smem") {
    cols = param_or(doc, "block_x", 32);  // each block writes its BX x BY slice row by row
  }
  shape.cols = static_cast<std::uint64_t>(cols > 0 ? cols : 32);
  shape.rows = (elements + shape.cols - 1) / shape.cols;
  return shape;
}

TileShape tile_shape(const analysis::TraceDocument& doc) {
  const Trace& trace = doc.trace();
  TileShape tile;
  tile.element_bytes = element_bytes_of(doc);
  const std::string family = family_of(trace.kernel_id);
  const auto pad = static_cast<std::uint32_t>(param_or(doc, "pad", 0));
  if (family == "transpose") {
    const auto t = static_cast<std::uint32_t>(param_or(doc, "tile", trace.block[0]));
    // transpose.shared_dynamic sizes its tile T*T at launch: no pad.
    const std::uint32_t p = trace.kernel_id == "transpose.shared_dynamic" ? 0 : pad;
    tile = {t, t + p, t, tile.element_bytes, "", true};
  } else if (family == "smem") {
    const auto bx = static_cast<std::uint32_t>(param_or(doc, "block_x", trace.block[0]));
    const auto by = static_cast<std::uint32_t>(param_or(doc, "block_y", trace.block[1]));
    // setColReadCol declares tile[BX][BY]; the others tile[BY][BX + PAD].
    if (trace.kernel_id == "smem.setColReadCol")
      tile = {bx, by, by, tile.element_bytes, "", true};
    else
      tile = {by, bx + pad, bx, tile.element_bytes, "", true};
  }
  if (tile.known)
    tile.declaration = "tile[" + std::to_string(tile.rows) + "][" + std::to_string(tile.cols) + "]";
  return tile;
}

}  // namespace threadmap::views
