// A known cheat (the CUDA twin of matadd-coalesced.one-item.cl): thread 0 of
// the grid adds the whole matrix alone.
template <typename ELEM> __global__ void matadd_rows(const ELEM* a, const ELEM* b,
                                                     ELEM* res, int width, int height) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (int k = 0; k < width * height; k++) res[k] = a[k] + b[k];
  }
}
