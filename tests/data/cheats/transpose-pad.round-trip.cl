// A known cheat: each thread stores its element of A into the padded tile and
// reads back the word it stored itself, then writes the naive transpose's
// store. As many conflict-free shared stores and loads as output stores, and
// verified; but no thread reads a word another thread wrote, so the tile
// exchanges nothing (the write stays one sector per thread).
__kernel void transpose_shared(__global const ELEM* a, __global ELEM* trA,
                               int columnsA, int rowsA) {
  __local ELEM tile[TILE][TILE + 1];
  const int loc_i = get_local_id(0);
  const int loc_j = get_local_id(1);
  const int i = get_group_id(0) * TILE + loc_i;
  const int j = get_group_id(1) * TILE + loc_j;
  if (i < rowsA && j < columnsA) {
    tile[loc_j][loc_i] = a[i * columnsA + j];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = tile[loc_j][loc_i];
  }
}
