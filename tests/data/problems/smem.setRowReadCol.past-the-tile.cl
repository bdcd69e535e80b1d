// setRowReadCol reading one row further down the tile: the last thread of
// the block reads one element past the end of the tile.
__kernel void setRowReadCol(__global ELEM* out_all) {
  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);
  __local ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[get_local_id(0)][get_local_id(1) + 1];
}
