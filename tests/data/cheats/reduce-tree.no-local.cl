// A known cheat: thread 0 adds the group's values straight from global
// memory; local memory is written and never read.
__kernel void reduce_interleaved(__global const ELEM* global_mem, __global ELEM* out,
                                 int len) {
  if (get_local_id(0) != 0) return;
  const size_t first = 2 * get_group_id(0) * WG;
  ELEM sum = 0;
  for (size_t k = first; k < first + 2 * WG && k < (size_t)len; k++) sum += global_mem[k];
  out[get_group_id(0)] = sum;
}
