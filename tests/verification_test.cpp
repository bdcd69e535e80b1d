// The verifier can fail: a wrong or unwritten output is caught and located.
#include <gtest/gtest.h>

#include <cstring>

#include "kernels/pack/catalog.h"

namespace threadmap {
namespace {

Workload built(const std::string& id, const std::vector<std::pair<std::string, std::string>>& sets) {
  const Variant* v = find_variant(id);
  const Params p = make_params(v->params, sets, id);
  Workload w = v->build(*v, p, 7);
  for (HostBuffer& b : w.buffers) materialize(b);
  return w;
}

TEST(Verification, UntouchedOutputIsPoisonAndFails) {
  Workload w = built("transpose.naive", {{"width", "5"}, {"height", "3"}});
  const Verification v = w.verify(w.buffers);
  EXPECT_FALSE(v.verified);
  EXPECT_EQ(v.mismatches, 15u);
  EXPECT_EQ(v.first.size(), kMaxReportedMismatches);
  EXPECT_EQ(v.first[0].where, "row 0, column 0");
}

TEST(Verification, OneWrongElementIsLocatedByRowAndColumn) {
  Workload w = built("transpose.naive", {{"width", "5"}, {"height", "3"}});
  // Fill the output with the true transpose, then break out[4][2] (width x height = 5 x 3).
  const auto* in = reinterpret_cast<const std::int32_t*>(w.buffers[0].data.data());
  auto* out = reinterpret_cast<std::int32_t*>(w.buffers[1].data.data());
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) out[c * 3 + r] = in[r * 5 + c];
  ASSERT_TRUE(w.verify(w.buffers).verified);
  out[4 * 3 + 2] += 1;
  const Verification v = w.verify(w.buffers);
  EXPECT_FALSE(v.verified);
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.first.at(0).where, "row 4, column 2");
}

TEST(Verification, InputsAreSeededAndNeverConstant) {
  Workload a = built("matadd.elements", {{"width", "64"}, {"height", "64"}, {"type", "float"}});
  Workload b = built("matadd.elements", {{"width", "64"}, {"height", "64"}, {"type", "float"}});
  EXPECT_EQ(a.buffers[0].data, b.buffers[0].data);
  EXPECT_NE(a.buffers[0].data, a.buffers[1].data);
  const auto* x = reinterpret_cast<const float*>(a.buffers[0].data.data());
  int distinct = 0;
  for (int i = 1; i < 64 * 64; ++i) distinct += x[i] != x[0];
  EXPECT_GT(distinct, 4000);
}

TEST(Verification, WrongSumFailsWithinTolerance) {
  Workload w = built("reduce.sequential", {{"n", "1001"}, {"type", "float"}});
  const auto* in = reinterpret_cast<const float*>(w.buffers[0].data.data());
  double sum = 0;
  for (int i = 0; i < 1001; ++i) sum += in[i];
  auto* result = reinterpret_cast<float*>(w.buffers.back().data.data());
  *result = static_cast<float>(sum);
  EXPECT_TRUE(w.verify(w.buffers).verified);
  *result = static_cast<float>(sum + 0.5);
  const Verification v = w.verify(w.buffers);
  EXPECT_FALSE(v.verified);
  EXPECT_EQ(v.first.at(0).where, "sum");
}

TEST(Verification, OddLengthReductionPadsTheInputWithAZero) {
  Workload w = built("reduce.interleaved", {{"n", "7"}, {"type", "int"}});
  ASSERT_EQ(w.buffers[0].data.size(), 8 * sizeof(std::int32_t));
  std::int32_t last = 1;
  std::memcpy(&last, w.buffers[0].data.data() + 7 * sizeof(std::int32_t), sizeof last);
  EXPECT_EQ(last, 0);
}

}  // namespace
}  // namespace threadmap
