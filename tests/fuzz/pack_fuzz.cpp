// libFuzzer target for pack manifests (kernels/pack/manifest.h) and the
// expression language (kernels/pack/expression.h). The input is a pack.toml;
// every kernel file it names exists and holds a small kernel, every lesson a
// short markdown text with three headings. A manifest is
// loaded or refused with one PackError "pack.toml:LINE:COL: ..." message;
// a loaded one's variants build their workloads at the defaults and at every
// check point, or refuse with InvalidRequest. Inputs of odd length are read
// as the built-in lessons' manifest is (Origin::BuiltIn: C++ workloads named,
// lessons not read); its workload families are the program's own, so only
// the reading is fuzzed there. The input's first line is also parsed as an
// expression and evaluated, or refused with ExpressionError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>
#include <string_view>

#include "kernels/core/error.h"
#include "kernels/pack/expression.h"
#include "kernels/pack/manifest.h"
#include "kernels/pack/pack_variants.h"

namespace {

void expression(std::string_view line) {
  using namespace threadmap::pack;
  static const ExpressionScope scope{{"n", "wg", "width", "type"}, {"type"}};
  try {
    const Expression e = Expression::parse(line, scope);
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, INT64_MAX, INT64_MIN}) {
      try {
        e.evaluate({{"n", n}, {"wg", 64}, {"width", n / 3}, {"type", 1}});
      } catch (const ExpressionError& error) {
        if (error.column() < 1 || static_cast<std::size_t>(error.column()) > line.size() + 1) std::abort();
      }
    }
  } catch (const ExpressionError& error) {
    if (error.column() < 1 || static_cast<std::size_t>(error.column()) > line.size() + 1) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expression(text.substr(0, std::min(text.find('\n'), std::size_t{256})));

  using namespace threadmap;
  static const std::regex one_place(R"(^pack\.toml:[0-9]+:[0-9]+: [^\n]*$)");
  pack::PackManifest manifest;
  const auto origin = size % 2 ? pack::Origin::BuiltIn : pack::Origin::PackFolder;
  try {
    manifest = pack::parse_manifest(
        text, "pack.toml", "fuzz",
        [](const std::string& file) {
          // A lesson (its translations too) has headings of both kinds to name.
          if (file.ends_with(".md"))
            return std::optional<std::string>("# Lesson\n\nText.\n\nPart two\n---\n\n## Part three ##\n// " + file);
          return std::optional<std::string>("__kernel void k(__global int* x) { x[0] = 1; }\n// " + file);
        },
        origin);
  } catch (const pack::PackError& e) {
    if (!std::regex_match(e.what(), one_place)) std::abort();
    return 0;
  }
  for (const Variant& v : pack::pack_variants(manifest)) {
    std::vector<std::vector<std::pair<std::string, std::string>>> points{{}};
    bool built_in = false;
    for (const pack::FamilySpec& f : manifest.families)
      if (f.name == v.family) {
        built_in = !f.workload.empty();
        for (const pack::CheckPoint& c : f.checks) points.push_back(c.for_parameters(v.params));
      }
    if (built_in) continue;
    for (const auto& point : points) {
      try {
        const Workload w = v.build(v, make_params(v.params, point, v.id), 1);
        if (w.launches.empty() || w.reference.launches.empty() || !w.verify) std::abort();
      } catch (const InvalidRequest&) {
      }
    }
  }
  return 0;
}
