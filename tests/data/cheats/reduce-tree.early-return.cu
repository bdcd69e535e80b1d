// A buggy tree (the CUDA twin of reduce-tree.early-return.cl): the threads
// past each level's stride return before the level's __syncthreads.
template <typename ELEM, int WG> __global__ void reduce_interleaved(const ELEM* global_mem, ELEM* out,
                                                                    int len) {
  __shared__ ELEM local_mem[WG];
  const size_t local_id = threadIdx.x;
  const size_t global_id = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  __syncthreads();
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    if (local_id >= stride) return;
    local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
    __syncthreads();
  }
  if (local_id == 0) {
    out[blockIdx.x] = local_mem[0];
  }
}
