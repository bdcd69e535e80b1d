// setRowReadCol with a padded tile: one extra word per row moves each row one
// bank over, so a column's 32 words fall in 32 banks.
template <typename ELEM, int BLOCK_X, int BLOCK_Y> __global__ void setRowReadCol(ELEM* out_all) {
  ELEM* out = out_all + static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y;
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X + 1];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}
