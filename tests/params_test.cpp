#include <gtest/gtest.h>

#include "kernels/pack/catalog.h"
#include "kernels/core/error.h"

namespace threadmap {
namespace {

std::string rejection(const std::string& id, const std::string& name, const std::string& value) {
  const Variant* v = find_variant(id);
  EXPECT_NE(v, nullptr);
  try {
    make_params(v->params, {{name, value}}, id);
  } catch (const InvalidRequest& e) {
    return e.what();
  }
  return {};
}

struct BadValue {
  const char* kernel;
  const char* name;
  const char* value;
  const char* message_part;
};

class RejectedValues : public ::testing::TestWithParam<BadValue> {};

TEST_P(RejectedValues, NameTheParameterTheValueAndTheLimit) {
  const BadValue& c = GetParam();
  const std::string message = rejection(c.kernel, c.name, c.value);
  ASSERT_FALSE(message.empty()) << c.name << "=" << c.value << " was accepted";
  EXPECT_NE(message.find(std::string(c.name) + "=" + c.value), std::string::npos) << message;
  EXPECT_NE(message.find(c.message_part), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(Params, RejectedValues,
                         ::testing::Values(BadValue{"transpose.shared", "tile", "0", "one of 4, 8, 16 or 32"},
                                           BadValue{"transpose.shared", "tile", "1", "one of 4, 8, 16 or 32"},
                                           BadValue{"transpose.shared", "tile", "33", "one of 4, 8, 16 or 32"},
                                           BadValue{"transpose.shared", "tile", "64", "one of 4, 8, 16 or 32"},
                                           BadValue{"transpose.coalesced", "tile", "33", "one of 8, 16, 32 or 64"},
                                           BadValue{"transpose.naive", "width", "0", "1 to 32768"},
                                           BadValue{"transpose.naive", "height", "-5", "1 to 32768"},
                                           BadValue{"transpose.naive", "width", "abc", "not a whole number"},
                                           BadValue{"transpose.naive", "width", "12x", "not a whole number"},
                                           BadValue{"transpose.naive", "width", "", "not a whole number"},
                                           BadValue{"transpose.naive", "width", "99999999999999999999", "out of range"},
                                           BadValue{"reduce.sequential", "n", "0", "1 to"},
                                           BadValue{"reduce.sequential", "wg", "100", "one of 32, 64"},
                                           BadValue{"matadd.rows", "type", "half", "int, float or double"},
                                           BadValue{"smem.setRowReadColPad", "pad", "3", "one of 0, 1 or 2"}));

TEST(Params, UnknownNameListsTheKernelsParameters) {
  const std::string message = rejection("transpose.naive", "pad", "1");
  EXPECT_NE(message.find("transpose.naive has no parameter 'pad'"), std::string::npos) << message;
  EXPECT_NE(message.find("width, height, tile, type"), std::string::npos) << message;
}

TEST(Params, ValidAssignmentsOverrideDefaults) {
  const Variant* v = find_variant("transpose.coalesced");
  const Params p = make_params(v->params, {{"tile", "64"}, {"strips", "8"}, {"type", "double"}}, v->id);
  EXPECT_EQ(p.get("tile"), 64);
  EXPECT_EQ(p.get("strips"), 8);
  EXPECT_EQ(p.get("pad"), v->param("pad")->default_value);
  EXPECT_EQ(p.type(), ElementType::Double);
}

TEST(Params, SliderValuesAreTheAllowedSet) {
  const Variant* v = find_variant("transpose.shared");
  EXPECT_EQ(v->param("tile")->valid_values(), (std::vector<std::int64_t>{4, 8, 16, 32}));
  EXPECT_TRUE(v->param("width")->valid_values().empty());  // a spin box, not a slider
}

TEST(Params, RelationsBetweenParametersAreCheckedWhenBuilding) {
  const Variant* v = find_variant("transpose.coalesced");
  const Params p = make_params(v->params, {{"tile", "8"}, {"strips", "16"}}, v->id);
  try {
    v->build(*v, p, 1);
    FAIL() << "strips=16 > tile=8 was accepted";
  } catch (const InvalidRequest& e) {
    EXPECT_NE(std::string(e.what()).find("strips=16 exceeds tile=8"), std::string::npos) << e.what();
  }
  const Variant* square = find_variant("smem.setRowReadCol");
  const Params rect = make_params(square->params, {{"block_y", "16"}}, square->id);
  EXPECT_THROW(square->build(*square, rect, 1), InvalidRequest);
}

// Found by the params fuzz target (tests/fuzz): a few hundred bytes of
// `--vary` (or a serve "sweep") named billions of points, and building their
// list took all memory. The size is checked before any point is made.
TEST(Params, SweepsOverTheirLimitAreRefusedBeforeTheyAreMade) {
  const Variant* v = find_variant("transpose.naive");
  const SweepAxis width{"width", std::vector<std::string>(100, "64")};
  const SweepAxis height{"height", std::vector<std::string>(100, "64")};
  EXPECT_EQ(sweep_points(v->params, {width, height}, v->id).size(), kMaxSweepPoints);
  const SweepAxis tile{"tile", {"4", "8", "16", "32"}};
  try {
    sweep_points(v->params, {width, height, tile, tile, tile, tile, tile, tile, tile}, v->id);
    FAIL() << "a sweep of 10000 x 4^7 points was made";
  } catch (const InvalidRequest& e) {
    EXPECT_NE(std::string(e.what()).find("100 width x 100 height x 4 tile values) has more than 10000 points"),
              std::string::npos)
        << e.what();
  }
  const SweepAxis huge{"width", std::vector<std::string>(kMaxSweepPoints + 1, "64")};
  EXPECT_THROW(sweep_points(v->params, {huge}, v->id), InvalidRequest);
}

}  // namespace
}  // namespace threadmap
