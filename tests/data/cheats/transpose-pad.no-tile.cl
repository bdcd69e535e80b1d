// A known cheat: the naive transpose, no tile. No shared accesses, so no bank
// conflicts either; check must grade it as not met.
__kernel void transpose_shared(__global const ELEM* a, __global ELEM* trA,
                               int columnsA, int rowsA) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = a[i * columnsA + j];
  }
}
