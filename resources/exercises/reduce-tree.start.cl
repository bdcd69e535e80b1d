// Sum of global_mem[0 .. len): each group adds 2 * WG elements into out[group].
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
  // Your part (the exercise): add local_mem[0 .. WG) into local_mem[0], one level
  // per barrier.

  if (local_id == 0) {
    out[get_group_id(0)] = local_mem[0];
  }
}
