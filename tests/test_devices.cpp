#include "tests/test_devices.h"

#include "kernels/engine/devices.h"

namespace threadmap::testing {

TestDevice first_device(const std::string& backend) {
  TestDevice t;
  for (const BackendReport& r : list_backends()) {
    if (r.backend != backend) continue;
    if (!r.available) {
      t.skip_reason = backend + " unavailable: " + r.reason;
      return t;
    }
    t.device = open_device(r.devices.front().spec);
    return t;
  }
  t.skip_reason = "no backend named " + backend;
  return t;
}

}  // namespace threadmap::testing
