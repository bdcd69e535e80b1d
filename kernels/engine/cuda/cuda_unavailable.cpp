// The CUDA entry points of a build configured without the CUDA Toolkit: the
// backend is listed, with the reason it cannot be used.
#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/core/error.h"

namespace threadmap {

namespace {

constexpr const char* kNoCudaBackend =
    "this build has no CUDA backend: the CUDA Toolkit (its headers and NVRTC) was not found "
    "when it was configured";

}  // namespace

BackendReport cuda_backend_report() {
  BackendReport report;
  report.backend = "cuda";
  report.reason = kNoCudaBackend;
  return report;
}

std::unique_ptr<Device> open_cuda_device(int index) {
  throw InvalidRequest("cuda:" + std::to_string(index) + ": " + kNoCudaBackend);
}

void set_cuda_compile_notice(std::function<void(const std::string&)>) {}

CudaCompilerReport cuda_compiler_report() {
  CudaCompilerReport report;
  report.reason = kNoCudaBackend;
  return report;
}

std::string cuda_target_for(const std::string&) { throw InvalidRequest(kNoCudaBackend); }

CudaCompileCheck compile_cuda_kernel(const LaunchCmd&, const std::string&) { throw InvalidRequest(kNoCudaBackend); }

}  // namespace threadmap
