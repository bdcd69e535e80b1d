// A solution: TILE x TILE tiles of A and B staged in local memory, the
// work-items outside the matrices loading zeros and storing nothing.
__kernel void matmul_naive(__global const float* a, __global const float* b, __global float* c, int m, int n,
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
