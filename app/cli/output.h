#pragma once
// What the CLI prints of text it did not write itself (file names, session
// files, device names, compiler messages about a learner's file): JSON that
// is always valid UTF-8, and text whose control characters are made visible
// instead of acting on the terminal (kernels/core/printable.h).
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kernels/core/printable.h"  // printable(): what the CLI prints of others' text

namespace threadmap::cli {

// j as JSON text (indent as nlohmann's dump: -1 for one line). Bytes that are
// not UTF-8 (a Latin-1 file name or comment) become U+FFFD instead of
// aborting the output. Every JSON the CLI prints goes through here.
std::string json_text(const nlohmann::json& j, int indent = 2);

}  // namespace threadmap::cli
