// A known cheat (the CUDA twin of matadd-coalesced.same-word.cl), GCC's
// OpenMP mapping written by hand: each warp takes 32 columns one after the
// other, all 32 of its lanes adding the same element of the column.
template <typename ELEM> __global__ void matadd_rows(const ELEM* a, const ELEM* b,
                                                     ELEM* res, int width, int height) {
  const int first = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 32;
  for (int j = first; j < first + 32 && j < width; j++)
    for (int i = 0; i < height; i++) res[i * width + j] = a[i * width + j] + b[i * width + j];
}
