// Which parts of a clock pass's design move the barrier figures it records
// (arrival spread, release latency; docs/traces.md), measured on
// setRowReadCol (264 and 65536 blocks) and transpose.shared (1024 x 1024):
// the probe of barrier_probe.cu with one design choice changed at a time.
//
//   0 the probe: BAR.RED, whose result gates the release clock; stamps in
//     registers; plain stores at the end; no schedule record
//   1 the earlier clock pass: BAR.SYNC and the release clock after a load of a
//     shared word no thread writes; lane 0 keeps its stamps in a 6 KB shared
//     array; at the end %globaltimer and three 64-bit atomics per warp into a
//     per-block schedule record, and the slot looked up
//   2 1 with the BAR.RED release
//   3 BAR.RED, register stamps, the three atomics and %globaltimer at the end
//   4 BAR.RED, the slot loaded at the start, lane 0 storing its stamps to
//     global memory right after the release, a per-warp schedule record by
//     plain stores
//   5 BAR.RED, stamps in local memory, a per-warp schedule record by plain stores
//   6 BAR.RED, register stamps, a per-warp schedule record by plain stores
//     (clock, %globaltimer, %smid): ThreadMap's clock pass now
//   7 6 without %globaltimer
// Every output is checked against the host. Three rounds; one JSON line per
// kernel, size, variant and round. Standalone (CUDA runtime only):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o barrier_variants bench/gpu/barrier_variants.cu && ./barrier_variants
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1);} } while (0)
struct Stamp { unsigned long long arrival, release; };
struct Warp { unsigned long long start, end, ns; unsigned int sm, pad; };

__device__ __forceinline__ unsigned long long now() { unsigned long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ unsigned long long gtimer() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ unsigned int smid() { unsigned int s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

struct Ctx {
  Stamp* stamps; Warp* warps; unsigned long long* sched; const unsigned int* slots;
};
__shared__ unsigned int g_kept[16][32][3];
__shared__ unsigned int g_word;

template <int V> struct Clock {
  unsigned long long start, arrival = 0, release = 0;
  unsigned int slot = 0;
  Stamp* dst = nullptr;
  unsigned int warp, lead, block, nwarps;
  __device__ void begin(const Ctx& c) {
    start = now();
    const unsigned int thread = threadIdx.x + blockDim.x * threadIdx.y;
    warp = thread / 32; lead = thread % 32 == 0; nwarps = (blockDim.x * blockDim.y + 31) / 32;
    block = blockIdx.x + gridDim.x * blockIdx.y;
    if (V == 4) slot = c.slots[block];
  }
  __device__ void barrier(const Ctx& c) {
    arrival = now();
    if (V == 1) {
      __syncthreads();
      const unsigned int w = *static_cast<volatile unsigned int*>(&g_word);
      asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0x5eed1e55;\n\t@p mov.u64 %0, %%clock64;\n\t@!p mov.u64 %0, 0;\n\t}" : "=l"(release) : "r"(w) : "memory");
    } else {
      const int count = __syncthreads_count(1);
      asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, -1;\n\t@p mov.u64 %0, %%clock64;\n\t@!p mov.u64 %0, 0;\n\t}" : "=l"(release) : "r"(count) : "memory");
    }
    if ((V == 1 || V == 2) && lead) { g_kept[0][warp][0] = (unsigned)arrival; g_kept[0][warp][1] = (unsigned)release; g_kept[0][warp][2] = 42; }
    if (V == 4 && lead) { Stamp* s = c.stamps + (size_t)slot * nwarps + warp; s->arrival = arrival; s->release = release; }
    if (V == 5 && lead) { volatile unsigned int kept[3]; kept[0] = (unsigned)arrival; kept[1] = (unsigned)release; kept[2] = 42;
      arrival = arrival - (unsigned)arrival + kept[0]; release = release - (unsigned)release + kept[1]; }
  }
  __device__ void end(const Ctx& c) {
    if (!lead) return;
    if (V == 1 || V == 2 || V == 3) {
      const unsigned long long e = now(), ns = gtimer();
      unsigned long long* s = c.sched + 4 * block;
      atomicMin(s, start); atomicMax(s + 1, ns); atomicMax(s + 2, e);
      if (warp == 0) reinterpret_cast<unsigned int*>(s + 3)[0] = smid();
      if (V == 3) { c.stamps[(size_t)block * nwarps + warp] = Stamp{arrival, release}; return; }
      const unsigned int first = c.slots[block];
      Stamp* d = c.stamps + (size_t)first * nwarps + warp;
      d->arrival = arrival - (unsigned)arrival + g_kept[0][warp][0];
      d->release = release - (unsigned)release + g_kept[0][warp][1];
      return;
    }
    if (V == 0) { c.stamps[(size_t)block * nwarps + warp] = Stamp{arrival, release}; return; }
    Warp w; w.start = start; w.end = now(); w.ns = V == 7 ? 0 : gtimer(); w.sm = smid(); w.pad = 0;
    c.warps[(size_t)block * nwarps + warp] = w;
    if (V != 4) c.stamps[(size_t)block * nwarps + warp] = Stamp{arrival, release};
  }
};

template <int V>
__global__ void set_row_read_col(int* out_all, Ctx c) {
  Clock<V> k; k.begin(c);
  int* out = out_all + static_cast<size_t>(blockIdx.x) * 32 * 32;
  __shared__ int tile[32][32];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  k.barrier(c);
  out[idx] = tile[threadIdx.x][threadIdx.y];
  k.end(c);
}
template <int V>
__global__ void transpose_shared(const int* a, int* trA, int columnsA, int rowsA, Ctx c) {
  Clock<V> k; k.begin(c);
  __shared__ int tile[16][16];
  const int loc_i = threadIdx.x, loc_j = threadIdx.y;
  int i = blockIdx.x * 16 + loc_i;
  int j = blockIdx.y * 16 + loc_j;
  if (i < rowsA && j < columnsA) tile[loc_j][loc_i] = a[i * columnsA + j];
  k.barrier(c);
  i = blockIdx.y * 16 + loc_i;
  j = blockIdx.x * 16 + loc_j;
  if (i < columnsA && j < rowsA) trA[i * rowsA + j] = tile[loc_i][loc_j];
  k.end(c);
}

struct Figures { std::vector<unsigned long long> spreads, releases; bool ok = true; };
Figures figures(const std::vector<Stamp>& stamps, size_t groups, unsigned int warps) {
  Figures f;
  for (size_t g = 0; g < groups; ++g) {
    unsigned long long first = ~0ull, last = 0, release = ~0ull;
    for (unsigned int w = 0; w < warps; ++w) { const Stamp& s = stamps[g * warps + w]; first = std::min(first, s.arrival); last = std::max(last, s.arrival); release = std::min(release, s.release); }
    f.spreads.push_back(last - first); f.ok = f.ok && release >= last; f.releases.push_back(release >= last ? release - last : 0);
  }
  std::sort(f.spreads.begin(), f.spreads.end()); std::sort(f.releases.begin(), f.releases.end());
  return f;
}
unsigned long long med(const std::vector<unsigned long long>& v) { return v[(v.size() - 1) / 2]; }

struct Buffers { Ctx c; size_t blocks, warps; };
Buffers buffers(size_t blocks, unsigned warps) {
  Buffers b{{}, blocks, warps};
  CHECK(cudaMalloc(&b.c.stamps, sizeof(Stamp) * warps * blocks));
  CHECK(cudaMalloc(&b.c.warps, sizeof(Warp) * warps * blocks));
  CHECK(cudaMalloc(&b.c.sched, sizeof(unsigned long long) * 4 * blocks));
  unsigned int* slots; CHECK(cudaMalloc(&slots, sizeof(unsigned) * blocks));
  std::vector<unsigned> h(blocks); for (size_t i = 0; i < blocks; ++i) h[i] = i;
  CHECK(cudaMemcpy(slots, h.data(), sizeof(unsigned) * blocks, cudaMemcpyHostToDevice));
  b.c.slots = slots;
  return b;
}
void release(Buffers& b) { cudaFree(b.c.stamps); cudaFree(b.c.warps); cudaFree(b.c.sched); cudaFree((void*)b.c.slots); }
void report(const char* k, int V, size_t blocks, Buffers& b) {
  std::vector<Stamp> s(b.blocks * b.warps);
  CHECK(cudaMemcpy(s.data(), b.c.stamps, s.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
  Figures f = figures(s, b.blocks, b.warps);
  std::printf("{\"kernel\": \"%s\", \"variant\": %d, \"blocks\": %zu, \"spread\": %llu, \"widest\": %llu, \"release\": %llu, \"release_max\": %llu, \"after\": %s}\n",
              k, V, blocks, med(f.spreads), f.spreads.back(), med(f.releases), f.releases.back(), f.ok ? "true" : "false");
}
template <int V> void srrc(int blocks) {
  int* out; CHECK(cudaMalloc(&out, sizeof(int) * 1024 * blocks));
  Buffers b = buffers(blocks, 32);
  for (int r = 0; r < 2; ++r) { CHECK(cudaMemset(b.c.sched, 0, 32 * blocks)); set_row_read_col<V><<<blocks, dim3(32, 32)>>>(out, b.c); }
  CHECK(cudaDeviceSynchronize());
  std::vector<int> host(1024 * (size_t)blocks);
  CHECK(cudaMemcpy(host.data(), out, host.size() * 4, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < host.size(); ++i) if (host[i] != (int)((i % 32) * 32 + (i % 1024) / 32)) { std::fprintf(stderr, "bad srrc V%d\n", V); std::exit(1); }
  report("smem.setRowReadCol", V, blocks, b); release(b); cudaFree(out);
}
template <int V> void tr(int n) {
  const size_t el = (size_t)n * n; std::vector<int> a(el); for (size_t i = 0; i < el; ++i) a[i] = (int)(i * 2654435761u);
  int *da, *dt; CHECK(cudaMalloc(&da, el * 4)); CHECK(cudaMalloc(&dt, el * 4));
  CHECK(cudaMemcpy(da, a.data(), el * 4, cudaMemcpyHostToDevice));
  const dim3 grid(n / 16, n / 16), block(16, 16);
  Buffers b = buffers((size_t)grid.x * grid.y, 8);
  for (int r = 0; r < 2; ++r) { CHECK(cudaMemset(b.c.sched, 0, 32 * b.blocks)); transpose_shared<V><<<grid, block>>>(da, dt, n, n, b.c); }
  CHECK(cudaDeviceSynchronize());
  std::vector<int> t(el); CHECK(cudaMemcpy(t.data(), dt, el * 4, cudaMemcpyDeviceToHost));
  for (int r = 0; r < n; ++r) for (int c = 0; c < n; ++c) if (t[(size_t)c * n + r] != a[(size_t)r * n + c]) { std::fprintf(stderr, "bad tr V%d\n", V); std::exit(1); }
  report("transpose.shared", V, b.blocks, b); release(b); cudaFree(da); cudaFree(dt);
}
template <int V> void all() { srrc<V>(264); srrc<V>(65536); tr<V>(1024); }
int main() {
  for (int rep = 0; rep < 3; ++rep) { all<0>(); all<1>(); all<2>(); all<3>(); all<4>(); all<5>(); all<6>(); all<7>(); }
}
