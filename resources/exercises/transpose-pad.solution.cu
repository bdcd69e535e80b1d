// The tiled transpose with a padded tile: a column of the tile falls in
// different banks, so neither side of the tile conflicts.
template <typename ELEM, int TILE, int PAD> __global__ void transpose_shared(const ELEM* a, ELEM* trA,
                                                                             int columnsA, int rowsA) {
  __shared__ ELEM tile[TILE][TILE + 1];  // one element of padding per row
  const int loc_i = threadIdx.x;
  const int loc_j = threadIdx.y;
  int i = blockIdx.x * TILE + loc_i;
  int j = blockIdx.y * TILE + loc_j;
  if (i < rowsA && j < columnsA) {
    tile[loc_j][loc_i] = a[i * columnsA + j];
  }
  __syncthreads();
  i = blockIdx.y * TILE + loc_i;
  j = blockIdx.x * TILE + loc_j;
  if (i < columnsA && j < rowsA) {
    trA[i * rowsA + j] = tile[loc_i][loc_j];
  }
}
