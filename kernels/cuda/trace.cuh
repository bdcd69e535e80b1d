// Trace hooks for the .cu sources (the buffer layout is kernels/trace_format.h).
//
// In the timed build every hook is nothing: LDG(a[i]) is a[i], TM_BEGIN() is
// an empty statement. A recording compiles the same text twice more, each
// kernel then taking one more argument, the trace buffer:
//
// THREADMAP_TRACE=1, the access pass: records, for the blocks the host
// marked, every load and store as it happens:
//   LDG(x) / STG(x)   a global load / store of the lvalue x (its address)
//   LDS(x) / STS(x)   a shared load / store of x (its offset in the block's
//                     shared window, the address the banks see)
//   TM_ARRIVE(); __syncthreads(); TM_RELEASE();   each warp's arrival at a
//                     barrier (its rank, and clock64) and its release
// and, for EVERY block, its SM (%smid) and its first start and last end
// (%globaltimer). A record's slot comes from an atomic counter: the slots are
// the order in which the device executed the accesses. Those global atomics
// stand between a warp's accesses and the barrier, so this pass's clock
// stamps measure mostly the tracing; its barrier records give the order.
//
// THREADMAP_TRACE=2, the clock pass: no access records, and as few
// instructions as can be before a barrier (on a busy SM every instruction a
// warp issues before it delays the others): one clock read at the start,
// one just before each barrier. After the barrier every lane loads one word
// of shared memory, a load the barrier orders, and reads the clock under a
// predicate computed from it, so the release stamp cannot be taken before
// the warp was released (BAR.SYNC does not stop a warp at once: a clock read
// just after __syncthreads() is taken before the wait ends), with no global
// round trip. Lane 0 keeps the stamps in shared memory; at the block's end,
// in the blocks the host chose, each warp writes them to a slot of its own, and every
// block's start and end go to the schedule with non-returning atomics. The
// host turns cycles into time with the SM clock it measures after the run
// (diagnostic.cu). Barrier timings and the schedule come from this pass.
#pragma once
#include "kernels/trace_format.h"

#ifdef THREADMAP_TRACE

#define TM_TRACE_PARAM , unsigned int* tm_trace

namespace threadmap_trace {

__device__ inline unsigned int* schedule(unsigned int* tm, unsigned int block) {
  return tm + tm[TM_H_SCHEDULE] + block * TM_SCHEDULE_WORDS;
}

__device__ inline unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ inline unsigned int sm_id() {
  unsigned int s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

}  // namespace threadmap_trace

#if THREADMAP_TRACE == 2

namespace threadmap_trace {

using Stamps = unsigned int[TM_CLOCK_PASSES][TM_CLOCK_MAX_WARPS][TM_CP_WORDS];

// What a warp keeps in registers.
struct Warp {
  unsigned long long start_clock = 0;
  unsigned long long arrival = 0;  // at the barrier it is passing
  unsigned int passes = 0;         // barriers passed
  unsigned int line = 0;           // of the barrier it is passing
  unsigned int* slot = nullptr;    // lane 0: its stamps, found at its first release
};

__device__ inline unsigned int linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ inline unsigned int linear_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ inline void clock_arrive(Warp& w, unsigned int line) {
  w.line = line;
  w.arrival = clock64();
}

// `ordered`: a shared word no thread writes, loaded after the barrier.
__device__ inline void clock_release(Stamps& stamps, unsigned int& ordered_word, Warp& w) {
  const unsigned int ordered = *static_cast<volatile unsigned int*>(&ordered_word);
  unsigned long long t;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.u32 p, %1, 0x5eed1e55;\n\t"
      "@p mov.u64 %0, %%clock64;\n\t"
      "@!p mov.u64 %0, 0;\n\t}"
      : "=l"(t)
      : "r"(ordered)
      : "memory");
  const unsigned int pass = w.passes++;
  if (pass == 0) {
    const unsigned int thread = linear_thread();
    w.slot = thread % 32u == 0 ? stamps[0][thread / 32u] : nullptr;
  }
  if (!w.slot || pass >= TM_CLOCK_PASSES) return;
  unsigned int* s = w.slot + pass * (TM_CLOCK_MAX_WARPS * TM_CP_WORDS);
  s[TM_CP_ARRIVAL] = static_cast<unsigned int>(w.arrival);
  s[TM_CP_RELEASE] = static_cast<unsigned int>(t);
  s[TM_CP_LINE] = w.line;
}

__device__ inline void clock_end(unsigned int* tm, Stamps& stamps, const Warp& w) {
  const unsigned int thread = linear_thread();
  if (thread % 32u != 0) return;
  const unsigned long long end_clock = clock64();
  const unsigned long long end_ns = global_timer();
  const unsigned int block = linear_block();
  unsigned int* s = schedule(tm, block);
  atomicMin(reinterpret_cast<unsigned long long*>(s + TM_S_START), w.start_clock);
  atomicMax(reinterpret_cast<unsigned long long*>(s + TM_S_END), end_ns);
  atomicMax(reinterpret_cast<unsigned long long*>(s + TM_S_END_CLOCK), end_clock);
  if (thread == 0) s[TM_S_SM] = sm_id();
  const unsigned int first = tm[tm[TM_H_CLOCK_SLOTS] + block];
  if (first == TM_NO_SLOT) return;
  const unsigned long long slot = static_cast<unsigned long long>(first) + thread / 32u;
  if (slot >= tm[TM_H_BARRIER_CAPACITY]) return;
  unsigned int* r = tm + tm[TM_H_BARRIERS] + slot * TM_CLOCK_WARP_WORDS;
  r[TM_CW_BLOCK] = block;
  r[TM_CW_WARP_PASSES] = thread / 32u | (w.passes << 16);
  r[TM_CW_START_CLOCK] = static_cast<unsigned int>(w.start_clock);
  r[TM_CW_START_CLOCK + 1] = static_cast<unsigned int>(w.start_clock >> 32);
  const unsigned int kept = w.passes < TM_CLOCK_PASSES ? w.passes : TM_CLOCK_PASSES;
  for (unsigned int p = 0; p < kept; ++p)
    for (int k = 0; k < TM_CP_WORDS; ++k)
      r[TM_CW_PASSES + p * TM_CP_WORDS + k] = stamps[p][thread / 32u][k];
  r[TM_CW_WRITTEN] = TM_CLOCK_WRITTEN;
}

}  // namespace threadmap_trace

#define TM_CONTEXT_PARAM
#define TM_CONTEXT
#define TM_BEGIN()                              \
  __shared__ threadmap_trace::Stamps tm_stamps; \
  __shared__ unsigned int tm_ordered;           \
  threadmap_trace::Warp tm_warp;                \
  tm_warp.start_clock = clock64()
#define TM_SHARED_ARRAY(array)
#define TM_END() threadmap_trace::clock_end(tm_trace, tm_stamps, tm_warp)
#define TM_ARRIVE() threadmap_trace::clock_arrive(tm_warp, __LINE__)
#define TM_RELEASE() threadmap_trace::clock_release(tm_stamps, tm_ordered, tm_warp)
#define LDG(lv) (lv)
#define STG(lv) (lv)
#define LDS(lv) (lv)
#define STS(lv) (lv)

#else  // THREADMAP_TRACE == 1: the access pass

// A __device__ function that accesses memory takes the kernel's trace context.
#define TM_CONTEXT_PARAM \
  , unsigned int* tm_trace, bool tm_on, unsigned int tm_block, unsigned int tm_thread
#define TM_CONTEXT , tm_trace, tm_on, tm_block, tm_thread

namespace threadmap_trace {

__device__ inline bool begin(unsigned int* tm, unsigned int block, unsigned int thread) {
  if (thread % tm[TM_H_WARP] == 0) {
    unsigned int* s = schedule(tm, block);
    atomicMin(reinterpret_cast<unsigned long long*>(s + TM_S_START), global_timer());
    if (thread == 0) s[TM_S_SM] = sm_id();
  }
  return (tm[tm[TM_H_BITMAP] + block / 32] >> (block % 32)) & 1u;
}

__device__ inline void end(unsigned int* tm, unsigned int block, unsigned int thread) {
  if (thread % tm[TM_H_WARP] == 0) {
    unsigned int* s = schedule(tm, block);
    atomicMax(reinterpret_cast<unsigned long long*>(s + TM_S_END), global_timer());
    atomicAdd(s + TM_S_DONE, 1u);
  }
}

template <class T>
__device__ constexpr unsigned int log2_size() {
  return sizeof(T) >= 16 ? 4u : sizeof(T) >= 8 ? 3u : sizeof(T) >= 4 ? 2u : sizeof(T) >= 2 ? 1u : 0u;
}

template <class T>
__device__ inline T* access(unsigned int* tm, bool on, unsigned int block, unsigned int thread,
                            unsigned int line, unsigned int flags, T* p) {
  if (on) {
    const unsigned long long address =
        (flags & TM_F_SHARED) ? static_cast<unsigned long long>(__cvta_generic_to_shared(p))
                              : reinterpret_cast<unsigned long long>(p);
    flags |= log2_size<T>() << TM_F_SIZE_SHIFT;
    const unsigned int slot = atomicAdd(tm + TM_H_ACCESS_COUNT, 1u);
    if (slot < tm[TM_H_ACCESS_CAPACITY]) {
      unsigned int* r = tm + tm[TM_H_ACCESSES] + slot * TM_ACCESS_WORDS;
      r[TM_A_BLOCK] = block;
      r[TM_A_THREAD_LINE] = thread | (line << 16);
      r[TM_A_ADDRESS_LO] = static_cast<unsigned int>(address);
      r[TM_A_ADDRESS_HI] = (static_cast<unsigned int>(address >> 32) & 0xffffffu) | (flags << 24);
    }
  }
  return p;
}

__device__ inline unsigned int arrive(unsigned int* tm, bool on, unsigned int block,
                                      unsigned int thread, unsigned int line) {
  if (!on || thread % tm[TM_H_WARP] != 0) return 0xffffffffu;
  const unsigned long long t = clock64();
  const unsigned int rank = atomicAdd(schedule(tm, block) + TM_S_ARRIVALS, 1u);
  const unsigned int slot = atomicAdd(tm + TM_H_BARRIER_COUNT, 1u);
  if (slot >= tm[TM_H_BARRIER_CAPACITY]) return 0xffffffffu;
  unsigned int* r = tm + tm[TM_H_BARRIERS] + slot * TM_BARRIER_WORDS;
  r[TM_B_BLOCK] = block;
  r[TM_B_WARP_LINE] = thread / tm[TM_H_WARP] | (line << 16);
  r[TM_B_ARRIVAL_RANK] = rank;
  r[TM_B_ARRIVAL] = static_cast<unsigned int>(t);
  r[TM_B_ARRIVAL + 1] = static_cast<unsigned int>(t >> 32);
  return slot;
}

__device__ inline void release(unsigned int* tm, unsigned int slot, unsigned int block) {
  if (slot == 0xffffffffu) return;
  const unsigned int seen = atomicAdd(schedule(tm, block) + TM_S_ARRIVALS, 0u);
  unsigned long long t;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.u32 p, %1, 0xffffffff;\n\t"
      "@p mov.u64 %0, %%clock64;\n\t"
      "@!p mov.u64 %0, 0;\n\t}"
      : "=l"(t)
      : "r"(seen)
      : "memory");
  unsigned int* r = tm + tm[TM_H_BARRIERS] + slot * TM_BARRIER_WORDS;
  r[TM_B_RELEASE_RANK] = seen;
  r[TM_B_RELEASE] = static_cast<unsigned int>(t);
  r[TM_B_RELEASE + 1] = static_cast<unsigned int>(t >> 32);
}

}  // namespace threadmap_trace

#define TM_BEGIN()                                                                           \
  const unsigned int tm_block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); \
  const unsigned int tm_thread =                                                             \
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);                   \
  const bool tm_on = threadmap_trace::begin(tm_trace, tm_block, tm_thread);                  \
  unsigned int tm_barrier_slot = 0xffffffffu;                                                \
  (void)tm_barrier_slot
#define TM_SHARED_ARRAY(array)
#define TM_END() threadmap_trace::end(tm_trace, tm_block, tm_thread)
#define TM_ARRIVE() \
  tm_barrier_slot = threadmap_trace::arrive(tm_trace, tm_on, tm_block, tm_thread, __LINE__)
#define TM_RELEASE() threadmap_trace::release(tm_trace, tm_barrier_slot, tm_block)
#define TM_ACCESS(lv, flags) \
  (*threadmap_trace::access(tm_trace, tm_on, tm_block, tm_thread, __LINE__, (flags), &(lv)))
#define LDG(lv) TM_ACCESS(lv, 0u)
#define STG(lv) TM_ACCESS(lv, TM_F_STORE)
#define LDS(lv) TM_ACCESS(lv, TM_F_SHARED)
#define STS(lv) TM_ACCESS(lv, TM_F_SHARED | TM_F_STORE)

#endif  // THREADMAP_TRACE == 2

#else

#define TM_TRACE_PARAM
#define TM_CONTEXT_PARAM
#define TM_CONTEXT
#define TM_BEGIN()
#define TM_SHARED_ARRAY(array)
#define TM_END()
#define TM_ARRIVE()
#define TM_RELEASE()
#define LDG(lv) (lv)
#define STG(lv) (lv)
#define LDS(lv) (lv)
#define STS(lv) (lv)

#endif
