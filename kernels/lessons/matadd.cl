// Matrix addition: the "Memory Coalescing" lesson. The lesson parallelises one
// loop of res[i*width+j] = a[i*width+j] + b[i*width+j] at a time; here each
// choice is a kernel. Compile options: ELEM, and PER_THREAD for elements.
//
//   rows:      thread t owns ROW t and walks it.      At each step the 32 lanes
//              of a warp touch 32 different rows:       -> 32 sectors per request
//   cols:      thread t owns COLUMN t and walks down.  At each step the lanes
//              touch 32 neighbouring elements of a row: -> 4 sectors per request
//              (coalesced, but only `width` threads: too few to fill a GPU)
//   elements:  a 2-D grid, x fastest: coalesced and enough threads. The GPU
//              way. One element per thread, or K per thread to keep more
//              loads in flight (the fast variant).

__kernel void matadd_rows(__global const ELEM* a, __global const ELEM* b,
                          __global ELEM* res, int width, int height) {
  const int i = get_global_id(0);
  if (i < height) {
    for (int j = 0; j < width; j++) {
      res[i * width + j] = a[i * width + j] + b[i * width + j];
    }
  }
}

__kernel void matadd_cols(__global const ELEM* a, __global const ELEM* b,
                          __global ELEM* res, int width, int height) {
  const int j = get_global_id(0);
  if (j < width) {
    for (int i = 0; i < height; i++) {
      res[i * width + j] = a[i * width + j] + b[i * width + j];
    }
  }
}

// PER_THREAD = K elements per thread, a group-width apart along the row, so
// each of the thread's accesses is still part of one coalesced row segment
// per warp. All K pairs are loaded before the first store: 2K loads in flight
// per thread. K = 1 is one thread per element.
__kernel void matadd_elements(__global const ELEM* a, __global const ELEM* b,
                              __global ELEM* res, int width, int height) {
  const int j0 = get_group_id(0) * get_local_size(0) * PER_THREAD + get_local_id(0);
  const int i = get_global_id(1);
  ELEM sum[PER_THREAD];
  for (int k = 0; k < PER_THREAD; k++) {
    const int j = j0 + k * get_local_size(0);
    if (i < height && j < width) sum[k] = a[i * width + j] + b[i * width + j];
  }
  for (int k = 0; k < PER_THREAD; k++) {
    const int j = j0 + k * get_local_size(0);
    if (i < height && j < width) res[i * width + j] = sum[k];
  }
}
