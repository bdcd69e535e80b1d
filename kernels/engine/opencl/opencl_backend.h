#pragma once
#include <memory>

#include "kernels/core/device.h"

namespace threadmap {

BackendReport opencl_backend_report();
// platform, device: indices as listed by opencl_backend_report().
std::unique_ptr<Device> open_opencl_device(int platform, int device);

}  // namespace threadmap
