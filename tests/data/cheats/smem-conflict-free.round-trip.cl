// A known cheat: each thread stores its index into the tile and reads back
// the word it stored itself, and writes the transposed index it computes
// alone. One conflict-free shared store and load per output store, verified;
// but no thread reads a word another wrote: the tile carries nothing.
__kernel void setRowReadCol(__global ELEM* out_all) {
  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);
  __local ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  const unsigned int mine = tile[get_local_id(1)][get_local_id(0)];
  out[idx] = mine - idx + get_local_id(0) * get_local_size(0) + get_local_id(1);
}
