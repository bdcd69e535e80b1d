#pragma once
// A loaded pack's variants as catalog entries: one generic workload builder
// reads the manifest (buffers with their contents, arguments in signature
// order, launches, ideal bytes, require rules) and verifies against the
// family's reference variant, run on the same device (Workload::reference).
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/pack/manifest.h"

namespace threadmap::pack {

// The variants of every family, ids FAMILY.VARIANT, in manifest order.
std::vector<Variant> pack_variants(const PackManifest& manifest);

// Loads each folder and adds its variants to the catalog (add_variants).
// Throws PackError (a manifest's mistake) or InvalidRequest (an id the
// catalog already has).
void add_packs(const std::vector<std::string>& folders);

}  // namespace threadmap::pack
