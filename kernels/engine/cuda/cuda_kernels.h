#pragma once
// The CUDA kernels as the host sees them. Each .cu file is plain device code,
// compiled at run time by NVRTC (cuda_compiler.h) for the device present; a
// launch's ProgramKey and kernel name pick one template instantiation, named
// as NVRTC takes it ("transpose_shared<float, 16, 1>"). The table below says,
// per kernel, which compile-time values its template takes after the element
// type (the OpenCL build's -D options) and what its parameters are, because
// cudaLaunchKernel trusts whatever argument array it is given.
//
// Plain C++: no CUDA headers.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/engine/cuda/cuda_compiler.h"
#include "kernels/core/device.h"

namespace threadmap::cuda_kernels {

enum class SharedMemory { Static, Dynamic };

struct KernelSpec {
  std::string_view source;  // "transpose": the stem shared with transpose.cl
  std::string_view kernel;
  // The template's int parameters, in order, as the defines that carry them.
  std::vector<std::string_view> template_values;
  // One letter per parameter of the timed build, in order: 'b' a device
  // pointer (a BufferArg), 'i' an int. The traced build takes one more 'b',
  // the trace buffer.
  std::string_view parameters;
  // Dynamic kernels declare extern __shared__ and need a LocalArrayArg; the
  // others must not be given one.
  SharedMemory shared = SharedMemory::Static;
  // Launched with the largest shared-memory carveout of L1 (set once, before
  // the first launch): for kernels whose blocks per SM the default split
  // would limit by shared memory rather than by threads.
  bool prefer_shared = false;
  bool catalog = true;  // false: test-only (diagnostic.cu)
};

// Every CUDA kernel, catalog and diagnostic.
const std::vector<KernelSpec>& all_kernels();

// The kernel of that source stem and name; an extension (".cl", ".cu") on the
// source is ignored. nullptr when there is none.
const KernelSpec* find_kernel(std::string_view source, std::string_view kernel);

// The trace pass the key asks for (THREADMAP_TRACE=pass, as in OpenCL):
// kAccessPass, kClockPass, or 0 for the timed build. CUDA compiles the same
// text for each and instruments the trace passes' PTX (ptx_instrument.h).
int trace_pass(const ProgramKey& key);

// "transpose_shared<float, 16, 1>". Defines the kernel does not take (PAD
// for transpose_naive) are ignored, as the OpenCL build ignores an unused
// -D. Throws InvalidRequest when one it takes is missing.
std::string name_expression(const KernelSpec& spec, const ProgramKey& key);

// "transpose_shared<float, TILE=16, PAD=1>": a launch's kernel as messages name it.
std::string describe_request(const ProgramKey& key, std::string_view kernel);

// What NVRTC is given for a key: the embedded source and the name
// expressions. A key with a learner's text (ProgramKey::text) compiles that
// text instead.
cuda::CompileRequest compile_request(std::string_view source, std::vector<std::string> name_expressions,
                                     std::string target, const ProgramKey* key = nullptr);

}  // namespace threadmap::cuda_kernels
