// reduce_interleaved with the barrier of its loop removed: each step reads
// partial sums another thread may not have written yet.
__kernel void reduce_interleaved(__global const ELEM* global_mem, __global ELEM* out,
                                 int len) {
  __local ELEM local_mem[WG];
  const size_t local_id = get_local_id(0);
  const size_t global_id = get_global_id(0);
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = 1; stride < WG; stride *= 2) {
    const size_t idx = 2 * stride * local_id;
    if (idx < WG) {
      local_mem[idx] = local_mem[idx] + local_mem[idx + stride];
    }
  }
  if (local_id == 0) {
    out[get_group_id(0)] = local_mem[0];
  }
}
