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
//   TILE/4, ...): a B element read from local memory serves 4 sums.
// TILE (-D) is the tile's side; the launch's block is TILE x TILE (tiled_4:
// TILE x TILE/4).

__kernel void matmul_naive(__global const float* a, __global const float* b, __global float* c, int m, int n,
                           int k) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}

__kernel void matmul_tiled(__global const float* a, __global const float* b, __global float* c, int m, int n,
                           int k) {
  __local float as[TILE][TILE];
  __local float bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_group_id(0) * TILE + tx;
  int row = get_group_id(1) * TILE + ty;
  float sum = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    as[ty][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : 0.0f;
    bs[ty][tx] = (t + ty < k && col < n) ? b[(t + ty) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TILE; ++i) sum += as[ty][i] * bs[i][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

__kernel void matmul_tiled_4(__global const float* a, __global const float* b, __global float* c, int m, int n,
                             int k) {
  __local float as[TILE][TILE];
  __local float bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_group_id(0) * TILE + tx;
  int row0 = get_group_id(1) * TILE + ty;
  float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int t = 0; t < k; t += TILE) {
    for (int r = 0; r < 4; ++r) {
      int y = ty + r * (TILE / 4);
      int row = row0 + r * (TILE / 4);
      as[y][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : 0.0f;
      bs[y][tx] = (t + y < k && col < n) ? b[(t + y) * n + col] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TILE; ++i) {
      float bv = bs[i][tx];
      for (int r = 0; r < 4; ++r) sum[r] += as[ty + r * (TILE / 4)][i] * bv;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < 4; ++r) {
    int row = row0 + r * (TILE / 4);
    if (row < m && col < n) c[row * n + col] = sum[r];
  }
}
