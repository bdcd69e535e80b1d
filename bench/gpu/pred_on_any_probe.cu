// What Nsight Compute's smsp__inst_executed_op_shared_{ld,st}_pred_on_any
// count when a warp executes a shared-memory instruction with every lane
// predicated off. A trace records a request only where at least one lane
// made the access; the tree reductions execute most of their shared loads
// and stores with every lane of the warp predicated off (the machine code
// predicates the tree steps instead of branching around them), and there
// ncu's pred_on_any counts come out ~1 % above the trace's, by an amount
// that changes from one run of the same work to the next. This kernel
// executes known numbers of predicated shared loads and stores:
//
//   mode none       every lane off in every loop iteration
//   mode one        lane 0 of every warp on
//   mode all        every lane on
//   mode alternate  a warp's lanes all on in every other iteration, all off
//                   in the rest (warps out of step with each other)
//
// Per warp: one unpredicated store before the loop, then `iterations` times
// one predicated load and one predicated store (inline PTX, so ptxas keeps
// the predicate and no branch). Expected counts, W warps, N iterations:
//
//   inst_executed  ld W*N, st W*(N+1)
//   pred_on_any    none: ld 0, st W;  one, all: ld W*N, st W*(N+1);
//                  alternate: ld W*N/2, st W*(N/2+1)
//
// Build and run under ncu (bench/gpu/run.sh predication does both):
//   nvcc -O3 -arch=sm_90 -o pred_on_any_probe pred_on_any_probe.cu
//   ncu --metrics smsp__inst_executed_op_shared_ld.sum,... ./pred_on_any_probe none
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

constexpr int kBlocks = 2048;
constexpr int kThreads = 256;
constexpr int kIterations = 64;

__global__ void probe(int* out, int mode) {
  __shared__ int s[kThreads];
  const unsigned t = threadIdx.x;
  const unsigned lane = t % 32, warp = t / 32;
  s[t] = static_cast<int>(t);
  __syncthreads();
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(&s[t]));
  int sum = 0;
  for (int i = 0; i < kIterations; ++i) {
    const unsigned on = mode == 0   ? 0u
                        : mode == 1 ? (lane == 0 ? 1u : 0u)
                        : mode == 2 ? 1u
                                    : ((warp + blockIdx.x + static_cast<unsigned>(i)) & 1u);
    int v = 0;
    asm volatile(
        "{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\t@q ld.shared.u32 %0, [%2];\n\t"
        "@q st.shared.u32 [%2], %3;\n\t}"
        : "+r"(v)
        : "r"(on), "r"(address), "r"(i)
        : "memory");
    sum += v;
  }
  out[blockIdx.x * kThreads + t] = sum;
}

int main(int argc, char** argv) {
  const char* names[] = {"none", "one", "all", "alternate"};
  int mode = -1;
  for (int m = 0; m < 4; ++m)
    if (argc > 1 && std::strcmp(argv[1], names[m]) == 0) mode = m;
  if (mode < 0) {
    std::fprintf(stderr, "usage: %s none|one|all|alternate\n", argv[0]);
    return 2;
  }
  int* out = nullptr;
  if (cudaMalloc(&out, sizeof(int) * kBlocks * kThreads) != cudaSuccess) return 1;
  probe<<<kBlocks, kThreads>>>(out, mode);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "probe: %s\n", cudaGetErrorString(e));
    return 1;
  }
  const long long warps = 1ll * kBlocks * kThreads / 32, n = kIterations;
  const long long ld_on = mode == 0 ? 0 : mode == 3 ? warps * n / 2 : warps * n;
  std::printf("mode %s warps %lld iterations %lld expected ld inst %lld st inst %lld ld pred_on_any %lld st pred_on_any %lld\n",
              names[mode], warps, n, warps * n, warps * (n + 1), ld_on, ld_on + warps);
  cudaFree(out);
  return 0;
}
