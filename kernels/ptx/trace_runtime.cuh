// The recording runtime of instrumented kernels (kernels/ptx/ptx_instrument.h).
//
// The instrumenter does not ask the kernel's source for anything: it rewrites
// the PTX NVRTC made of the timed build and calls these functions from it.
// They are compiled by NVRTC on their own (relocatable, so every one is kept
// with its signature as written here) and their PTX is merged into the
// instrumented module. They write the records of kernels/core/trace_format.h with
// the same meaning as the OpenCL hooks of opencl/trace.clh:
//
//   entry        threadmap_block_id, threadmap_thread_id, threadmap_begin
//   ld / st      threadmap_access (before the instruction, when it executes)
//   bar.sync     threadmap_arrive before, threadmap_release after
//   ret / exit   threadmap_end
//
// The clock pass (Pass::Clock) calls none of them: its clock reads, stamps
// and end-of-warp stores are written inline, in registers and plain stores.
//
// What differs from opencl/trace.clh is only what the PTX can say: an access comes
// as an address in its state space, its size in bytes as log2 and a space
// code, rather than as a typed C++ pointer. Generic addresses are classified
// here, at run time, as the hardware would route them.
#pragma once
#include "kernels/core/trace_format.h"

// The spaces the instrumenter passes to threadmap_access.
#define TM_SPACE_GLOBAL 0u   // a .global address
#define TM_SPACE_SHARED 1u   // a .shared address: the offset in the block's shared window
#define TM_SPACE_GENERIC 2u  // a generic address: shared, global or (not recorded) local

namespace threadmap_runtime {

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

__device__ inline unsigned long long global_to_generic(unsigned long long address) {
  unsigned long long generic;
  asm("cvta.global.u64 %0, %1;" : "=l"(generic) : "l"(address));
  return generic;
}

}  // namespace threadmap_runtime

// The block's linear id, x fastest, as TM_BEGIN numbers blocks.
extern "C" __device__ __noinline__ unsigned int threadmap_block_id() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// The thread's linear id in its block, x fastest.
extern "C" __device__ __noinline__ unsigned int threadmap_thread_id() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Every block: its first start and its SM. Returns 1 when the host marked the
// block for tracing (its bit in the bitmap), else 0.
extern "C" __device__ __noinline__ unsigned int threadmap_begin(unsigned int* tm,
                                                                unsigned int block,
                                                                unsigned int thread) {
  using namespace threadmap_runtime;
  if (thread % tm[TM_H_WARP] == 0) {
    unsigned int* s = schedule(tm, block);
    atomicMin(reinterpret_cast<unsigned long long*>(s + TM_S_START), global_timer());
    if (thread == 0) s[TM_S_SM] = sm_id();
  }
  return (tm[tm[TM_H_BITMAP] + block / 32] >> (block % 32)) & 1u;
}

// Every block, at each exit: its last end and the threads (warp leaders) done.
extern "C" __device__ __noinline__ void threadmap_end(unsigned int* tm, unsigned int block,
                                                      unsigned int thread) {
  using namespace threadmap_runtime;
  if (thread % tm[TM_H_WARP] == 0) {
    unsigned int* s = schedule(tm, block);
    atomicMax(reinterpret_cast<unsigned long long*>(s + TM_S_END), global_timer());
    atomicAdd(s + TM_S_DONE, 1u);
  }
}

namespace threadmap_runtime {

// Whether [address, address + bytes) lies in one of the launch's buffers
// (the bounds section the host wrote: trace_format.h).
__device__ inline bool in_buffers(const unsigned int* tm, unsigned long long address, unsigned int bytes) {
  const unsigned int* b = tm + tm[TM_H_BOUNDS];
  for (unsigned int k = 0; k < b[TM_BD_BUFFERS]; ++k) {
    const unsigned int* e = b + TM_BD_TABLE + k * TM_BD_BUFFER_WORDS;
    const unsigned long long first = e[0] | (static_cast<unsigned long long>(e[1]) << 32);
    const unsigned long long end = e[2] | (static_cast<unsigned long long>(e[3]) << 32);
    if (address >= first && address + bytes <= end) return true;
  }
  return false;
}

// A global load or store of the launching runtime's own data, counted as
// Nsight Compute counts it: one request per warp-level execution of the
// instruction (the lanes of this warp here together at the same site, line
// and flags naming it), one sector per distinct 32-byte sector they touch.
__device__ inline void count_runtime_request(unsigned int* tm, unsigned int line, unsigned int flags,
                                             unsigned long long address) {
  const unsigned int here = __activemask();
  const unsigned int site = __match_any_sync(here, (static_cast<unsigned long long>(line) << 32) | flags);
  const unsigned int sector = __match_any_sync(site, address >> 5);
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  const unsigned int below = (1u << lane) - 1u;
  const bool store = flags & TM_F_STORE;
  if (!(site & below)) atomicAdd(tm + (store ? TM_H_RUNTIME_ST_REQUESTS : TM_H_RUNTIME_LD_REQUESTS), 1u);
  if (!(sector & below)) atomicAdd(tm + (store ? TM_H_RUNTIME_ST_SECTORS : TM_H_RUNTIME_LD_SECTORS), 1u);
}

}  // namespace threadmap_runtime

// One load or store of one thread, in every block, before it is made.
// flags: TM_F_STORE, TM_F_REDUCTION, the size (log2 bytes << TM_F_SIZE_SHIFT)
// and an atomic's operation (<< TM_HOOK_ATOM_SHIFT); space:
// TM_SPACE_*; [shared_first, shared_end): the shared window's bytes the
// kernel's shared arrays take (the glue computes them at the entry). Returns
// 1 when the access may be made, 0 when it is outside every buffer of the
// launch or every shared array: the glue then skips it (its instruction's
// predicate), and a traced block records it with TM_F_OUTSIDE. A generic
// address that is neither shared nor global (a local variable reached
// through a pointer) is no access the trace models: made, not recorded.
extern "C" __device__ __noinline__ unsigned int threadmap_access(unsigned int* tm, unsigned int on,
                                                                 unsigned int block, unsigned int thread,
                                                                 unsigned int line, unsigned int flags,
                                                                 unsigned long long address,
                                                                 unsigned int space, unsigned int shared_first,
                                                                 unsigned int shared_end) {
  using namespace threadmap_runtime;
  if (space == TM_SPACE_GENERIC) {
    const void* p = reinterpret_cast<const void*>(address);
    if (__isShared(p)) {
      address = static_cast<unsigned long long>(__cvta_generic_to_shared(p));
      space = TM_SPACE_SHARED;
    } else if (!__isGlobal(p)) {
      return 1u;
    }
  } else if (space == TM_SPACE_GLOBAL) {
    address = global_to_generic(address);
  }
  const unsigned int bytes = 1u << ((flags >> TM_F_SIZE_SHIFT) & TM_F_SIZE_MASK);
  const bool inside = space == TM_SPACE_SHARED
                          ? address >= shared_first && address + bytes <= shared_end
                          : in_buffers(tm, address, bytes);
  if (!inside && (flags & TM_HOOK_RUNTIME_DATA)) {
    if (on && space != TM_SPACE_SHARED && !(flags & TM_F_REDUCTION) &&
        ((flags >> TM_HOOK_ATOM_SHIFT) & TM_ATOM_MASK) == TM_ATOM_NONE)
      count_runtime_request(tm, line, flags, address);
    return 1u;
  }
  if (!inside) atomicAdd(tm + TM_H_OUTSIDE, 1u);
  if (!on) return inside ? 1u : 0u;
  if (space == TM_SPACE_SHARED) flags |= TM_F_SHARED;
  if (!inside) flags |= TM_F_OUTSIDE;
  const unsigned int slot = atomicAdd(tm + TM_H_ACCESS_COUNT, 1u);
  if (slot < tm[TM_H_ACCESS_CAPACITY]) {
    unsigned int* r = tm + tm[TM_H_ACCESSES] + slot * TM_ACCESS_WORDS;
    r[TM_A_BLOCK] = block;
    r[TM_A_THREAD_LINE] = thread | (line << 16);
    r[TM_A_ADDRESS_LO] = static_cast<unsigned int>(address);
    r[TM_A_ADDRESS_HI] = TM_ADDRESS_HI(address, flags);
  }
  return inside ? 1u : 0u;
}

// A warp's arrival at a barrier (its leader records it). Returns the record's
// slot for threadmap_release, or 0xffffffff when nothing was recorded.
extern "C" __device__ __noinline__ unsigned int threadmap_arrive(unsigned int* tm, unsigned int on,
                                                                 unsigned int block,
                                                                 unsigned int thread,
                                                                 unsigned int line) {
  using namespace threadmap_runtime;
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

// The warp's release from that barrier. The clock is read under a predicate
// computed from an atomic read of the block's arrivals, so it cannot be read
// before the wait ended (docs/traces.md, "Barrier release: the trap").
extern "C" __device__ __noinline__ void threadmap_release(unsigned int* tm, unsigned int slot,
                                                          unsigned int block) {
  using namespace threadmap_runtime;
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
  // The access records made so far (opencl/trace.clh's tm_release says why).
  r[TM_B_ACCESSES] = atomicAdd(tm + TM_H_ACCESS_COUNT, 0u);
  r[TM_B_RELEASE] = static_cast<unsigned int>(t);
  r[TM_B_RELEASE + 1] = static_cast<unsigned int>(t >> 32);
}
