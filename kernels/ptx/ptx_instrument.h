#pragma once
// Tracing without hooks in the source: the PTX of the TIMED build (what NVRTC
// made of the plain kernel, compiled with -lineinfo) is rewritten so that the
// kernel records what it does in the trace buffer of kernels/core/trace_format.h.
// The trace then holds the memory instructions the machine issues: where the
// assembler merges four element stores into one 16-byte STS.128 (ptxas does,
// when it can prove the wide store aligned: ptx_alignment.h), the trace has
// one 16-byte store at that source line, and the report says it was merged.
//
//   .entry k(params)            .entry k(params, .param .u64 threadmap_trace_buffer)
//   {                           {   block, thread, on = threadmap_begin(...)
//     ld.global.f32 %f1, [a];       threadmap_access(..., line, load, 4 bytes, a)
//                                   ld.global.f32 %f1, [a];
//     bar.sync 0;                   slot = threadmap_arrive(...); bar.sync 0;
//                                   threadmap_release(..., slot, ...)
//     ret;                          threadmap_end(...); ret;
//
// The recording functions are CUDA C++ (kernels/ptx/trace_runtime.cuh),
// compiled by NVRTC for the kernel's target; their PTX .func definitions are
// merged into the instrumented module, so the result is one PTX module with
// the .version and .target NVRTC wrote, ready for cuLibraryLoadData.
//
// What is recorded, per instruction of the entry's body:
//   ld / st / ldu to .global, .shared (::cta) or generic addresses, every
//   vector width and addressing form, under the instruction's own predicate;
//   a run of them the assembler merges is recorded once, as the wide access;
//   a shared store the assembler folds into an earlier one to the same
//   address (a conditional overwrite right after it) is recorded with it.
//   Generic addresses are classified at run time (shared, global; a local
//   variable reached through a pointer is not recorded).
//   bar.sync / barrier.sync / bar.red (__syncthreads and its _count/_and/_or
//   forms): arrival and release.
//   ret / exit: the block's end.
//   atom / red to .global, .shared or generic addresses: one read-modify-
//   write each, with its operation (add, cas, ...) and, for red, that no old
//   value is returned.
// What is counted and reported but not recorded: vector atomics, .param,
// .local and .const accesses, other memory instructions (cp.async, ldmatrix,
// prefetch, ...), and calls to functions the instrumenter does not enter.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/ptx/compiled.h"
#include "kernels/ptx/ptx_parse.h"

namespace threadmap::cuda {

using ptx::PtxError;

enum class MemorySpace { Global, Shared, Generic };

std::string_view space_name(MemorySpace space);  // "global", "shared", "generic"

// The machine's memory instructions of one source line with the same shape.
// "line 204: 4 shared stores of 16 bytes, each merged from 4 PTX stores" is
// what lets the views say that the compiler merged four element stores into
// one 16-byte store there.
struct MemoryInstructions {
  std::string file;                         // as .file names it ("transpose.cu"); empty without line info
  int line = 0;                             // the nearest preceding .loc's line; 0 without one
  MemorySpace space = MemorySpace::Global;  // the PTX instruction's space
  bool store = false;
  int bytes = 0;         // per thread
  int vector_width = 1;  // elements of the PTX type in one access (1, 2, 4, 8, 16)
  int merged = 1;        // PTX instructions the assembler merges into each (1: none)
  int count = 0;         // machine instructions with these properties at this line
  bool atomic = false;   // atom / red (store is set too)

  bool operator==(const MemoryInstructions&) const = default;
};

// Instructions that touch memory but are not recorded, per line and opcode.
struct UnrecordedInstructions {
  std::string file;
  int line = 0;
  std::string category;  // "atomic", "param", "local", "const", "other memory", "call"
  std::string opcode;    // "atom.global.add.u32", or the callee for a call
  int count = 0;

  // Whether they move a kernel's data where the trace misses it: the
  // asynchronous copies, matrix loads and stores, texture and surface
  // accesses and vector atomics (the device refuses such a traced build).
  // Prefetches (hints), mbarrier, calls and the param, local and const
  // spaces (no buffer of the launch) do not.
  bool moves_data() const {
    if (category == "atomic") return true;
    return category == "other memory" && !opcode.starts_with("prefetch") && !opcode.starts_with("mbarrier");
  }
};

// A store the assembler folds into an earlier store to the same address
// (`local_mem[lid] = 0; if (...) local_mem[lid] = v;` is one store on the
// machine): recorded once, at the earlier store's line, merged from 2.
struct FoldedStore {
  std::string file;
  int line = 0;         // the store that is recorded
  int folded_line = 0;  // the store folded into it, not recorded

  bool operator==(const FoldedStore&) const = default;
};

struct EntryReport {
  std::string entry;                         // the mangled name
  std::vector<MemoryInstructions> recorded;  // by file, line, space, load before store, bytes
  std::vector<UnrecordedInstructions> unrecorded;
  std::vector<FoldedStore> folded;  // in program order
  int barriers = 0;                 // bar.sync and its forms, each with arrive and release calls
  int exits = 0;                    // ret and exit, each with an end call

  int recorded_count() const;         // machine accesses: each gets one access call
  int ptx_instruction_count() const;  // the PTX ld/st they are made of
};

// What the instrumented kernel records.
//   Access: the access pass above, every load, store, barrier and exit.
//   Clock: the clock pass (docs/traces.md): no access records, no calls, no
//     atomics and no shared memory; clock reads around barriers kept in
//     registers. At the entry, the warp's start clock; just before each
//     barrier, the arrival clock; the barrier itself becomes its reduction
//     form (bar.sync -> bar.red.popc; bar.red keeps its own), and the release
//     clock is read under a predicate computed from the barrier's result, so
//     never before the wait ended. Each of the first TM_CLOCK_PASSES barrier
//     sites has three registers for its first pass (arrival, release, pass
//     number). At each exit, lane 0 writes with plain stores its warp's
//     schedule record and, in the blocks the host chose, its stamps; warp 0
//     reads %smid and writes it into each warp's record. No other special
//     register is read there that the kernel does not read itself.
enum class Pass { Access, Clock };

struct InstrumentedPtx {
  std::string ptx;  // the whole module; pass ptx.c_str() where NUL-terminated PTX is needed
  std::vector<EntryReport> entries;
};

// The name of the parameter added to each instrumented entry (its last one).
inline constexpr std::string_view kTraceBufferParameter = "threadmap_trace_buffer";

// The memory instructions, barriers and exits of one entry, as the
// instrumenter would record them, without rewriting anything. Throws
// PtxError (malformed PTX, no such entry).
EntryReport memory_instructions(std::string_view kernel_ptx, std::string_view entry);

// Instruments the named entries (lowered names, CompiledKernel::lowered_name)
// of `kernel_ptx`; other entries are kept as they are. `runtime_ptx` is the
// recording runtime compiled for the same target (trace_runtime_request).
// Throws PtxError naming the PTX line for malformed input, an unknown entry,
// a runtime of another target or newer PTX version, or an address form it
// cannot read.
InstrumentedPtx instrument_ptx(std::string_view kernel_ptx, const std::vector<std::string>& entries,
                               std::string_view runtime_ptx, Pass pass = Pass::Access);

// An image whose entries another runtime launches with parameters of its own
// (OpenMP: GCC's libgomp launches each target region's entry, which calls the
// region's outlined functions). Instrumented for the access pass with:
//   - the trace buffer's device address written into the code (no parameter
//     is added: the runtime would not pass it);
//   - every access made, whatever threadmap_access answers, and one outside
//     every buffer not recorded (TM_HOOK_RUNTIME_DATA): the runtime's own
//     data (the region's arguments, its stacks, and every shared variable:
//     GCC's team state) lies in no buffer of the launch, and is still read;
//     its global loads and stores are counted apart (TM_H_RUNTIME_*);
//   - `functions`, .func bodies, instrumented as the entries are, their
//     returns not being a block's end;
//   - the module's .version raised to the runtime's where it is older (GCC
//     writes 7.0 for sm_80; a later PTX ISA reads it unchanged).
struct OffloadOptions {
  std::uint64_t trace_buffer = 0;
  std::vector<std::string> functions;
};

// The functions (.func) the module defines, with a body, in order.
std::vector<std::string> function_definitions(std::string_view module_ptx);

InstrumentedPtx instrument_offload_ptx(std::string_view module_ptx, const std::vector<std::string>& entries,
                                       std::string_view runtime_ptx, const OffloadOptions& options);

// What NVRTC is given to compile the recording runtime for `target`
// ("compute_90"): trace_runtime.cuh, relocatable (-rdc), so that each
// function is kept whole with its signature.
CompileRequest trace_runtime_request(std::string target);

}  // namespace threadmap::cuda
