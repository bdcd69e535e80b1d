#include "kernels/core/trace.h"

#include <algorithm>
#include <set>

#include "kernels/core/sources.h"

namespace threadmap {

namespace {

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return std::string(s.substr(first, last - first + 1));
}

}  // namespace

std::string_view atomic_op_name(AtomicOp op) {
  static constexpr std::string_view kNames[kAtomicOps] = {"",    "add", "sub", "exch", "cas", "min",  "max",
                                                          "and", "or",  "xor", "inc",  "dec", "add 1"};
  const auto k = static_cast<std::size_t>(op);
  return k < std::size(kNames) ? kNames[k] : std::string_view();
}

std::vector<std::uint32_t> default_traced_blocks(const std::array<std::uint32_t, 3>& grid) {
  std::set<std::uint32_t> chosen;
  const std::uint32_t gx = grid[0], gy = grid[1];
  for (std::uint32_t y = 0; y < std::min<std::uint32_t>(gy, 2); ++y)
    for (std::uint32_t x = 0; x < std::min<std::uint32_t>(gx, 2); ++x) chosen.insert(x + gx * y);
  // A one-dimensional grid: its first four blocks.
  for (std::uint32_t b = 0; gy == 1 && b < std::min<std::uint32_t>(gx, 4); ++b) chosen.insert(b);
  return {chosen.begin(), chosen.end()};
}

std::string source_file_for(const Variant& variant, Dialect dialect) {
  return dialect_file(variant.source, dialect);
}

// The trimmed text of a 1-based line of `text` ("" if none).
std::string text_line(std::string_view text, std::uint32_t line) {
  std::size_t begin = 0;
  for (std::uint32_t n = 1; n < line && begin != std::string_view::npos; ++n) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (line == 0 || begin == std::string_view::npos || begin >= text.size()) return {};
  const std::size_t end = text.find('\n', begin);
  return trim(text.substr(begin, end == std::string_view::npos ? text.size() - begin : end - begin));
}

// The same of an embedded kernel source.
std::string source_line(std::string_view source_file, std::uint32_t line) {
  return text_line(embedded_source(source_file), line);
}

}  // namespace threadmap
