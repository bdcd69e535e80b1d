// A known cheat (the CUDA twin of matmul-tile.vload2.cl): the untouched naive
// multiply, reading A two elements at a time as a float2.
extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n,
                           int k) {
  int col = (blockIdx.x * blockDim.x + threadIdx.x);
  int row = (blockIdx.y * blockDim.y + threadIdx.y);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  int i = 0;
  if ((row * k) % 2 == 0)
    for (; i + 1 < k; i += 2) {
      const float2 pair = *reinterpret_cast<const float2*>(a + row * k + i);
      sum += pair.x * b[i * n + col] + pair.y * b[(i + 1) * n + col];
    }
  for (; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}
