// Transposes and the copy ceiling. A is height x width (row-major); the
// transposes write width x height, the copy writes height x width.
#include "kernels/families/common.h"
#include "kernels/families/families.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "kernels/core/parallel.h"

namespace threadmap::families {

namespace {

// Compares out (width x height) with the transpose of in, tile by tile so
// both sides stay in cache; only when something differs is the output walked
// again in row order to name the first mismatches.
template <class T>
Verification verify_transpose(const std::vector<HostBuffer>& buffers, std::int64_t width, std::int64_t height,
                              bool transposed) {
  std::span<const T> in = view<T>(buffers[0]);
  std::span<const T> out = view<T>(buffers[1]);
  if (!transposed) return compare_exact<T>(out, in, static_cast<std::uint64_t>(width));
  constexpr std::int64_t kTile = 64;
  auto same = [&](std::int64_t r, std::int64_t c) {
    return std::memcmp(&out[c * height + r], &in[r * width + c], sizeof(T)) == 0;
  };
  std::atomic<std::uint64_t> mismatches = out.size() < in.size() ? in.size() : 0;
  const std::uint64_t bands = static_cast<std::uint64_t>((height + kTile - 1) / kTile);
  if (mismatches == 0)
    parallel_for(
        bands,
        [&](std::uint64_t first, std::uint64_t last) {
          std::uint64_t differ = 0;
          for (std::int64_t r0 = static_cast<std::int64_t>(first) * kTile;
               r0 < std::min<std::int64_t>(height, static_cast<std::int64_t>(last) * kTile); r0 += kTile)
            for (std::int64_t c0 = 0; c0 < width; c0 += kTile)
              for (std::int64_t r = r0; r < std::min(height, r0 + kTile); ++r)
                for (std::int64_t c = c0; c < std::min(width, c0 + kTile); ++c) differ += !same(r, c);
          mismatches += differ;
        },
        std::max<std::uint64_t>(
            1, (std::uint64_t{1} << 20) / static_cast<std::uint64_t>(kTile * std::max<std::int64_t>(width, 1))));
  if (mismatches == 0) {
    Verification v;
    v.method = "bit-exact against the CPU reference";
    v.checked = in.size();
    v.verified = true;
    return v;
  }
  std::vector<T> expected(in.size());
  for (std::int64_t r = 0; r < height; ++r)
    for (std::int64_t c = 0; c < width; ++c) expected[c * height + r] = in[r * width + c];
  return compare_exact<T>(out, expected, static_cast<std::uint64_t>(height));
}

}  // namespace

Workload build_transpose(const Variant& v, const Params& p, std::uint64_t seed) {
  const std::int64_t width = p.get("width");
  const std::int64_t height = p.get("height");
  const std::int64_t tile = p.get("tile");
  const std::int64_t pad = p.has("pad") ? p.get("pad") : 0;
  // copy and coalesced: a thread moves `strips` strips down its column of the
  // tile, so the block has tile/strips rows of threads.
  const std::int64_t strips = p.has("strips") ? p.get("strips") : 1;
  const ElementType type = p.type();
  const std::size_t size = element_size(type);
  if (strips > tile)
    reject(v, "strips=" + std::to_string(strips) + " exceeds tile=" + std::to_string(tile) +
                  ": a thread moves one strip per tile row it covers, and the tile has only " + std::to_string(tile) +
                  " rows");
  const std::int64_t rows = tile / strips;

  const std::uint64_t elements = static_cast<std::uint64_t>(width * height);
  Workload w;
  w.buffers.push_back(random_input("in", type, elements, seed));
  w.buffers.push_back(poisoned_output("out", type, elements));
  // A is height x width; a transpose writes width x height, the copy height x width.
  w.buffers[0].row_elements = static_cast<std::uint64_t>(width);
  w.buffers[1].row_elements = static_cast<std::uint64_t>(v.kernel == "transpose_copy" ? width : height);
  // tile[TILE][TILE + PAD]; transpose_shared_dynamic sizes its tile TILE * TILE
  // at launch, with no pad. The copy and the naive kernel declare no shared
  // array; they keep the family's tile shape, which the bank view has always
  // drawn for them (empty: they make no shared access).
  const auto t = static_cast<std::uint32_t>(tile);
  w.tile = SharedTile{t, t + static_cast<std::uint32_t>(v.kernel == "transpose_shared_dynamic" ? 0 : pad), t};
  w.ideal_bytes = 2 * elements * size;
  w.working_set_bytes = w.ideal_bytes;

  LaunchCmd launch;
  launch.program = {"transpose", type, {{"TILE", tile}, {"ROWS", rows}, {"PAD", pad}}};
  launch.kernel = v.kernel;
  launch.args = {BufferArg{0}, BufferArg{1}, static_cast<std::int32_t>(width), static_cast<std::int32_t>(height)};
  const bool row_major_grid = v.kernel == "transpose_copy" || v.kernel == "transpose_coalesced";
  if (row_major_grid) {
    // Dimension 0 walks the columns of A: a warp reads along a row, each
    // thread a 16-byte strip of it.
    const std::int64_t strip = static_cast<std::int64_t>(16 / size);
    launch.groups = {groups_for(width, tile), groups_for(height, tile), 1};
    launch.group_size = {static_cast<std::size_t>(tile / strip), static_cast<std::size_t>(rows), 1};
  } else {
    // The lessons' mapping: dimension 0 walks the ROWS of A.
    launch.groups = {groups_for(height, tile), groups_for(width, tile), 1};
    launch.group_size = {static_cast<std::size_t>(tile), static_cast<std::size_t>(tile), 1};
  }
  if (v.kernel == "transpose_shared" || v.kernel == "transpose_coalesced")
    w.static_local_bytes = static_cast<std::uint64_t>(tile * (tile + pad)) * size;
  if (v.kernel == "transpose_shared_dynamic") {
    w.dynamic_local_bytes = static_cast<std::uint64_t>(tile * tile) * size;
    launch.args.push_back(LocalArrayArg{w.dynamic_local_bytes});
  }
  w.launches.push_back(std::move(launch));

  const bool transposed = v.kernel != "transpose_copy";
  w.verify = [type, width, height, transposed](const std::vector<HostBuffer>& b) {
    return with_type(type, [&](auto tag) { return verify_transpose<decltype(tag)>(b, width, height, transposed); });
  };
  return w;
}

}  // namespace threadmap::families
