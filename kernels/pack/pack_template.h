#pragma once
// A working one-kernel pack to start from (docs/packs.md): `threadmap-cli
// pack new NAME` and the window's Exercise > New kernel both write it.
#include <filesystem>
#include <string>

namespace threadmap::pack {

// Writes pack.toml, scale.cl and scale.cu into the new folder `folder`, whose
// last component is the pack's name (1 to 64 lowercase letters, digits, '_'
// or '-'); its one family is `family` ("scale.naive", "scale.grid_stride"),
// or, empty, the pack's name. Throws InvalidRequest when the folder exists,
// the name is not one, or the files cannot be written. Returns the pack's name.
std::string write_pack_template(const std::filesystem::path& folder, const std::string& family = "");

}  // namespace threadmap::pack
