// C = A B: A is m x k, B is k x n, C is m x n, all row-major floats.
//
// naive: thread (row, col) walks row `row` of A and column `col` of B:
//   A row:  [a a a a ...]        one warp: the same A element for every lane (broadcast)
//   B col:  b                    one warp: 32 neighbouring B elements (coalesced)
//           b                    every A and B element is read from global memory
//           b                    n times and m times
// tiled: the block copies a TILE x TILE tile of A and one of B into local
//   memory, waits, multiplies them, waits, and moves on along k: each element
//   is read from global memory m / TILE and n / TILE times.
// tiled_4: tiled, each thread computing 4 outputs of a column (rows ty, ty +
//   TILE/4, ...): a B element read from shared memory serves 4 sums.
// TILE (-D) is the tile's side; the launch's block is TILE x TILE (tiled_4:
// TILE x TILE/4).

extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n,
                           int k) {
  int col = (blockIdx.x * blockDim.x + threadIdx.x);
  int row = (blockIdx.y * blockDim.y + threadIdx.y);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}

extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n,
                           int k) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row = blockIdx.y * TILE + ty;
  float sum = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    as[ty][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : 0.0f;
    bs[ty][tx] = (t + ty < k && col < n) ? b[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) sum += as[ty][i] * bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

extern "C" __global__ void matmul_tiled_4(const float* a, const float* b, float* c, int m, int n,
                             int k) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row0 = blockIdx.y * TILE + ty;
  float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int t = 0; t < k; t += TILE) {
    for (int r = 0; r < 4; ++r) {
      int y = ty + r * (TILE / 4);
      int row = row0 + r * (TILE / 4);
      as[y][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : 0.0f;
      bs[y][tx] = (t + y < k && col < n) ? b[(t + y) * n + col] : 0.0f;
    }
    __syncthreads();
    for (int i = 0; i < TILE; ++i) {
      float bv = bs[i][tx];
      for (int r = 0; r < 4; ++r) sum[r] += as[ty + r * (TILE / 4)][i] * bv;
    }
    __syncthreads();
  }
  for (int r = 0; r < 4; ++r) {
    int row = row0 + r * (TILE / 4);
    if (row < m && col < n) c[row * n + col] = sum[r];
  }
}
