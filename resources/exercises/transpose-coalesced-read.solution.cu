// The naive transpose with j from the thread's x: a warp reads a row of A.
template <typename ELEM> __global__ void transpose_naive(const ELEM* a, ELEM* trA,
                                                         int columnsA, int rowsA) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = a[i * columnsA + j];
  }
}
