// The counting rules on their own, for request shapes the lessons draw:
// conflict-free rows, broadcast, strided columns, 8-byte words, sectors.
#include <gtest/gtest.h>

#include <numeric>

#include "viz/analysis/analysis.h"

namespace threadmap::analysis {
namespace {

struct Lanes {
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint16_t> lanes;
};

// 32 lanes, lane l at byte offset f(l).
template <class F>
Lanes warp(F offset_of, int count = 32) {
  Lanes w;
  for (int l = 0; l < count; ++l) {
    w.offsets.push_back(offset_of(l));
    w.lanes.push_back(static_cast<std::uint16_t>(l));
  }
  return w;
}

std::uint32_t wavefronts(const Lanes& w, std::uint32_t size) {
  return shared_wavefronts(w.offsets, w.lanes, size, DeviceModel{});
}

TEST(SharedWavefronts, FollowTheBankRule) {
  EXPECT_EQ(wavefronts(warp([](int l) { return 4 * l; }), 4), 1u) << "a row: 32 banks once";
  EXPECT_EQ(wavefronts(warp([](int) { return 64; }), 4), 1u) << "one word: broadcast";
  EXPECT_EQ(wavefronts(warp([](int l) { return 8 * l; }), 4), 2u) << "stride 2 words";
  EXPECT_EQ(wavefronts(warp([](int l) { return 128 * l; }), 4), 32u) << "a column of a 32-wide tile";
  EXPECT_EQ(wavefronts(warp([](int l) { return 132 * l; }), 4), 1u) << "a column of a 33-wide tile";
  EXPECT_EQ(wavefronts(warp([](int l) { return 4 * (l / 2); }), 4), 1u) << "pairs of lanes share words";
  EXPECT_EQ(wavefronts(warp([](int l) { return 8 * l; }), 8), 2u) << "8-byte row: two halves of 128 bytes";
  EXPECT_EQ(wavefronts(warp([](int l) { return 256 * l; }), 8), 32u) << "8-byte column of a 32-wide tile";
  EXPECT_EQ(wavefronts(warp([](int l) { return 4 * l; }, 16), 4), 1u) << "half a warp active";
  EXPECT_EQ(wavefronts(warp([](int l) { return 16 * l; }), 16), 4u) << "16-byte row: quarter warps";
}

TEST(GlobalSectors, CountDistinct32ByteSectors) {
  const DeviceModel m;
  auto sectors = [&](const Lanes& w, std::uint32_t size) { return global_sectors(w.offsets, size, m); };
  EXPECT_EQ(sectors(warp([](int l) { return 4 * l; }), 4), 4u);
  EXPECT_EQ(sectors(warp([](int l) { return 4 * l + 4; }), 4), 5u) << "misaligned by one int";
  EXPECT_EQ(sectors(warp([](int l) { return 8192 * l; }), 4), 32u) << "one row each";
  EXPECT_EQ(sectors(warp([](int l) { return 8 * l; }), 8), 8u);
  EXPECT_EQ(sectors(warp([](int) { return 0; }), 4), 1u);
  EXPECT_EQ(sectors(warp([](int l) { return 30 + 0 * l; }), 4), 2u) << "an int across a sector edge";
}

}  // namespace
}  // namespace threadmap::analysis
