// A known cheat: work-item 0 adds the whole matrix alone, walking it in
// order. Every request is one lane's, so none touches a sector more than
// its bytes need; but no warp shares the work.
__kernel void matadd_rows(__global const ELEM* a, __global const ELEM* b,
                          __global ELEM* res, int width, int height) {
  if (get_global_id(0) == 0) {
    for (int k = 0; k < width * height; k++) res[k] = a[k] + b[k];
  }
}
