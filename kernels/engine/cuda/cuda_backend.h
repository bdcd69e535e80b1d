#pragma once
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/device.h"

namespace threadmap {

// Every CUDA device the runtime sees, or why there are none (no driver, no
// device, or a build without the CUDA backend). Does not throw.
BackendReport cuda_backend_report();
// index: as listed by cuda_backend_report(). Throws InvalidRequest when there
// is no such device, DeviceError when it cannot be initialised.
std::unique_ptr<Device> open_cuda_device(int index);

// Called (from the thread that runs the work) each time a kernel is compiled
// rather than loaded from the cache, with a line such as "compiled
// transpose_shared<float, 32, 1> for sm_90 with NVRTC 13.0 in 180 ms". The CLI
// prints it; the worker passes it to the GUI's status area.
void set_cuda_compile_notice(std::function<void(const std::string&)> notice);

// The run-time compiler, without any GPU: whether it can be used, its
// version and the architectures it emits code for, or why not.
struct CudaCompilerReport {
  bool available = false;
  std::string version;             // "13.0"
  std::vector<int> architectures;  // 75, 80, 86, ...
  std::string reason;              // when not available
  std::string cache_dir;
};
CudaCompilerReport cuda_compiler_report();

// "sm_86" for a CUDA device ("compute capability 8.6, ..." in its version);
// empty for any other device.
std::string cuda_architecture_of(const DeviceInfo& device);

// What compiling for an architecture ("sm_86", "compute_86", "86") means with
// this NVRTC: "sm_86" when it knows it, else "compute_NN" of the newest it
// knows below (PTX). Throws InvalidRequest for a name that is no architecture
// or one below every architecture NVRTC knows.
std::string cuda_target_for(const std::string& architecture);

struct CudaCompileCheck {
  std::string target;
  bool from_cache = false;
  double compile_ms = 0;
  std::string log;  // warnings, when it compiled
};
// Compiles the kernel a launch names (its ProgramKey with or without
// THREADMAP_TRACE), for `target`, as a device of that architecture would.
// Throws DeviceError with the compiler's message when it does not compile,
// InvalidRequest when the launch names no CUDA kernel.
CudaCompileCheck compile_cuda_kernel(const LaunchCmd& launch, const std::string& target);

inline std::string cuda_architecture_of(const DeviceInfo& device) {
  if (device.dialect != Dialect::Cuda) return {};
  const std::string marker = "compute capability ";
  const auto at = device.version.find(marker);
  int major = 0, minor = 0;
  if (at == std::string::npos || std::sscanf(device.version.c_str() + at + marker.size(), "%d.%d", &major, &minor) != 2)
    return {};
  return "sm_" + std::to_string(major * 10 + minor);
}

}  // namespace threadmap
