// Exercise: privatise the bins. This kernel walks the values with a grid
// stride and adds one to a bin in global memory for each: every thread of the
// grid contends for the same BINS words. Give each block its own bins in
// shared memory, count into them, and add them to the global bins once per
// block. Keep the kernel's name and parameters.
#define BIN(v) ((HOT && (v) % 8 != 0) ? 0 : (v) % BINS)

extern "C" __global__ void hist_shared(const int* values, int* bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = values[i];
    atomicAdd(&bins[BIN(v)], 1);
  }
}
