#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "kernels/pack/catalog.h"
#include "kernels/core/learner_source.h"
#include "kernels/core/sources.h"

namespace threadmap {
namespace {

TEST(Catalog, IdsAreUniqueAndNamedFamilyDotVariant) {
  std::set<std::string> ids;
  for (const Variant& v : catalog()) {
    EXPECT_TRUE(ids.insert(v.id).second) << v.id << " appears twice";
    EXPECT_EQ(v.id.find('.'), v.id.find_last_of('.')) << v.id;
    EXPECT_NE(v.id.find('.'), std::string::npos) << v.id;
  }
}

TEST(Catalog, HoldsEveryVariantOfTheDesign) {
  for (const char* id : {"transpose.copy",
                         "transpose.naive",
                         "transpose.shared",
                         "transpose.shared_dynamic",
                         "transpose.coalesced",
                         "matadd.rows",
                         "matadd.cols",
                         "matadd.elements",
                         "reduce.interleaved",
                         "reduce.divergent",
                         "reduce.sequential",
                         "reduce.warp_shuffle",
                         "smem.setRowReadRow",
                         "smem.setColReadCol",
                         "smem.setRowReadCol",
                         "smem.setRowReadColDyn",
                         "smem.setRowReadColPad",
                         "smem.setRowReadColDynPad",
                         "smem.setRowReadColRect",
                         "smem.setRowReadColRectDyn",
                         "smem.setRowReadColRectPad",
                         "smem.setRowReadColRectDynPad"})
    EXPECT_NE(find_variant(id), nullptr) << id;
  EXPECT_EQ(find_variant("transpose.nope"), nullptr);
}

TEST(Catalog, DefaultsLieInTheirRanges) {
  for (const Variant& v : catalog()) {
    for (const ParamSpec& p : v.params) {
      EXPECT_FALSE(p.meaning.empty()) << v.id << " " << p.name;
      if (p.is_choice()) {
        EXPECT_LT(p.default_value, static_cast<std::int64_t>(p.choices.size())) << v.id;
        continue;
      }
      EXPECT_GE(p.default_value, p.min) << v.id << " " << p.name;
      EXPECT_LE(p.default_value, p.max) << v.id << " " << p.name;
      if (!p.allowed.empty())
        EXPECT_NE(std::find(p.allowed.begin(), p.allowed.end(), p.default_value), p.allowed.end())
            << v.id << " " << p.name;
    }
  }
}

TEST(Catalog, EveryKernelIsInItsEmbeddedOpenclSource) {
  for (const Variant& v : catalog()) {
    if (!v.written_in(Dialect::OpenCL)) continue;
    const std::string_view text = embedded_source(v.source + ".cl");
    ASSERT_FALSE(text.empty()) << v.source << ".cl is not embedded";
    EXPECT_NE(text.find("__kernel void " + v.kernel + "("), std::string_view::npos)
        << v.kernel << " not found in " << v.source << ".cl";
  }
}

// Each built-in variant's kernel is in the embedded file of every dialect it
// is written in, and only those name it.
TEST(Catalog, EveryKernelIsInTheFileOfEachDialectItIsWrittenIn) {
  int openmp = 0;
  for (const Variant& v : catalog()) {
    if (!v.pack.empty()) continue;
    ASSERT_FALSE(v.dialects.empty()) << v.id;
    for (Dialect d : kDialects) {
      const std::string_view text = embedded_source(dialect_file(v.source, d));
      const bool there = !text.empty() && names_identifier(text, v.kernel);
      EXPECT_EQ(there, v.written_in(d)) << v.id << " in " << dialect_file(v.source, d);
    }
    openmp += v.written_in(Dialect::OpenMP);
  }
  EXPECT_EQ(openmp, 4);  // the coalescing lesson's two loops and their simd fixes
}

TEST(Catalog, EveryVariantPointsAtALessonAndBuildsAtItsDefaults) {
  for (const Variant& v : catalog()) {
    EXPECT_FALSE(v.lesson.file.empty()) << v.id;
    EXPECT_FALSE(v.lesson.section.empty()) << v.id;
    Params p;
    for (const ParamSpec& s : v.params) p.set(s.name, s.default_value);
    const Workload w = v.build(v, p, 1);
    EXPECT_FALSE(w.launches.empty()) << v.id;
    EXPECT_GT(w.ideal_bytes, 0u) << v.id;
    EXPECT_TRUE(static_cast<bool>(w.verify)) << v.id;
  }
}

TEST(Catalog, FamiliesComeInCatalogOrder) {
  const std::vector<std::string> expected{"transpose", "coalescing", "reduction", "smem-layout"};
  EXPECT_EQ(family_names(), expected);
}

}  // namespace
}  // namespace threadmap
