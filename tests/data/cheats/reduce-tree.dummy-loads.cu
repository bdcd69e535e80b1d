// A known cheat (the CUDA twin of reduce-tree.dummy-loads.cl): thread 0 adds
// the block's inputs from global memory alone, beside dummy shared loads.
template <typename ELEM, int WG> __global__ void reduce_interleaved(const ELEM* global_mem, ELEM* out,
                                                                    int len) {
  __shared__ ELEM local_mem[WG];
  const size_t local_id = threadIdx.x;
  local_mem[local_id] = 0;
  __syncthreads();
  if (local_id == 0) {
    ELEM sum = 0;
    const size_t first = 2 * static_cast<size_t>(blockIdx.x) * WG;
    for (size_t k = first; k < first + 2 * WG && k < (size_t)len; k++) sum += global_mem[k];
    for (int k = 0; k < 8; k++) sum += local_mem[k] * 0;
    out[blockIdx.x] = sum;
  }
}
