// The naive transpose reading one element further along its row: the last
// thread reads one element past the end of `a`.
__kernel void transpose_naive(__global const ELEM* a, __global ELEM* trA,
                              int columnsA, int rowsA) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = a[i * columnsA + j + 1];
  }
}
