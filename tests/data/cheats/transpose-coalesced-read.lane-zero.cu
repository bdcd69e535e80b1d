// A known cheat (the CUDA twin of transpose-coalesced-read.lane-zero.cl):
// lane 0 of each warp does the warp's elements alone.
template <typename ELEM> __global__ void transpose_naive(const ELEM* a, ELEM* trA,
                                                         int columnsA, int rowsA) {
  const int width = blockDim.x, height = blockDim.y;
  const int t = threadIdx.y * width + threadIdx.x;
  if (t % 32 != 0) return;
  for (int u = t; u < t + 32 && u < width * height; u++) {
    const int i = blockIdx.y * height + u / width;
    const int j = blockIdx.x * width + u % width;
    if (i < rowsA && j < columnsA) trA[j * rowsA + i] = a[i * columnsA + j];
  }
}
