// An error raised inside a running CUDA kernel (diagnostic.cu's __trap) is
// reported with its CUDA name, marked sticky, and later work on that device
// is refused with a message instead of crashing. It runs in a fresh child
// process (a death test, "threadsafe" style) because a sticky error spoils
// the CUDA context of the process it happens in.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "kernels/core/error.h"
#include "tests/test_devices.h"

namespace threadmap {
namespace {

int trap_and_report() {
  auto td = testing::first_device("cuda");
  if (!td.device) return 3;
  Device& d = *td.device;
  auto out = d.allocate(1024 * sizeof(int));
  LaunchCmd trap;
  trap.program = {"diagnostic", ElementType::Int, {}};
  trap.kernel = "trap_after_launch";
  trap.groups = {1, 1, 1};
  trap.group_size = {32, 1, 1};
  trap.args = {BufferArg{0}};
  try {
    d.execute({trap}, {out.get()});
    std::cerr << "the trapping kernel reported no error\n";
    return 1;
  } catch (const DeviceError& e) {
    const std::string message = e.what();
    std::cerr << "first: " << message << '\n';
    if (message.find("cudaError") == std::string::npos || message.find("sticky") == std::string::npos) return 1;
  }
  try {
    d.allocate(64);
    std::cerr << "the spoilt device accepted more work\n";
    return 1;
  } catch (const DeviceError& e) {
    std::cerr << "then: " << e.what() << '\n';
    if (std::string(e.what()).find("unusable after an earlier error") == std::string::npos) return 1;
  }
  return 0;
}

TEST(CudaFault, ErrorInsideAKernelIsNamedStickyAndSurvived) {
  if (auto td = testing::first_device("cuda"); !td.device) GTEST_SKIP() << td.skip_reason;
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(trap_and_report()), ::testing::ExitedWithCode(0), "first: .*cudaError");
}

}  // namespace
}  // namespace threadmap
