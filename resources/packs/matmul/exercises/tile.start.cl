// Exercise: tile the naive kernel. Each work-item reads a whole row of A and
// a whole column of B from global memory: every element is read m or n times.
// Stage TILE x TILE tiles of A and B in local memory, so that a work-group
// reads each element of its tiles from global memory once and every
// work-item of the group uses it from there. Keep the kernel's name and
// parameters; the work-group is TILE x TILE, and m, n, k need not be
// multiples of TILE.
__kernel void matmul_naive(__global const float* a, __global const float* b, __global float* c, int m, int n,
                           int k) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}
