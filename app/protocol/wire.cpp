#include "app/protocol/wire.h"

#include "kernels/bounded_json.h"

namespace threadmap::protocol {

using nlohmann::json;

std::string id_problem(const RequestId& id) {
  if (id.is_null() || id.is_number() || (id.is_string() && id.get_ref<const std::string&>().size() <= kMaxIdBytes))
    return "";
  return "\"id\" must be a number, a string of at most " + std::to_string(kMaxIdBytes) +
         " bytes, or null; got " + shown(id);
}

std::string excerpt(const std::string& text) {
  return text.size() <= kMaxEcho ? text : text.substr(0, kMaxEcho) + "...";
}

std::string shown(const json& value) {
  return excerpt(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

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
    throw ProtocolError(kBadRequest, "bad JSON: nested deeper than " + std::to_string(kMaxDepth) +
                                         " levels, the limit of a request");
  if (!parsed || sax.is_errored()) throw ProtocolError(kBadRequest, "bad JSON: " + excerpt(sax.message()));
  return j;
}

std::string encode_line(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace threadmap::protocol
