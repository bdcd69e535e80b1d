#include "kernels/pack/pack_template.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <system_error>

#include "kernels/core/error.h"
#include "kernels/core/output_file.h"

namespace threadmap::pack {

namespace {

constexpr std::string_view kManifest = R"text(# A ThreadMap pack: docs/packs.md explains every key.
[pack]
name = "@NAME@"
title = "Scaling a vector"

[[family]]
id = "@FAMILY@"
title = "y = a * x"
opencl = "scale.cl"
cuda = "scale.cu"
# The lesson beside the kernels, in English; a translation goes beside it as
# scale.pt_BR.md or scale.es.md.
lesson = "scale.md"
section = "Scaling a vector"
arguments = ["x", "y", "a", "n"]
ideal_bytes = "2 * n * sizeof(type)"
rtol = 1e-6

  [[family.parameter]]
  name = "n"
  meaning = "elements of x and y"
  min = 1
  max = 67108864
  default = 1048576

  [[family.parameter]]
  name = "wg"
  meaning = "threads per block"
  values = [32, 64, 128, 256, 512, 1024]
  default = 256

  [[family.parameter]]
  name = "type"
  meaning = "element type"
  choices = ["int", "float"]
  default = "float"

  [[family.buffer]]
  name = "x"
  type = "type"
  count = "n"
  fill = "random"
  range = [-100, 100]

  [[family.buffer]]
  name = "y"
  type = "type"
  count = "n"
  role = "output"

  [[family.scalar]]
  name = "a"
  value = 3

  [[family.scalar]]
  name = "n"
  value = "n"

  [[family.launch]]
  grid = ["ceil_div(n, wg)"]
  block = ["wg"]

  [[family.variant]]
  id = "naive"
  title = "One element per thread"
  summary = "Thread i scales element i: every access coalesced."
  kernel = "scale_naive"
  section = "One element per thread"
  reference = true

  [[family.variant]]
  id = "grid_stride"
  title = "Grid-stride loop"
  summary = "A fixed grid of 64 blocks; each thread steps by the whole grid."
  kernel = "scale_grid_stride"
  section = "A grid-stride loop"

    [[family.variant.launch]]
    grid = ["min(64, ceil_div(n, wg))"]
    block = ["wg"]

  [[family.check]]
  name = "odd size"
  set = { n = 1001, wg = 64 }

  [[family.check]]
  name = "one element"
  set = { n = 1, type = "int" }
)text";

constexpr std::string_view kOpencl = R"text(// y = a * x, two ways of handing out the elements.
//
// naive: thread i takes element i        grid_stride: 64 blocks, each thread
//   x: [0][1][2][3][4][5]...               takes i, i + G, i + 2G ... (G: all threads)
//       |  |  |  |  |  |                     x: [0][1]..[G-1][G][G+1]..
//      t0 t1 t2 t3 t4 t5                         t0 t1   tG-1 t0 t1
//
// What a learner should see: both coalesced (neighbouring threads, neighbouring
// elements); the grid-stride loop does the same work with fewer blocks.
// ELEM is the element type the `type` parameter picks.

__kernel void scale_naive(__global const ELEM* x, __global ELEM* y, int a, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = (ELEM)a * x[i];
}

__kernel void scale_grid_stride(__global const ELEM* x, __global ELEM* y, int a, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) y[i] = (ELEM)a * x[i];
}
)text";

constexpr std::string_view kCuda = R"text(// y = a * x, two ways of handing out the elements (see scale.cl for the
// picture). ELEM is the element type the `type` parameter picks.

extern "C" __global__ void scale_naive(const ELEM* x, ELEM* y, int a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = (ELEM)a * x[i];
}

extern "C" __global__ void scale_grid_stride(const ELEM* x, ELEM* y, int a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = (ELEM)a * x[i];
}
)text";

// The lesson the pack's kernels open at: one heading per section the
// manifest names.
constexpr std::string_view kLesson = R"text(# Scaling a vector

y = a · x: every element of x is read once and every element of y written once, so the kernel
can do no better than move 2 · n elements at the device's copy bandwidth (the chart's dashed
line).

## One element per thread

Thread i of the grid scales element i. The 32 threads of a warp touch 32 neighbouring elements:
each load and store is one coalesced request (the Coalescing view shows 4 sectors of 32 bytes
for 4-byte elements).

## A grid-stride loop

A fixed grid of 64 blocks, whatever n is: each thread scales element i, then i plus the number of
threads in the grid, and so on. The accesses stay coalesced; fewer threads each do more.
)text";

}  // namespace

std::string write_pack_template(const std::filesystem::path& path, const std::string& family) {
  namespace fs = std::filesystem;
  std::string name = path.filename().string();
  if (name.empty()) name = path.parent_path().filename().string();
  std::error_code ec;
  if (fs::exists(path, ec)) throw InvalidRequest(path.string() + " exists already; name a new folder for the pack");
  const bool valid = !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' ||
           c == '-';
  });
  if (!valid) throw InvalidRequest("'" + name + "': a pack's name is 1 to 64 lowercase letters, digits, '_' or '-'");
  if (!fs::create_directories(path, ec) || ec)
    throw InvalidRequest("cannot create the folder " + path.string() + (ec ? " (" + ec.message() + ")" : ""));
  std::string manifest(kManifest);
  manifest.replace(manifest.find("@NAME@"), 6, name);
  manifest.replace(manifest.find("@FAMILY@"), 8, family.empty() ? name : family);
  write_file(path / "pack.toml", manifest);
  write_file(path / "scale.cl", kOpencl);
  write_file(path / "scale.cu", kCuda);
  write_file(path / "scale.md", kLesson);
  return name;
}

}  // namespace threadmap::pack
