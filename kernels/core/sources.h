#pragma once
// Kernel sources compiled into the binary (see cmake/Embed.cmake).
#include <string_view>

namespace threadmap {

// The text of an embedded source by file name ("transpose.cl",
// "transpose.cu"); empty when there is none.
std::string_view embedded_source(std::string_view file_name);

}  // namespace threadmap
