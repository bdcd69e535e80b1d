// Matrix transpose: the OpenCL and CUDA "Shared Memory" lessons, section 1
// (naive) and 2 (shared-memory tile), the CUDA lesson's section 3 (dynamically
// sized tile), plus the plain copy that is the bandwidth ceiling and the
// corrected, coalesced transpose. The CUDA twin of transpose.cl: same kernel
// names, same arguments, same index arithmetic line by line.
//
// A is `height` rows by `width` columns, row-major; trA is width x height.
// The lessons call them rowsA and columnsA. Template parameters: ELEM (int,
// float or double), TILE, ROWS, PAD: what transpose.cl gets as -D options.
//
// The lessons' mapping (naive, shared, shared_dynamic): x of the grid runs
// DOWN the rows of A, so neighbouring threads of a warp read addresses
// `width` elements apart:
//
//        A (height x width)            threadIdx.x = 0 1 2 3 ...  (i = row)
//     +---------------------+          reads A[i*width + j]:
//  i  | t0 . . . . . . .    |          stride `width` -> one sector per thread
//  |  | t1 . . . . . . .    |          writes trA[j*height + i]:
//  v  | t2 . . . . . . .    |          consecutive -> coalesced (naive)
//     +---------------------+
//
// In the tiled versions the second index pair also takes i from threadIdx.x,
// so both the load and the store are strided: on a GPU they are SLOWER than
// the naive kernel, whatever the padding does for the banks.
// transpose_coalesced fixes the mapping: threadIdx.x walks a row on the read
// and a row on the write.
//
// OpenCL -> CUDA: get_global_id(0) = blockIdx.x * blockDim.x + threadIdx.x,
// get_local_id = threadIdx, get_group_id = blockIdx, get_local_size =
// blockDim, barrier = __syncthreads, __local = __shared__.

// copy and coalesced move 16-byte strips of a row: 4 ints or floats, 2
// doubles, one load or store per strip, the widest access a thread has.
// A strip starts 16-byte aligned when the row length is a multiple of its
// length; otherwise (and past a matrix's right edge) it moves element by
// element. Each thread keeps all its strips in registers before the first
// store: TILE/ROWS (the catalog's `strips`) 16-byte loads in flight.
template <typename ELEM>
struct alignas(16) Strip {
  static constexpr int kLength = 16 / sizeof(ELEM);
  ELEM e[kLength];
};
template <typename ELEM>
__device__ Strip<ELEM>& strip_at(ELEM* p) {
  return *reinterpret_cast<Strip<ELEM>*>(p);
}
template <typename ELEM>
__device__ const Strip<ELEM>& strip_at(const ELEM* p) {
  return *reinterpret_cast<const Strip<ELEM>*>(p);
}

// The bandwidth ceiling: a TILE x TILE tile moved by a (TILE/V) x ROWS block
// (V elements per strip), both sides coalesced, no transpose.
template <typename ELEM, int TILE, int ROWS>
__global__ void transpose_copy(const ELEM* in, ELEM* out, int width, int height) {
  constexpr int V = Strip<ELEM>::kLength;
  const int x = blockIdx.x * TILE + V * threadIdx.x;  // first column of this thread's strip
  const int y = blockIdx.y * TILE + threadIdx.y;
  const bool whole = width % V == 0 && x < width;
  Strip<ELEM> strips[TILE / ROWS] = {};
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    const int row = (y + k * ROWS) * width;
    if (y + k * ROWS < height && whole) {
      strips[k] = strip_at(in + row + x);
    } else if (y + k * ROWS < height) {
      for (int c = 0; c < V && x + c < width; c++) strips[k].e[c] = in[row + x + c];
    }
  }
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    const int row = (y + k * ROWS) * width;
    if (y + k * ROWS < height && whole) {
      strip_at(out + row + x) = strips[k];
    } else if (y + k * ROWS < height) {
      for (int c = 0; c < V && x + c < width; c++) out[row + x + c] = strips[k].e[c];
    }
  }
}

// The OpenCL lesson's naive kernel, with the bounds check the CUDA lesson adds
// (any size, not only multiples of the tile). Expect: load strided (32 sectors
// per warp request for 4-byte elements), store coalesced (4 sectors). The
// tile only sets the block shape at launch; the kernel never reads it.
template <typename ELEM>
__global__ void transpose_naive(const ELEM* a, ELEM* trA, int columnsA, int rowsA) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rowsA && j < columnsA) {
    trA[j * rowsA + i] = a[i * columnsA + j];
  }
}

// The lessons' tiled kernel: __shared__ ELEM tile[T][T+P] (P = 0 in the OpenCL
// lesson, 1 in the CUDA lesson's __shared__ int tile[T][T+1]). The block swaps
// its ids to place the tile, but i still comes from threadIdx.x on both sides:
// load and store are strided. Shared memory: the store tile[ty][tx] is
// conflict-free; the load tile[tx][ty] walks a column, T-way conflicts when
// P = 0, none when P = 1 (for 4-byte elements).
// The CUDA lesson checks (j < colsA && i < rowsA) on the store side, right only
// for square matrices; the OpenCL lesson's check (i < columnsA && j < rowsA),
// used here, is right for every shape.
template <typename ELEM, int TILE, int PAD>
__global__ void transpose_shared(const ELEM* a, ELEM* trA, int columnsA, int rowsA) {
  __shared__ ELEM tile[TILE][TILE + PAD];
  const int loc_i = threadIdx.x;
  const int loc_j = threadIdx.y;
  int i = blockIdx.x * TILE + loc_i;
  int j = blockIdx.y * TILE + loc_j;
  if (i < rowsA && j < columnsA) {
    tile[loc_j][loc_i] = a[i * columnsA + j];
  }
  __syncthreads();
  i = blockIdx.y * TILE + loc_i;
  j = blockIdx.x * TILE + loc_j;
  if (i < columnsA && j < rowsA) {
    trA[i * rowsA + j] = tile[loc_i][loc_j];
  }
}

// The CUDA lesson's dynamically sized tile: T*T elements, no padding, index
// arithmetic by hand, the size given as the third launch parameter:
//   transpose_shared_dynamic<<<grid, block, T * T * sizeof(int)>>>(a, trA, columnsA, rowsA);
// The lesson declares `extern __shared__ int tile[];`. Every instantiation of
// a template shares that one extern array, so declaring it with a different
// element type per instantiation does not compile; the bytes are declared
// once and viewed as ELEM.
// The lesson writes threadIdx.y*blockDim.y + threadIdx.x for the store index,
// which equals the row-major index because the block is square.
template <typename ELEM>
__global__ void transpose_shared_dynamic(const ELEM* a, ELEM* trA, int columnsA,
                                         int rowsA) {
  extern __shared__ __align__(sizeof(double)) unsigned char tile_bytes[];
  ELEM* tile = reinterpret_cast<ELEM*>(tile_bytes);
  const int tidx = threadIdx.x;
  const int tidy = threadIdx.y;
  int sharedIdx = tidy * blockDim.y + tidx;
  int i = blockIdx.x * blockDim.x + tidx;
  int j = blockIdx.y * blockDim.y + tidy;
  if (j < columnsA && i < rowsA) {
    tile[sharedIdx] = a[i * columnsA + j];
  }
  __syncthreads();
  i = blockIdx.y * blockDim.y + tidx;
  j = blockIdx.x * blockDim.x + tidy;
  if (i < columnsA && j < rowsA) {
    sharedIdx = tidx * blockDim.x + tidy;
    trA[i * rowsA + j] = tile[sharedIdx];
  }
}

// The corrected transpose: threadIdx.x walks contiguous strips on the read
// and on the write; the tile swap happens in shared memory. A (TILE/V) x ROWS
// block, each thread moving TILE/ROWS strips; __shared__ ELEM tile[TILE][TILE+PAD].
//
//   read  in[(y+k)*width + x ..+V]    x = blockIdx.x*T + V*tx -> one row segment per warp
//   write out[(y+k)*height + x ..+V]  x = blockIdx.y*T + V*tx -> one row segment per warp
//   shared tile[ty+k][V*tx + c] on the read, tile[V*tx + c][ty+k] on the write:
//   neighbouring lanes are V words apart, so 16 lanes of a warp share 8 banks
//   per tile row (2-way for 4-byte elements at pad 1, worse at pad 0 or 2).
// Shared memory, not the device's bandwidth, would bound its blocks per SM
// under the default L1/shared split; its kernel table entry asks for the
// largest shared carveout.
template <typename ELEM, int TILE, int ROWS, int PAD>
__global__ void transpose_coalesced(const ELEM* in, ELEM* out, int width,
                                    int height) {
  __shared__ ELEM tile[TILE][TILE + PAD];
  constexpr int V = Strip<ELEM>::kLength;
  const int s = V * threadIdx.x;  // first tile column of this thread's strip
  const int ty = threadIdx.y;
  int x = blockIdx.x * TILE + s;
  int y = blockIdx.y * TILE + ty;
  const bool whole_in = width % V == 0 && x < width;
  Strip<ELEM> strips[TILE / ROWS] = {};
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    const int row = (y + k * ROWS) * width;
    if (y + k * ROWS < height && whole_in) {
      strips[k] = strip_at(in + row + x);
    } else if (y + k * ROWS < height) {
      for (int c = 0; c < V && x + c < width; c++) strips[k].e[c] = in[row + x + c];
    }
  }
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    for (int c = 0; c < V; c++) tile[ty + k * ROWS][s + c] = strips[k].e[c];
  }
  __syncthreads();
  x = blockIdx.y * TILE + s;
  y = blockIdx.x * TILE + ty;
  const bool whole_out = height % V == 0 && x < height;
#pragma unroll
  for (int k = 0; k < TILE / ROWS; k++) {
    Strip<ELEM> out_strip;
    for (int c = 0; c < V; c++) out_strip.e[c] = tile[s + c][ty + k * ROWS];
    const int row = (y + k * ROWS) * height;
    if (y + k * ROWS < width && whole_out) {
      strip_at(out + row + x) = out_strip;
    } else if (y + k * ROWS < width) {
      for (int c = 0; c < V && x + c < height; c++) out[row + x + c] = out_strip.e[c];
    }
  }
}
