// atomics_probe.cu: how Nsight Compute counts atomic and reduction memory
// operations, per warp instruction, for known access patterns (shared and
// global), so that the trace model can reproduce ncu's counters.
//
// Standalone: nvcc -arch=sm_90 -lineinfo -o atomics_probe atomics_probe.cu
// Run by bench/gpu/atomics_probe.sh under ncu (every launch profiled).
//
// Every kernel is launched once, one block of 32 threads (one warp) unless its
// entry says otherwise; each active lane does exactly one atomic. Shared
// kernels zero __shared__ int s[2048] with plain 16-byte stores and a
// __syncthreads first, then after the atomic and a second __syncthreads lane 0
// reads back the word lane 0 touched (one LDS) so the host can check the sum.
// Global kernels get their own 4096-int region of a zeroed buffer (16 KiB
// aligned) and a 128-int output region for the returned values.
//
//   atomics_probe [--only NAME] [--stats FILE]
//     --only NAME   launch that one kernel only (ncu's metric-name probe)
//     --stats FILE  write each pattern's per-warp address statistics (warp 0)
//
// Words: "word" is the element index (int/float: 4 bytes, u64: 8 bytes).
// `zmask` is 0 at run time; `t & zmask` gives word 0 without the compiler
// knowing the address is warp-uniform (the *_opaque extras).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

// Fixed pseudo-random bins for s13 (Python random.Random(2), randrange(256)
// for lanes 0..31): words 18, 90, 184 are hit by two lanes each; bank 24 holds
// four distinct words (88, 120, 184, 216) and five lanes.
#define HASH_TABLE                                                                                  \
  {28, 46, 43, 184, 86, 157, 128, 108, 18, 81, 220, 201, 190, 227, 137, 18,                         \
   14, 186, 238, 163, 194, 216, 84, 90, 120, 118, 12, 90, 166, 88, 69, 184}
static const int kHashHost[32] = HASH_TABLE;
__constant__ int kHashDev[32] = HASH_TABLE;

__host__ __device__ inline int hash_bin(int t) {
#ifdef __CUDA_ARCH__
  return kHashDev[t & 31];
#else
  return kHashHost[t & 31];
#endif
}

typedef unsigned long long u64;

// X(NAME, THREADS, ACTIVE, WORD, ELEM_BYTES, CHECK, STMT, DESC)
//   ACTIVE, WORD: expressions of t (threadIdx.x) and zmask
//   CHECK: 0 none, 1 int +1 count, 2 float +1 count, 3 u64 +1 count
//   STMT: the one atomic; uses s (shared int[2048]) or g (global int*), w, t, out
#define SHARED_PATTERNS(X)                                                                          \
  X(s01_word_lane, 32, true, t, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=lane")              \
  X(s02_word0, 32, true, 0, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word 0 (literal)")          \
  X(s03_word_lane_div2, 32, true, t / 2, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=lane/2")   \
  X(s04_word_lane_div4, 32, true, t / 4, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=lane/4")   \
  X(s05_word_lane_div8, 32, true, t / 8, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=lane/8")   \
  X(s06_word_lane_div16, 32, true, t / 16, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=lane/16") \
  X(s07_word_2lane, 32, true, 2 * t, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=2*lane")       \
  X(s08_word_32lane, 32, true, 32 * t, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=32*lane")    \
  X(s09_two_words_one_bank, 32, true, (t % 2) * 32, 4, 1, atomicAdd(&s[w], 1),                     \
    "add+1 unused, word=(lane%2)*32")                                                               \
  X(s10_word_lane_mod4, 32, true, t % 4, 4, 1, atomicAdd(&s[w], 1), "add+1 unused, word=lane%4")   \
  X(s11_word_7lane_mod32_plus_32_lane_mod3, 32, true, (t * 7) % 32 + 32 * (t % 3), 4, 1,           \
    atomicAdd(&s[w], 1), "add+1 unused, word=(7*lane)%32+32*(lane%3)")                              \
  X(s12_16lanes_word_lane, 32, t < 16, t, 4, 1, atomicAdd(&s[w], 1),                               \
    "add+1 unused, lanes 0..15 only, word=lane")                                                    \
  X(s13_hash256, 32, true, hash_bin(t), 4, 1, atomicAdd(&s[w], 1),                                 \
    "add+1 unused, word=hash table (256 bins)")                                                     \
  X(s14_used_word_lane, 32, true, t, 4, 1, out[t] = atomicAdd(&s[w], 1), "add+1 USED, word=lane") \
  X(s15_used_word0, 32, true, 0, 4, 1, out[t] = atomicAdd(&s[w], 1), "add+1 USED, word 0")         \
  X(s16_cas_word_lane, 32, true, t, 4, 0, atomicCAS(&s[w], 0, t + 1), "CAS(0->lane+1), word=lane") \
  X(s17_exch_word0, 32, true, 0, 4, 0, atomicExch(&s[w], t), "exch lane, word 0")                  \
  X(s18_max_word_lane_div4, 32, true, t / 4, 4, 0, atomicMax(&s[w], t), "max lane, word=lane/4")   \
  X(s19_u64add_word_lane, 32, true, t, 8, 3, atomicAdd(reinterpret_cast<u64*>(s) + w, 1ull),       \
    "u64 add+1 unused, 8-byte word=lane")                                                           \
  X(s20_fadd_word_lane, 32, true, t, 4, 2, atomicAdd(reinterpret_cast<float*>(s) + w, 1.0f),       \
    "float add 1.0 unused, word=lane")                                                              \
  X(s21_fadd_word0, 32, true, 0, 4, 2, atomicAdd(reinterpret_cast<float*>(s) + w, 1.0f),           \
    "float add 1.0 unused, word 0")                                                                 \
  X(s22_inc_word_lane_div4, 32, true, t / 4, 4, 1,                                                 \
    atomicInc(reinterpret_cast<unsigned*>(s) + w, 1000u), "atomicInc(limit 1000), word=lane/4")     \
  X(s23_and_word0, 32, true, 0, 4, 0, atomicAnd(&s[w], ~(1 << t)), "and ~(1<<lane), word 0")       \
  X(sx1_word0_opaque, 32, true, t & zmask, 4, 1, atomicAdd(&s[w], 1),                              \
    "EXTRA add+1 unused, word 0 via runtime mask (not provably uniform)")                           \
  X(sx2_word_lane_val_lane, 32, true, t, 4, 0, atomicAdd(&s[w], t + 1),                            \
    "EXTRA add lane+1 (non-constant) unused, word=lane")                                            \
  X(sx3_word0_val_lane, 32, true, 0, 4, 0, atomicAdd(&s[w], t + 1),                                \
    "EXTRA add lane+1 (non-constant) unused, word 0")                                               \
  X(sx4_word_lane_div8_val_lane, 32, true, t / 8, 4, 0, atomicAdd(&s[w], t + 1),                   \
    "EXTRA add lane+1 (non-constant) unused, word=lane/8")                                          \
  X(sy01_val_word_2lane, 32, true, 2 * t, 4, 0, atomicAdd(&s[w], t + 1),                          \
    "EXTRA add lane+1 unused, word=2*lane")                                                         \
  X(sy02_val_word_32lane, 32, true, 32 * t, 4, 0, atomicAdd(&s[w], t + 1),                        \
    "EXTRA add lane+1 unused, word=32*lane")                                                        \
  X(sy03_val_two_words_one_bank, 32, true, (t % 2) * 32, 4, 0, atomicAdd(&s[w], t + 1),           \
    "EXTRA add lane+1 unused, word=(lane%2)*32")                                                    \
  X(sy04_val_hash256, 32, true, hash_bin(t), 4, 0, atomicAdd(&s[w], t + 1),                       \
    "EXTRA add lane+1 unused, word=hash table")                                                     \
  X(sy05_val_word0_opaque, 32, true, t & zmask, 4, 0, atomicAdd(&s[w], t + 1),                    \
    "EXTRA add lane+1 unused, word 0 via runtime mask")                                             \
  X(sy06_val_word0x16_plus_16_words_bank0, 32, true, t < 16 ? (t & zmask) : 32 * (t - 15), 4, 0,  \
    atomicAdd(&s[w], t + 1), "EXTRA add lane+1 unused, lanes 0..15 word 0, lane l>=16 word 32*(l-15)") \
  X(sy07_used_word_32lane, 32, true, 32 * t, 4, 1, out[t] = atomicAdd(&s[w], 1),                  \
    "EXTRA add+1 USED, word=32*lane")                                                               \
  X(sy08_cas_word_32lane, 32, true, 32 * t, 4, 0, atomicCAS(&s[w], 0, t + 1),                     \
    "EXTRA CAS(0->lane+1), word=32*lane")                                                           \
  X(sy09_cas_word0_opaque, 32, true, t & zmask, 4, 0, atomicCAS(&s[w], 0, t + 1),                 \
    "EXTRA CAS(0->lane+1), word 0 via runtime mask")                                                \
  X(sy10_exch_two_words_one_bank, 32, true, (t % 2) * 32, 4, 0, atomicExch(&s[w], t),             \
    "EXTRA exch lane, word=(lane%2)*32")                                                            \
  X(sy11_word0x16_plus_16_words_bank0, 32, true, t < 16 ? (t & zmask) : 32 * (t - 15), 4, 1,      \
    atomicAdd(&s[w], 1), "EXTRA add+1 unused, lanes 0..15 word 0, lane l>=16 word 32*(l-15)")       \
  X(sy12_fadd_word_32lane, 32, true, 32 * t, 4, 2, atomicAdd(reinterpret_cast<float*>(s) + w, 1.0f), \
    "EXTRA float add 1.0 unused, word=32*lane")                                                     \
  X(m1_128thr_word_tid, 128, true, t, 4, 1, atomicAdd(&s[w], 1),                                   \
    "s01 with 4 warps (128 threads), word=threadIdx.x")                                             \
  X(m2_128thr_word0, 128, true, 0, 4, 1, atomicAdd(&s[w], 1), "s02 with 4 warps (128 threads), word 0")

#define GLOBAL_PATTERNS(X)                                                                          \
  X(g01_word_lane, 32, true, t, 4, 1, atomicAdd(&g[w], 1), "add+1 unused, word=lane")              \
  X(g02_used_word_lane, 32, true, t, 4, 1, out[t] = atomicAdd(&g[w], 1), "add+1 USED, word=lane") \
  X(g03_word0, 32, true, 0, 4, 1, atomicAdd(&g[w], 1), "add+1 unused, word 0 (literal)")          \
  X(g04_used_word0, 32, true, 0, 4, 1, out[t] = atomicAdd(&g[w], 1), "add+1 USED, word 0 (literal)") \
  X(g05_word_8lane, 32, true, 8 * t, 4, 1, atomicAdd(&g[w], 1),                                    \
    "add+1 unused, word=8*lane (one lane per 32B sector)")                                          \
  X(g06_word_32lane, 32, true, 32 * t, 4, 1, atomicAdd(&g[w], 1),                                  \
    "add+1 unused, word=32*lane (one lane per 128B line)")                                          \
  X(g07_fadd_word_lane, 32, true, t, 4, 2, atomicAdd(reinterpret_cast<float*>(g) + w, 1.0f),       \
    "float add 1.0 unused, word=lane")                                                              \
  X(g08_u64add_word_lane, 32, true, t, 8, 3, atomicAdd(reinterpret_cast<u64*>(g) + w, 1ull),       \
    "u64 add+1 unused, 8-byte word=lane")                                                           \
  X(g09_cas_word_lane, 32, true, t, 4, 0, atomicCAS(&g[w], 0, t + 1), "CAS(0->lane+1), word=lane") \
  X(g10_word_lane_div2, 32, true, t / 2, 4, 1, atomicAdd(&g[w], 1), "add+1 unused, word=lane/2")   \
  X(g11_16lanes_word_lane, 32, t < 16, t, 4, 1, atomicAdd(&g[w], 1),                               \
    "add+1 unused, lanes 0..15 only, word=lane")                                                    \
  X(gx1_word0_opaque, 32, true, t & zmask, 4, 1, atomicAdd(&g[w], 1),                              \
    "EXTRA add+1 unused, word 0 via runtime mask (not provably uniform)")                           \
  X(gx2_used_word0_opaque, 32, true, t & zmask, 4, 1, out[t] = atomicAdd(&g[w], 1),                \
    "EXTRA add+1 USED, word 0 via runtime mask")                                                    \
  X(gx3_word0_val_lane, 32, true, 0, 4, 0, atomicAdd(&g[w], t + 1),                                \
    "EXTRA add lane+1 (non-constant) unused, word 0 (literal)")                                     \
  X(gx4_word_4lane, 32, true, 4 * t, 4, 1, atomicAdd(&g[w], 1),                                    \
    "EXTRA add+1 unused, word=4*lane (2 lanes per sector, 4 lines)")                                \
  X(gx5_word_lane_div4_opaque, 32, true, (t / 4) + (t & zmask), 4, 1, atomicAdd(&g[w], 1),         \
    "EXTRA add+1 unused, word=lane/4 (8 words, one sector)")                                        \
  X(gy1_word_lane_mod16_x8, 32, true, (t % 16) * 8, 4, 1, atomicAdd(&g[w], 1),                     \
    "EXTRA add+1 unused, word=(lane%16)*8 (2 lanes/word, 16 sectors, 4 lines)")                     \
  X(gy2_word0x16_plus_lanes, 32, true, t < 16 ? (t & zmask) : t, 4, 1, atomicAdd(&g[w], 1),        \
    "EXTRA add+1 unused, lanes 0..15 word 0, lanes 16..31 word=lane")                               \
  X(gy3_used_word_lane_div2, 32, true, t / 2, 4, 1, out[t] = atomicAdd(&g[w], 1),                  \
    "EXTRA add+1 USED, word=lane/2")                                                                \
  X(gy4_u64add_word0_opaque, 32, true, t & zmask, 8, 3,                                            \
    atomicAdd(reinterpret_cast<u64*>(g) + w, 1ull), "EXTRA u64 add+1 unused, 8-byte word 0 via runtime mask") \
  X(gy5_word_lane_mod8_x32, 32, true, (t % 8) * 32, 4, 1, atomicAdd(&g[w], 1),                     \
    "EXTRA add+1 unused, word=(lane%8)*32 (4 lanes/word, 8 lines)")

#define DEFINE_FUNCS(NAME, NT, ACTIVE, WORD, EB, CHK, STMT, DESC)                                   \
  __host__ __device__ inline int NAME##_word(int t, int zmask) {                                    \
    (void)zmask;                                                                                    \
    return (WORD);                                                                                  \
  }                                                                                                 \
  __host__ __device__ inline bool NAME##_active(int t) { return (ACTIVE); }

#define DEFINE_SHARED_KERNEL(NAME, NT, ACTIVE, WORD, EB, CHK, STMT, DESC)                           \
  extern "C" __global__ void NAME(int* g, int* out, int* dbg, int zmask) {                          \
    __shared__ __align__(16) int s[2048];                                                           \
    (void)g;                                                                                        \
    for (int i = threadIdx.x; i < 512; i += blockDim.x)                                             \
      reinterpret_cast<int4*>(s)[i] = make_int4(0, 0, 0, 0);                                        \
    __syncthreads();                                                                                \
    const int t = threadIdx.x;                                                                      \
    if (NAME##_active(t)) {                                                                         \
      const int w = NAME##_word(t, zmask);                                                          \
      STMT;                                                                                         \
    }                                                                                               \
    __syncthreads();                                                                                \
    if (t == 0) dbg[0] = s[NAME##_word(0, zmask) * ((EB) / 4)];                                     \
  }

#define DEFINE_GLOBAL_KERNEL(NAME, NT, ACTIVE, WORD, EB, CHK, STMT, DESC)                           \
  extern "C" __global__ void NAME(int* g, int* out, int* dbg, int zmask) {                          \
    (void)dbg;                                                                                      \
    const int t = threadIdx.x;                                                                      \
    if (NAME##_active(t)) {                                                                         \
      const int w = NAME##_word(t, zmask);                                                          \
      STMT;                                                                                         \
    }                                                                                               \
  }

SHARED_PATTERNS(DEFINE_FUNCS)
GLOBAL_PATTERNS(DEFINE_FUNCS)
SHARED_PATTERNS(DEFINE_SHARED_KERNEL)
GLOBAL_PATTERNS(DEFINE_GLOBAL_KERNEL)

struct Pattern {
  const char* name;
  const char* desc;
  void (*kernel)(int*, int*, int*, int);
  char space;  // 's' shared, 'g' global
  int threads;
  int elem_bytes;
  int check;
  int (*word)(int, int);
  bool (*active)(int);
};

#define SHARED_ENTRY(NAME, NT, ACTIVE, WORD, EB, CHK, STMT, DESC) \
  {#NAME, DESC, NAME, 's', NT, EB, CHK, NAME##_word, NAME##_active},
#define GLOBAL_ENTRY(NAME, NT, ACTIVE, WORD, EB, CHK, STMT, DESC) \
  {#NAME, DESC, NAME, 'g', NT, EB, CHK, NAME##_word, NAME##_active},

static const Pattern kPatterns[] = {SHARED_PATTERNS(SHARED_ENTRY) GLOBAL_PATTERNS(GLOBAL_ENTRY)};
static const int kNumPatterns = sizeof(kPatterns) / sizeof(kPatterns[0]);

#define CK(call)                                                                        \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(2);                                                                     \
    }                                                                                   \
  } while (0)

// Per-warp address statistics of warp 0 (lanes 0..31), the inputs a rule can use.
static void write_stats(const char* path) {
  FILE* f = std::fopen(path, "w");
  if (!f) { std::perror(path); std::exit(2); }
  std::fprintf(f, "kernel,space,threads,elem_bytes,active,words,max_lanes_per_word,banks,"
                  "max_words_per_bank,max_lanes_per_bank,sectors32,lines128,desc\n");
  for (const Pattern& p : kPatterns) {
    std::map<int, int> lanes_per_word;
    std::map<int, std::set<long>> words_per_bank;  // bank -> distinct 4-byte word addresses
    std::map<int, int> lanes_per_bank;
    std::set<long> sectors, lines;
    int active = 0;
    for (int t = 0; t < 32 && t < p.threads; ++t) {
      if (!p.active(t)) continue;
      ++active;
      const int w = p.word(t, 0);
      ++lanes_per_word[w];
      const long byte = long(w) * p.elem_bytes;
      std::set<int> banks_of_lane;
      for (int b = 0; b < p.elem_bytes; b += 4) {
        const long word4 = (byte + b) / 4;
        words_per_bank[int(word4 % 32)].insert(word4);
        banks_of_lane.insert(int(word4 % 32));
      }
      for (int b : banks_of_lane) ++lanes_per_bank[b];
      sectors.insert(byte / 32);
      lines.insert(byte / 128);
    }
    int max_lpw = 0, max_wpb = 0, max_lpb = 0;
    for (auto& kv : lanes_per_word) max_lpw = kv.second > max_lpw ? kv.second : max_lpw;
    for (auto& kv : words_per_bank) max_wpb = int(kv.second.size()) > max_wpb ? int(kv.second.size()) : max_wpb;
    for (auto& kv : lanes_per_bank) max_lpb = kv.second > max_lpb ? kv.second : max_lpb;
    std::fprintf(f, "%s,%s,%d,%d,%d,%zu,%d,%zu,%d,%d,%zu,%zu,\"%s\"\n", p.name,
                 p.space == 's' ? "shared" : "global", p.threads, p.elem_bytes, active,
                 lanes_per_word.size(), max_lpw, words_per_bank.size(), max_wpb, max_lpb,
                 sectors.size(), lines.size(), p.desc);
  }
  std::fclose(f);
}

int main(int argc, char** argv) {
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--stats") && i + 1 < argc) write_stats(argv[++i]);
    else { std::fprintf(stderr, "usage: %s [--only NAME] [--stats FILE]\n", argv[0]); return 2; }
  }
  std::printf("s13 hash table (lane -> word):");
  for (int t = 0; t < 32; ++t) std::printf(" %d", kHashHost[t]);
  std::printf("\n");

  const int kRegion = 4096, kOutRegion = 128;
  int *g = nullptr, *out = nullptr, *dbg = nullptr;
  CK(cudaMalloc(&g, sizeof(int) * kRegion * kNumPatterns));
  CK(cudaMalloc(&out, sizeof(int) * kOutRegion * kNumPatterns));
  CK(cudaMalloc(&dbg, sizeof(int) * kNumPatterns));
  CK(cudaMemset(g, 0, sizeof(int) * kRegion * kNumPatterns));
  CK(cudaMemset(out, 0, sizeof(int) * kOutRegion * kNumPatterns));
  CK(cudaMemset(dbg, 0, sizeof(int) * kNumPatterns));
  CK(cudaDeviceSynchronize());

  int launched = 0;
  for (int i = 0; i < kNumPatterns; ++i) {
    const Pattern& p = kPatterns[i];
    if (only && std::strcmp(only, p.name)) continue;
    p.kernel<<<1, p.threads>>>(g + i * kRegion, out + i * kOutRegion, dbg + i, 0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    ++launched;
  }
  if (!launched) { std::fprintf(stderr, "no kernel named %s\n", only ? only : "?"); return 2; }

  std::vector<int> hg(size_t(kRegion) * kNumPatterns), hdbg(kNumPatterns);
  CK(cudaMemcpy(hg.data(), g, sizeof(int) * hg.size(), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hdbg.data(), dbg, sizeof(int) * hdbg.size(), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < kNumPatterns; ++i) {
    const Pattern& p = kPatterns[i];
    if (only && std::strcmp(only, p.name)) continue;
    const int w0 = p.word(0, 0);
    int expect = 0;
    for (int t = 0; t < p.threads; ++t) expect += p.active(t) && p.word(t, 0) == w0;
    const int* region = hg.data() + size_t(i) * kRegion;
    long got;
    if (p.space == 's') got = hdbg[i];  // int at int-index w0*eb/4: low half for u64
    else got = region[w0 * p.elem_bytes / 4];
    char detail[64] = "";
    bool ok = true;
    if (p.check == 1 || p.check == 3) ok = got == expect;
    if (p.check == 2) {
      float fv;
      int iv = int(got);
      std::memcpy(&fv, &iv, 4);
      ok = fv == float(expect);
      std::snprintf(detail, sizeof detail, " (as float %g)", fv);
    }
    if (!ok) ++bad;
    std::printf("%-40s word(lane0)=%d value=%ld%s expect=%s %s\n", p.name, w0, got, detail,
                p.check ? std::to_string(expect).c_str() : "-",
                p.check ? (ok ? "ok" : "MISMATCH") : "");
  }
  CK(cudaFree(g));
  CK(cudaFree(out));
  CK(cudaFree(dbg));
  std::printf("%d kernels launched, %d mismatches\n", launched, bad);
  return bad ? 1 : 0;
}
