// Sum of global_mem[0 .. len): each block adds 2 * WG elements into out[block].
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
  // Your part (the exercise): add local_mem[0 .. WG) into local_mem[0], one level
  // per barrier.

  if (local_id == 0) {
    out[blockIdx.x] = local_mem[0];
  }
}
