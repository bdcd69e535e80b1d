// setRowReadCol with its barrier inside a branch: the warps of the lower half
// of the block wait there, the upper half never arrives.
template <typename ELEM, int BLOCK_X, int BLOCK_Y> __global__ void setRowReadCol(ELEM* out_all) {
  ELEM* out = out_all + static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y;
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  if (threadIdx.y < BLOCK_Y / 2) __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}
