#pragma once
// A JSON document builder for nlohmann's SAX parsers (text and CBOR alike)
// that stops at a nesting depth: nlohmann's readers recurse once per level,
// so a hostile line or file nested 100 000 deep is refused before the stack
// runs out. Used by the session loader and the worker's protocol.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace threadmap {

class DepthBoundedSax : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

 public:
  DepthBoundedSax(nlohmann::json& result, std::size_t max_depth) : Base(result, false), max_depth_(max_depth) {}
  bool start_object(std::size_t n) { return ++depth_ <= max_depth_ && Base::start_object(n); }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool start_array(std::size_t n) { return ++depth_ <= max_depth_ && Base::start_array(n); }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) {
    message_ = e.what();
    return Base::parse_error(position, token, e);
  }
  bool too_deep() const { return depth_ > max_depth_; }
  const std::string& message() const { return message_; }

 private:
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  std::string message_;
};

}  // namespace threadmap
