// A known cheat (issue "Why it failed", item 4): the column read's value
// written straight to out, with no tile and no shared memory at all. It is
// verified and has no bank conflicts; check must grade it as not met.
__kernel void setRowReadCol(__global ELEM* out_all) {
  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  out[idx] = get_local_id(0) * get_local_size(0) + get_local_id(1);
}
