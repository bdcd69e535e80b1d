#pragma once
// The catalog: every kernel variant, as data. GUI, CLI and tests read it;
// nothing else lists the variants.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernels/device.h"
#include "kernels/params.h"
#include "kernels/workload.h"

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
  KernelText opencl_text, cuda_text;

  const ParamSpec* param(std::string_view name) const;
};

// The built-in variants, then those added by add_variants in order. A span
// or pointer taken earlier stays valid when variants are added (the storage
// never moves); it does not see the new ones.
std::span<const Variant> catalog();
const Variant* find_variant(std::string_view id);
std::vector<std::string> family_names();  // in catalog order

// At most this many variants, built-in and added.
inline constexpr std::size_t kMaxCatalogVariants = 4096;
// Adds variants (a pack's, kernels/pack/pack_variants.h) after the ones
// there. Throws InvalidRequest, adding none, when an id or family is already
// in the catalog or the catalog would be full. Call it before any other
// thread reads the catalog (the CLI does, at start-up).
void add_variants(std::vector<Variant> variants);
// A pack's variants read again (its files edited): where the catalog holds
// that pack, each of its variants is replaced in place by the new one of the
// same id, so pointers to them stay valid and show the new text; else they
// are added. Throws InvalidRequest, changing nothing, when the pack's
// variants are not the same ids in the same order (added, removed, renamed:
// a restart reads those). Not while another thread reads the catalog.
void update_pack_variants(std::vector<Variant> variants);

// The kernel text a pack variant brings for a backend ("opencl", "cuda");
// nullptr for a built-in variant or a dialect its pack has no file for.
const Variant::KernelText* pack_text(const Variant& v, std::string_view backend);

}  // namespace threadmap
