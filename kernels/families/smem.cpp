// Shared-memory layout kernels: blocks x (block_x x block_y) threads, each
// group writing its thread indices, read back through the tile.
#include "kernels/families/common.h"
#include "kernels/families/families.h"

namespace threadmap::families {

Workload build_smem(const Variant& v, const Params& p, std::uint64_t seed) {
  (void)seed;  // the lesson's kernels have no input: each thread stores its own index
  const std::int64_t blocks = p.get("blocks");
  const std::int64_t bx = p.get("block_x");
  const std::int64_t by = p.get("block_y");
  const std::int64_t pad = p.has("pad") ? p.get("pad") : 0;
  const ElementType type = p.type();
  const std::size_t size = element_size(type);
  const bool rectangular = v.kernel.find("Rect") != std::string::npos;
  const bool reads_column = v.kernel.rfind("setRowReadCol", 0) == 0;
  const bool dynamic = v.kernel.find("Dyn") != std::string::npos;
  if (reads_column && !rectangular && bx != by)
    reject(v, "block_x=" + std::to_string(bx) + " and block_y=" + std::to_string(by) +
                  " differ; this square-tile kernel swaps the thread indices and needs "
                  "block_x = block_y (use the Rect variants for rectangles)");

  const std::uint64_t per_block = static_cast<std::uint64_t>(bx * by);
  Workload w;
  w.buffers.push_back(poisoned_output("out", type, per_block * blocks));
  w.buffers[0].row_elements = static_cast<std::uint64_t>(bx);  // each block writes its BX x BY slice row by row
  w.ideal_bytes = per_block * blocks * size;
  w.working_set_bytes = w.ideal_bytes;
  const std::uint64_t tile_bytes = static_cast<std::uint64_t>(by * (bx + pad)) * size;
  // setColReadCol declares tile[BX][BY]; the others tile[BY][BX + PAD]
  // (the Dyn kernels index their extern array so).
  const auto u32 = [](std::int64_t n) { return static_cast<std::uint32_t>(n); };
  if (v.kernel == "setColReadCol") w.tile = SharedTile{u32(bx), u32(by), u32(by)};
  else w.tile = SharedTile{u32(by), u32(bx + pad), u32(bx)};

  LaunchCmd launch;
  launch.program = {"smem", type, {{"BLOCK_X", bx}, {"BLOCK_Y", by}, {"PAD", pad}}};
  launch.kernel = v.kernel;
  launch.groups = {static_cast<std::size_t>(blocks), 1, 1};
  launch.group_size = {static_cast<std::size_t>(bx), static_cast<std::size_t>(by), 1};
  launch.args = {BufferArg{0}};
  if (dynamic) {
    w.dynamic_local_bytes = tile_bytes;
    launch.args.push_back(LocalArrayArg{tile_bytes});
  } else {
    w.static_local_bytes = tile_bytes;
  }
  w.launches.push_back(std::move(launch));

  // Row reads give back each thread's own index; column reads give the
  // transpose of the by x bx tile read as a bx x by matrix.
  w.verify = [type, per_block, bx, by, reads_column](const std::vector<HostBuffer>& b) {
    return with_type(type, [&](auto tag) {
      using T = decltype(tag);
      std::span<const T> out = view<T>(b[0]);
      std::vector<T> expected(out.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const std::uint64_t idx = i % per_block;
        expected[i] = static_cast<T>(reads_column ? (idx % by) * bx + idx / by : idx);
      }
      return compare_exact<T>(out, expected, per_block);
    });
  };
  return w;
}

}  // namespace threadmap::families
