// The rowsum pack's kernels for CUDA devices (the pictures are in
// ../rowsum/rowsum.cl). The tests add them to a copy of that pack
// (`cuda = "rowsum.cu"`). The manifest's __local argument `scratch` is this
// file's dynamic shared memory: the launch sizes it, the kernels take no
// parameter for it. ELEM is the element type, WG the block size (-D).

extern __shared__ ELEM scratch[];

extern "C" __global__ void row_sum_serial(const ELEM* m, ELEM* sums, int width, int height) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= height) return;
  ELEM s = 0;
  for (int x = 0; x < width; ++x) s += m[r * width + x];
  sums[r] = s;
}

extern "C" __global__ void row_sum_tree(const ELEM* m, ELEM* sums, int width, int height) {
  int r = blockIdx.x;
  int t = threadIdx.x;
  ELEM s = 0;
  for (int x = t; x < width; x += WG) s += m[r * width + x];
  scratch[t] = s;
  __syncthreads();
  for (int active = WG / 2; active > 0; active /= 2) {
    if (t < active) scratch[t] += scratch[t + active];
    __syncthreads();
  }
  if (t == 0) sums[r] = scratch[0];
}

extern "C" __global__ void row_sum_off_by_one(const ELEM* m, ELEM* sums, int width, int height) {
  int r = blockIdx.x;
  int t = threadIdx.x;
  ELEM s = 0;
  for (int x = t; x < width - 1; x += WG) s += m[r * width + x];
  scratch[t] = s;
  __syncthreads();
  for (int active = WG / 2; active > 0; active /= 2) {
    if (t < active) scratch[t] += scratch[t + active];
    __syncthreads();
  }
  if (t == 0) sums[r] = scratch[0];
}
