// setRowReadColPad reading the padding column, which no thread writes: a
// tile read before (never) written.
__kernel void setRowReadColPad(__global ELEM* out_all) {
  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);
  __local ELEM tile[BLOCK_Y][BLOCK_X + PAD];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[get_local_id(0)][get_local_id(1) + PAD];
}
