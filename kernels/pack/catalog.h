#pragma once
// The catalog: every kernel variant the program knows, built in (the lessons'
// manifest, kernels/lessons/catalog.toml, read by the packs' loader) and
// added by packs. GUI, CLI and tests read it; nothing else lists the variants.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/variant.h"

namespace threadmap {

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

}  // namespace threadmap
