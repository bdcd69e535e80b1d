#pragma once
// The languages a kernel is written in. A dialect names its file extension,
// the key manifests and the worker protocol use for it, and its name in
// messages; which compiler, instrumenter and clock pass serve it is the
// device's business (DeviceInfo::dialect, kernel_clocks). Adding a dialect is
// adding it here: every table below is exhaustive, and kDialects lists them
// all for code that walks them.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace threadmap {

// In the order of their keys: maps by dialect list them as manifests sort them.
// OpenMP: a C function holding a target region (`#pragma omp target ...`),
// compiled by an OpenMP offload compiler (engine/openmp).
enum class Dialect { Cuda, OpenCL, OpenMP };

inline constexpr std::array kDialects{Dialect::Cuda, Dialect::OpenCL, Dialect::OpenMP};

// "opencl", "cuda", "openmp": its key in manifests (opencl = "FILE.cl"), exercise
// tables, JSON and the worker protocol.
std::string_view dialect_key(Dialect dialect);
// "OpenCL C", "CUDA", "OpenMP C": as messages name it.
std::string_view dialect_title(Dialect dialect);
// ".cl", ".cu", ".c".
std::string_view dialect_extension(Dialect dialect);

// The dialect a key names; nullopt for none.
std::optional<Dialect> dialect_from_key(std::string_view key);
// The dialect a kernel file is written in, by its extension: nullopt for a
// name with none of theirs.
std::optional<Dialect> dialect_of_file(std::string_view file_name);
// "STEM.cl", "STEM.cu".
std::string dialect_file(std::string_view stem, Dialect dialect);
// ".cu (CUDA), .cl (OpenCL C) or .c (OpenMP C)": every extension, for messages.
std::string dialect_extensions_text();
// "cuda, opencl or openmp": every key, for messages.
std::string dialect_keys_text();

}  // namespace threadmap
