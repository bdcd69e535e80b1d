// A solution: the block's bins in shared memory, cleared, counted into, and
// added to the global bins once.
#define BIN(v) ((HOT && (v) % 8 != 0) ? 0 : (v) % BINS)

extern "C" __global__ void hist_shared(const int* values, int* bins, int n) {
  __shared__ int counts[BINS];
  for (int b = threadIdx.x; b < BINS; b += WG) counts[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = values[i];
    atomicAdd(&counts[BIN(v)], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += WG) atomicAdd(&bins[b], counts[b]);
}
