#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

namespace threadmap {

enum class ElementType { Int, Float, Double };

constexpr std::size_t element_size(ElementType t) { return t == ElementType::Double ? 8 : 4; }

constexpr std::string_view element_name(ElementType t) {
  switch (t) {
    case ElementType::Int: return "int";
    case ElementType::Float: return "float";
    case ElementType::Double: return "double";
  }
  return "int";
}

inline std::optional<ElementType> parse_element_type(std::string_view s) {
  if (s == "int") return ElementType::Int;
  if (s == "float") return ElementType::Float;
  if (s == "double") return ElementType::Double;
  return std::nullopt;
}

}  // namespace threadmap
