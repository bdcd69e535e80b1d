// A known cheat (the CUDA twin of smem-conflict-free.round-trip.cl): each
// thread reads back the word it stored and computes the transposed index alone.
template <typename ELEM, int BLOCK_X, int BLOCK_Y> __global__ void setRowReadCol(ELEM* out_all) {
  ELEM* out = out_all + static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y;
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  const unsigned int mine = tile[threadIdx.y][threadIdx.x];
  out[idx] = mine - idx + threadIdx.x * blockDim.x + threadIdx.y;
}
