#include "app/protocol/wire.h"

#include <array>
#include <cstdint>
#include <optional>

#include "kernels/core/bounded_json.h"

namespace threadmap::protocol {

using nlohmann::json;

std::string id_problem(const RequestId& id) {
  if (id.is_null() || id.is_number() || (id.is_string() && id.get_ref<const std::string&>().size() <= kMaxIdBytes))
    return "";
  return "\"id\" must be a number, a string of at most " + std::to_string(kMaxIdBytes) + " bytes, or null; got " +
         shown(id);
}

std::string excerpt(const std::string& text) {
  return text.size() <= kMaxEcho ? text : text.substr(0, kMaxEcho) + "...";
}

std::string shown(const json& value) { return excerpt(value.dump(-1, ' ', false, json::error_handler_t::replace)); }

json parse_line(const std::string& line) {
  json j;
  DepthBoundedSax sax(j, kMaxDepth);
  bool parsed = false;
  try {
    parsed = json::sax_parse(line, &sax, json::input_format_t::json, true);
  } catch (const json::exception& e) {
    throw ProtocolError(kBadRequest, "bad JSON: " + excerpt(e.what()));
  }
  if (sax.too_deep())
    throw ProtocolError(
        kBadRequest, "bad JSON: nested deeper than " + std::to_string(kMaxDepth) + " levels, the limit of a request");
  if (!parsed || sax.is_errored()) throw ProtocolError(kBadRequest, "bad JSON: " + excerpt(sax.message()));
  return j;
}

std::string encode_line(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string base64_encode(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (static_cast<unsigned char>(bytes[i]) << 16) |
                            (static_cast<unsigned char>(bytes[i + 1]) << 8) | static_cast<unsigned char>(bytes[i + 2]);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], kAlphabet[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const std::uint32_t v =
        (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

namespace {

// Each byte's 6-bit value in base64, or -1: one lookup a character.
constexpr std::array<std::int8_t, 256> base64_values() {
  std::array<std::int8_t, 256> v{};
  for (auto& x : v) x = -1;
  for (int c = 0; c < 26; ++c) {
    v['A' + c] = static_cast<std::int8_t>(c);
    v['a' + c] = static_cast<std::int8_t>(26 + c);
  }
  for (int c = 0; c < 10; ++c) v['0' + c] = static_cast<std::int8_t>(52 + c);
  v['+'] = 62;
  v['/'] = 63;
  return v;
}
constexpr auto kBase64Values = base64_values();

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  const std::size_t pad = text.empty() ? 0 : (text.back() == '=') + (text.size() > 1 && text[text.size() - 2] == '=');
  if (pad == 1 && text[text.size() - 2] == '=') return std::nullopt;
  std::string out(text.size() / 4 * 3 - pad, '\0');
  std::size_t o = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const std::size_t digits = last ? 4 - pad : 4;
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < digits; ++k) {
      const int d = kBase64Values[static_cast<unsigned char>(text[i + k])];
      if (d < 0) return std::nullopt;
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    v <<= 6 * (4 - digits);
    out[o++] = static_cast<char>(v >> 16);
    if (digits > 2) out[o++] = static_cast<char>((v >> 8) & 255);
    if (digits > 3) out[o++] = static_cast<char>(v & 255);
  }
  return out;
}

}  // namespace threadmap::protocol
