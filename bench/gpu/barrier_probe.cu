// An independent measure of what ThreadMap's clock pass records at a barrier:
// the arrival spread (last warp's arrival minus the first's) and the release
// latency (the first warp's release after the last arrival), per block and
// barrier, for three catalog kernels with barriers.
//
// Its own method, sharing no code with ThreadMap's clock pass (kernels/ptx/ptx_instrument.h):
//   - the kernels are written out again here; they are compiled as ThreadMap
//     compiles the kernels it times (NVRTC, --gpu-architecture=compute_ARCH
//     -std=c++20 -lineinfo, loaded as PTX), so that both measure the same
//     machine code: nvcc, given the same text, makes other code (32-bit shared
//     addresses, one special-register read fewer per warp before the barrier);
//   - lane 0 of each warp keeps its stamps in registers (no shared memory);
//     the arrival is one clock read right before the barrier, the same
//     instruction as the clock pass's (CS2R.32; in transpose_shared ptxas
//     gives it the register of the stored value, so it waits for the store);
//   - the barrier is __syncthreads_count(1) (BAR.RED): the release stamp is
//     the clock read under a predicate computed from the barrier's own
//     result, so it cannot be taken before the barrier let the warp go, with
//     no memory access at all;
//   - every block writes its stamps with plain stores at its end.
// Every output is checked against the host before any figure is printed.
// Standalone (CUDA runtime, driver and NVRTC):
//   nvcc -O3 -std=c++17 -o barrier_probe bench/gpu/barrier_probe.cu -lnvrtc -lcuda && ./barrier_probe
// (barrier_variants.cu measures which parts of a clock pass's design move
// these figures.)
// Prints one JSON object per configuration (cycles of the SM clock).
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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

// Stamps of one warp at one barrier: arrival, release (as in kProbeKernels).
struct Stamp {
  unsigned long long arrival, release;
};
constexpr int kWg = 256;
constexpr int kReducePasses = 9;

// The probe's kernels, compiled at run time by NVRTC (no standard headers).
const char* const kProbeKernels = R"CUDA(
// Stamps of one warp at one barrier: arrival, release.
struct Stamp {
  unsigned long long arrival, release;
};

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// The low half of clock64, read as the clock pass reads it: one
// fixed-latency CS2R.32 into a vector register. ptxas makes a read of
// %clock, or of clock64 kept to its low half, an S2UR into a uniform
// register (the clock is the same in every lane), a variable-latency read
// unlike the pass's; a predicate of the thread's own (always true) makes
// the read per-thread.
__device__ __forceinline__ unsigned int now32() {
  unsigned long long t;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.u32 p, %1, 0xffffffff;\n\t"
      "@p mov.u64 %0, %%clock64;\n\t"
      "@!p mov.u64 %0, 0;\n\t}"
      : "=l"(t)
      : "r"(threadIdx.x)
      : "memory");
  return (unsigned int)t;
}

// The barrier, and the clock read that needs its result.
__device__ __forceinline__ unsigned long long barrier_then_clock() {
  const int count = __syncthreads_count(1);
  unsigned long long t;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.s32 p, %1, -1;\n\t"
      "@p mov.u64 %0, %%clock64;\n\t"
      "@!p mov.u64 %0, 0;\n\t}"
      : "=l"(t)
      : "r"(count)
      : "memory");
  return t;
}

// A warp's arrival and release at one barrier. The arrival keeps the
// clock's low 32 bits, as the clock pass does, widened from the release's
// after the barrier. STAMP64 (`barrier_probe --stamp64`, the probe's first
// form) reads all 64 bits instead, into a register pair that ptxas may take
// from the shared store just before (the read then waits for the store to
// read its registers, which it does once it leaves the queue of
// shared-memory instructions).
#ifdef STAMP64
#define STAMP_BARRIER(s)              \
  {                                   \
    (s).arrival = now();              \
    (s).release = barrier_then_clock(); \
  }
#else
#define STAMP_BARRIER(s)                                                                  \
  {                                                                                       \
    const unsigned int arrival32 = now32();                                               \
    (s).release = barrier_then_clock();                                                   \
    (s).arrival = (s).release - (unsigned int)((unsigned int)(s).release - arrival32);    \
  }
#endif

__device__ __forceinline__ void keep(Stamp* stamps, int passes, int pass, const Stamp& s) {
  const unsigned int threads = blockDim.x * blockDim.y;
  const unsigned int thread = threadIdx.x + blockDim.x * threadIdx.y;
  if (thread % 32 != 0) return;
  const unsigned int warps = (threads + 31) / 32;
  stamps[((size_t)(blockIdx.x + gridDim.x * blockIdx.y) * passes + pass) * warps + thread / 32] = s;
}

// smem.setRowReadCol, int, 32 x 32 (kernels/lessons/smem.cu).
extern "C" __global__ void set_row_read_col(int* out_all, Stamp* stamps) {
  int* out = out_all + (size_t)(blockIdx.x) * 32 * 32;
  __shared__ int tile[32][32];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  Stamp s;
  STAMP_BARRIER(s);
  out[idx] = tile[threadIdx.x][threadIdx.y];
  keep(stamps, 1, 0, s);
}

// transpose.shared, int, TILE 16, PAD 0 (kernels/lessons/transpose.cu).
extern "C" __global__ void transpose_shared(const int* a, int* trA, int columnsA, int rowsA, Stamp* stamps) {
  __shared__ int tile[16][16];
  const int loc_i = threadIdx.x, loc_j = threadIdx.y;
  int i = blockIdx.x * 16 + loc_i;
  int j = blockIdx.y * 16 + loc_j;
  if (i < rowsA && j < columnsA) tile[loc_j][loc_i] = a[i * columnsA + j];
  Stamp s;
  STAMP_BARRIER(s);
  i = blockIdx.y * 16 + loc_i;
  j = blockIdx.x * 16 + loc_j;
  if (i < columnsA && j < rowsA) trA[i * rowsA + j] = tile[loc_i][loc_j];
  keep(stamps, 1, 0, s);
}

// reduce.sequential, float, WG 256 (kernels/lessons/reduce.cu): 9 barriers.
constexpr int kWg = 256;
constexpr int kReducePasses = 9;
extern "C" __global__ void reduce_sequential(const float* in, float* out, int len, Stamp* stamps) {
  __shared__ float local[kWg];
  const size_t local_id = threadIdx.x;
  const size_t global_id = (size_t)(blockIdx.x) * blockDim.x + threadIdx.x;
  local[local_id] = 0;
  if (2 * global_id < (size_t)(len)) local[local_id] = in[2 * global_id] + in[2 * global_id + 1];
  Stamp s[kReducePasses];
  STAMP_BARRIER(s[0]);
#pragma unroll
  for (int p = 1; p < kReducePasses; ++p) {
    const size_t stride = kWg >> p;
    if (local_id < stride) local[local_id] = local[local_id] + local[local_id + stride];
    STAMP_BARRIER(s[p]);
  }
  if (local_id == 0) out[blockIdx.x] = local[0];
#pragma unroll
  for (int p = 0; p < kReducePasses; ++p) keep(stamps, kReducePasses, p, s[p]);
}

)CUDA";

CUfunction g_set_row_read_col, g_transpose_shared, g_reduce_sequential;

// The kernels above, through NVRTC with ThreadMap's options, loaded as PTX.
void load_kernels(bool stamp64, const char* ptx_out) {
  CHECK(cudaFree(nullptr));  // the primary context, current for the driver API
  int device = 0;
  cudaDeviceProp prop;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaGetDeviceProperties(&prop, device));
  const std::string arch = "--gpu-architecture=compute_" + std::to_string(prop.major * 10 + prop.minor);
  const char* options[] = {arch.c_str(), "-std=c++20", "-lineinfo", "-DSTAMP64"};
  nvrtcProgram program;
  nvrtcCreateProgram(&program, kProbeKernels, "barrier_probe_kernels.cu", 0, nullptr, nullptr);
  const nvrtcResult compiled = nvrtcCompileProgram(program, stamp64 ? 4 : 3, options);
  size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  if (compiled != NVRTC_SUCCESS) {
    std::fprintf(stderr, "barrier_probe: NVRTC: %s\n%s\n", nvrtcGetErrorString(compiled), log.c_str());
    std::exit(1);
  }
  nvrtcGetPTXSize(program, &size);
  std::string ptx(size, '\0');
  nvrtcGetPTX(program, ptx.data());
  nvrtcDestroyProgram(&program);
  if (ptx_out) {
    FILE* f = std::fopen(ptx_out, "w");
    if (!f || std::fputs(ptx.c_str(), f) < 0 || std::fclose(f) != 0) {
      std::fprintf(stderr, "barrier_probe: cannot write %s\n", ptx_out);
      std::exit(1);
    }
  }
  CUmodule module;
  if (cuModuleLoadData(&module, ptx.c_str()) != CUDA_SUCCESS ||
      cuModuleGetFunction(&g_set_row_read_col, module, "set_row_read_col") != CUDA_SUCCESS ||
      cuModuleGetFunction(&g_transpose_shared, module, "transpose_shared") != CUDA_SUCCESS ||
      cuModuleGetFunction(&g_reduce_sequential, module, "reduce_sequential") != CUDA_SUCCESS) {
    std::fprintf(stderr, "barrier_probe: the PTX NVRTC made does not load\n");
    std::exit(1);
  }
}

template <class... Args>
void launch(CUfunction f, dim3 grid, dim3 block, Args... args) {
  void* parameters[] = {&args...};
  const CUresult r = cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, nullptr, parameters, nullptr);
  if (r != CUDA_SUCCESS) {
    const char* what = nullptr;
    cuGetErrorString(r, &what);
    std::fprintf(stderr, "barrier_probe: launch: %s\n", what ? what : "?");
    std::exit(1);
  }
}

struct Figures {
  std::vector<unsigned long long> spreads, releases;
  bool released_after_arrivals = true;
};

Figures figures(const std::vector<Stamp>& stamps, size_t groups, unsigned int warps) {
  Figures f;
  for (size_t g = 0; g < groups; ++g) {
    unsigned long long first = ~0ull, last = 0, release = ~0ull;
    for (unsigned int w = 0; w < warps; ++w) {
      const Stamp& s = stamps[g * warps + w];
      first = std::min(first, s.arrival);
      last = std::max(last, s.arrival);
      release = std::min(release, s.release);
    }
    f.spreads.push_back(last - first);
    f.released_after_arrivals = f.released_after_arrivals && release >= last;
    f.releases.push_back(release >= last ? release - last : 0);
  }
  std::sort(f.spreads.begin(), f.spreads.end());
  std::sort(f.releases.begin(), f.releases.end());
  return f;
}

unsigned long long median(const std::vector<unsigned long long>& v) { return v[(v.size() - 1) / 2]; }

void print(const char* kernel, const std::string& sets, size_t blocks, const Figures& f) {
  std::printf(
      "{\"kernel\": \"%s\", \"sets\": \"%s\", \"blocks\": %zu, \"passes\": %zu, "
      "\"arrival_spread_median\": %llu, \"widest_spread\": %llu, \"release_latency_median\": %llu, "
      "\"release_latency_max\": %llu, \"release_after_arrivals\": %s}\n",
      kernel, sets.c_str(), blocks, f.spreads.size(), median(f.spreads), f.spreads.back(),
      median(f.releases), f.releases.back(), f.released_after_arrivals ? "true" : "false");
}

void fail(const char* what) {
  std::fprintf(stderr, "barrier_probe: %s: output does not match the host\n", what);
  std::exit(1);
}

void probe_set_row_read_col(int blocks) {
  int* out;
  Stamp* stamps;
  CHECK(cudaMalloc(&out, sizeof(int) * 1024 * blocks));
  CHECK(cudaMalloc(&stamps, sizeof(Stamp) * 32 * blocks));
  launch(g_set_row_read_col, dim3(blocks), dim3(32, 32), out, stamps);  // warm-up: code and clocks
  launch(g_set_row_read_col, dim3(blocks), dim3(32, 32), out, stamps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> host(1024 * static_cast<size_t>(blocks));
  std::vector<Stamp> s(32 * static_cast<size_t>(blocks));
  CHECK(cudaMemcpy(host.data(), out, host.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s.data(), stamps, s.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
  for (size_t b = 0; b < static_cast<size_t>(blocks); ++b)
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 32; ++x)
        if (host[b * 1024 + y * 32 + x] != x * 32 + y) fail("setRowReadCol");
  print("smem.setRowReadCol", "blocks=" + std::to_string(blocks), blocks, figures(s, blocks, 32));
  CHECK(cudaFree(out));
  CHECK(cudaFree(stamps));
}

void probe_transpose_shared(int n) {
  const size_t elements = static_cast<size_t>(n) * n;
  std::vector<int> a(elements);
  for (size_t i = 0; i < elements; ++i) a[i] = static_cast<int>(i * 2654435761u);
  int *da, *dt;
  Stamp* stamps;
  const dim3 grid(n / 16, n / 16), block(16, 16);
  const size_t blocks = static_cast<size_t>(grid.x) * grid.y;
  CHECK(cudaMalloc(&da, elements * sizeof(int)));
  CHECK(cudaMalloc(&dt, elements * sizeof(int)));
  CHECK(cudaMalloc(&stamps, blocks * 8 * sizeof(Stamp)));
  CHECK(cudaMemcpy(da, a.data(), elements * sizeof(int), cudaMemcpyHostToDevice));
  launch(g_transpose_shared, grid, block, static_cast<const int*>(da), dt, n, n, stamps);
  launch(g_transpose_shared, grid, block, static_cast<const int*>(da), dt, n, n, stamps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> t(elements);
  std::vector<Stamp> s(blocks * 8);
  CHECK(cudaMemcpy(t.data(), dt, elements * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s.data(), stamps, s.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      if (t[static_cast<size_t>(c) * n + r] != a[static_cast<size_t>(r) * n + c]) fail("transpose.shared");
  print("transpose.shared", "width=" + std::to_string(n) + " height=" + std::to_string(n), blocks,
        figures(s, blocks, 8));
  CHECK(cudaFree(da));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(stamps));
}

void probe_reduce_sequential(int n) {
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7);
  const int blocks = (n / 2 + kWg - 1) / kWg;
  float *din, *dout;
  Stamp* stamps;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(float)));
  CHECK(cudaMalloc(&stamps, static_cast<size_t>(blocks) * kReducePasses * 8 * sizeof(Stamp)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  launch(g_reduce_sequential, dim3(blocks), dim3(kWg), static_cast<const float*>(din), dout, n, stamps);
  launch(g_reduce_sequential, dim3(blocks), dim3(kWg), static_cast<const float*>(din), dout, n, stamps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> out(blocks);
  std::vector<Stamp> s(static_cast<size_t>(blocks) * kReducePasses * 8);
  CHECK(cudaMemcpy(out.data(), dout, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s.data(), stamps, s.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    double sum = 0;
    for (int i = b * 2 * kWg; i < std::min(n, (b + 1) * 2 * kWg); ++i) sum += in[i];
    if (out[b] != static_cast<float>(sum)) fail("reduce.sequential");
  }
  print("reduce.sequential", "n=" + std::to_string(n), blocks,
        figures(s, static_cast<size_t>(blocks) * kReducePasses, 8));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(stamps));
}

// Usage: barrier_probe [--stamp64] [--ptx FILE]
//   --stamp64: each arrival a 64-bit clock read (STAMP64);
//   --ptx FILE: the PTX NVRTC made, written to FILE.
int main(int argc, char** argv) {
  bool stamp64 = false;
  const char* ptx_out = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--stamp64") stamp64 = true;
    else if (a == "--ptx" && i + 1 < argc) ptx_out = argv[++i];
    else {
      std::fprintf(stderr, "usage: barrier_probe [--stamp64] [--ptx FILE]\n");
      return 2;
    }
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "barrier_probe on %s%s\n", prop.name, stamp64 ? " (64-bit arrival stamps)" : "");
  load_kernels(stamp64, ptx_out);
  // One wave and less (8; 264 is two blocks on each of the H100's 132 SMs),
  // a few waves (1024) and many (65536): blocks that start beside a block
  // that is ending.
  for (int blocks : {8, 264, 1024, 65536}) probe_set_row_read_col(blocks);
  probe_transpose_shared(1024);
  probe_reduce_sequential(1 << 20);
  return 0;
}
