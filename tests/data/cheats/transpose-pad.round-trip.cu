// A known cheat (the CUDA twin of transpose-pad.round-trip.cl): each thread
// stores its element of A into the padded tile and reads back the word it
// stored itself; no thread reads a word another wrote.
template <typename ELEM, int TILE, int PAD> __global__ void transpose_shared(const ELEM* a, ELEM* trA,
                                                                             int columnsA, int rowsA) {
  __shared__ ELEM tile[TILE][TILE + 1];
  const int loc_i = threadIdx.x;
  const int loc_j = threadIdx.y;
  const int i = blockIdx.x * TILE + loc_i;
  const int j = blockIdx.y * TILE + loc_j;
  if (i < rowsA && j < columnsA) {
    tile[loc_j][loc_i] = a[i * columnsA + j];
  }
  __syncthreads();
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = tile[loc_j][loc_i];
  }
}
