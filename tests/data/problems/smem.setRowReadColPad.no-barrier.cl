// setRowReadColPad with its barrier removed: padding removes the bank
// conflicts, not the race.
__kernel void setRowReadColPad(__global ELEM* out_all) {
  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);
  __local ELEM tile[BLOCK_Y][BLOCK_X + PAD];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  out[idx] = tile[get_local_id(0)][get_local_id(1)];
}
