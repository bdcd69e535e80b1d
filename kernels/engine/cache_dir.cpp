#include "kernels/engine/cache_dir.h"

#include <cstdlib>
#include <filesystem>

namespace threadmap {

std::string user_cache_dir(std::string_view kind) {
  const std::string tail = "/threadmap/" + std::string(kind);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + tail;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache" + tail;
  return (std::filesystem::temp_directory_path() / ("threadmap-" + std::string(kind) + "-cache")).string();
}

}  // namespace threadmap
