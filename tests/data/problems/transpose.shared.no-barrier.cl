// The lesson's tiled transpose with its barrier removed.
__kernel void transpose_shared(__global const ELEM* a, __global ELEM* trA,
                               int columnsA, int rowsA) {
  __local ELEM tile[TILE][TILE + PAD];
  const int loc_i = get_local_id(0);
  const int loc_j = get_local_id(1);
  int i = get_group_id(0) * TILE + loc_i;
  int j = get_group_id(1) * TILE + loc_j;
  if (i < rowsA && j < columnsA) {
    tile[loc_j][loc_i] = a[i * columnsA + j];
  }
  i = get_group_id(1) * TILE + loc_i;
  j = get_group_id(0) * TILE + loc_j;
  if (i < columnsA && j < rowsA) {
    trA[i * rowsA + j] = tile[loc_i][loc_j];
  }
}
