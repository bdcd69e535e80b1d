// Shared-memory data layout: the Spanish lesson "Checking the Data Layout of
// Shared Memory" (square and rectangular tiles). Each group writes its
// thread indices into a tile, waits, reads them back in another order and
// stores them to its own slice of `out` (group g writes out[g*BX*BY ...]).
// Compile options: ELEM, BLOCK_X (BDIMX), BLOCK_Y (BDIMY), PAD (IPAD).
//
//   tile[BY][BX], lanes = threadIdx.x        row access tile[ty][tx]:
//   bank = word % 32                          32 lanes -> 32 banks, 1 wavefront
//     bank: 0  1  2 ... 31                    column access tile[tx][ty]:
//     row0 [t0 t1 t2 ... t31]                 32 lanes -> bank 0 .. 32-way
//     row1 [ .  .  . ...  . ]                 padding shifts each row one bank:
//                                             tile[BY][BX+1] -> 1 wavefront
// What a learner should see with 32 x 32 int blocks:
//   setRowReadRow      store 1, load 1 wavefront per request
//   setColReadCol      store 32, load 32
//   setRowReadCol(Dyn) store 1, load 32
//   ...Pad / ...DynPad store 1, load 1
// Rectangular 32 x 16 (tile[16][32]): the column read touches 16 words of one
// bank per half-warp: 16-way; pad 1 leaves 2-way; pad 2 removes them.

#define GROUP_OUT(out_all) \
  ((out_all) + get_group_id(0) * get_local_size(0) * get_local_size(1))

__kernel void setRowReadRow(__global ELEM* out_all) {
  __global ELEM* out = GROUP_OUT(out_all);
  __local ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[get_local_id(1)][get_local_id(0)];
}

__kernel void setColReadCol(__global ELEM* out_all) {
  __global ELEM* out = GROUP_OUT(out_all);
  __local ELEM tile[BLOCK_X][BLOCK_Y];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(0)][get_local_id(1)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[get_local_id(0)][get_local_id(1)];
}

__kernel void setRowReadCol(__global ELEM* out_all) {
  __global ELEM* out = GROUP_OUT(out_all);
  __local ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[get_local_id(0)][get_local_id(1)];
}

__kernel void setRowReadColDyn(__global ELEM* out_all, __local ELEM* tile) {
  __global ELEM* out = GROUP_OUT(out_all);
  const unsigned int row_idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  const unsigned int col_idx = get_local_id(0) * get_local_size(1) + get_local_id(1);
  tile[row_idx] = row_idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[row_idx] = tile[col_idx];
}

__kernel void setRowReadColPad(__global ELEM* out_all) {
  __global ELEM* out = GROUP_OUT(out_all);
  __local ELEM tile[BLOCK_Y][BLOCK_X + PAD];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[get_local_id(0)][get_local_id(1)];
}

// The lesson pads by one word per row in the index arithmetic (blockDim.x + 1);
// PAD generalises the one.
__kernel void setRowReadColDynPad(__global ELEM* out_all, __local ELEM* tile) {
  __global ELEM* out = GROUP_OUT(out_all);
  const unsigned int row_idx = get_local_id(1) * (get_local_size(0) + PAD) + get_local_id(0);
  const unsigned int col_idx = get_local_id(0) * (get_local_size(0) + PAD) + get_local_id(1);
  const unsigned int g_idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  tile[row_idx] = g_idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g_idx] = tile[col_idx];
}

// Rectangular tiles: the transposed read cannot swap the thread indices (they
// would leave the tile), so the linear index is split by the other side:
// irow = idx / BY, icol = idx % BY.
__kernel void setRowReadColRect(__global ELEM* out_all) {
  __global ELEM* out = GROUP_OUT(out_all);
  __local ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  const unsigned int irow = idx / get_local_size(1);
  const unsigned int icol = idx % get_local_size(1);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[icol][irow];
}

__kernel void setRowReadColRectDyn(__global ELEM* out_all, __local ELEM* tile) {
  __global ELEM* out = GROUP_OUT(out_all);
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  const unsigned int irow = idx / get_local_size(1);
  const unsigned int icol = idx % get_local_size(1);
  const unsigned int col_idx = icol * get_local_size(0) + irow;
  tile[idx] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[col_idx];
}

__kernel void setRowReadColRectPad(__global ELEM* out_all) {
  __global ELEM* out = GROUP_OUT(out_all);
  __local ELEM tile[BLOCK_Y][BLOCK_X + PAD];
  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  const unsigned int irow = idx / get_local_size(1);
  const unsigned int icol = idx % get_local_size(1);
  tile[get_local_id(1)][get_local_id(0)] = idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx] = tile[icol][irow];
}

__kernel void setRowReadColRectDynPad(__global ELEM* out_all, __local ELEM* tile) {
  __global ELEM* out = GROUP_OUT(out_all);
  const unsigned int g_idx = get_local_id(1) * get_local_size(0) + get_local_id(0);
  const unsigned int irow = g_idx / get_local_size(1);
  const unsigned int icol = g_idx % get_local_size(1);
  const unsigned int row_idx = get_local_id(1) * (get_local_size(0) + PAD) + get_local_id(0);
  const unsigned int col_idx = icol * (get_local_size(0) + PAD) + irow;
  tile[row_idx] = g_idx;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g_idx] = tile[col_idx];
}
