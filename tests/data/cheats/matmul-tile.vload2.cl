// A known cheat: the untouched naive multiply, reading A two elements at a
// time through vload2. Before vloadN was traced, its loads of A went
// uncounted and the goal's global-load bound was met without a tile.
__kernel void matmul_naive(__global const float* a, __global const float* b, __global float* c, int m, int n,
                           int k) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  int i = 0;
  for (; i + 1 < k; i += 2) {
    const float2 pair = vload2(0, a + row * k + i);
    sum += pair.x * b[i * n + col] + pair.y * b[(i + 1) * n + col];
  }
  for (; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}
