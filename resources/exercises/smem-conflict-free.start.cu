// setRowReadCol: each block writes its thread indices into a tile by rows,
// waits, and reads them back by columns into its slice of out_all.
template <typename ELEM, int BLOCK_X, int BLOCK_Y> __global__ void setRowReadCol(ELEM* out_all) {
  ELEM* out = out_all + static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y;
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}
