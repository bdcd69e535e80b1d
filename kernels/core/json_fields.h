#pragma once
// Reading one JSON object's fields for a typed value: each field absent (its
// default) or of its type; anything else is a ReportError naming the object
// and the field, e.g. `the check reply: "seed" must be a whole number`.
// Numbers read into a narrower type saturate, so what is read writes back
// the same.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/core/report.h"

namespace threadmap {

class JsonFields {
 public:
  // `what` names the object in messages: "the counters reply", "a problem".
  JsonFields(const nlohmann::json& object, std::string what) : object_(object), what_(std::move(what)) {
    if (!object.is_object()) fail("", "a JSON object");
  }
  const std::string& what() const { return what_; }
  const nlohmann::json* find(const char* key) const {
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  std::string text(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v && !v->is_string()) fail(key, "text");
    return v ? v->get<std::string>() : std::string();
  }
  // None where the field is absent.
  std::optional<std::string> maybe_text(const char* key) const {
    if (!find(key)) return std::nullopt;
    return text(key);
  }
  bool flag(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v && !v->is_boolean()) fail(key, "true or false");
    return v && v->get<bool>();
  }
  double number(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v && !v->is_number()) fail(key, "a number");
    return v ? v->get<double>() : 0;
  }
  // None where the field is absent or null.
  std::optional<double> maybe_number(const char* key) const {
    const nlohmann::json* v = find(key);
    if (!v || v->is_null()) return std::nullopt;
    return number(key);
  }
  std::uint64_t count(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v && !v->is_number_unsigned()) fail(key, "a whole number");
    return v ? v->get<std::uint64_t>() : 0;
  }
  std::optional<std::uint64_t> maybe_count(const char* key) const {
    const nlohmann::json* v = find(key);
    if (!v || v->is_null()) return std::nullopt;
    return count(key);
  }
  // A whole number into T, saturated at T's largest.
  template <typename T>
  T narrow(const char* key) const {
    return saturated<T>(count(key));
  }
  std::int64_t integer(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v && !v->is_number_integer()) fail(key, "a whole number");
    return v ? v->get<std::int64_t>() : 0;
  }
  const nlohmann::json& list(const char* key) const {
    static const nlohmann::json empty = nlohmann::json::array();
    const nlohmann::json* v = find(key);
    if (v && !v->is_array()) fail(key, "a list");
    return v ? *v : empty;
  }
  std::vector<std::string> texts(const char* key) const {
    std::vector<std::string> out;
    for (const nlohmann::json& t : list(key)) {
      if (!t.is_string()) fail(key, "a list of text");
      out.push_back(t.get<std::string>());
    }
    return out;
  }
  // A list of whole numbers, each saturated at T's largest.
  template <typename T>
  std::vector<T> counts(const char* key) const {
    std::vector<T> out;
    for (const nlohmann::json& n : list(key)) {
      if (!n.is_number_unsigned()) fail(key, "a list of whole numbers");
      out.push_back(saturated<T>(n.get<std::uint64_t>()));
    }
    return out;
  }
  // The field as an object, or nullptr where it is absent.
  const nlohmann::json* object(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v && !v->is_object()) fail(key, "an object");
    return v;
  }
  [[noreturn]] void fail(const char* key, const char* type) const {
    throw ReportError(what_ + (*key ? std::string(": \"") + key + "\"" : std::string()) + " must be " + type);
  }

 private:
  template <typename T>
  static T saturated(std::uint64_t n) {
    return static_cast<T>(std::min<std::uint64_t>(n, std::numeric_limits<T>::max()));
  }
  const nlohmann::json& object_;
  std::string what_;
};

}  // namespace threadmap
