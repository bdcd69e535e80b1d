#pragma once
// The device a backend's tests run on, or why there is none (the test skips
// with that reason).
#include <memory>
#include <string>

#include "kernels/core/device.h"

namespace threadmap::testing {

struct TestDevice {
  std::unique_ptr<Device> device;
  std::string skip_reason;
};

// backend: "opencl" or "cuda". The first device of that backend.
TestDevice first_device(const std::string& backend);

}  // namespace threadmap::testing
