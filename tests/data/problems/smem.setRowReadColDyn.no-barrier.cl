// setRowReadColDyn (a dynamic tile) with its barrier removed.
__kernel void setRowReadColDyn(__global ELEM* out_all, __local ELEM* tile) {
  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);
  const unsigned int row_idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  const unsigned int col_idx = get_local_id(0) * get_local_size(1) + get_local_id(1);
  tile[row_idx] = row_idx;
  out[row_idx] = tile[col_idx];
}
