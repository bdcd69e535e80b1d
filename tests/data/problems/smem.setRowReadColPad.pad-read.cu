// setRowReadColPad reading the padding column, which no thread writes: a
// tile read before (never) written.
template <typename ELEM, int BLOCK_X, int BLOCK_Y, int PAD> __global__ void setRowReadColPad(ELEM* out_all) {
  ELEM* out = out_all + static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y;
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X + PAD];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y + PAD];
}
