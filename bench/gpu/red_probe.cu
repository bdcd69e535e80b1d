// One warp's global reduction (atomicAdd with the result unused: RED) per
// launch, at lane offsets drawn like the histogram's uniform 256-bin input
// (bins 0..255 of an int array; also 1024 bins). Prints, per launch, the
// offsets and the rule's sectors (over distinct 32-byte sectors, the most
// lanes on one word), to be joined with ncu's
// l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum per launch.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>
__global__ void red_probe(const int* offsets, int* bins) {
  atomicAdd(&bins[offsets[threadIdx.x]], 1);
}
// Patterns from a file instead (argv[1] not a number): one a line, 32 int
// offsets each (below 16384), each launched once.
int from_file(const char* path) {
  FILE* f = fopen(path, "r");
  if (!f) return 2;
  int *d_off, *d_bins;
  cudaMalloc(&d_off, 32 * sizeof(int));
  cudaMalloc(&d_bins, 16384 * sizeof(int));
  cudaMemset(d_bins, 0, 16384 * sizeof(int));
  std::vector<int> off(32);
  for (int p = 0;; ++p) {
    for (int& o : off)
      if (fscanf(f, "%d", &o) != 1) return 0;
    cudaMemcpy(d_off, off.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    red_probe<<<1, 32>>>(d_off, d_bins);
    cudaDeviceSynchronize();
  }
}

int main(int argc, char** argv) {
  if (argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9')) return from_file(argv[1]);
  const int patterns = argc > 1 ? atoi(argv[1]) : 300;
  const int repeats = argc > 2 ? atoi(argv[2]) : 1;  // launches of each pattern, back to back
  std::mt19937 rng(12345);
  int *d_off, *d_bins;
  cudaMalloc(&d_off, 32 * sizeof(int));
  cudaMalloc(&d_bins, 4096 * sizeof(int));
  cudaMemset(d_bins, 0, 4096 * sizeof(int));
  for (int p = 0; p < patterns; ++p) {
    const int range = p % 3 == 2 ? 1024 : 256;
    std::vector<int> off(32);
    for (int& o : off) o = rng() % range;
    std::map<int, std::map<int, int>> per_sector;  // sector -> word -> lanes
    for (int o : off) per_sector[o / 8][o]++;
    int rule = 0;
    for (auto& [s, words] : per_sector) {
      int most = 0;
      for (auto& [w, n] : words) most = std::max(most, n);
      rule += most;
    }
    cudaMemcpy(d_off, off.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    for (int r = 0; r < repeats; ++r) {
      red_probe<<<1, 32>>>(d_off, d_bins);
      cudaDeviceSynchronize();
    }
    printf("P %d %d %d", p, range, rule);
    for (int o : off) printf(" %d", o);
    printf("\n");
  }
  return 0;
}
