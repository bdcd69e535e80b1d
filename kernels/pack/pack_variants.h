#pragma once
// A loaded pack's variants as catalog entries: one generic workload builder
// reads the manifest (buffers with their contents, arguments in signature
// order, launches, ideal bytes, require rules) and verifies against the
// family's reference variant, run on the same device (Workload::reference).
#include <string>
#include <vector>

#include "kernels/pack/catalog.h"
#include "kernels/pack/manifest.h"

namespace threadmap::pack {

// The variants of every family, ids FAMILY.VARIANT, in manifest order. A
// built-in family's (`workload`) are the catalog's own: no pack, the
// embedded kernel texts, the named C++ workload.
std::vector<Variant> pack_variants(const PackManifest& manifest);

// The built-in lessons' manifest (kernels/lessons/catalog.toml, compiled in),
// read once: the catalog's first variants. Its name, "lessons", is what
// `pack check` calls it.
const PackManifest& built_in_manifest();

// The packs that come with ThreadMap (resources/packs): installed in
// share/threadmap/packs beside the programs (../share/threadmap/packs from
// the executable's folder), else, for a program of the build tree, the
// source tree's. Empty when neither is there.
std::string bundled_packs_folder();
// What --pack takes: a folder, or the name of a bundled pack ("histogram")
// where no folder of that name is here. Throws PackError for a name that is
// neither, naming where the bundled packs were looked for.
std::string pack_folder(const std::string& folder_or_name);

// Loads each folder and adds its variants to the catalog (add_variants); the
// manifests, in order (their exercises are the caller's to add). Throws
// PackError (a manifest's mistake) or InvalidRequest (an id the catalog
// already has).
std::vector<PackManifest> add_packs(const std::vector<std::string>& folders);

}  // namespace threadmap::pack
