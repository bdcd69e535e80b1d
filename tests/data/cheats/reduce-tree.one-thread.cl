// A known cheat: thread 0 adds the group's values alone. One lane per load,
// so no bank conflicts; but no tree, and WG loads in a row.
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
  if (local_id == 0) {
    ELEM sum = 0;
    for (int k = 0; k < WG; k++) sum += local_mem[k];
    out[get_group_id(0)] = sum;
  }
}
