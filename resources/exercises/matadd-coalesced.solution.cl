// res = a + b, one thread per column: at each step the warp reads a piece of
// one row (the matrix is square here, so there are as many columns as rows).
__kernel void matadd_rows(__global const ELEM* a, __global const ELEM* b,
                          __global ELEM* res, int width, int height) {
  const int j = get_global_id(0);
  if (j < width) {
    for (int i = 0; i < height; i++) {
      res[i * width + j] = a[i * width + j] + b[i * width + j];
    }
  }
}
