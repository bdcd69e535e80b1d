#pragma once
// The catalog: every kernel variant, as data. GUI, CLI and tests read it;
// nothing else lists the variants.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kernels/device.h"
#include "kernels/params.h"
#include "kernels/workload.h"

namespace threadmap {

struct LessonRef {
  std::string file;     // lesson file under resources/lessons (embedded as :/lessons/FILE)
  std::string section;  // heading in that lesson
  std::string language; // "en", "pt", "es"
};

class Variant;
// Builds the work for one run. Checks parameter relations the ranges cannot
// express (rows divides tile, square blocks) and throws InvalidRequest.
using WorkloadBuilder = Workload (*)(const Variant&, const Params&, std::uint64_t seed);

enum class Availability { Always, NeedsSubgroupShuffle };

class Variant {
 public:
  std::string id;          // family.variant
  std::string family;      // transpose, coalescing, reduction, smem-layout
  std::string title;
  std::string summary;     // what a learner should see, in one or two lines
  LessonRef lesson;
  std::string source;      // kernel source stem: "transpose" -> transpose.cl / transpose.cu
  std::string kernel;      // kernel function name in that source
  std::vector<ParamSpec> params;
  WorkloadBuilder build = nullptr;
  Availability availability = Availability::Always;
  bool lesson_original = true;  // false for corrected / fast versions not in the lessons

  const ParamSpec* param(std::string_view name) const;
};

std::span<const Variant> catalog();
const Variant* find_variant(std::string_view id);
std::vector<std::string> family_names();  // in catalog order

}  // namespace threadmap
