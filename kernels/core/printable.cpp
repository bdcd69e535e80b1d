#include "kernels/core/printable.h"

#include <cstdio>

namespace threadmap {

namespace {

std::string hex_escape(unsigned char byte) {
  char text[5];
  std::snprintf(text, sizeof text, "\\x%02x", byte);
  return text;
}

// Length of the well-formed UTF-8 sequence at text[at], or 0.
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  const std::size_t length = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i)
    if ((byte(at + i) & 0xc0) != 0x80) return 0;
  return length;
}

bool is_c1_control(std::string_view sequence) {
  return sequence.size() == 2 && static_cast<unsigned char>(sequence[0]) == 0xc2 &&
         static_cast<unsigned char>(sequence[1]) < 0xa0;
}

// Unicode's bidirectional controls (U+061C, U+200E, U+200F, U+202A to
// U+202E, U+2066 to U+2069): text shown in another order than it is stored
// ("Trojan Source"), so a shared session cannot make a line read as another.
bool is_bidi_control(std::string_view sequence) {
  if (sequence == "\xd8\x9c") return true;
  if (sequence.size() != 3 || static_cast<unsigned char>(sequence[0]) != 0xe2) return false;
  const auto b1 = static_cast<unsigned char>(sequence[1]), b2 = static_cast<unsigned char>(sequence[2]);
  return (b1 == 0x80 && (b2 == 0x8e || b2 == 0x8f || (b2 >= 0xaa && b2 <= 0xae))) ||
         (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9);
}

// "\u202e": a code point as its escape.
std::string code_point_escape(std::string_view sequence) {
  unsigned int cp = sequence.size() == 2 ? ((sequence[0] & 0x1fu) << 6) | (sequence[1] & 0x3fu)
                                         : ((sequence[0] & 0x0fu) << 12) | ((sequence[1] & 0x3fu) << 6) |
                                               (sequence[2] & 0x3fu);
  char text[8];
  std::snprintf(text, sizeof text, "\\u%04x", cp);
  return text;
}

bool is_crlf_end(std::string_view text, std::size_t at) {
  return text[at] == '\r' && (at + 1 == text.size() || text[at + 1] == '\n');
}

}  // namespace

std::string printable(std::string_view text, Newlines newlines) {
  const bool keep = newlines == Newlines::Keep;
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (c < 0x80) {
      if ((c >= 0x20 && c != 0x7f) || c == '\t' || (keep && c == '\n')) out += text[at];
      else if (!(keep && is_crlf_end(text, at))) out += hex_escape(c);
      ++at;
      continue;
    }
    const std::size_t length = utf8_length(text, at);
    const std::string_view sequence = text.substr(at, length ? length : 1);
    if (length && is_bidi_control(sequence)) out += code_point_escape(sequence);
    else if (length && !is_c1_control(sequence)) out += sequence;
    else
      for (unsigned char b : sequence) out += hex_escape(b);
    at += sequence.size();
  }
  return out;
}

}  // namespace threadmap
