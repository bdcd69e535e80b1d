// Which part of the clock pass widens setRowReadCol's arrival spread beside
// the probe (docs/traces.md): each kernel is barrier_probe.cu's (NVRTC,
// compute_90, -std=c++20 -lineinfo, loaded as PTX) with the clock pass's
// choices added one at a time:
//   V0 the probe: clocks before and after the barrier, stamps stored at the end
//   V1 + a clock64 read at the warp's start (kept, stored at the end)
//   V2 + the slot table's global load at the end (the stamps' place)
//   V3 both
//   V4 the slot table's load made at the warp's start, its value used at the end
// each loaded as is and with the JIT's register cap of 32 the pass gets, at
// 8, 264, 1024 and 65536 blocks. Prints the median arrival spread (cycles).
//   nvcc -O2 -std=c++17 -o barrier_factors bench/gpu/barrier_factors.cu -lnvrtc -lcuda
// (bench/gpu/run.sh factors runs it three times.)
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#define CHECK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { std::fprintf(stderr, "%d %s\n", __LINE__, cudaGetErrorString(e_)); std::exit(1);} } while (0)
struct Stamp { unsigned long long arrival, release; };
const char* kSrc = R"CUDA(
struct Stamp { unsigned long long arrival, release; };
__device__ __forceinline__ unsigned long long now() { unsigned long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ unsigned long long release_clock() {
  const int count = __syncthreads_count(1);
  unsigned long long t;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, -1;\n\t@p mov.u64 %0, %%clock64;\n\t@!p mov.u64 %0, 0;\n\t}" : "=l"(t) : "r"(count) : "memory");
  return t;
}
template <int V> __device__ void body(int* out_all, Stamp* stamps, unsigned long long* starts, const unsigned* slots) {
  unsigned long long start = 0;
  unsigned early = 0;
  if (V == 4) early = slots[blockIdx.x];
  if (V == 1 || V == 3) start = now();
  int* out = out_all + (size_t)(blockIdx.x) * 32 * 32;
  __shared__ int tile[32][32];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  Stamp s;
  s.arrival = now();
  s.release = release_clock();
  out[idx] = tile[threadIdx.x][threadIdx.y];
  const unsigned int thread = threadIdx.x + blockDim.x * threadIdx.y;
  if (thread % 32 != 0) return;
  size_t at = (size_t)blockIdx.x * 32 + thread / 32;
  if (V == 2 || V == 3) at = (size_t)slots[blockIdx.x] * 32 + thread / 32;
  if (V == 4) at = (size_t)early * 32 + thread / 32;
  stamps[at] = s;
  if (V == 1 || V == 3) starts[at] = start;
}
extern "C" __global__ void k0(int* o, Stamp* s, unsigned long long* t, const unsigned* q) { body<0>(o, s, t, q); }
extern "C" __global__ void k1(int* o, Stamp* s, unsigned long long* t, const unsigned* q) { body<1>(o, s, t, q); }
extern "C" __global__ void k2(int* o, Stamp* s, unsigned long long* t, const unsigned* q) { body<2>(o, s, t, q); }
extern "C" __global__ void k3(int* o, Stamp* s, unsigned long long* t, const unsigned* q) { body<3>(o, s, t, q); }
extern "C" __global__ void k4(int* o, Stamp* s, unsigned long long* t, const unsigned* q) { body<4>(o, s, t, q); }
)CUDA";
int main() {
  CHECK(cudaFree(nullptr));
  const char* opts[] = {"--gpu-architecture=compute_90", "-std=c++20", "-lineinfo"};
  nvrtcProgram p; nvrtcCreateProgram(&p, kSrc, "f.cu", 0, nullptr, nullptr);
  if (nvrtcCompileProgram(p, 3, opts) != NVRTC_SUCCESS) { size_t n; nvrtcGetProgramLogSize(p, &n); std::string l(n, 0); nvrtcGetProgramLog(p, l.data()); std::fprintf(stderr, "%s\n", l.c_str()); return 1; }
  size_t n; nvrtcGetPTXSize(p, &n); std::string ptx(n, 0); nvrtcGetPTX(p, ptx.data());
  for (int cap : {0, 32}) {
    CUmodule m;
    CUjit_option o[] = {CU_JIT_MAX_REGISTERS}; void* v[] = {(void*)(size_t)cap};
    if (cuModuleLoadDataEx(&m, ptx.c_str(), cap ? 1 : 0, cap ? o : nullptr, cap ? v : nullptr) != CUDA_SUCCESS) return 2;
    for (int V = 0; V < 5; ++V) {
      CUfunction f; cuModuleGetFunction(&f, m, ("k" + std::to_string(V)).c_str());
      for (int blocks : {8, 264, 1024, 65536}) {
        int* out; Stamp* st; unsigned long long* t; unsigned* q;
        CHECK(cudaMalloc(&out, 4096ull * blocks)); CHECK(cudaMalloc(&st, sizeof(Stamp) * 32 * blocks));
        CHECK(cudaMalloc(&t, 8ull * 32 * blocks)); CHECK(cudaMalloc(&q, 4ull * blocks));
        std::vector<unsigned> h(blocks); for (int i = 0; i < blocks; ++i) h[i] = i;
        CHECK(cudaMemcpy(q, h.data(), 4ull * blocks, cudaMemcpyHostToDevice));
        void* a[] = {&out, &st, &t, &q};
        for (int r = 0; r < 2; ++r) cuLaunchKernel(f, blocks, 1, 1, 32, 32, 1, 0, nullptr, a, nullptr);
        CHECK(cudaDeviceSynchronize());
        std::vector<Stamp> s(32ull * blocks); CHECK(cudaMemcpy(s.data(), st, s.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
        std::vector<unsigned long long> sp;
        for (int b = 0; b < blocks; ++b) { unsigned long long lo = ~0ull, hi = 0; for (int w = 0; w < 32; ++w) { lo = std::min(lo, s[b * 32 + w].arrival); hi = std::max(hi, s[b * 32 + w].arrival); } sp.push_back(hi - lo); }
        std::sort(sp.begin(), sp.end());
        std::printf("cap %2d  V%d  %5d blocks  spread median %llu\n", cap, V, blocks, sp[(sp.size() - 1) / 2]);
        cudaFree(out); cudaFree(st); cudaFree(t); cudaFree(q);
      }
    }
  }
}
