#pragma once
// A kernel variant, as data: its family, parameters, lesson and the builder
// of its work. The catalog (pack/catalog.h) lists them.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/dialect.h"
#include "kernels/core/device.h"
#include "kernels/core/params.h"
#include "kernels/core/workload.h"

namespace threadmap {

struct LessonRef {
  std::string file;      // lesson file under resources/lessons (embedded as :/lessons/FILE), or in a pack's folder
  std::string section;   // heading in that lesson
  std::string language;  // the language it was written in: "en", "pt_BR" (or "pt"), "es"
  // A pack's lesson: its text in each language it brings ("en", "pt_BR",
  // "es"), read when the pack was loaded. Null for the built-in lessons.
  std::shared_ptr<const std::map<std::string, std::string>> texts;
};

class Variant;
// Builds the work for one run. Checks parameter relations the ranges cannot
// express (rows divides tile, square blocks) and throws InvalidRequest.
using WorkloadBuilder = std::function<Workload(const Variant&, const Params&, std::uint64_t seed)>;

enum class Availability { Always, NeedsSubgroupShuffle };

class Variant {
 public:
  std::string id;      // family.variant
  std::string family;  // transpose, coalescing, reduction, smem-layout
  std::string title;
  std::string summary;  // what a learner should see, in one or two lines
  LessonRef lesson;
  std::string source;  // kernel source stem: "transpose" -> transpose.cl / transpose.cu
  std::string kernel;  // kernel function name in that source
  std::vector<ParamSpec> params;
  WorkloadBuilder build = nullptr;
  Availability availability = Availability::Always;
  bool lesson_original = true;  // false for corrected / fast versions not in the lessons
  // A variant from a pack (kernels/pack): the pack's name and its kernel
  // texts, read from the pack's files when it was loaded. The built-in
  // variants' texts are embedded; theirs are empty.
  struct KernelText {
    std::string file;  // as compiler messages and traces name it
    std::string text;
  };
  std::string pack;
  std::map<Dialect, KernelText> texts;  // by dialect: the files its pack has
  // The dialects its kernel is written in: its family's files (the manifest's
  // opencl, cuda and openmp keys), less those its `dialects` leaves out.
  // Empty: not restricted (a variant made by hand, as tests do).
  std::vector<Dialect> dialects;

  bool written_in(Dialect dialect) const;

  const ParamSpec* param(std::string_view name) const;
};

// The kernel text a pack variant brings in `dialect`; nullptr for a built-in
// variant or a dialect its pack has no file for.
const Variant::KernelText* pack_text(const Variant& v, Dialect dialect);

}  // namespace threadmap
