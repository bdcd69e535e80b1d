// A known cheat: lane 0 of each warp does the warp's elements alone, reading
// A along its rows and writing them transposed. Its one-lane loads touch one
// sector each, as their bytes need; but the warp's other lanes do nothing.
__kernel void transpose_naive(__global const ELEM* a, __global ELEM* trA,
                              int columnsA, int rowsA) {
  const int width = get_local_size(0), height = get_local_size(1);
  const int t = get_local_id(1) * width + get_local_id(0);
  if (t % 32 != 0) return;
  for (int u = t; u < t + 32 && u < width * height; u++) {
    const int i = get_group_id(1) * height + u / width;
    const int j = get_group_id(0) * width + u % width;
    if (i < rowsA && j < columnsA) trA[j * rowsA + i] = a[i * columnsA + j];
  }
}
