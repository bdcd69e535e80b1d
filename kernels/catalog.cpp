#include "kernels/catalog.h"

#include "kernels/error.h"
#include "kernels/families/families.h"

namespace threadmap {

namespace {

using families::build_matadd;
using families::build_reduce;
using families::build_smem;
using families::build_transpose;

const LessonRef kOpenclSharedNaive{"000_9757a498f710664d.txt", "1 Matrix transposition", "en", nullptr};
const LessonRef kOpenclShared{"000_9757a498f710664d.txt", "2 Shared Memory implementation", "en", nullptr};
const LessonRef kCudaShared{"001_678a096cc42e7d8d.txt", "2 Shared Memory implementation", "en", nullptr};
const LessonRef kCudaDynamic{"001_678a096cc42e7d8d.txt", "3 Dynamically allocated shared memory implementation", "en",
                             nullptr};
const LessonRef kCoalescing{"002_8beb8f15b2ee5d89.txt", "1 Matrix addition", "en", nullptr};
const LessonRef kCoalescingOuter{"002_8beb8f15b2ee5d89.txt", "2 Parallelising the outer loop", "en", nullptr};
const LessonRef kCoalescingInner{"002_8beb8f15b2ee5d89.txt", "3 Parallelising the inner loop", "en", nullptr};
const LessonRef kReduction{"003_a865efd981f8c9db.txt", "Usando memória local", "pt", nullptr};
const LessonRef kSmemSquare{"004_354aa9cbd9ceddef.txt", "Memoria Compartida Cuadrada", "es", nullptr};
const LessonRef kSmemRect{"004_354aa9cbd9ceddef.txt", "Memoria Compartida Rectangular", "es", nullptr};

ParamSpec width(std::int64_t def = 2048) {
  return {"width", "matrix width (columns of the input)", 1, 32768, def, {}, {}};
}
ParamSpec height(std::int64_t def = 2048) {
  return {"height", "matrix height (rows of the input)", 1, 32768, def, {}, {}};
}
ParamSpec type(std::int64_t def = 0) {
  return {"type", "element type (double shows 8-byte bank behaviour)", 0, 2, def, {}, {"int", "float", "double"}};
}
ParamSpec lesson_tile() {
  return {"tile", "tile edge T: a T x T block of threads per tile", 4, 32, 16, {4, 8, 16, 32}, {}};
}
// The coalesced transpose's fastest tile on the H100 (docs/benchmarks.md).
ParamSpec wide_tile() {
  return {"tile", "tile edge T of the T x T tile one block moves", 8, 64, 64, {8, 16, 32, 64}, {}};
}
// 4 strips per thread (16 x 16 threads on a 64-tile of 4-byte elements) measured
// fastest on the H100.
ParamSpec strips() {
  return {"strips",
          "16-byte strips S each thread moves (V = 4 ints or floats or 2 doubles per strip; a "
          "T/V x T/S block)",
          1,
          32,
          4,
          {1, 2, 4, 8, 16, 32},
          {}};
}
ParamSpec per_thread() {
  return {"per_thread", "elements K each thread adds, a block-width apart along the row", 1, 8, 2, {1, 2, 4, 8}, {}};
}
ParamSpec pad(std::int64_t def) {
  return {"pad", "elements of padding P added to each tile row", 0, 2, def, {0, 1, 2}, {}};
}
ParamSpec wg(std::int64_t def = 256) {
  return {"wg", "work-group size (threads per block)", 32, 1024, def, {32, 64, 128, 256, 512, 1024}, {}};
}
ParamSpec block_x(std::int64_t def, std::vector<std::int64_t> allowed) {
  return {"block_x", "threads per block along x (the fastest index)", allowed.front(), allowed.back(), def, allowed,
          {}};
}
ParamSpec block_y(std::int64_t def, std::vector<std::int64_t> allowed) {
  return {"block_y", "threads per block along y", allowed.front(), allowed.back(), def, allowed, {}};
}
ParamSpec n() { return {"n", "number of elements to sum", 1, 1 << 30, 1 << 24, {}, {}}; }
ParamSpec grid_blocks(std::int64_t def, std::int64_t max, std::string meaning) {
  return {"blocks", std::move(meaning), 1, max, def, {}, {}};
}

const std::vector<std::int64_t> kPowersToOneK{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
const std::vector<std::int64_t> kSmemEdges{8, 16, 32};

Variant of_family(std::string family, std::string source, WorkloadBuilder build, std::string id, std::string title,
                  std::string summary, LessonRef lesson, std::string kernel, std::vector<ParamSpec> params,
                  bool original = true) {
  Variant v;
  v.id = std::move(id);
  v.family = std::move(family);
  v.title = std::move(title);
  v.summary = std::move(summary);
  v.lesson = std::move(lesson);
  v.source = std::move(source);
  v.kernel = std::move(kernel);
  v.params = std::move(params);
  v.build = build;
  v.lesson_original = original;
  return v;
}

Variant matadd(std::string id, std::string title, std::string summary, LessonRef lesson, std::string kernel,
               std::vector<ParamSpec> params, bool original = true) {
  return of_family("coalescing", "matadd", build_matadd, std::move(id), std::move(title), std::move(summary),
                   std::move(lesson), std::move(kernel), std::move(params), original);
}

Variant transpose(std::string id, std::string title, std::string summary, LessonRef lesson, std::string kernel,
                  std::vector<ParamSpec> params, bool original) {
  return of_family("transpose", "transpose", build_transpose, std::move(id), std::move(title), std::move(summary),
                   std::move(lesson), std::move(kernel), std::move(params), original);
}

Variant reduce(std::string id, std::string title, std::string summary, std::string kernel,
               std::vector<ParamSpec> params, bool original) {
  return of_family("reduction", "reduce", build_reduce, std::move(id), std::move(title), std::move(summary), kReduction,
                   std::move(kernel), std::move(params), original);
}

Variant smem(std::string name, std::string summary, bool rectangular, bool padded) {
  std::vector<ParamSpec> params{grid_blocks(1024, 1 << 20, "blocks in the grid, each writing its own slice"),
                                block_x(32, kSmemEdges), block_y(rectangular ? 16 : 32, kSmemEdges)};
  if (padded) params.push_back(pad(rectangular ? 2 : 1));
  params.push_back(type());
  return of_family("smem-layout", "smem", build_smem, "smem." + name, name, std::move(summary),
                   rectangular ? kSmemRect : kSmemSquare, name, std::move(params));
}

std::vector<Variant> make_catalog() {
  std::vector<Variant> c;
  c.push_back(transpose("transpose.copy", "Copy (bandwidth ceiling)",
                        "A plain copy with the coalesced kernel's tiling and 16-byte strips: both sides "
                        "coalesced. Every transpose chart measures against it.",
                        kOpenclSharedNaive, "transpose_copy", {width(), height(), wide_tile(), strips(), type()},
                        false));
  c.push_back(transpose("transpose.naive", "Naive transpose",
                        "Thread x walks down the rows: every read is strided (one sector per thread), every "
                        "write coalesced.",
                        kOpenclSharedNaive, "transpose_naive", {width(), height(), lesson_tile(), type()}, true));
  c.push_back(transpose("transpose.shared", "Shared-memory tile (lesson)",
                        "tile[T][T+P] with the lessons' mapping: i still comes from thread x, so BOTH global sides "
                        "are strided and it runs slower than naive on a GPU. P=0 the OpenCL lesson (column reads "
                        "conflict), P=1 the CUDA lesson (no conflicts).",
                        kCudaShared, "transpose_shared", {width(), height(), lesson_tile(), pad(0), type()}, true));
  c.push_back(transpose("transpose.shared_dynamic", "Dynamic shared-memory tile (lesson)",
                        "The CUDA lesson's extern __shared__ tile sized at launch (T*T elements, no padding): the "
                        "same mapping and the same strided global accesses.",
                        kCudaDynamic, "transpose_shared_dynamic", {width(), height(), lesson_tile(), type()}, true));
  c.push_back(transpose("transpose.coalesced", "Coalesced transpose",
                        "The corrected mapping: thread x walks contiguous addresses on the read and on the write; "
                        "the swap happens in the padded tile. Each thread moves 16-byte strips (4 ints or "
                        "floats, 2 doubles), S of them, all loaded before the first store.",
                        kCudaShared, "transpose_coalesced", {width(), height(), wide_tile(), strips(), pad(1), type()},
                        false));

  c.push_back(matadd("matadd.rows", "One thread per row",
                     "The CPU habit: each thread walks its own row, so a warp touches 32 rows at each step: "
                     "uncoalesced.",
                     kCoalescingOuter, "matadd_rows", {width(), height(), wg(), type()}));
  c.push_back(matadd("matadd.cols", "One thread per column",
                     "Each thread walks down a column: a warp touches 32 neighbours of one row, coalesced, but "
                     "there are only `width` threads.",
                     kCoalescingInner, "matadd_cols", {width(), height(), wg(), type()}));
  c.push_back(matadd("matadd.elements", "K elements per thread",
                     "A 2-D grid, x fastest: coalesced and enough threads to fill the device. K=1 is one "
                     "thread per element; with K=2 each thread loads two pairs before it stores, and twice "
                     "the loads are in flight.",
                     kCoalescing, "matadd_elements",
                     {width(), height(), block_x(128, kPowersToOneK), block_y(2, kPowersToOneK), per_thread(), type()},
                     false));

  c.push_back(reduce("reduce.interleaved", "Interleaved tree (lesson)",
                     "The lesson's tree: idx = 2*stride*lid. Active threads spread out and shared accesses "
                     "conflict more at every step.",
                     "reduce_interleaved", {n(), wg(), type(1)}, true));
  c.push_back(reduce("reduce.divergent", "Divergent tree",
                     "if (lid % (2*stride) == 0): the same pairs, but the active threads are scattered over all "
                     "warps, which diverge.",
                     "reduce_divergent", {n(), wg(), type(1)}, false));
  c.push_back(reduce("reduce.sequential", "Sequential addressing",
                     "The stride halves from wg/2: active threads are contiguous, whole warps retire, no bank "
                     "conflicts.",
                     "reduce_sequential", {n(), wg(), type(1)}, false));
  Variant shuffle = reduce("reduce.warp_shuffle", "Grid-stride + warp shuffles",
                           "More work per thread (a grid-stride sum), a shared-memory tree down to one warp, then "
                           "shuffles: the one to aim at.",
                           "reduce_warp_shuffle",
                           {n(), wg(), grid_blocks(1024, 65535, "blocks in the first pass's grid"), type(1)}, false);
  shuffle.availability = Availability::NeedsSubgroupShuffle;
  c.push_back(std::move(shuffle));

  c.push_back(smem("setRowReadRow", "Store and load along rows: 1 wavefront each.", false, false));
  c.push_back(smem("setColReadCol", "Store and load along columns: 32-way conflicts both ways.", false, false));
  c.push_back(smem("setRowReadCol", "Store by rows (free), load by columns (32-way conflicts).", false, false));
  c.push_back(smem("setRowReadColDyn",
                   "setRowReadCol with a dynamically sized tile: the same "
                   "conflicts.",
                   false, false));
  c.push_back(smem("setRowReadColPad",
                   "One word of padding per row: the column load becomes "
                   "conflict-free.",
                   false, true));
  c.push_back(smem("setRowReadColDynPad",
                   "Padding in the dynamic tile's index arithmetic: "
                   "conflict-free.",
                   false, true));
  c.push_back(smem("setRowReadColRect", "A 32 x 16 tile read by columns: 16-way conflicts.", true, false));
  c.push_back(smem("setRowReadColRectDyn",
                   "The rectangular column read with a dynamic tile: "
                   "16-way conflicts.",
                   true, false));
  c.push_back(smem("setRowReadColRectPad",
                   "Rectangular tile padded by P: pad 1 leaves 2-way "
                   "conflicts, pad 2 none.",
                   true, true));
  c.push_back(smem("setRowReadColRectDynPad",
                   "Dynamic rectangular tile padded by P in the index "
                   "arithmetic.",
                   true, true));
  return c;
}

}  // namespace

const ParamSpec* Variant::param(std::string_view name) const {
  for (const ParamSpec& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

namespace {

std::vector<Variant>& entries() {
  static std::vector<Variant> all = [] {
    std::vector<Variant> built_in = make_catalog();
    std::vector<Variant> v;
    v.reserve(kMaxCatalogVariants);  // never reallocated: spans and pointers stay valid
    for (Variant& entry : built_in) v.push_back(std::move(entry));
    return v;
  }();
  return all;
}

}  // namespace

std::span<const Variant> catalog() { return entries(); }

void add_variants(std::vector<Variant> variants) {
  std::vector<Variant>& all = entries();
  if (all.size() + variants.size() > kMaxCatalogVariants)
    throw InvalidRequest("the catalog holds at most " + std::to_string(kMaxCatalogVariants) + " variants; these " +
                         std::to_string(variants.size()) + " would make " +
                         std::to_string(all.size() + variants.size()));
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const Variant& v = variants[i];
    auto from = [](const Variant& other) {
      return other.pack.empty() ? std::string("the built-in catalog") : "pack '" + other.pack + "'";
    };
    if (const Variant* other = find_variant(v.id))
      throw InvalidRequest(v.id + " (pack '" + v.pack + "') is already in the catalog, from " + from(*other));
    for (std::size_t j = 0; j < i; ++j)
      if (variants[j].id == v.id) throw InvalidRequest(v.id + " is added twice");
    for (const Variant& other : all)
      if (other.family == v.family)
        throw InvalidRequest("the family '" + v.family + "' (pack '" + v.pack + "') is already in the catalog, from " +
                             from(other));
  }
  for (Variant& v : variants) all.push_back(std::move(v));
}

void update_pack_variants(std::vector<Variant> variants) {
  if (variants.empty()) return;
  const std::string pack = variants.front().pack;
  std::vector<Variant*> held;
  for (Variant& v : entries())
    if (!pack.empty() && v.pack == pack) held.push_back(&v);
  if (held.empty()) return add_variants(std::move(variants));
  const bool same = held.size() == variants.size() &&
                    std::equal(held.begin(), held.end(), variants.begin(),
                               [](const Variant* a, const Variant& b) { return a->id == b.id && a->pack == b.pack; });
  if (!same)
    throw InvalidRequest("pack '" + pack +
                         "': its variants are not the ones read before (added, removed or renamed); "
                         "start ThreadMap again to read them");
  for (std::size_t i = 0; i < held.size(); ++i) *held[i] = std::move(variants[i]);
}

const Variant::KernelText* pack_text(const Variant& v, std::string_view backend) {
  if (v.pack.empty()) return nullptr;
  const Variant::KernelText& t = backend == "cuda" ? v.cuda_text : v.opencl_text;
  return t.text.empty() ? nullptr : &t;
}

const Variant* find_variant(std::string_view id) {
  for (const Variant& v : catalog())
    if (v.id == id) return &v;
  return nullptr;
}

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const Variant& v : catalog())
    if (names.empty() || names.back() != v.family) names.push_back(v.family);
  return names;
}

}  // namespace threadmap
