#pragma once
// What the CLI prints of text it did not write itself (file names, session
// files, device names, compiler messages about a learner's file): JSON that
// is always valid UTF-8, and text whose control characters are made visible
// instead of acting on the terminal.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace threadmap::cli {

// j as JSON text (indent as nlohmann's dump: -1 for one line). Bytes that are
// not UTF-8 (a Latin-1 file name or comment) become U+FFFD instead of
// aborting the output. Every JSON the CLI prints goes through here.
std::string json_text(const nlohmann::json& j, int indent = 2);

enum class Newlines { Escape, Keep };
// text with every control character (C0 but tab, DEL, C1) and every byte that
// is not UTF-8 written as \xHH, so that a file cannot clear the screen or
// retitle the window. Newlines are kept only when asked for (text the CLI
// prints line by line); a line's trailing CR (a CRLF file) is dropped then.
std::string printable(std::string_view text, Newlines newlines = Newlines::Escape);

}  // namespace threadmap::cli
