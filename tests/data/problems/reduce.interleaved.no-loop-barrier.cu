// reduce_interleaved with the barrier of its loop removed: each step reads
// partial sums another thread may not have written yet.
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
  for (size_t stride = 1; stride < WG; stride *= 2) {
    const size_t idx = 2 * stride * local_id;
    if (idx < WG) {
      local_mem[idx] = local_mem[idx] + local_mem[idx + stride];
    }
  }
  if (local_id == 0) {
    out[blockIdx.x] = local_mem[0];
  }
}
