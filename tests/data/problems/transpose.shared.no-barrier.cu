// The lesson's tiled transpose with its barrier removed.
template <typename ELEM, int TILE, int PAD> __global__ void transpose_shared(const ELEM* a, ELEM* trA,
                                                                             int columnsA, int rowsA) {
  __shared__ ELEM tile[TILE][TILE + PAD];
  const int loc_i = threadIdx.x;
  const int loc_j = threadIdx.y;
  int i = blockIdx.x * TILE + loc_i;
  int j = blockIdx.y * TILE + loc_j;
  if (i < rowsA && j < columnsA) {
    tile[loc_j][loc_i] = a[i * columnsA + j];
  }
  i = blockIdx.y * TILE + loc_i;
  j = blockIdx.x * TILE + loc_j;
  if (i < columnsA && j < rowsA) {
    trA[i * rowsA + j] = tile[loc_i][loc_j];
  }
}
