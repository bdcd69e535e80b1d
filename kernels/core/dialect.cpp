#include "kernels/core/dialect.h"

namespace threadmap {

namespace {

struct DialectNames {
  std::string_view key, title, extension;
};

DialectNames names(Dialect dialect) {
  switch (dialect) {
    case Dialect::Cuda: return {"cuda", "CUDA", ".cu"};
    case Dialect::OpenCL: return {"opencl", "OpenCL C", ".cl"};
    case Dialect::OpenMP: return {"openmp", "OpenMP C", ".c"};
  }
  return {"opencl", "OpenCL C", ".cl"};  // not reached: the switch names every dialect
}

}  // namespace

std::string_view dialect_key(Dialect dialect) { return names(dialect).key; }
std::string_view dialect_title(Dialect dialect) { return names(dialect).title; }
std::string_view dialect_extension(Dialect dialect) { return names(dialect).extension; }

std::optional<Dialect> dialect_from_key(std::string_view key) {
  for (Dialect d : kDialects)
    if (names(d).key == key) return d;
  return std::nullopt;
}

std::optional<Dialect> dialect_of_file(std::string_view file_name) {
  for (Dialect d : kDialects)
    if (file_name.ends_with(names(d).extension)) return d;
  return std::nullopt;
}

std::string dialect_file(std::string_view stem, Dialect dialect) {
  return std::string(stem) + std::string(names(dialect).extension);
}

namespace {

// Every dialect's `part`, listed "a, b or c".
template <typename Part>
std::string listed(Part part) {
  std::string text;
  for (std::size_t i = 0; i < kDialects.size(); ++i) {
    if (i > 0) text += i + 1 == kDialects.size() ? " or " : ", ";
    text += part(names(kDialects[i]));
  }
  return text;
}

}  // namespace

std::string dialect_extensions_text() {
  return listed([](const DialectNames& n) { return std::string(n.extension) + " (" + std::string(n.title) + ")"; });
}

std::string dialect_keys_text() {
  return listed([](const DialectNames& n) { return std::string(n.key); });
}

}  // namespace threadmap
