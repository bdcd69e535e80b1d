// Matrix addition res = a + b, height x width, three ways of handing out work.
#include "kernels/families/common.h"
#include "kernels/families/families.h"
#include "kernels/core/bulk_allocator.h"
#include "kernels/core/parallel.h"

namespace threadmap::families {

Workload build_matadd(const Variant& v, const Params& p, std::uint64_t seed) {
  const std::int64_t width = p.get("width");
  const std::int64_t height = p.get("height");
  const ElementType type = p.type();
  const std::uint64_t elements = static_cast<std::uint64_t>(width * height);

  Workload w;
  w.buffers.push_back(random_input("a", type, elements, seed));
  w.buffers.push_back(random_input("b", type, elements, seed ^ 0x5DEECE66Dull));
  w.buffers.push_back(poisoned_output("res", type, elements));
  for (HostBuffer& b : w.buffers) b.row_elements = static_cast<std::uint64_t>(width);  // height x width each
  w.ideal_bytes = 3 * elements * element_size(type);
  w.working_set_bytes = w.ideal_bytes;

  LaunchCmd launch;
  const std::int64_t per_thread = p.has("per_thread") ? p.get("per_thread") : 1;
  launch.program = {"matadd", type, {{"PER_THREAD", per_thread}}};
  launch.kernel = v.kernel;
  launch.args = {BufferArg{0}, BufferArg{1}, BufferArg{2}, static_cast<std::int32_t>(width),
                 static_cast<std::int32_t>(height)};
  if (v.kernel == "matadd_elements") {
    const std::int64_t bx = p.get("block_x");
    const std::int64_t by = p.get("block_y");
    launch.groups = {groups_for(width, bx * per_thread), groups_for(height, by), 1};
    launch.group_size = {static_cast<std::size_t>(bx), static_cast<std::size_t>(by), 1};
  } else if (p.has("wg")) {
    const std::int64_t wg = p.get("wg");
    const std::int64_t threads = v.kernel == "matadd_rows" ? height : width;
    launch.groups = {groups_for(threads, wg), 1, 1};
    launch.group_size = {static_cast<std::size_t>(wg), 1, 1};
  }  // else an OpenMP kernel alone (dialects = ["openmp"]): its runtime chooses the launch
  w.launches.push_back(std::move(launch));

  w.verify = [type, width](const std::vector<HostBuffer>& b) {
    return with_type(type, [&](auto tag) {
      using T = decltype(tag);
      std::span<const T> a = view<T>(b[0]);
      std::span<const T> bb = view<T>(b[1]);
      std::vector<T, BulkAllocator<T>> expected(a.size());  // every element written below, over the cores
      parallel_for(a.size(), [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) expected[i] = static_cast<T>(a[i] + bb[i]);
      });
      return compare_exact<T>(view<T>(b[2]), std::span<const T>(expected), static_cast<std::uint64_t>(width));
    });
  };
  return w;
}

}  // namespace threadmap::families
