#pragma once
// Where the engine keeps what it compiled, for a user: one folder per
// compiler under $XDG_CACHE_HOME/threadmap, else ~/.cache/threadmap, else
// the temporary folder.
#include <string>
#include <string_view>

namespace threadmap {

// "cuda" -> $XDG_CACHE_HOME/threadmap/cuda (or ~/.cache/threadmap/cuda).
std::string user_cache_dir(std::string_view kind);

}  // namespace threadmap
