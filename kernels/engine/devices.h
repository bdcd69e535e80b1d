#pragma once
// Every backend and device the machine offers, and opening one by spec.
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/device.h"

namespace threadmap {


std::vector<BackendReport> list_backends();

// spec: "auto" (first CUDA device, else first OpenCL device), "opencl:P:D",
// "cuda:N". Throws InvalidRequest naming what exists when the spec matches nothing.
std::unique_ptr<Device> open_device(const std::string& spec);

}  // namespace threadmap
