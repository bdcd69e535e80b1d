#pragma once
#include <memory>

#include "kernels/devices.h"

namespace threadmap {

// Every CUDA device the runtime sees, or why there are none (no driver, no
// device, or a build without the CUDA backend). Does not throw.
BackendReport cuda_backend_report();
// index: as listed by cuda_backend_report(). Throws InvalidRequest when there
// is no such device, DeviceError when it cannot be initialised.
std::unique_ptr<Device> open_cuda_device(int index);

}  // namespace threadmap
