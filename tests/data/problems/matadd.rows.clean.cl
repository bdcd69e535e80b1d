// One thread per row: clean.
__kernel void matadd_rows(__global const ELEM* a, __global const ELEM* b,
                          __global ELEM* res, int width, int height) {
  const int i = get_global_id(0);
  if (i < height) {
    for (int j = 0; j < width; j++) {
      res[i * width + j] = a[i * width + j] + b[i * width + j];
    }
  }
}
