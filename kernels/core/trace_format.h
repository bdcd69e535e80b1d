/* The layout of a trace buffer: what a traced kernel writes, and what the
 * host decodes (kernels/engine/record.cpp). Written in the subset that C++, CUDA and
 * OpenCL C all read, so the device code and the decoder share one definition.
 * Everything is 32-bit words, little-endian.
 *
 *   header   TM_HEADER_WORDS words (below)
 *   bounds   the access pass: what the kernel may touch (TM_BD_*), and a sink
 *   bitmap   one bit per block of the grid: 1 = trace this block's accesses
 *   schedule TM_SCHEDULE_WORDS per block, for EVERY block (the clock pass:
 *            TM_CLOCK_SCHEDULE_WORDS per warp)
 *   barriers TM_BARRIER_WORDS per warp arrival, traced blocks only
 *   accesses TM_ACCESS_WORDS per load, store or atomic, traced blocks only
 *
 * Counters count every attempt, also past the capacity, so an overflow is
 * seen on the host (count > capacity) and never silent.
 */
#ifndef THREADMAP_TRACE_FORMAT_H
#define THREADMAP_TRACE_FORMAT_H

#define TM_FORMAT_VERSION 3

/* header words */
#define TM_H_VERSION 0
#define TM_H_ACCESS_CAPACITY 1
#define TM_H_ACCESS_COUNT 2     /* atomic */
#define TM_H_BARRIER_CAPACITY 3
#define TM_H_BARRIER_COUNT 4    /* atomic */
#define TM_H_BLOCKS 5           /* blocks in the grid */
#define TM_H_WARP 6             /* lanes per warp: which threads write per-warp records */
#define TM_H_BITMAP 7           /* word offsets of the sections */
#define TM_H_SCHEDULE 8
#define TM_H_BARRIERS 9
#define TM_H_ACCESSES 10
#define TM_H_START_ORDER 11     /* atomic: OpenCL block start order */
#define TM_H_END_ORDER 12       /* atomic: OpenCL block end order */
#define TM_H_CLOCK_SLOTS 13     /* clock pass: word offset of the slot table (one word per block) */
#define TM_H_BOUNDS 14          /* access pass: word offset of the bounds section (128-byte aligned) */
#define TM_H_OUTSIDE 15         /* atomic, access pass: accesses outside the bounds, every block */
/* atomic, access pass, traced blocks: the warp-level global loads and stores
 * the launching runtime's own data took (TM_HOOK_RUNTIME_DATA), and their
 * 32-byte sectors, as Nsight Compute counts requests and sectors */
#define TM_H_RUNTIME_LD_REQUESTS 16
#define TM_H_RUNTIME_LD_SECTORS 17
#define TM_H_RUNTIME_ST_REQUESTS 18
#define TM_H_RUNTIME_ST_SECTORS 19
#define TM_HEADER_WORDS 20

/* bounds section, access pass: the traced build checks every access against
 * it before the access, and an access outside them is recorded with
 * TM_F_OUTSIDE and made on the sink instead (a load reads it, a store writes
 * it), so a wrong index is seen, not a crash or a clobbered buffer. */
#define TM_BD_SINK 0           /* TM_SINK_WORDS words, 128-byte aligned */
#define TM_SINK_WORDS 32
#define TM_BD_BUFFERS 32       /* the launch's global buffers */
#define TM_BD_LOCALS 33        /* the kernel's __local pointer parameters (OpenCL) */
#define TM_BD_TABLE 34         /* per buffer 4 words: first address (lo, hi), end (lo, hi);
                                  then per __local parameter its bytes */
#define TM_BD_BUFFER_WORDS 4

/* schedule record, per block (8-byte aligned: the times take 64-bit atomics) */
#define TM_S_START 0     /* 2 words. CUDA: %globaltimer ns, min over warps. OpenCL: start order */
#define TM_S_END 2       /* 2 words. CUDA: %globaltimer ns, max over warps. OpenCL: end order */
#define TM_S_SM 4        /* CUDA: %smid of the first warp; OpenCL: TM_NO_SM */
#define TM_S_ARRIVALS 5  /* atomic: warp arrivals at barriers so far */
#define TM_S_DONE 6      /* atomic: threads that reached the end */
#define TM_S_RELEASES 7  /* atomic: warps released from barriers so far */
#define TM_SCHEDULE_WORDS 8
#define TM_NO_SM 0xffffffffu

/* barrier record, per warp arrival */
#define TM_B_BLOCK 0
#define TM_B_WARP_LINE 1     /* warp | source line << 16 */
#define TM_B_ARRIVAL_RANK 2  /* order of arrival within the block, over all its barriers */
#define TM_B_RELEASE_RANK 3
#define TM_B_ARRIVAL 4       /* 2 words: CUDA clock64 of the SM; OpenCL 0 */
#define TM_B_RELEASE 6       /* 2 words: CUDA clock64 after the wait; OpenCL 0 */
#define TM_B_ACCESSES 8      /* TM_H_ACCESS_COUNT read once released: every access of the block
                                before the barrier has a lower slot, the warp's later ones a higher */
#define TM_BARRIER_WORDS 10  /* even: the 64-bit words stay 8-byte aligned */

/* access record, per load, store or atomic of one thread */
#define TM_A_BLOCK 0
#define TM_A_THREAD_LINE 1   /* linear thread id | source line << 16 */
#define TM_A_ADDRESS_LO 2    /* global: the generic address; shared: the offset in the block's window */
#define TM_A_ADDRESS_HI                                                    \
  3 /* low 20 bits: address bits 32..51; bits 20..23: the atomic operation \
       (TM_ATOM_*, 0 for a load or store); high 8 bits: TM_F_* flags */
#define TM_A_ADDRESS_HI_MASK 0xfffffu
#define TM_A_ATOM_SHIFT 20u
#define TM_ACCESS_WORDS 4

/* The atomic operations (read-modify-write: the record also has TM_F_STORE). */
#define TM_ATOM_NONE 0u
#define TM_ATOM_ADD 1u
#define TM_ATOM_SUB 2u
#define TM_ATOM_EXCH 3u
#define TM_ATOM_CAS 4u
#define TM_ATOM_MIN 5u
#define TM_ATOM_MAX 6u
#define TM_ATOM_AND 7u
#define TM_ATOM_OR 8u
#define TM_ATOM_XOR 9u
#define TM_ATOM_INC 10u
#define TM_ATOM_DEC 11u
#define TM_ATOM_ADD_ONE 12u /* add of the constant 1 (a count: NVIDIA's ATOMS.POPC.INC where unused) */
#define TM_ATOM_MASK 15u

/* What a hook passes as one word: the TM_F_* flags in the low 8 bits, the
 * atomic operation from TM_HOOK_ATOM_SHIFT; the record's last word of both. */
#define TM_HOOK_ATOM_SHIFT 8u
/* Hook only (never in a record): an access outside every buffer and shared
 * array belongs to the runtime that launched the kernel (OpenMP's libgomp:
 * the region's argument block, its stacks, its team state in shared memory),
 * not to the kernel's code: it is made, never recorded nor counted as
 * outside; a global load or store of it is counted in TM_H_RUNTIME_*. */
#define TM_HOOK_RUNTIME_DATA 0x1000u
#define TM_ADDRESS_HI(address, hook_flags)                      \
  ((((unsigned int)((address) >> 32)) & TM_A_ADDRESS_HI_MASK) | \
   ((((hook_flags) >> TM_HOOK_ATOM_SHIFT) & TM_ATOM_MASK) << TM_A_ATOM_SHIFT) | (((hook_flags)&0xffu) << 24))

/* The clock pass (CUDA): the same kernel with no access records (cuda/ptx_instrument.h).
 * Lane 0 of each warp keeps, in registers, the stamps of the first pass
 * through each of the kernel's first TM_CLOCK_PASSES barriers and, at its
 * end, writes with plain stores (no atomics):
 *   - its own schedule record (TM_CS_*), in place of the per-block one: the
 *     schedule section holds TM_CLOCK_SCHEDULE_WORDS per warp, warp w of
 *     block b at b * warps-per-block + w; the host takes each block's
 *     earliest start, latest end and the SM;
 *   - in the blocks the host chose, its stamps into its own slot of the
 *     barrier section (TM_H_BARRIER_CAPACITY slots), its block's first slot
 *     + its warp. Where the grid has at most TM_CLOCK_SAMPLE_WARPS warps,
 *     every block is chosen and block b's first slot is b * warps-per-block,
 *     computed: a load at a warp's end keeps its block on the SM while the
 *     next blocks pass their barriers (docs/traces.md). In a larger grid the
 *     slot table (TM_H_CLOCK_SLOTS) gives each block's first slot, or
 *     TM_NO_SLOT. */
#define TM_CLOCK_SAMPLE_WARPS 32768u
#define TM_NO_SLOT 0xffffffffu
#define TM_CLOCK_WRITTEN 0x600dc10cu
#define TM_CS_START 0        /* 2 words: clock64 at the warp's start */
#define TM_CS_END_CLOCK 2    /* 2 words: clock64 at its end */
#define TM_CS_END 4          /* 2 words: %globaltimer ns at its end */
#define TM_CS_SM 6           /* %smid */
#define TM_CS_WRITTEN 7      /* TM_CLOCK_WRITTEN once the warp wrote its record */
#define TM_CLOCK_SCHEDULE_WORDS 8
#define TM_CLOCK_PASSES 16   /* barrier sites kept per warp */
#define TM_CW_BLOCK 0
#define TM_CW_WARP_PASSES 1  /* warp | passes through barriers << 16 (every pass, also those not kept) */
#define TM_CW_START_CLOCK 2  /* 2 words: clock64 at the warp's start */
#define TM_CW_WRITTEN 4      /* TM_CLOCK_WRITTEN once the warp wrote its slot */
#define TM_CW_SITES 5        /* barrier sites that follow (at most TM_CLOCK_PASSES) */
#define TM_CW_PASSES 6       /* per site, TM_CP_WORDS */
#define TM_CP_ARRIVAL 0      /* low 32 bits of clock64 just before the barrier */
#define TM_CP_RELEASE 1      /* low 32 bits of clock64 read under the barrier's own result */
#define TM_CP_LINE 2         /* source line of the barrier */
#define TM_CP_PASS 3         /* the pass number of the warp's first pass here, TM_PASS_IN_ORDER, or TM_NO_PASS (never passed) */
#define TM_CP_WORDS 4
#define TM_NO_PASS 0xffffffffu
#define TM_PASS_IN_ORDER 0xfffffffeu  /* passed; no barrier in a loop: passes are numbered by their arrival clocks */
#define TM_CLOCK_WARP_WORDS (TM_CW_PASSES + TM_CLOCK_PASSES * TM_CP_WORDS)

#define TM_F_STORE 1u
#define TM_F_SHARED 2u
#define TM_F_SIZE_SHIFT 2u   /* log2(bytes), 3 bits: 1..16-byte accesses */
#define TM_F_SIZE_MASK 7u
#define TM_F_OUTSIDE 32u     /* outside every buffer or shared array: skipped (made on the sink) */
#define TM_F_REDUCTION 64u   /* an atomic whose old value the kernel does not use (PTX red) */

#endif
