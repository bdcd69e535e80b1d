// Trace hooks for the .cu sources (the buffer layout is kernels/trace_format.h).
//
// In the timed build every hook is nothing: LDG(a[i]) is a[i], TM_BEGIN() is
// an empty statement. The traced build compiles the same text again with
// THREADMAP_TRACE defined; each kernel then takes one more argument, the
// trace buffer, and records, for the blocks the host marked, every load and
// store as it happens:
//   LDG(x) / STG(x)   a global load / store of the lvalue x (its address)
//   LDS(x) / STS(x)   a shared load / store of x (its offset in the block's
//                     shared window, the address the banks see)
//   TM_ARRIVE(); __syncthreads(); TM_RELEASE();   each warp's arrival at a
//                     barrier (clock64) and its release
// and, for EVERY block, its SM (%smid) and its first start and last end
// (%globaltimer). A record's slot comes from an atomic counter: the slots are
// the order in which the device executed the accesses.
//
// The release stamp: BAR.SYNC does not stop a warp at once, so a clock read
// just after __syncthreads() is taken before the wait ends. The release here
// first does an atomic read of the block's arrival count (a memory operation,
// ordered after the barrier) and reads the clock under a predicate computed
// from its result, so the clock cannot be read before the atomic returned.
#pragma once
#include "kernels/trace_format.h"

#ifdef THREADMAP_TRACE

#define TM_TRACE_PARAM , unsigned int* tm_trace
// A __device__ function that accesses memory takes the kernel's trace context.
#define TM_CONTEXT_PARAM \
  , unsigned int* tm_trace, bool tm_on, unsigned int tm_block, unsigned int tm_thread
#define TM_CONTEXT , tm_trace, tm_on, tm_block, tm_thread

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
