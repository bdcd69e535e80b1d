// The naive transpose: thread (i, j) copies A's element (i, j) to trA's (j, i).
__kernel void transpose_naive(__global const ELEM* a, __global ELEM* trA,
                              int columnsA, int rowsA) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = a[i * columnsA + j];
  }
}
