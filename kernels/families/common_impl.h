#pragma once
#include <sstream>

namespace threadmap::families {

template <class T>
std::string format_typed(T v) {
  std::ostringstream os;
  os.precision(9);
  os << v;
  return os.str();
}

template <class T>
Verification compare_exact(std::span<const T> actual, std::span<const T> expected, std::uint64_t row_length) {
  Verification v;
  v.method = "bit-exact against the CPU reference";
  v.checked = expected.size();
  if (actual.size() == expected.size() && std::memcmp(actual.data(), expected.data(), expected.size_bytes()) == 0) {
    v.verified = true;
    return v;
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const bool same = i < actual.size() && std::memcmp(&actual[i], &expected[i], sizeof(T)) == 0;
    if (same) continue;
    ++v.mismatches;
    if (v.first.size() < kMaxReportedMismatches) {
      std::string where = row_length
                              ? "row " + std::to_string(i / row_length) + ", column " + std::to_string(i % row_length)
                              : "element " + std::to_string(i);
      v.first.push_back({where, format_typed(expected[i]), i < actual.size() ? format_typed(actual[i]) : "missing"});
    }
  }
  v.verified = v.mismatches == 0;
  return v;
}

}  // namespace threadmap::families
