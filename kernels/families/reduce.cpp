// Full sums: the tree kernels run pass after pass on the partial sums until
// one value is left; warp_shuffle runs a fixed grid, then one group.
#include <cmath>

#include "kernels/families/common.h"
#include "kernels/families/families.h"

namespace threadmap::families {

namespace {

constexpr double kFloatTolerance = 1e-5;
constexpr double kDoubleTolerance = 1e-13;

template <class T>
Verification verify_sum(const std::vector<HostBuffer>& buffers, std::int64_t n) {
  std::span<const T> in = view<T>(buffers[0]);
  const T actual = view<T>(buffers.back())[0];
  Verification v;
  v.checked = 1;
  bool ok = false;
  std::string expected_text;
  if constexpr (std::is_integral_v<T>) {
    // The device adds in 32-bit two's complement; wrap the exact sum the same way.
    std::int64_t exact = 0;
    for (std::int64_t i = 0; i < n; ++i) exact += in[i];
    const T expected = static_cast<T>(static_cast<std::uint32_t>(exact));
    ok = actual == expected;
    expected_text = std::to_string(expected);
    v.method = "exact (32-bit wrap-around) against a 64-bit CPU sum";
  } else {
    long double exact = 0;
    long double magnitude = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      exact += in[i];
      magnitude += std::fabs(static_cast<long double>(in[i]));
    }
    const double tol = std::is_same_v<T, float> ? kFloatTolerance : kDoubleTolerance;
    ok = std::isfinite(static_cast<double>(actual)) &&
         std::fabs(static_cast<long double>(actual) - exact) <= tol * magnitude;
    expected_text = format_value(static_cast<double>(exact));
    v.method = "|sum - reference| <= " + format_value(tol) + " * sum(|x|), reference summed in extended precision";
  }
  v.verified = ok;
  if (!ok) {
    v.mismatches = 1;
    v.first.push_back({"sum", expected_text, format_typed(actual)});
  }
  return v;
}

}  // namespace

Workload build_reduce(const Variant& v, const Params& p, std::uint64_t seed) {
  const std::int64_t n = p.get("n");
  const std::int64_t wg = p.get("wg");
  const ElementType type = p.type();
  const std::size_t size = element_size(type);

  Workload w;
  // The lesson's load reads in[2g+1] whenever 2g < len: keep an even length
  // with a zero at the end so that read stays inside the buffer.
  HostBuffer input = random_input("in", type, static_cast<std::uint64_t>(n), seed);
  input.elements += static_cast<std::uint64_t>(n % 2);
  w.buffers.push_back(std::move(input));
  w.ideal_bytes = static_cast<std::uint64_t>(n + 1) * size;
  w.static_local_bytes = static_cast<std::uint64_t>(wg) * size;

  auto launch_pass = [&](int in, int out, std::int64_t len, std::size_t groups) {
    LaunchCmd launch;
    launch.program = {"reduce", type, {{"WG", wg}}};
    launch.kernel = v.kernel;
    launch.groups = {groups, 1, 1};
    launch.group_size = {static_cast<std::size_t>(wg), 1, 1};
    launch.args = {BufferArg{in}, BufferArg{out}, static_cast<std::int32_t>(len)};
    w.launches.push_back(std::move(launch));
  };

  if (v.kernel == "reduce_warp_shuffle") {
    const std::int64_t blocks = p.get("blocks");
    w.buffers.push_back(zero_scratch("partials", type, static_cast<std::uint64_t>(blocks)));
    w.buffers.push_back(poisoned_output("sum", type, 1));
    launch_pass(0, 1, n, static_cast<std::size_t>(blocks));
    launch_pass(1, 2, blocks, 1);
  } else {
    int current = 0;
    std::int64_t len = n;
    for (int pass = 1;; ++pass) {
      const std::size_t groups = groups_for(len, 2 * wg);
      const int out = static_cast<int>(w.buffers.size());
      if (groups == 1) {
        w.buffers.push_back(poisoned_output("sum", type, 1));
        launch_pass(current, out, len, 1);
        break;
      }
      w.buffers.push_back(zero_scratch("partials " + std::to_string(pass), type, groups + groups % 2));
      launch_pass(current, out, len, groups);
      current = out;
      len = static_cast<std::int64_t>(groups);
    }
  }
  for (const HostBuffer& b : w.buffers) w.working_set_bytes += b.bytes();

  w.verify = [type, n](const std::vector<HostBuffer>& b) {
    return with_type(type, [&](auto tag) { return verify_sum<decltype(tag)>(b, n); });
  };
  return w;
}

}  // namespace threadmap::families
