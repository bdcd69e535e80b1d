// The naive transpose: thread (i, j) copies A's element (i, j) to trA's (j, i).
template <typename ELEM> __global__ void transpose_naive(const ELEM* a, ELEM* trA,
                                                         int columnsA, int rowsA) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = a[i * columnsA + j];
  }
}
