// A buggy tree: each level's barrier is inside `if (local_id < stride)`, so
// only the threads still adding reach it. A barrier not every work-item of
// the group reaches is undefined behaviour in OpenCL (CUDA: __syncthreads in
// divergent code).
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
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    if (local_id < stride) {
      local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (local_id == 0) {
    out[get_group_id(0)] = local_mem[0];
  }
}
