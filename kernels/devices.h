#pragma once
// Every backend and device the machine offers, and opening one by spec.
#include <memory>
#include <string>
#include <vector>

#include "kernels/device.h"

namespace threadmap {

struct BackendReport {
  std::string backend;  // "opencl", "cuda"
  bool available = false;
  std::string reason;  // why not, when not available
  std::vector<DeviceInfo> devices;
};

std::vector<BackendReport> list_backends();

// spec: "auto" (first CUDA device, else first OpenCL device), "opencl:P:D",
// "cuda:N". Throws InvalidRequest naming what exists when the spec matches nothing.
std::unique_ptr<Device> open_device(const std::string& spec);

}  // namespace threadmap
