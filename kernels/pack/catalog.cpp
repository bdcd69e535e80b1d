#include "kernels/pack/catalog.h"

#include <algorithm>
#include <deque>
#include <map>

#include "kernels/core/error.h"
#include "kernels/pack/pack_variants.h"

namespace threadmap {

namespace {

struct Entries {
  std::deque<Variant> kept;      // every variant ever listed: never moved nor destroyed
  std::vector<Variant*> listed;  // the catalog now, in order
};

Entries& catalog_entries() {
  static Entries all = [] {
    Entries e;
    for (Variant& v : pack::pack_variants(pack::built_in_manifest())) e.listed.push_back(&e.kept.emplace_back(std::move(v)));
    return e;
  }();
  return all;
}

std::string from(const Variant& other) {
  return other.pack.empty() ? std::string("the built-in catalog") : "pack '" + other.pack + "'";
}

// Throws InvalidRequest when `variants` (one pack's) cannot be listed beside
// the variants listed now but those of the pack `replacing` (its earlier read).
void check_new(const std::vector<Variant>& variants, const std::string& replacing) {
  const std::vector<Variant*>& listed = catalog_entries().listed;
  std::size_t staying = 0;
  for (const Variant* other : listed) staying += replacing.empty() || other->pack != replacing;
  if (staying + variants.size() > kMaxCatalogVariants)
    throw InvalidRequest("the catalog holds at most " + std::to_string(kMaxCatalogVariants) + " variants; these " +
                         std::to_string(variants.size()) + " would make " +
                         std::to_string(staying + variants.size()));
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const Variant& v = variants[i];
    for (std::size_t j = 0; j < i; ++j)
      if (variants[j].id == v.id) throw InvalidRequest(v.id + " is added twice");
    for (const Variant* other : listed) {
      if (!replacing.empty() && other->pack == replacing) continue;
      if (other->id == v.id)
        throw InvalidRequest(v.id + " (pack '" + v.pack + "') is already in the catalog, from " + from(*other));
      if (other->family == v.family)
        throw InvalidRequest("the family '" + v.family + "' (pack '" + v.pack + "') is already in the catalog, from " +
                             from(*other));
    }
  }
}

}  // namespace

CatalogView catalog() {
  const std::vector<Variant*>& listed = catalog_entries().listed;
  return CatalogView(std::vector<const Variant*>(listed.begin(), listed.end()));
}

void add_variants(std::vector<Variant> variants) {
  check_new(variants, {});
  Entries& all = catalog_entries();
  for (Variant& v : variants) all.listed.push_back(&all.kept.emplace_back(std::move(v)));
}

void update_pack_variants(std::vector<Variant> variants) {
  if (variants.empty()) return;
  const std::string pack = variants.front().pack;
  Entries& all = catalog_entries();
  const auto first = std::find_if(all.listed.begin(), all.listed.end(),
                                  [&](const Variant* v) { return !pack.empty() && v->pack == pack; });
  if (first == all.listed.end()) return add_variants(std::move(variants));
  check_new(variants, pack);
  std::map<std::string, Variant*, std::less<>> held;  // the pack's listed variants, by id
  for (Variant* v : all.listed)
    if (v->pack == pack) held[v->id] = v;
  std::vector<Variant*> now;
  for (Variant& v : variants) {
    const auto same = held.find(v.id);
    if (same != held.end()) {
      *same->second = std::move(v);
      now.push_back(same->second);
    } else {
      now.push_back(&all.kept.emplace_back(std::move(v)));
    }
  }
  // The pack's new list where its old one began; the rest as they were.
  const Variant* const began = *first;
  std::vector<Variant*> listed;
  for (Variant* v : all.listed) {
    if (v->pack != pack) listed.push_back(v);
    else if (v == began) listed.insert(listed.end(), now.begin(), now.end());
  }
  all.listed = std::move(listed);
}

const Variant* find_variant(std::string_view id) {
  for (const Variant* v : catalog_entries().listed)  // no copy of the list for a lookup
    if (v->id == id) return v;
  return nullptr;
}

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const Variant& v : catalog())
    if (names.empty() || names.back() != v.family) names.push_back(v.family);
  return names;
}

}  // namespace threadmap
