#pragma once
// A CUDA build as the runtime compiler gives it (engine/cuda/cuda_compiler.h
// makes them): what was asked, and the image with its kernels' names. Plain
// data, so the instrumenter reads a build without the compiler.
#include <string>
#include <utility>
#include <vector>

namespace threadmap::cuda {

// What NVRTC is asked to compile: one source, one or more __global__
// functions named as C++ expressions ("transpose_shared<float, 16, 1>"), for
// one target ("sm_90" for a cubin, "compute_90" for PTX).
struct CompileRequest {
  std::string file_name;  // what messages and #line name: "transpose.cu"
  std::string text;       // the source
  std::vector<std::string> name_expressions;
  std::string target;                // sm_XY or compute_XY
  std::vector<std::string> defines;  // "-D" values: "NAME=1"
  std::vector<std::string> options;  // further NVRTC options: "-rdc=true"
  // What the source may #include: {"kernels/core/trace_format.h", its text}, ...
  std::vector<std::pair<std::string, std::string>> headers;
};

struct CompiledKernel {
  std::string name_expression;
  std::string lowered_name;  // the mangled name the loaded image knows it by
};

struct CompileResult {
  std::string target;
  bool ptx = false;   // PTX (the driver finishes it) rather than a cubin
  std::string image;  // the cubin, or the PTX text
  std::vector<CompiledKernel> kernels;
  std::string log;  // NVRTC's messages (warnings too)
  bool from_cache = false;
  double compile_ms = 0;  // 0 when loaded from the cache
};

}  // namespace threadmap::cuda
