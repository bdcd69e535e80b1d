#pragma once
// Text ThreadMap prints that it did not write itself (file names, session
// files, device names, a pack's titles, compiler messages about a learner's
// file), made visible instead of acting on the terminal: the CLI's output and
// the window's lines on stderr go through here.
#include <string>
#include <string_view>

namespace threadmap {

enum class Newlines { Escape, Keep };
// text with every control character (C0 but tab, DEL, C1) and every byte that
// is not UTF-8 written as \xHH, and Unicode's bidirectional controls as
// \uHHHH, so that a file cannot clear the screen, retitle the window or make
// a line read as another. Newlines are kept only when asked for (text printed
// line by line); a line's trailing CR (a CRLF file) is dropped then.
std::string printable(std::string_view text, Newlines newlines = Newlines::Escape);

}  // namespace threadmap
