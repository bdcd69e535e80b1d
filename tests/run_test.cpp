// Every catalog variant runs verified on every backend present (a variant not
// written in a backend's dialect skips there): at small
// defaults, at sizes that are not multiples of any tile, at 1 x 1, and with
// each element type. One table drives all of it; a missing backend skips with
// its reason.
#include <gtest/gtest.h>

#include <map>

#include "kernels/pack/catalog.h"
#include "kernels/engine/openmp/openmp_backend.h"
#include "kernels/engine/runner.h"
#include "tests/test_devices.h"

namespace threadmap {
namespace {

struct Case {
  std::string kernel;
  std::vector<std::pair<std::string, std::string>> sets;
  std::string label;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  auto add = [&](const Variant& v, std::vector<std::pair<std::string, std::string>> sets) {
    std::string label = v.id;
    for (const auto& [name, value] : sets) label += "_" + name + value;
    out.push_back({v.id, std::move(sets), label});
  };
  for (const Variant& v : catalog()) {
    if (v.param("width")) {
      for (auto [w, h] : {std::pair{"256", "256"}, {"1000", "777"}, {"1", "1"}, {"33", "65"}})
        add(v, {{"width", w}, {"height", h}});
      for (const char* t : {"float", "double"}) add(v, {{"width", "33"}, {"height", "65"}, {"type", t}});
    } else if (v.param("n")) {
      for (const char* n : {"1", "2", "2145", "777000", "1048579"}) add(v, {{"n", n}});
      for (const char* t : {"int", "double"}) add(v, {{"n", "2145"}, {"type", t}});
      add(v, {{"n", "100000"}, {"wg", "32"}});
      add(v, {{"n", "100000"}, {"wg", "1024"}});
    } else {
      for (const char* blocks : {"1", "5"}) add(v, {{"blocks", blocks}});
      for (const char* t : {"float", "double"}) add(v, {{"blocks", "3"}, {"type", t}});
      const bool square = v.id.find("Rect") == std::string::npos && v.id.find("ReadCol") != std::string::npos;
      if (square) {
        add(v, {{"blocks", "2"}, {"block_x", "8"}, {"block_y", "8"}});
        add(v, {{"blocks", "2"}, {"block_x", "16"}, {"block_y", "16"}});
      } else {
        add(v, {{"blocks", "2"}, {"block_x", "16"}, {"block_y", "8"}});
        add(v, {{"blocks", "2"}, {"block_x", "8"}, {"block_y", "32"}});
      }
    }
  }
  return out;
}

Device* device_for(const std::string& backend, std::string& skip_reason) {
  static std::map<std::string, testing::TestDevice> devices;
  auto it = devices.find(backend);
  if (it == devices.end()) it = devices.emplace(backend, testing::first_device(backend)).first;
  skip_reason = it->second.skip_reason;
  return it->second.device.get();
}

class EveryVariant : public ::testing::TestWithParam<std::tuple<std::string, Case>> {};

TEST_P(EveryVariant, RunsVerified) {
  const auto& [backend, c] = GetParam();
  std::string skip;
  Device* device = device_for(backend, skip);
  if (!device) GTEST_SKIP() << skip;
  const Variant* v = find_variant(c.kernel);
  ASSERT_NE(v, nullptr);
  const Params p = make_params(v->params, c.sets, v->id);
  RunOptions o;
  o.warmup = 0;
  o.repetitions = 1;
  o.end_to_end_repetitions = 1;
  const RunResult r = run_variant(*device, *v, p, o);
  if (r.status == RunStatus::Unavailable && !v->written_in(device->info().dialect)) GTEST_SKIP() << r.error;
  if (r.status == RunStatus::Unavailable && backend == "openmp" && !openmp_compiler_problem().empty())
    GTEST_SKIP() << r.error;  // a kernel the cache does not hold, and no compiler here
  if (r.status == RunStatus::Unavailable) {
    // Only the shuffle variant may be unavailable, and only where shuffles are.
    ASSERT_EQ(v->availability, Availability::NeedsSubgroupShuffle) << r.error;
    ASSERT_FALSE(device->info().has_subgroup_shuffle) << r.error;
    GTEST_SKIP() << r.error;
  }
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  std::string detail;
  for (const Mismatch& m : r.verification.first)
    detail += m.where + ": expected " + m.expected + ", got " + m.actual + "; ";
  EXPECT_TRUE(r.verification.verified) << r.verification.mismatches << " mismatches: " << detail;
  EXPECT_GT(r.kernel_ms.median, 0.0);
  EXPECT_GT(r.bandwidth_gbps, 0.0);
}

std::string case_name(const ::testing::TestParamInfo<EveryVariant::ParamType>& info) {
  std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param).label;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Backends, EveryVariant,
                         ::testing::Combine(::testing::Values("opencl", "cuda", "openmp"), ::testing::ValuesIn(cases())),
                         case_name);

}  // namespace
}  // namespace threadmap

#if THREADMAP_HAVE_CUDA
#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/core/error.h"

namespace {

// A learner's .cu whose kernel has another name: NVRTC is never asked, and
// the message names the catalog's kernel and its parameters. No GPU needed.
TEST(LearnerCudaSource, WithoutTheKernelsNameSaysWhichNameItNeeds) {
  if (!threadmap::cuda_compiler_report().available) GTEST_SKIP() << "no NVRTC";
  const threadmap::Variant& v = *threadmap::find_variant("smem.setRowReadCol");
  threadmap::Workload w = v.build(v, threadmap::make_params(v.params, {}, v.id), 1);
  threadmap::use_source(w, v, "__global__ void mine(int* out_all) { out_all[0] = 0; }\n", "mine.cu");
  try {
    threadmap::compile_cuda_kernel(w.launches.front(), "sm_86");
    FAIL() << "compiled a file without setRowReadCol";
  } catch (const threadmap::InvalidRequest& e) {
    EXPECT_NE(std::string(e.what()).find("mine.cu has no kernel named setRowReadCol (the catalog's kernel is "
                                         "setRowReadCol(ELEM* out_all))"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
#endif
