// Row sums: sums[r] = sum of m[r][0 .. width-1], three ways.
//
// serial: thread r walks row r alone      tree: block r takes row r
//   m row r: [0][1][2]...[w-1]              m row r: [0][1]..[WG-1][WG]..
//             t_r t_r t_r  t_r                        t0 t1  tWG-1 t0 ..
//                                           then scratch[WG] halves: WG/2, WG/4 .. 1
//
// What a learner should see: serial's warps read 32 rows at once (strided,
// one sector per thread); tree reads along the row (coalesced) and pays in
// barriers. off_by_one is tree with the classic mistake: `x < width - 1`.

__kernel void row_sum_serial(__global const ELEM* m, __global ELEM* sums, __local ELEM* scratch,
                             int width, int height) {
  int r = get_global_id(0);
  if (r >= height) return;
  ELEM s = 0;
  for (int x = 0; x < width; ++x) s += m[r * width + x];
  sums[r] = s;
}

__kernel void row_sum_tree(__global const ELEM* m, __global ELEM* sums, __local ELEM* scratch,
                           int width, int height) {
  int r = get_group_id(0);
  int t = get_local_id(0);
  ELEM s = 0;
  for (int x = t; x < width; x += WG) s += m[r * width + x];
  scratch[t] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int active = WG / 2; active > 0; active /= 2) {
    if (t < active) scratch[t] += scratch[t + active];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) sums[r] = scratch[0];
}

__kernel void row_sum_off_by_one(__global const ELEM* m, __global ELEM* sums, __local ELEM* scratch,
                                 int width, int height) {
  int r = get_group_id(0);
  int t = get_local_id(0);
  ELEM s = 0;
  for (int x = t; x < width - 1; x += WG) s += m[r * width + x];
  scratch[t] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int active = WG / 2; active > 0; active /= 2) {
    if (t < active) scratch[t] += scratch[t + active];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) sums[r] = scratch[0];
}
