// libFuzzer target for parameter assignments: `--set NAME=VALUE` strings
// (app/cli parse_assignments), their values against a catalog variant's
// ParamSpecs (kernels/core/params.h make_params, parse_param_value) and sweeps
// (sweep_points). The first byte picks the variant; each following line is a
// --set, or, starting with '~', a sweep axis "~NAME=V1,V2,...". Bad input
// (malformed, or a NAME given twice) gives InvalidRequest; what is accepted
// is in range and reads back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "kernels/pack/catalog.h"
#include "kernels/core/error.h"
#include "kernels/core/params.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using threadmap::InvalidRequest;
using threadmap::ParamSpec;

bool valid(const ParamSpec& spec, std::int64_t value) {
  if (spec.is_choice()) return value >= 0 && value < static_cast<std::int64_t>(spec.choices.size());
  if (!spec.allowed.empty())
    for (std::int64_t a : spec.allowed)
      if (a == value) return value >= spec.min && value <= spec.max;
  return spec.allowed.empty() && value >= spec.min && value <= spec.max;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto variants = threadmap::catalog();
  const threadmap::Variant& v = variants[data[0] % variants.size()];
  std::vector<std::string> sets;
  std::vector<threadmap::SweepAxis> axes;
  for (const std::string& line : threadmap::fuzz::lines_of(data + 1, size - 1)) {
    if (!line.starts_with('~')) {
      sets.push_back(line);
      continue;
    }
    const std::size_t eq = line.find('=');
    threadmap::SweepAxis axis{line.substr(1, eq == std::string::npos ? std::string::npos : eq - 1), {}};
    if (eq != std::string::npos) {
      std::stringstream values(line.substr(eq + 1));
      for (std::string item; std::getline(values, item, ',');) axis.values.push_back(item);
    }
    axes.push_back(std::move(axis));
  }

  std::vector<std::pair<std::string, std::string>> assignments;
  bool parsed = true;
  try {
    assignments = threadmap::cli::parse_assignments(sets);
  } catch (const InvalidRequest&) {
    parsed = false;
    bool malformed = false, repeated = false;  // a NAME given twice is refused too
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const std::string& s = sets[i];
      malformed |= s.find('=') == std::string::npos || s.starts_with('=');
      for (std::size_t j = 0; j < i; ++j)
        repeated |= s.find('=') != std::string::npos && sets[j].find('=') != std::string::npos &&
                    s.substr(0, s.find('=')) == sets[j].substr(0, sets[j].find('='));
    }
    if (!malformed && !repeated) std::abort();  // refused a well-formed NAME=VALUE
  }
  if (parsed) {
    if (assignments.size() != sets.size()) std::abort();
    for (std::size_t i = 0; i < sets.size(); ++i)
      if (assignments[i].first.empty() || assignments[i].first.find('=') != std::string::npos ||
          assignments[i].first + "=" + assignments[i].second != sets[i])
        std::abort();
    std::optional<threadmap::Params> params;
    try {
      params = threadmap::make_params(v.params, assignments, v.id);
    } catch (const InvalidRequest&) {
    }
    if (params) {
      if (params->values().size() != v.params.size()) std::abort();
      for (const ParamSpec& spec : v.params) {
        const std::int64_t value = params->get(spec.name);
        if (!valid(spec, value)) std::abort();
        // What is accepted reads back from its own text (what sessions store).
        if (threadmap::parse_param_value(spec, spec.format(value), v.id) != value) std::abort();
      }
    }
  }

  std::vector<std::vector<std::pair<std::string, std::string>>> points;
  try {
    points = threadmap::sweep_points(v.params, axes, v.id);
  } catch (const InvalidRequest&) {
    return 0;
  }
  std::size_t expected = 1;
  for (const auto& axis : axes) expected *= axis.values.size();
  if (points.size() != expected) std::abort();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != axes.size()) std::abort();
    // Every point's values were checked: each makes parameters (an
    // InvalidRequest escaping here is a finding). The first points and the
    // last only: a sweep may have 10 000, and each input should stay fast.
    if (i < 16 || i + 1 == points.size()) threadmap::make_params(v.params, points[i], v.id);
  }
  return 0;
}
