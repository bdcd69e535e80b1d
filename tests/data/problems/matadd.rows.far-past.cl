// One thread per row, its row found with a wrong stride: from the second
// row on, every store lands far past the end of `res` (a crash on most
// devices, were it made).
__kernel void matadd_rows(__global const ELEM* a, __global const ELEM* b,
                          __global ELEM* res, int width, int height) {
  const int i = get_global_id(0);
  if (i < height) {
    for (int j = 0; j < width; j++) {
      res[i * width * 65536 + j] = a[i * width + j] + b[i * width + j];
    }
  }
}
