// A histogram of n values into BINS bins, counted with atomics.
//
// global: every thread adds one to a bin in global memory: the whole grid
//         contends for the same BINS words.
// shared: each block counts into its own bins in shared memory, then adds
//         them to the global bins once: the contention stays in the block.
// no_zero: shared, without clearing the shared bins first: a learner's
//          classic mistake (known wrong: the bins start from garbage).
//
// HOT = 1 skews the input: seven values in eight fall in bin 0.
#define BIN(v) ((HOT && (v) % 8 != 0) ? 0 : (v) % BINS)  // v: a variable, read once

extern "C" __global__ void hist_global(const int* values, int* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = values[i];
  atomicAdd(&bins[BIN(v)], 1);
}

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

extern "C" __global__ void hist_no_zero(const int* values, int* bins, int n) {
  __shared__ int counts[BINS];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = values[i];
    atomicAdd(&counts[BIN(v)], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += WG) atomicAdd(&bins[b], counts[b]);
}

// warp: bins per warp in shared memory: a warp's lanes contend only with
//       each other; the block adds its warps' bins together at the end.
extern "C" __global__ void hist_warp(const int* values, int* bins, int n) {
  __shared__ int counts[(WG / 32) * BINS];
  for (int b = threadIdx.x; b < (WG / 32) * BINS; b += WG) counts[b] = 0;
  __syncthreads();
  int* mine = counts + (threadIdx.x / 32) * BINS;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = values[i];
    atomicAdd(&mine[BIN(v)], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += WG) {
    int sum = 0;
    for (int w = 0; w < WG / 32; ++w) sum += counts[w * BINS + b];
    atomicAdd(&bins[b], sum);
  }
}
