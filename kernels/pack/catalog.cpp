#include "kernels/pack/catalog.h"

#include "kernels/core/error.h"
#include "kernels/pack/pack_variants.h"

namespace threadmap {

namespace {

std::vector<Variant>& catalog_entries() {
  static std::vector<Variant> all = [] {
    std::vector<Variant> built_in = pack::pack_variants(pack::built_in_manifest());
    std::vector<Variant> v;
    v.reserve(kMaxCatalogVariants);  // never reallocated: spans and pointers stay valid
    for (Variant& entry : built_in) v.push_back(std::move(entry));
    return v;
  }();
  return all;
}

}  // namespace

std::span<const Variant> catalog() { return catalog_entries(); }

void add_variants(std::vector<Variant> variants) {
  std::vector<Variant>& all = catalog_entries();
  if (all.size() + variants.size() > kMaxCatalogVariants)
    throw InvalidRequest("the catalog holds at most " + std::to_string(kMaxCatalogVariants) + " variants; these " +
                         std::to_string(variants.size()) + " would make " +
                         std::to_string(all.size() + variants.size()));
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const Variant& v = variants[i];
    auto from = [](const Variant& other) {
      return other.pack.empty() ? std::string("the built-in catalog") : "pack '" + other.pack + "'";
    };
    if (const Variant* other = find_variant(v.id))
      throw InvalidRequest(v.id + " (pack '" + v.pack + "') is already in the catalog, from " + from(*other));
    for (std::size_t j = 0; j < i; ++j)
      if (variants[j].id == v.id) throw InvalidRequest(v.id + " is added twice");
    for (const Variant& other : all)
      if (other.family == v.family)
        throw InvalidRequest("the family '" + v.family + "' (pack '" + v.pack + "') is already in the catalog, from " +
                             from(other));
  }
  for (Variant& v : variants) all.push_back(std::move(v));
}

void update_pack_variants(std::vector<Variant> variants) {
  if (variants.empty()) return;
  const std::string pack = variants.front().pack;
  std::vector<Variant*> held;
  for (Variant& v : catalog_entries())
    if (!pack.empty() && v.pack == pack) held.push_back(&v);
  if (held.empty()) return add_variants(std::move(variants));
  const bool same = held.size() == variants.size() &&
                    std::equal(held.begin(), held.end(), variants.begin(),
                               [](const Variant* a, const Variant& b) {
                                 return a->id == b.id && a->pack == b.pack && a->family == b.family;
                               });
  if (!same)
    throw InvalidRequest("pack '" + pack +
                         "': its variants are not the ones read before (added, removed or renamed); "
                         "start ThreadMap again to read them");
  for (std::size_t i = 0; i < held.size(); ++i) *held[i] = std::move(variants[i]);
}

const Variant* find_variant(std::string_view id) {
  for (const Variant& v : catalog())
    if (v.id == id) return &v;
  return nullptr;
}

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const Variant& v : catalog())
    if (names.empty() || names.back() != v.family) names.push_back(v.family);
  return names;
}

}  // namespace threadmap
