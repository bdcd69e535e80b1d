// A known cheat: the exercise's start, each thread still walking its own row,
// reading and writing two elements at a time through vload2 and vstore2.
// Before vloadN and vstoreN were traced it made no counted access at all.
__kernel void matadd_rows(__global const ELEM* a, __global const ELEM* b,
                          __global ELEM* res, int width, int height) {
  const int i = get_global_id(0);
  if (i < height) {
    int j = 0;
    for (; j + 1 < width; j += 2) {
      vstore2(vload2(0, a + i * width + j) + vload2(0, b + i * width + j), 0, res + i * width + j);
    }
    for (; j < width; j++) res[i * width + j] = a[i * width + j] + b[i * width + j];
  }
}
