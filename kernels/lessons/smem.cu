// Shared-memory data layout: the Spanish lesson "Checking the Data Layout of
// Shared Memory" (square and rectangular tiles), the CUDA twin of smem.cl.
// Each block writes its thread indices into a tile, waits, reads them back in
// another order and stores them to its own slice of `out` (block g writes
// out[g*BX*BY ...]). Template parameters: ELEM (int, float or double),
// BLOCK_X (BDIMX), BLOCK_Y (BDIMY), PAD (IPAD).
//
//   __shared__ ELEM tile[BY][BX];             row access tile[ty][tx]:
//   lanes = threadIdx.x                       32 lanes -> 32 banks, 1 wavefront
//   bank = word % 32                          column access tile[tx][ty]:
//     bank: 0  1  2 ... 31                    32 lanes -> bank 0 .. 32-way
//     row0 [t0 t1 t2 ... t31]                 padding shifts each row one bank:
//     row1 [ .  .  . ...  . ]                 tile[BY][BX+1] -> 1 wavefront
// What a learner should see with 32 x 32 int blocks:
//   setRowReadRow      store 1, load 1 wavefront per request
//   setColReadCol      store 32, load 32
//   setRowReadCol(Dyn) store 1, load 32
//   ...Pad / ...DynPad store 1, load 1
// Rectangular 32 x 16 (tile[16][32]): the column read touches 16 words of one
// bank per half-warp: 16-way; pad 1 leaves 2-way; pad 2 removes them.
//
// The Dyn kernels are the lesson's `extern __shared__ int tile[];`, sized at
// launch: <<<grid, block, (BX + PAD) * BY * sizeof(int)>>>. They take the
// block shape from blockDim and only PAD at compile time.
//
// OpenCL -> CUDA: get_local_id = threadIdx, get_local_size = blockDim,
// get_group_id(0) = blockIdx.x, barrier = __syncthreads, __local = __shared__.
// NVRTC compiles this text with no standard headers; size_t is built in.

template <typename ELEM>
__device__ ELEM* block_slice(ELEM* out_all, unsigned int elements_per_block) {
  return out_all + static_cast<size_t>(blockIdx.x) * elements_per_block;
}

// Every instantiation shares one extern array, so it cannot be declared with a
// different element type per instantiation; the bytes are declared once and
// viewed as ELEM.
template <typename ELEM>
__device__ ELEM* dynamic_tile() {
  extern __shared__ __align__(sizeof(double)) unsigned char tile_bytes[];
  return reinterpret_cast<ELEM*>(tile_bytes);
}

template <typename ELEM, int BLOCK_X, int BLOCK_Y>
__global__ void setRowReadRow(ELEM* out_all) {
  ELEM* out = block_slice(out_all, BLOCK_X * BLOCK_Y);
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.y][threadIdx.x];
}

template <typename ELEM, int BLOCK_X, int BLOCK_Y>
__global__ void setColReadCol(ELEM* out_all) {
  ELEM* out = block_slice(out_all, BLOCK_X * BLOCK_Y);
  __shared__ ELEM tile[BLOCK_X][BLOCK_Y];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

template <typename ELEM, int BLOCK_X, int BLOCK_Y>
__global__ void setRowReadCol(ELEM* out_all) {
  ELEM* out = block_slice(out_all, BLOCK_X * BLOCK_Y);
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

template <typename ELEM>
__global__ void setRowReadColDyn(ELEM* out_all) {
  ELEM* out = block_slice(out_all, blockDim.x * blockDim.y);
  ELEM* tile = dynamic_tile<ELEM>();
  const unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
  tile[row_idx] = row_idx;
  __syncthreads();
  out[row_idx] = tile[col_idx];
}

template <typename ELEM, int BLOCK_X, int BLOCK_Y, int PAD>
__global__ void setRowReadColPad(ELEM* out_all) {
  ELEM* out = block_slice(out_all, BLOCK_X * BLOCK_Y);
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X + PAD];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

// The lesson pads by one word per row in the index arithmetic (blockDim.x + 1);
// PAD generalises the one.
template <typename ELEM, int PAD>
__global__ void setRowReadColDynPad(ELEM* out_all) {
  ELEM* out = block_slice(out_all, blockDim.x * blockDim.y);
  ELEM* tile = dynamic_tile<ELEM>();
  const unsigned int row_idx = threadIdx.y * (blockDim.x + PAD) + threadIdx.x;
  const unsigned int col_idx = threadIdx.x * (blockDim.x + PAD) + threadIdx.y;
  const unsigned int g_idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[row_idx] = g_idx;
  __syncthreads();
  out[g_idx] = tile[col_idx];
}

// Rectangular tiles: the transposed read cannot swap the thread indices (they
// would leave the tile), so the linear index is split by the other side:
// irow = idx / BY, icol = idx % BY.
template <typename ELEM, int BLOCK_X, int BLOCK_Y>
__global__ void setRowReadColRect(ELEM* out_all) {
  ELEM* out = block_slice(out_all, BLOCK_X * BLOCK_Y);
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned int irow = idx / blockDim.y;
  const unsigned int icol = idx % blockDim.y;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];
}

template <typename ELEM>
__global__ void setRowReadColRectDyn(ELEM* out_all) {
  ELEM* out = block_slice(out_all, blockDim.x * blockDim.y);
  ELEM* tile = dynamic_tile<ELEM>();
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned int irow = idx / blockDim.y;
  const unsigned int icol = idx % blockDim.y;
  const unsigned int col_idx = icol * blockDim.x + irow;
  tile[idx] = idx;
  __syncthreads();
  out[idx] = tile[col_idx];
}

template <typename ELEM, int BLOCK_X, int BLOCK_Y, int PAD>
__global__ void setRowReadColRectPad(ELEM* out_all) {
  ELEM* out = block_slice(out_all, BLOCK_X * BLOCK_Y);
  __shared__ ELEM tile[BLOCK_Y][BLOCK_X + PAD];
  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned int irow = idx / blockDim.y;
  const unsigned int icol = idx % blockDim.y;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];
}

template <typename ELEM, int PAD>
__global__ void setRowReadColRectDynPad(ELEM* out_all) {
  ELEM* out = block_slice(out_all, blockDim.x * blockDim.y);
  ELEM* tile = dynamic_tile<ELEM>();
  const unsigned int g_idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned int irow = g_idx / blockDim.y;
  const unsigned int icol = g_idx % blockDim.y;
  const unsigned int row_idx = threadIdx.y * (blockDim.x + PAD) + threadIdx.x;
  const unsigned int col_idx = icol * (blockDim.x + PAD) + irow;
  tile[row_idx] = g_idx;
  __syncthreads();
  out[g_idx] = tile[col_idx];
}
