// Matrix addition: the "Memory Coalescing" lesson. The lesson parallelises one
// loop of res[i*width+j] = a[i*width+j] + b[i*width+j] at a time; here each
// choice is a kernel. The CUDA twin of matadd.cl; template parameter ELEM
// (int, float or double).
//
//   rows:      thread t owns ROW t and walks it.      At each step the 32 lanes
//              of a warp touch 32 different rows:       -> 32 sectors per request
//   cols:      thread t owns COLUMN t and walks down.  At each step the lanes
//              touch 32 neighbouring elements of a row: -> 4 sectors per request
//              (coalesced, but only `width` threads: too few to fill a GPU)
//   elements:  a 2-D grid, x fastest: coalesced and enough threads. The GPU
//              way. One element per thread, or K per thread to keep more
//              loads in flight (the fast variant).
//
// OpenCL -> CUDA: get_global_id(0) = blockIdx.x * blockDim.x + threadIdx.x,
// get_global_id(1) = blockIdx.y * blockDim.y + threadIdx.y.

template <typename ELEM>
__global__ void matadd_rows(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < height) {
    for (int j = 0; j < width; j++) {
      res[i * width + j] = a[i * width + j] + b[i * width + j];
    }
  }
}

template <typename ELEM>
__global__ void matadd_cols(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < width) {
    for (int i = 0; i < height; i++) {
      res[i * width + j] = a[i * width + j] + b[i * width + j];
    }
  }
}

// PER_THREAD = K elements per thread, a block-width apart along the row, so
// each of the thread's accesses is still part of one coalesced row segment
// per warp. All K pairs are loaded before the first store: 2K loads in flight
// per thread. K = 1 is one thread per element.
template <typename ELEM, int PER_THREAD>
__global__ void matadd_elements(const ELEM* a, const ELEM* b, ELEM* res, int width,
                                int height) {
  const int j0 = blockIdx.x * blockDim.x * PER_THREAD + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  ELEM sum[PER_THREAD];
#pragma unroll
  for (int k = 0; k < PER_THREAD; k++) {
    const int j = j0 + k * blockDim.x;
    if (i < height && j < width) sum[k] = a[i * width + j] + b[i * width + j];
  }
#pragma unroll
  for (int k = 0; k < PER_THREAD; k++) {
    const int j = j0 + k * blockDim.x;
    if (i < height && j < width) res[i * width + j] = sum[k];
  }
}
