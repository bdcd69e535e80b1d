// Matrix transpose: the OpenCL and CUDA "Shared Memory" lessons, section 1
// (naive) and 2 (shared-memory tile), the CUDA lesson's section 3 (dynamically
// sized tile), plus the plain copy that is the bandwidth ceiling and the
// corrected, coalesced transpose.
//
// A is `height` rows by `width` columns, row-major; trA is width x height.
// The lessons call them rowsA and columnsA. Compile options: ELEM, TILE, ROWS,
// PAD.
//
// The lessons' mapping (naive, shared, shared_dynamic): dimension 0 of the
// grid runs DOWN the rows of A, so neighbouring threads of a warp read
// addresses `width` elements apart:
//
//        A (height x width)            thread x = 0 1 2 3 ...  (i = row)
//     +---------------------+          reads A[i*width + j]:
//  i  | t0 . . . . . . .    |          stride `width` -> one sector per thread
//  |  | t1 . . . . . . .    |          writes trA[j*height + i]:
//  v  | t2 . . . . . . .    |          consecutive -> coalesced (naive)
//     +---------------------+
//
// In the tiled versions the second index pair also takes i from thread x, so
// both the load and the store are strided: on a GPU they are SLOWER than the
// naive kernel, whatever the padding does for the banks. transpose_coalesced
// fixes the mapping: thread x walks a row on the read and a row on the write.

// copy and coalesced move 16-byte strips of a row: 4 ints or floats, 2
// doubles, one load or store per strip, the widest access a thread has.
// A strip starts 16-byte aligned when the row length is a multiple of its
// length; otherwise (and past a matrix's right edge) it moves element by
// element. Each thread keeps all its strips in registers before the first
// store: TILE/ROWS (the catalog's `strips`) 16-byte loads in flight.
#ifdef THREADMAP_DOUBLE
#define STRIP 2
#else
#define STRIP 4
#endif
#define VECTOR_OF(type, n) type##n
#define VECTOR(type, n) VECTOR_OF(type, n)
typedef VECTOR(ELEM, STRIP) Vector;  // int4, float4 or double2
typedef union {
  Vector v;
  ELEM e[STRIP];
} Strip;
#define STRIP_AT(p) (*(__global Vector*)(p))
#define CONST_STRIP_AT(p) (*(__global const Vector*)(p))

// The bandwidth ceiling: a TILE x TILE tile moved by a (TILE/STRIP) x ROWS
// group, both sides coalesced, no transpose.
__kernel void transpose_copy(__global const ELEM* in, __global ELEM* out,
                             int width, int height) {
  const int x = get_group_id(0) * TILE + STRIP * get_local_id(0);  // first column of the strip
  const int y = get_group_id(1) * TILE + get_local_id(1);
  const bool whole = width % STRIP == 0 && x < width;
  Strip strips[TILE / ROWS];
  for (int k = 0; k < TILE / ROWS; k++) {
    const int row = (y + k * ROWS) * width;
    if (y + k * ROWS < height && whole) {
      strips[k].v = CONST_STRIP_AT(in + row + x);
    } else if (y + k * ROWS < height) {
      for (int c = 0; c < STRIP && x + c < width; c++) strips[k].e[c] = in[row + x + c];
    }
  }
  for (int k = 0; k < TILE / ROWS; k++) {
    const int row = (y + k * ROWS) * width;
    if (y + k * ROWS < height && whole) {
      STRIP_AT(out + row + x) = strips[k].v;
    } else if (y + k * ROWS < height) {
      for (int c = 0; c < STRIP && x + c < width; c++) out[row + x + c] = strips[k].e[c];
    }
  }
}

// The OpenCL lesson's naive kernel, with the bounds check the CUDA lesson adds
// (any size, not only multiples of the tile). Expect, for 4-byte elements: load
// strided, one sector per row of A a warp touches (32 per request at T = 32;
// 16 at T = 16, where a warp spans two block rows whose lanes share sectors);
// store coalesced, 4 sectors per request at every T.
__kernel void transpose_naive(__global const ELEM* a, __global ELEM* trA,
                              int columnsA, int rowsA) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = a[i * columnsA + j];
  }
}

// The lessons' tiled kernel: tile[T][T+P] (P = 0 in the OpenCL lesson, 1 in the
// CUDA lesson). The group swaps its ids to place the tile, but i still comes
// from thread x on both sides: load and store are strided. Shared memory: the
// store tile[ty][tx] is conflict-free; the load tile[tx][ty] walks a column,
// T-way conflicts when P = 0, none when P = 1 (for 4-byte elements).
// The CUDA lesson checks (j < colsA && i < rowsA) on the store side, right only
// for square matrices; the OpenCL lesson's check (i < columnsA && j < rowsA),
// used here, is right for every shape.
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
  barrier(CLK_LOCAL_MEM_FENCE);
  i = get_group_id(1) * TILE + loc_i;
  j = get_group_id(0) * TILE + loc_j;
  if (i < columnsA && j < rowsA) {
    trA[i * rowsA + j] = tile[loc_i][loc_j];
  }
}

// The CUDA lesson's dynamically sized tile (extern __shared__ there, a __local
// pointer argument here): T*T elements, no padding, index arithmetic by hand.
// The lesson writes threadIdx.y*blockDim.y + threadIdx.x for the store index,
// which equals the row-major index because the block is square.
__kernel void transpose_shared_dynamic(__global const ELEM* a, __global ELEM* trA,
                                       int columnsA, int rowsA,
                                       __local ELEM* tile) {
  const int tidx = get_local_id(0);
  const int tidy = get_local_id(1);
  int sharedIdx = tidy * get_local_size(1) + tidx;
  int i = get_group_id(0) * get_local_size(0) + tidx;
  int j = get_group_id(1) * get_local_size(1) + tidy;
  if (j < columnsA && i < rowsA) {
    tile[sharedIdx] = a[i * columnsA + j];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  i = get_group_id(1) * get_local_size(1) + tidx;
  j = get_group_id(0) * get_local_size(0) + tidy;
  if (i < columnsA && j < rowsA) {
    sharedIdx = tidx * get_local_size(0) + tidy;
    trA[i * rowsA + j] = tile[sharedIdx];
  }
}

// The corrected transpose: thread x walks contiguous strips on the read and
// on the write; the tile swap happens in local memory. A (TILE/STRIP) x ROWS
// group, each thread moving TILE/ROWS strips; tile[TILE][TILE+PAD].
//
//   read  in[(y+k)*width + x ..+S]    x = group0*T + S*tx -> one row segment per warp
//   write out[(y+k)*height + x ..+S]  x = group1*T + S*tx -> one row segment per warp
//   local tile[ty+k][S*tx + c] on the read, tile[S*tx + c][ty+k] on the write:
//   neighbouring lanes are S words apart, so 16 lanes of a warp share 8 banks
//   per tile row (2-way for 4-byte elements at pad 1, worse at pad 0 or 2).
__kernel void transpose_coalesced(__global const ELEM* in, __global ELEM* out,
                                  int width, int height) {
  __local ELEM tile[TILE][TILE + PAD];
  const int s = STRIP * get_local_id(0);  // first tile column of this thread's strip
  const int ty = get_local_id(1);
  int x = get_group_id(0) * TILE + s;
  int y = get_group_id(1) * TILE + ty;
  const bool whole_in = width % STRIP == 0 && x < width;
  Strip strips[TILE / ROWS];
  for (int k = 0; k < TILE / ROWS; k++) {
    const int row = (y + k * ROWS) * width;
    if (y + k * ROWS < height && whole_in) {
      strips[k].v = CONST_STRIP_AT(in + row + x);
    } else if (y + k * ROWS < height) {
      for (int c = 0; c < STRIP && x + c < width; c++) strips[k].e[c] = in[row + x + c];
    }
  }
  for (int k = 0; k < TILE / ROWS; k++) {
    for (int c = 0; c < STRIP; c++) tile[ty + k * ROWS][s + c] = strips[k].e[c];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TILE + s;
  y = get_group_id(0) * TILE + ty;
  const bool whole_out = height % STRIP == 0 && x < height;
  for (int k = 0; k < TILE / ROWS; k++) {
    Strip out_strip;
    for (int c = 0; c < STRIP; c++) out_strip.e[c] = tile[s + c][ty + k * ROWS];
    const int row = (y + k * ROWS) * height;
    if (y + k * ROWS < width && whole_out) {
      STRIP_AT(out + row + x) = out_strip.v;
    } else if (y + k * ROWS < width) {
      for (int c = 0; c < STRIP && x + c < height; c++) out[row + x + c] = out_strip.e[c];
    }
  }
}
