// The CUDA entry points of a build configured without a CUDA compiler: the
// backend is listed, with the reason it cannot be used.
#include "kernels/cuda/cuda_backend.h"
#include "kernels/error.h"

namespace threadmap {

namespace {

constexpr const char* kNoCudaBackend =
    "this build has no CUDA backend: no CUDA compiler was found when it was configured";

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

}  // namespace threadmap
