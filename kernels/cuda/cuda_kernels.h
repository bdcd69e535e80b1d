#pragma once
// Finding the compiled CUDA kernel for a launch. The OpenCL backend compiles
// a program per set of defines at run time; CUDA has every instantiation the
// catalog can ask for compiled in (see kernel_table.h), so a ProgramKey and
// a kernel name select one of them.
#include <string>
#include <string_view>

#include "kernels/cuda/kernel_table.h"
#include "kernels/device.h"

namespace threadmap {

// The __global__ function (what cudaLaunchKernel takes), or nullptr when that
// kernel was not instantiated for the key's type and template values.
// key.source is the stem ("transpose"); an extension (".cl", ".cu") is ignored.
// Defines a kernel does not take (PAD for transpose_naive) are ignored too, as
// the OpenCL build ignores an unused -D.
const void* find_cuda_kernel(const ProgramKey& key, const std::string& kernel_name);

// The same lookup, with what the backend checks the launch against.
const cuda_kernels::KernelEntry* find_cuda_kernel_entry(const ProgramKey& key,
                                                        std::string_view kernel_name);

// "transpose_shared<float, TILE=16, PAD=1>": a launch's kernel as the messages name it.
std::string describe_cuda_request(const ProgramKey& key, std::string_view kernel_name);

// What exists for a kernel, e.g. "transpose_shared<int|float|double, TILE in
// {4, 8, 16, 32}, PAD in {0, 1, 2}>"; empty when no kernel has that name.
std::string describe_cuda_instantiations(std::string_view source, std::string_view kernel_name);

}  // namespace threadmap
