#include "kernels/core/params.h"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "kernels/core/error.h"

namespace threadmap {

namespace {

constexpr std::size_t kMaxSliderValues = 64;

std::string join_values(const std::vector<std::int64_t>& values) {
  std::ostringstream os;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) os << (i + 1 == values.size() ? " or " : ", ");
    os << values[i];
  }
  return os.str();
}

const ParamSpec* find_spec(const std::vector<ParamSpec>& specs, std::string_view name) {
  for (const ParamSpec& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace

std::vector<std::int64_t> ParamSpec::valid_values() const {
  if (is_choice()) {
    if (!allowed.empty()) return allowed;
    std::vector<std::int64_t> v(choices.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int64_t>(i);
    return v;
  }
  if (!allowed.empty()) return allowed;
  if (max - min + 1 > static_cast<std::int64_t>(kMaxSliderValues)) return {};
  std::vector<std::int64_t> v;
  for (std::int64_t x = min; x <= max; ++x) v.push_back(x);
  return v;
}

std::string ParamSpec::format(std::int64_t value) const {
  if (is_choice() && value >= 0 && value < static_cast<std::int64_t>(choices.size()))
    return choices[static_cast<std::size_t>(value)];
  return std::to_string(value);
}

std::string ParamSpec::describe_range() const {
  if (is_choice()) {
    const std::vector<std::int64_t> offered = valid_values();
    std::string s;
    for (std::size_t i = 0; i < offered.size(); ++i) {
      if (i) s += (i + 1 == offered.size() ? " or " : ", ");
      s += choices[static_cast<std::size_t>(offered[i])];
    }
    return s;
  }
  if (!allowed.empty()) return "one of " + join_values(allowed);
  return std::to_string(min) + " to " + std::to_string(max);
}

std::int64_t Params::get(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw InvalidRequest("internal: parameter '" + std::string(name) + "' is not set");
  return it->second;
}

bool Params::has(std::string_view name) const { return values_.find(name) != values_.end(); }

ElementType Params::type() const {
  auto it = values_.find("type");
  return it == values_.end() ? ElementType::Int : static_cast<ElementType>(it->second);
}

std::int64_t parse_param_value(const ParamSpec& spec, std::string_view text, std::string_view kernel_id) {
  const std::string where = std::string(kernel_id) + ": " + spec.name + "=" + std::string(text);
  if (spec.is_choice()) {
    for (std::size_t i = 0; i < spec.choices.size(); ++i)
      if (spec.choices[i] == text) return static_cast<std::int64_t>(i);
    throw InvalidRequest(where + " is not valid: " + spec.name + " must be " + spec.describe_range());
  }
  std::int64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, value);
  if (text.empty() || ec == std::errc::invalid_argument || end != last)
    throw InvalidRequest(where + " is not a whole number: " + spec.name + " must be " + spec.describe_range());
  const bool in_range = ec != std::errc::result_out_of_range && value >= spec.min && value <= spec.max;
  if (!spec.allowed.empty() &&
      (!in_range || std::find(spec.allowed.begin(), spec.allowed.end(), value) == spec.allowed.end()))
    throw InvalidRequest(where + " is not allowed: " + spec.name + " must be " + spec.describe_range());
  if (!in_range) throw InvalidRequest(where + " is out of range: " + spec.name + " must be " + spec.describe_range());
  return value;
}

Params make_params(const std::vector<ParamSpec>& specs,
                   const std::vector<std::pair<std::string, std::string>>& assignments, std::string_view kernel_id) {
  Params p;
  for (const ParamSpec& s : specs) p.set(s.name, s.default_value);
  for (const auto& [name, text] : assignments) {
    const ParamSpec* spec = find_spec(specs, name);
    if (!spec) {
      std::string names;
      for (const ParamSpec& s : specs) names += (names.empty() ? "" : ", ") + s.name;
      throw InvalidRequest(std::string(kernel_id) + " has no parameter '" + name + "'; its parameters are: " + names);
    }
    p.set(spec->name, parse_param_value(*spec, text, kernel_id));
  }
  return p;
}

std::vector<std::vector<std::pair<std::string, std::string>>> sweep_points(const std::vector<ParamSpec>& specs,
                                                                           const std::vector<SweepAxis>& axes,
                                                                           std::string_view kernel_id) {
  std::size_t count = 1;
  std::string sizes;
  for (const SweepAxis& axis : axes) {
    sizes += (sizes.empty() ? "" : " x ") + std::to_string(axis.values.size()) + " " + axis.name;
    // No overflow: count <= kMaxSweepPoints before each step.
    if (axis.values.size() > kMaxSweepPoints || (count *= axis.values.size()) > kMaxSweepPoints)
      throw InvalidRequest(std::string(kernel_id) + ": the sweep (" + sizes + " values) has more than " +
                           std::to_string(kMaxSweepPoints) + " points; vary fewer values");
  }
  std::vector<std::vector<std::pair<std::string, std::string>>> points{{}};
  for (const SweepAxis& axis : axes) {
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& p) { return p.name == axis.name; });
    if (spec == specs.end())
      throw InvalidRequest(std::string(kernel_id) + " has no parameter '" + axis.name + "' to vary");
    if (axis.values.empty())
      throw InvalidRequest(std::string(kernel_id) + ": no values to vary " + axis.name + " over");
    for (const std::string& value : axis.values) parse_param_value(*spec, value, kernel_id);
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& point : points)
      for (const std::string& value : axis.values) {
        next.push_back(point);
        next.back().emplace_back(axis.name, value);
      }
    points = std::move(next);
  }
  return points;
}

}  // namespace threadmap
