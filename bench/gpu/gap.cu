// Where the fast variants' last points go: the device copy, the catalog's
// transpose.coalesced and matadd.elements (timed exactly as threadmap-cli times
// them), and candidate changes to each, side by side in one run on one device.
// Standalone (CUDA runtime only):
//   nvcc -O3 -std=c++20 -arch=sm_90 -o gap bench/gpu/gap.cu && ./gap
// Every kernel's output is checked against the host before it is timed.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,                \
                   cudaGetErrorString(e_));                                            \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

constexpr int N = 8192;  // N x N 4-byte elements, 256 MiB per matrix

// ---- matrix addition ------------------------------------------------------------
// The catalog's kernel, as timed (kernels/lessons/matadd.cu).
__global__ void add_elements(const int* a, const int* b, int* res, int width, int height) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < height && j < width) res[i * width + j] = a[i * width + j] + b[i * width + j];
}
// The same with __restrict__ (read-only path allowed).
__global__ void add_elements_restrict(const int* __restrict__ a, const int* __restrict__ b,
                                      int* __restrict__ res, int width, int height) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < height && j < width) res[i * width + j] = a[i * width + j] + b[i * width + j];
}
// K elements per thread along x, each warp access still one row segment.
template <int K>
__global__ void add_strided(const int* __restrict__ a, const int* __restrict__ b,
                            int* __restrict__ res, int width, int height) {
  const int j0 = blockIdx.x * blockDim.x * K + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= height) return;
  int va[K], vb[K];
#pragma unroll
  for (int k = 0; k < K; k++) {
    const int j = j0 + k * blockDim.x;
    if (j < width) { va[k] = a[i * width + j]; vb[k] = b[i * width + j]; }
  }
#pragma unroll
  for (int k = 0; k < K; k++) {
    const int j = j0 + k * blockDim.x;
    if (j < width) res[i * width + j] = va[k] + vb[k];
  }
}
// Four neighbouring elements per thread as one 16-byte access (width % 4 == 0).
__global__ void add_vec4(const int4* __restrict__ a, const int4* __restrict__ b,
                         int4* __restrict__ res, int width4, int height) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < height && j < width4) {
    const int4 x = a[i * width4 + j], y = b[i * width4 + j];
    res[i * width4 + j] = make_int4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}
// Two 16-byte accesses per thread, a block apart.
__global__ void add_vec4x2(const int4* __restrict__ a, const int4* __restrict__ b,
                           int4* __restrict__ res, int width4, int height) {
  const int j = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= height) return;
  int4 x0{}, y0{}, x1{}, y1{};
  const bool in0 = j < width4, in1 = j + blockDim.x < width4;
  if (in0) { x0 = a[i * width4 + j]; y0 = b[i * width4 + j]; }
  if (in1) { x1 = a[i * width4 + j + blockDim.x]; y1 = b[i * width4 + j + blockDim.x]; }
  if (in0) res[i * width4 + j] = make_int4(x0.x + y0.x, x0.y + y0.y, x0.z + y0.z, x0.w + y0.w);
  if (in1)
    res[i * width4 + j + blockDim.x] =
        make_int4(x1.x + y1.x, x1.y + y1.y, x1.z + y1.z, x1.w + y1.w);
}

// ---- transpose --------------------------------------------------------------------
// The catalog's kernel, as timed (kernels/lessons/transpose.cu).
template <int TILE, int PAD>
__global__ void tr_coalesced(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE + PAD];
  const int tx = threadIdx.x, ty = threadIdx.y, rows = blockDim.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  for (int k = 0; k < TILE; k += rows)
    if (x < width && y + k < height) tile[ty + k][tx] = in[(y + k) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + tx;
  y = blockIdx.x * TILE + ty;
  for (int k = 0; k < TILE; k += rows)
    if (x < height && y + k < width) out[(y + k) * height + x] = tile[tx][ty + k];
}
// The tile (bx, by) transposed by a TILE x ROWS block, rows fixed at compile
// time so both loops unroll; the block orders below differ only in (bx, by).
template <int TILE, int ROWS, int PAD>
__device__ void transpose_tile(const float* __restrict__ in, float* __restrict__ out, int width,
                               int height, int bx, int by) {
  __shared__ float tile[TILE][TILE + PAD];
  const int tx = threadIdx.x, ty = threadIdx.y;
  int x = bx * TILE + tx, y = by * TILE + ty;
#pragma unroll
  for (int k = 0; k < TILE; k += ROWS)
    if (x < width && y + k < height) tile[ty + k][tx] = in[(y + k) * width + x];
  __syncthreads();
  x = by * TILE + tx;
  y = bx * TILE + ty;
#pragma unroll
  for (int k = 0; k < TILE; k += ROWS)
    if (x < height && y + k < width) out[(y + k) * height + x] = tile[tx][ty + k];
}
// The same, rows fixed at compile time and __restrict__: the loops unroll fully.
template <int TILE, int ROWS, int PAD>
__global__ void tr_unrolled(const float* __restrict__ in, float* __restrict__ out, int width,
                            int height) {
  transpose_tile<TILE, ROWS, PAD>(in, out, width, height, blockIdx.x, blockIdx.y);
}
// Diagonal block order (the transpose blog's answer to partition camping).
template <int TILE, int ROWS, int PAD>
__global__ void tr_diagonal(const float* __restrict__ in, float* __restrict__ out, int width,
                            int height) {
  const int bx = (blockIdx.x + blockIdx.y) % gridDim.x, by = blockIdx.x;  // square grids
  transpose_tile<TILE, ROWS, PAD>(in, out, width, height, bx, by);
}
// The float4 strip kernels' common steps: this thread's TILE/ROWS strips of
// the block's tile, all loaded before any is used; one strip written into a
// shared-memory row as four words.
template <int TILE, int ROWS>
__device__ void load_strips(float4 (&v)[TILE / ROWS], const float4* __restrict__ in, int w4) {
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++)
    v[k] = in[(blockIdx.y * TILE + threadIdx.y + k * ROWS) * w4 + blockIdx.x * (TILE / 4) +
              threadIdx.x];
}
__device__ inline void store_strip(float* words, float4 v) {
  words[0] = v.x;
  words[1] = v.y;
  words[2] = v.z;
  words[3] = v.w;
}

// 16-byte global accesses: a 64 x 64 tile, 16 x ROWS threads, each moving
// float4s (width and height multiples of 64). Shared: row stride 65 words.
template <int ROWS>
__global__ void tr_vec4(const float4* __restrict__ in, float4* __restrict__ out, int width,
                        int height) {
  constexpr int TILE = 64;
  __shared__ float tile[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;  // tx 0..15: a float4 column of the tile
  const int w4 = width / 4, h4 = height / 4;
  float4 v[TILE / ROWS];
  load_strips<TILE, ROWS>(v, in, w4);
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) store_strip(tile[ty + k * ROWS] + 4 * tx, v[k]);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    const int r = ty + k * ROWS;  // output row within the tile = input column
    float4 o;
    o.x = tile[4 * tx + 0][r];
    o.y = tile[4 * tx + 1][r];
    o.z = tile[4 * tx + 2][r];
    o.w = tile[4 * tx + 3][r];
    out[(blockIdx.x * TILE + r) * h4 + blockIdx.y * (TILE / 4) + tx] = o;
  }
}
// Grouped block order: blocks that run together cover a G x (many) patch of
// tiles, so reads and writes both form long runs of each matrix row.
template <int TILE, int ROWS, int PAD, int G>
__global__ void tr_grouped(const float* __restrict__ in, float* __restrict__ out, int width,
                           int height) {
  const int lin = blockIdx.y * gridDim.x + blockIdx.x;
  const int per_group = G * gridDim.x;
  const int by = (lin / per_group) * G + lin % G, bx = (lin % per_group) / G;
  transpose_tile<TILE, ROWS, PAD>(in, out, width, height, bx, by);
}
// float4 global accesses on a TILE x TILE tile held in dynamic shared memory
// (TILE/4 x ROWS threads; TILE = 128 needs the 48 KB opt-in).
template <int TILE, int ROWS>
__global__ void tr_vec4_dyn(const float4* __restrict__ in, float4* __restrict__ out, int width,
                            int height) {
  extern __shared__ float tile_dyn[];  // TILE x (TILE + 1)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int w4 = width / 4, h4 = height / 4;
  float4 v[TILE / ROWS];
  load_strips<TILE, ROWS>(v, in, w4);
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++)
    store_strip(tile_dyn + (ty + k * ROWS) * (TILE + 1) + 4 * tx, v[k]);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    const int r = ty + k * ROWS;
    float4 o;
    o.x = tile_dyn[(4 * tx + 0) * (TILE + 1) + r];
    o.y = tile_dyn[(4 * tx + 1) * (TILE + 1) + r];
    o.z = tile_dyn[(4 * tx + 2) * (TILE + 1) + r];
    o.w = tile_dyn[(4 * tx + 3) * (TILE + 1) + r];
    out[(blockIdx.x * TILE + r) * h4 + blockIdx.y * (TILE / 4) + tx] = o;
  }
}
// Round 3. The float4 strip transpose's tile copied back WITHOUT the
// transpose (same shared round trip and barrier): isolates what the swap costs.
template <int ROWS>
__global__ void tr_vec4_smem_copy(const float4* __restrict__ in, float4* __restrict__ out,
                                  int width, int height) {
  constexpr int TILE = 64;
  __shared__ float tile[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int w4 = width / 4;
  float4 v[TILE / ROWS];
  load_strips<TILE, ROWS>(v, in, w4);
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) store_strip(tile[ty + k * ROWS] + 4 * tx, v[k]);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    const float* row = tile[ty + k * ROWS];
    out[(blockIdx.y * TILE + ty + k * ROWS) * w4 + blockIdx.x * (TILE / 4) + tx] =
        make_float4(row[4 * tx + 0], row[4 * tx + 1], row[4 * tx + 2], row[4 * tx + 3]);
  }
}
__device__ inline float component(const float4& v, int c) {
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}
__device__ inline void set_component(float4& v, int c, float x) {
  if (c == 0) v.x = x;
  else if (c == 1) v.y = x;
  else if (c == 2) v.z = x;
  else v.w = x;
}
// The strip transpose without bank conflicts: rows of 66 words, and each lane
// starts its strip at a different element (stores: by tx/8, loads: by tx/4),
// so the 32 lanes of every shared access land in 32 banks.
template <int ROWS>
__global__ void tr_vec4_rotated(const float4* __restrict__ in, float4* __restrict__ out,
                                int width, int height) {
  constexpr int TILE = 64;
  __shared__ float tile[TILE][TILE + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int w4 = width / 4, h4 = height / 4;
  float4 v[TILE / ROWS];
  load_strips<TILE, ROWS>(v, in, w4);
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    float* row = tile[ty + k * ROWS];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const int c = (i + (tx >> 3)) & 3;
      row[4 * tx + c] = component(v[k], c);
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    const int r = ty + k * ROWS;
    float4 o;
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const int c = (i + (tx >> 2)) & 3;
      set_component(o, c, tile[4 * tx + c][r]);
    }
    out[(blockIdx.x * TILE + r) * h4 + blockIdx.y * (TILE / 4) + tx] = o;
  }
}
// A plain float4 copy (the best a kernel does with 16-byte accesses).
__global__ void copy_vec4(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// ---- timing: the CLI's method (2 warm-ups; 20 samples, each a run of back-to-back
// launches lasting about 1 ms, divided by the count; the median) -------------------
struct Timing { double median, min, max; };
Timing time_it(const std::function<void()>& launch) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int w = 0; w < 2; w++) launch();
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(start));
  launch();
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float one = 0;
  CHECK(cudaEventElapsedTime(&one, start, stop));
  const int reps = std::max(1, int(1.0 / std::max(one, 1e-3f)));
  std::vector<double> samples;
  for (int s = 0; s < 20; s++) {
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; r++) launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    samples.push_back(ms / reps);
  }
  CHECK(cudaGetLastError());
  std::sort(samples.begin(), samples.end());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return {(samples[9] + samples[10]) / 2, samples.front(), samples.back()};
}

int main() {
  const size_t count = size_t(N) * N, bytes = count * 4;
  std::vector<int> ha(count), hb(count), hr(count);
  unsigned s = 12345;
  for (size_t i = 0; i < count; i++) {
    s = s * 1664525u + 1013904223u;
    ha[i] = int(s >> 8);
    s = s * 1664525u + 1013904223u;
    hb[i] = int(s >> 8);
  }
  int *a, *b, *r;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&r, bytes));
  CHECK(cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs, L2 %d MiB, %dx%d 4-byte elements (%zu MiB per matrix)\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, N, N, bytes >> 20);

  double copy_gbs = 0;
  auto report = [&](const std::string& name, int arrays, Timing t, bool ok) {
    const double gbs = arrays * double(bytes) / (t.median * 1e-3) / 1e9;
    if (copy_gbs == 0) copy_gbs = gbs;
    std::printf("%-44s %-8s %9.4f %9.4f %9.4f %9.1f %7.1f\n", name.c_str(),
                ok ? "verified" : "WRONG", t.median, t.min, t.max, gbs, 100 * gbs / copy_gbs);
  };
  std::printf("%-44s %-8s %9s %9s %9s %9s %7s\n", "kernel", "result", "median ms", "min ms",
              "max ms", "GB/s", "% copy");

  auto poison = [&] { CHECK(cudaMemset(r, 0xff, bytes)); };
  auto fetch = [&] { CHECK(cudaMemcpy(hr.data(), r, bytes, cudaMemcpyDeviceToHost)); };
  // Poisons the output, runs once, checks the result, then times the launch.
  auto run_checked = [&](const std::string& name, int arrays, const std::function<bool()>& check,
                         const std::function<void()>& launch) {
    poison();
    launch();
    CHECK(cudaDeviceSynchronize());
    const bool ok = check();
    report(name, arrays, time_it(launch), ok);
  };
  auto copy_ok = [&] {
    fetch();
    return std::equal(hr.begin(), hr.end(), ha.begin());
  };

  // device copy
  report("device copy (cudaMemcpy D2D)", 2,
         time_it([&] { CHECK(cudaMemcpyAsync(r, a, bytes, cudaMemcpyDeviceToDevice)); }), true);
  const int copy_blocks = prop.multiProcessorCount * 8;
  run_checked("copy kernel, float4 grid-stride", 2, copy_ok, [&] {
    copy_vec4<<<copy_blocks, 256>>>(reinterpret_cast<const float4*>(a),
                                    reinterpret_cast<float4*>(r), count / 4);
  });

  // matrix addition
  auto add_ok = [&] {
    fetch();
    for (size_t i = 0; i < count; i++)
      if (hr[i] != int(unsigned(ha[i]) + unsigned(hb[i]))) return false;
    return true;
  };
  auto run_add = [&](const std::string& name, const std::function<void()>& launch) {
    run_checked(name, 3, add_ok, launch);
  };
  for (auto [bx, by] : {std::pair{128, 2}, {256, 1}, {64, 4}}) {
    const dim3 block(bx, by), grid(N / bx, N / by);
    run_add("matadd.elements " + std::to_string(bx) + "x" + std::to_string(by),
            [=] { add_elements<<<grid, block>>>(a, b, r, N, N); });
  }
  run_add("  + __restrict__ 128x2",
          [=] { add_elements_restrict<<<dim3(N / 128, N / 2), dim3(128, 2)>>>(a, b, r, N, N); });
  run_add("  2 elements/thread, strided, 128x2",
          [=] { add_strided<2><<<dim3(N / 256, N / 2), dim3(128, 2)>>>(a, b, r, N, N); });
  run_add("  4 elements/thread, strided, 128x2",
          [=] { add_strided<4><<<dim3(N / 512, N / 2), dim3(128, 2)>>>(a, b, r, N, N); });
  for (auto [bx, by] : {std::pair{128, 2}, {256, 1}, {64, 4}, {128, 4}}) {
    const dim3 block(bx, by), grid(N / 4 / bx, N / by);
    run_add("  int4/thread " + std::to_string(bx) + "x" + std::to_string(by), [=] {
      add_vec4<<<grid, block>>>(reinterpret_cast<const int4*>(a), reinterpret_cast<const int4*>(b),
                                reinterpret_cast<int4*>(r), N / 4, N);
    });
  }
  run_add("  2 x int4/thread 128x2", [=] {
    add_vec4x2<<<dim3(N / 8 / 128, N / 2), dim3(128, 2)>>>(
        reinterpret_cast<const int4*>(a), reinterpret_cast<const int4*>(b),
        reinterpret_cast<int4*>(r), N / 4, N);
  });

  // transpose (float bits: an int-exact check)
  const float* fa = reinterpret_cast<const float*>(a);
  float* fr = reinterpret_cast<float*>(r);
  auto tr_ok = [&] {
    fetch();
    for (int y = 0; y < N; y++)
      for (int x = 0; x < N; x++)
        if (hr[size_t(x) * N + y] != ha[size_t(y) * N + x]) return false;
    return true;
  };
  auto run_tr = [&](const std::string& name, const std::function<void()>& launch) {
    run_checked(name, 2, tr_ok, launch);
  };
  run_tr("transpose.coalesced 64/4 pad 1",
         [=] { tr_coalesced<64, 1><<<dim3(N / 64, N / 64), dim3(64, 4)>>>(fa, fr, N, N); });
  run_tr("transpose.coalesced 32/8 pad 1",
         [=] { tr_coalesced<32, 1><<<dim3(N / 32, N / 32), dim3(32, 8)>>>(fa, fr, N, N); });
  run_tr("  unrolled + __restrict__ 64/4",
         [=] { tr_unrolled<64, 4, 1><<<dim3(N / 64, N / 64), dim3(64, 4)>>>(fa, fr, N, N); });
  run_tr("  unrolled + __restrict__ 64/8",
         [=] { tr_unrolled<64, 8, 1><<<dim3(N / 64, N / 64), dim3(64, 8)>>>(fa, fr, N, N); });
  run_tr("  unrolled + __restrict__ 32/8",
         [=] { tr_unrolled<32, 8, 1><<<dim3(N / 32, N / 32), dim3(32, 8)>>>(fa, fr, N, N); });
  run_tr("  diagonal block order 64/4",
         [=] { tr_diagonal<64, 4, 1><<<dim3(N / 64, N / 64), dim3(64, 4)>>>(fa, fr, N, N); });
  for (int rows : {4, 8, 16}) {
    run_tr("  float4 global, 64 tile, 16x" + std::to_string(rows), [=] {
      const dim3 grid(N / 64, N / 64), block(16, rows);
      const auto* i4 = reinterpret_cast<const float4*>(fa);
      auto* o4 = reinterpret_cast<float4*>(fr);
      if (rows == 4) tr_vec4<4><<<grid, block>>>(i4, o4, N, N);
      if (rows == 8) tr_vec4<8><<<grid, block>>>(i4, o4, N, N);
      if (rows == 16) tr_vec4<16><<<grid, block>>>(i4, o4, N, N);
    });
  }
  // Round 2: shared-memory carveout (occupancy), block order, larger tiles.
  auto carve = [](const void* f) {
    CHECK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared));
  };
  carve(reinterpret_cast<const void*>(&tr_unrolled<64, 4, 1>));
  carve(reinterpret_cast<const void*>(&tr_unrolled<64, 8, 1>));
  carve(reinterpret_cast<const void*>(&tr_vec4<8>));
  carve(reinterpret_cast<const void*>(&tr_vec4<16>));
  run_tr("  max carveout: unrolled 64/4",
         [=] { tr_unrolled<64, 4, 1><<<dim3(N / 64, N / 64), dim3(64, 4)>>>(fa, fr, N, N); });
  run_tr("  max carveout: unrolled 64/8",
         [=] { tr_unrolled<64, 8, 1><<<dim3(N / 64, N / 64), dim3(64, 8)>>>(fa, fr, N, N); });
  run_tr("  max carveout: float4 16x8", [=] {
    tr_vec4<8><<<dim3(N / 64, N / 64), dim3(16, 8)>>>(reinterpret_cast<const float4*>(fa),
                                                       reinterpret_cast<float4*>(fr), N, N);
  });
  run_tr("  max carveout: float4 16x16", [=] {
    tr_vec4<16><<<dim3(N / 64, N / 64), dim3(16, 16)>>>(reinterpret_cast<const float4*>(fa),
                                                         reinterpret_cast<float4*>(fr), N, N);
  });
  run_tr("  grouped G=4 unrolled 64/8",
         [=] { tr_grouped<64, 8, 1, 4><<<dim3(N / 64, N / 64), dim3(64, 8)>>>(fa, fr, N, N); });
  run_tr("  grouped G=16 unrolled 64/8",
         [=] { tr_grouped<64, 8, 1, 16><<<dim3(N / 64, N / 64), dim3(64, 8)>>>(fa, fr, N, N); });
  run_tr("  grouped G=32 unrolled 64/8",
         [=] { tr_grouped<64, 8, 1, 32><<<dim3(N / 64, N / 64), dim3(64, 8)>>>(fa, fr, N, N); });
  run_tr("  grouped G=16 unrolled 64/4",
         [=] { tr_grouped<64, 4, 1, 16><<<dim3(N / 64, N / 64), dim3(64, 4)>>>(fa, fr, N, N); });
  run_tr("  grouped G=32 unrolled 64/4",
         [=] { tr_grouped<64, 4, 1, 32><<<dim3(N / 64, N / 64), dim3(64, 4)>>>(fa, fr, N, N); });
  {
    const size_t smem128 = 128 * 129 * sizeof(float);
    CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(&tr_vec4_dyn<128, 8>),
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem128)));
    CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(&tr_vec4_dyn<128, 16>),
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem128)));
    carve(reinterpret_cast<const void*>(&tr_vec4_dyn<128, 8>));
    carve(reinterpret_cast<const void*>(&tr_vec4_dyn<128, 16>));
    run_tr("  float4 global, 128 tile, 32x8", [=] {
      tr_vec4_dyn<128, 8><<<dim3(N / 128, N / 128), dim3(32, 8), smem128>>>(
          reinterpret_cast<const float4*>(fa), reinterpret_cast<float4*>(fr), N, N);
    });
    run_tr("  float4 global, 128 tile, 32x16", [=] {
      tr_vec4_dyn<128, 16><<<dim3(N / 128, N / 128), dim3(32, 16), smem128>>>(
          reinterpret_cast<const float4*>(fa), reinterpret_cast<float4*>(fr), N, N);
    });
  }
  // matadd: elements per thread (a block-width apart) x block shape
  for (auto [bx, by] : {std::pair{128, 2}, {256, 1}, {64, 4}, {128, 1}, {512, 1}, {32, 8}}) {
    const std::string shape = std::to_string(bx) + "x" + std::to_string(by);
    run_add("  2/thread " + shape, [=] {
      add_strided<2><<<dim3(N / (2 * bx), N / by), dim3(bx, by)>>>(a, b, r, N, N);
    });
  }
  run_add("  8/thread 128x2",
          [=] { add_strided<8><<<dim3(N / 1024, N / 2), dim3(128, 2)>>>(a, b, r, N, N); });
  run_add("  matadd.elements 128x2 again",
          [=] { add_elements<<<dim3(N / 128, N / 2), dim3(128, 2)>>>(a, b, r, N, N); });
  run_add("  2/thread 128x2 again",
          [=] { add_strided<2><<<dim3(N / 256, N / 2), dim3(128, 2)>>>(a, b, r, N, N); });

  // Round 3: what the swap costs, and the strip transpose without conflicts.
  carve(reinterpret_cast<const void*>(&tr_vec4_smem_copy<16>));
  carve(reinterpret_cast<const void*>(&tr_vec4_rotated<16>));
  carve(reinterpret_cast<const void*>(&tr_vec4_rotated<8>));
  run_checked("  max carveout: float4 16x16 tile copy, no swap", 2, copy_ok, [=] {
    tr_vec4_smem_copy<16><<<dim3(N / 64, N / 64), dim3(16, 16)>>>(
        reinterpret_cast<const float4*>(fa), reinterpret_cast<float4*>(fr), N, N);
  });
  run_tr("  max carveout: float4 16x16 again", [=] {
    tr_vec4<16><<<dim3(N / 64, N / 64), dim3(16, 16)>>>(reinterpret_cast<const float4*>(fa),
                                                         reinterpret_cast<float4*>(fr), N, N);
  });
  run_tr("  max carveout: float4 16x16 conflict-free", [=] {
    tr_vec4_rotated<16><<<dim3(N / 64, N / 64), dim3(16, 16)>>>(
        reinterpret_cast<const float4*>(fa), reinterpret_cast<float4*>(fr), N, N);
  });
  run_tr("  max carveout: float4 16x8 conflict-free", [=] {
    tr_vec4_rotated<8><<<dim3(N / 64, N / 64), dim3(16, 8)>>>(
        reinterpret_cast<const float4*>(fa), reinterpret_cast<float4*>(fr), N, N);
  });

  // The device copy again, last, to see the drift over the run.
  const double first = copy_gbs;
  copy_gbs = 0;
  report("device copy again", 2,
         time_it([&] { CHECK(cudaMemcpyAsync(r, a, bytes, cudaMemcpyDeviceToDevice)); }), true);
  std::printf("device copy first %.1f GB/s, last %.1f GB/s\n", first, copy_gbs);
  return 0;
}
