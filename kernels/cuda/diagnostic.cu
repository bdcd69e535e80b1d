// Not a lesson: a kernel that fails on purpose, so the tests can check what
// the CUDA backend does with an error raised inside a running kernel (it is
// reported with its CUDA name, it is sticky, and the program goes on).
// No catalog variant launches it.
#include "kernels/cuda/trace.cuh"

template <typename ELEM>
__global__ void trap_after_launch(ELEM* out TM_TRACE_PARAM) {
  out[threadIdx.x] = 0;
  __trap();
}
