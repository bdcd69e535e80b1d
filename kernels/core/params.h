#pragma once
// Kernel parameters: their specification (range, allowed values, meaning) and
// the values of one run. Names are shared by catalog, CLI and GUI:
// width, height, tile, pad, rows, block_x, block_y, wg, n, blocks, type.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/element_type.h"

namespace threadmap {

struct ParamSpec {
  std::string name;
  std::string meaning;  // one line, shown in `list` and as tooltips
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::int64_t default_value = 0;
  std::vector<std::int64_t> allowed;  // when non-empty, the only valid values
  std::vector<std::string> choices;   // when non-empty, a named choice; value = index

  bool is_choice() const { return !choices.empty(); }
  // Every valid value in increasing order when the set is small (sliders), else empty.
  std::vector<std::int64_t> valid_values() const;
  std::string format(std::int64_t value) const;
  std::string describe_range() const;  // "one of 8, 16, 32" / "1 to 16384" / "int, float or double"
};

// One run's parameter values, by name. Choices (type) hold the choice index.
class Params {
 public:
  std::int64_t get(std::string_view name) const;  // throws if absent (a catalog bug)
  bool has(std::string_view name) const;
  void set(const std::string& name, std::int64_t value) { values_[name] = value; }
  ElementType type() const;  // "type", Int when the kernel has none
  const std::map<std::string, std::int64_t, std::less<>>& values() const { return values_; }

 private:
  std::map<std::string, std::int64_t, std::less<>> values_;
};

// Parses "NAME=VALUE" assignments against the specs, starting from defaults.
// Throws InvalidRequest naming the parameter, the value and the limit.
Params make_params(const std::vector<ParamSpec>& specs,
                   const std::vector<std::pair<std::string, std::string>>& assignments, std::string_view kernel_id);
// Parses one value for a spec ("32", "float"), range-checked.
std::int64_t parse_param_value(const ParamSpec& spec, std::string_view text, std::string_view kernel_id);

// A sweep: each axis names a parameter and its values; the points are their
// cartesian product (the first axis changes slowest), each point the axes'
// NAME=VALUE assignments. Every name and value is checked against the specs
// first (InvalidRequest), so a bad value stops the sweep before any run.
// So is the product's size: at most kMaxSweepPoints points (more is days of
// runs, and its list alone would take all memory: a few hundred bytes of
// `--vary` name billions).
inline constexpr std::size_t kMaxSweepPoints = 10000;
struct SweepAxis {
  std::string name;
  std::vector<std::string> values;
};
std::vector<std::vector<std::pair<std::string, std::string>>> sweep_points(const std::vector<ParamSpec>& specs,
                                                                           const std::vector<SweepAxis>& axes,
                                                                           std::string_view kernel_id);

}  // namespace threadmap
