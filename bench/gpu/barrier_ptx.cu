// The clock pass's own PTX, run outside ThreadMap: setRowReadCol<int, 32, 32>
// instrumented for the clock pass (ptx_instrument_tests writes it to
// /tmp/threadmap-ptx-instrument-test/setRowReadCol_int__32__32__clock.ptx),
// loaded as ThreadMap loads it (the driver's JIT, at most 32 registers) and
// launched at 8, 264, 1024 and 65536 blocks of 32 x 32 threads, two ways:
//   tight: the warm-up launch and the measured one back to back (as
//          barrier_probe.cu launches);
//   as ThreadMap: before each of the two launches the trace buffer is
//          allocated and written, the output poisoned (cudaMemset), and after
//          it both are read back and the buffer freed (kernels/engine/record.cpp).
// Prints per PTX file, way and size the median arrival spread over the
// blocks (cycles), the median start spread (the block's last warp start
// less its first) and the median of each block's median arrival - start.
// Several files compare variants of the pass in one process, interleaved
// over three rounds.
//   nvcc -O2 -std=c++17 -o barrier_ptx bench/gpu/barrier_ptx.cu -lcuda
//   ./barrier_ptx LABEL=FILE.ptx ...
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// kernels/core/trace_format.h, the clock pass's part.
constexpr std::uint64_t kHeaderWords = 16, kScheduleWords = 8, kWarpWords = 6 + 16 * 4, kSampleWarps = 32768;
constexpr std::uint32_t kWritten = 0x600dc10cu, kNoSlot = 0xffffffffu;
constexpr std::uint32_t kWarps = 32;
const char* const kEntry = "_Z13setRowReadColIiLi32ELi32EEvPT_";

struct Layout {
  std::uint64_t slots, barriers, words;
  std::vector<std::uint32_t> table;  // each block's first slot, or kNoSlot
};

// Record.cpp's choice: every block where the grid has at most 32768 warps,
// else 1024 blocks drawn with a fixed seed.
Layout layout_for(std::uint32_t blocks) {
  Layout l;
  l.slots = kHeaderWords + std::uint64_t{blocks} * kWarps * kScheduleWords;
  l.barriers = (l.slots + blocks + 1) & ~std::uint64_t{1};
  l.table.assign(blocks, kNoSlot);
  std::vector<std::uint32_t> chosen(blocks);
  for (std::uint32_t b = 0; b < blocks; ++b) chosen[b] = b;
  if (std::uint64_t{blocks} * kWarps > kSampleWarps) {
    std::vector<std::uint32_t> some;
    std::sample(chosen.begin(), chosen.end(), std::back_inserter(some), kSampleWarps / kWarps, std::mt19937(20261123));
    chosen = some;
  }
  for (std::uint32_t i = 0; i < chosen.size(); ++i) l.table[chosen[i]] = i * kWarps;
  l.words = l.barriers + std::uint64_t{chosen.size()} * kWarps * kWarpWords;
  return l;
}

std::vector<std::uint32_t> initial_words(const Layout& l) {
  std::vector<std::uint32_t> w(l.words, 0);
  std::copy(l.table.begin(), l.table.end(), w.begin() + static_cast<std::ptrdiff_t>(l.slots));
  return w;
}

template <class T>
T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? T{} : v[(v.size() - 1) / 2];
}

struct Figures {
  std::int64_t spread = 0, start_spread = 0, to_arrival = 0;
  std::size_t blocks = 0;
};

// Each sampled block's warps: arrival spread, start spread, arrival - start.
Figures figures(const std::vector<std::uint32_t>& w, const Layout& l) {
  std::vector<std::int64_t> spreads, starts, to_arrival;
  for (std::uint32_t slot : l.table) {
    if (slot == kNoSlot) continue;
    std::int64_t lo = INT64_MAX, hi = INT64_MIN, s_lo = INT64_MAX, s_hi = INT64_MIN;
    std::vector<std::int64_t> waits;
    bool whole = true;
    const std::uint64_t first = l.barriers + std::uint64_t{slot} * kWarpWords;
    for (std::uint32_t k = 0; k < kWarps; ++k) {
      const std::uint64_t at = l.barriers + (std::uint64_t{slot} + k) * kWarpWords;
      whole = whole && w[at + 4] == kWritten;
      const std::int64_t arrival = static_cast<std::int32_t>(w[at + 6] - w[first + 6]);
      const std::int64_t start = static_cast<std::int32_t>(w[at + 2] - w[first + 6]);
      lo = std::min(lo, arrival), hi = std::max(hi, arrival);
      s_lo = std::min(s_lo, start), s_hi = std::max(s_hi, start);
      waits.push_back(arrival - start);
    }
    if (!whole) continue;
    spreads.push_back(hi - lo);
    starts.push_back(s_hi - s_lo);
    to_arrival.push_back(median(waits));
  }
  return {median(spreads), median(starts), median(to_arrival), spreads.size()};
}

struct Kernel {
  std::string label;
  CUfunction function = nullptr;
};

Kernel load(const std::string& label, const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string ptx = text.str();
  CUmodule module;
  CUjit_option option = CU_JIT_MAX_REGISTERS;
  void* value = reinterpret_cast<void*>(std::uintptr_t{32});
  Kernel k{label};
  if (ptx.empty() || cuModuleLoadDataEx(&module, ptx.c_str(), 1, &option, &value) != CUDA_SUCCESS ||
      cuModuleGetFunction(&k.function, module, kEntry) != CUDA_SUCCESS) {
    std::fprintf(stderr, "barrier_ptx: %s: no %s that loads\n", path.c_str(), kEntry);
    std::exit(1);
  }
  return k;
}

void launch(const Kernel& k, std::uint32_t blocks, int* out, std::uint32_t* trace) {
  void* parameters[] = {&out, &trace};
  if (cuLaunchKernel(k.function, blocks, 1, 1, 32, 32, 1, 0, nullptr, parameters, nullptr) != CUDA_SUCCESS) {
    std::fprintf(stderr, "barrier_ptx: launch failed\n");
    std::exit(1);
  }
}

// Two launches, the second read back.
std::vector<std::uint32_t> run(const Kernel& k, std::uint32_t blocks, const Layout& l, int* out, bool as_threadmap) {
  std::vector<std::uint32_t> w = initial_words(l);
  const std::size_t bytes = w.size() * 4, out_bytes = std::size_t{blocks} * 4096;
  std::uint32_t* trace = nullptr;
  if (!as_threadmap) {
    CHECK(cudaMalloc(&trace, bytes));
    CHECK(cudaMemcpy(trace, w.data(), bytes, cudaMemcpyHostToDevice));
    launch(k, blocks, out, trace);
    launch(k, blocks, out, trace);
    CHECK(cudaMemcpy(w.data(), trace, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(trace));
    return w;
  }
  for (int r = 0; r < 2; ++r) {
    w = initial_words(l);
    CHECK(cudaMalloc(&trace, bytes));
    CHECK(cudaMemcpy(trace, w.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0xFF, out_bytes));
    launch(k, blocks, out, trace);
    CHECK(cudaMemcpy(w.data(), trace, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(trace));
  }
  return w;
}

// setRowReadCol writes the transpose of each block's 32 x 32 indices.
bool verified(int* out, std::uint32_t blocks) {
  std::vector<int> host(std::size_t{blocks} * 1024);
  CHECK(cudaMemcpy(host.data(), out, host.size() * 4, cudaMemcpyDeviceToHost));
  for (std::size_t b = 0; b < blocks; ++b)
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 32; ++x)
        if (host[b * 1024 + y * 32 + x] != x * 32 + y) return false;
  return true;
}

int main(int argc, char** argv) {
  CHECK(cudaFree(nullptr));
  std::vector<Kernel> kernels;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    kernels.push_back(load(arg.substr(0, eq), arg.substr(eq + 1)));
  }
  int* out = nullptr;
  CHECK(cudaMalloc(&out, std::size_t{65536} * 4096));
  for (int round = 1; round <= 3; ++round)
    for (std::uint32_t blocks : {8u, 264u, 1024u, 65536u}) {
      const Layout l = layout_for(blocks);
      for (bool as_threadmap : {false, true})
        for (const Kernel& k : kernels) {
          const std::vector<std::uint32_t> w = run(k, blocks, l, out, as_threadmap);
          CHECK(cudaGetLastError());
          const Figures f = figures(w, l);
          std::printf(
              "{\"round\": %d, \"pass\": \"%s\", \"way\": \"%s\", \"blocks\": %u, \"sampled\": %zu, "
              "\"spread_median\": %lld, \"start_spread_median\": %lld, \"arrival_after_start_median\": %lld, "
              "\"verified\": %s}\n",
              round, k.label.c_str(), as_threadmap ? "as_threadmap" : "tight", blocks, f.blocks,
              static_cast<long long>(f.spread), static_cast<long long>(f.start_spread),
              static_cast<long long>(f.to_arrival), verified(out, blocks) ? "true" : "false");
          std::fflush(stdout);
        }
    }
  return 0;
}
