// setRowReadCol with its barrier removed: a thread reads the tile's column
// before (or after) the thread that stores that word, in one barrier interval.
template <typename ELEM, int BLOCK_X, int BLOCK_Y> __global__ void setRowReadCol(ELEM* out_all) {
  ELEM* out = out_all + static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y;
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  out[idx] = tile[threadIdx.x][threadIdx.y];
}
