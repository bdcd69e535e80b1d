// Launch validation against device limits, before anything runs: against
// device models with given limits, and on the real first OpenCL device.
#include <gtest/gtest.h>

#include "kernels/pack/catalog.h"
#include "kernels/core/error.h"
#include "kernels/engine/runner.h"
#include "tests/test_devices.h"

namespace threadmap {
namespace {

DeviceInfo small_gpu() {
  DeviceInfo d;
  d.backend = "model";
  d.spec = "model:0";
  d.name = "a device model";
  d.global_memory_bytes = 64ull << 20;
  d.max_allocation_bytes = 16ull << 20;
  d.local_memory_bytes = 16 * 1024;
  d.max_group_size = 1024;
  d.max_group_dims = {1024, 1024, 64};
  d.max_grid_groups = {65535, 65535, 65535};
  d.has_double = true;
  return d;
}

std::string validation_error(const std::string& id, const std::vector<std::pair<std::string, std::string>>& sets,
                             const DeviceInfo& d) {
  const Variant* v = find_variant(id);
  const Params p = make_params(v->params, sets, id);
  const Workload w = v->build(*v, p, 1);
  try {
    validate_launch(*v, p, w, d);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

TEST(Validation, DefaultsPassOnTheModel) {
  EXPECT_EQ(validation_error("transpose.coalesced", {{"width", "512"}, {"height", "512"}, {"tile", "32"}}, small_gpu()),
            "");
}

TEST(Validation, BlockOverTheThreadLimitNamesParametersAndLimit) {
  const std::string m = validation_error(
      "matadd.elements", {{"block_x", "64"}, {"block_y", "32"}, {"width", "64"}, {"height", "64"}}, small_gpu());
  EXPECT_NE(m.find("64 x 32 = 2048 threads"), std::string::npos) << m;
  EXPECT_NE(m.find("block_x=64, block_y=32"), std::string::npos) << m;
  EXPECT_NE(m.find("maximum of 1024 threads per block"), std::string::npos) << m;
}

TEST(Validation, SharedMemoryOverTheLimit) {
  // 64 x (64 + 2) doubles = 33792 bytes > 16 KiB.
  const std::string m = validation_error(
      "transpose.coalesced", {{"tile", "64"}, {"pad", "2"}, {"type", "double"}, {"width", "64"}, {"height", "64"}},
      small_gpu());
  EXPECT_NE(m.find("33792 bytes of shared memory per block"), std::string::npos) << m;
  EXPECT_NE(m.find("limit of 16384 bytes"), std::string::npos) << m;
}

TEST(Validation, DynamicSharedMemoryCountsToo) {
  DeviceInfo d = small_gpu();
  d.local_memory_bytes = 2048;  // 32 x 32 ints = 4096 bytes dynamic
  const std::string m = validation_error("smem.setRowReadColDyn", {{"blocks", "1"}}, d);
  EXPECT_NE(m.find("4096 bytes of shared memory"), std::string::npos) << m;
}

TEST(Validation, MemoryAndAllocationLimits) {
  const std::string m = validation_error("matadd.elements", {{"width", "4096"}, {"height", "4096"}}, small_gpu());
  EXPECT_NE(m.find("MiB"), std::string::npos) << m;
  const std::string a = validation_error("transpose.naive", {{"width", "4096"}, {"height", "2048"}}, small_gpu());
  EXPECT_NE(a.find("largest allocation"), std::string::npos) << a;
}

TEST(Validation, GridOverTheLimit) {
  DeviceInfo d = small_gpu();
  d.max_grid_groups = {100, 100, 1};
  const std::string m = validation_error("smem.setRowReadRow", {{"blocks", "101"}}, d);
  EXPECT_NE(m.find("grid dimension 0 of 101 blocks"), std::string::npos) << m;
}

TEST(Validation, DoubleAndShufflesAreUnavailableNotInvalid) {
  DeviceInfo d = small_gpu();
  d.has_double = false;
  d.subgroup_note = "no sub-groups here";
  const Variant* v = find_variant("matadd.rows");
  const Params p = make_params(v->params, {{"type", "double"}, {"width", "8"}, {"height", "8"}}, v->id);
  EXPECT_THROW(validate_launch(*v, p, v->build(*v, p, 1), d), Unavailable);
  const std::string m = validation_error("reduce.warp_shuffle", {{"n", "1000"}}, d);
  EXPECT_NE(m.find("needs sub-group shuffles; no sub-groups here"), std::string::npos) << m;
}

TEST(Validation, RealDeviceRefusesAnOversizedWorkGroupBeforeRunning) {
  auto t = testing::first_device("opencl");
  if (!t.device) GTEST_SKIP() << t.skip_reason;
  const Variant* v = find_variant("matadd.elements");
  const Params p =
      make_params(v->params, {{"block_x", "1024"}, {"block_y", "1024"}, {"width", "16"}, {"height", "16"}}, v->id);
  const RunResult r = run_variant(*t.device, *v, p, {});
  EXPECT_EQ(r.status, RunStatus::Invalid);
  EXPECT_NE(r.error.find("1048576 threads"), std::string::npos) << r.error;
  EXPECT_EQ(r.kernel_ms.samples, 0);  // nothing ran
}

}  // namespace
}  // namespace threadmap
