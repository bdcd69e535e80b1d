#pragma once
// Helpers the family builders share: seeded inputs, poisoned outputs, typed
// views of byte buffers and exact comparison against a reference.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "kernels/core/variant.h"
#include "kernels/core/element_type.h"
#include "kernels/core/error.h"
#include "kernels/core/workload.h"

namespace threadmap::families {

// Calls f with a value of the C++ type that matches `type`.
template <class F>
decltype(auto) with_type(ElementType type, F&& f) {
  switch (type) {
    case ElementType::Float: return f(float{});
    case ElementType::Double: return f(double{});
    case ElementType::Int: break;
  }
  return f(std::int32_t{});
}

inline std::size_t groups_for(std::int64_t extent, std::int64_t per_group) {
  return static_cast<std::size_t>((extent + per_group - 1) / per_group);
}

template <class T>
std::span<const T> view(const HostBuffer& b) {
  return {reinterpret_cast<const T*>(b.data.data()), b.data.size() / sizeof(T)};
}

template <class T>
std::span<T> view(HostBuffer& b) {
  return {reinterpret_cast<T*>(b.data.data()), b.data.size() / sizeof(T)};
}

// Buffer descriptions; see materialize() in workload.h for their contents.
HostBuffer random_input(std::string name, ElementType type, std::uint64_t count, std::uint64_t seed);
HostBuffer poisoned_output(std::string name, ElementType type, std::uint64_t count);
HostBuffer zero_scratch(std::string name, ElementType type, std::uint64_t count);

// Bit-exact comparison of `actual` against `expected` (same element type);
// row_length > 0 reports mismatches as row/column.
template <class T>
Verification compare_exact(std::span<const T> actual, std::span<const T> expected, std::uint64_t row_length);

std::string format_value(double v);

// Names the parameter relation that fails, e.g. "rows=3 must divide tile=32".
[[noreturn]] void reject(const Variant& v, const std::string& message);

}  // namespace threadmap::families

#include "kernels/families/common_impl.h"
