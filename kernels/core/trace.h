#pragma once
// What the real kernel did. The traced build of a variant's kernel (its plain
// text instrumented by ThreadMap: OpenCL C through libclang,
// opencl/cl_instrument.h; CUDA from the timed build's PTX,
// cuda/ptx_instrument.h) runs once on the device; it records, for the blocks asked for, every global and shared load
// and store in the order the device executed them, each warp's arrival at
// each barrier, and for every block of the grid when it ran and where. The
// host only decodes what the device wrote (trace_format.h); nothing here is
// computed on the CPU in the device's place.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/core/variant.h"
#include "kernels/core/workload.h"

namespace threadmap {

enum class Space : std::uint8_t { Global, Shared };

// An atomic read-modify-write's operation (trace_format.h's TM_ATOM_*);
// None for a plain load or store.
// AddOne: an add of the constant 1, a count (the machine has a form of its own).
enum class AtomicOp : std::uint8_t { None, Add, Sub, Exch, Cas, Min, Max, And, Or, Xor, Inc, Dec, AddOne };
inline constexpr int kAtomicOps = 13;
std::string_view atomic_op_name(AtomicOp op);  // "add", "cas", ...; "" for None

// One load, store or atomic by one thread, in the order the device executed
// them. 16 bytes: traces hold millions, and the analysis streams through them.
// An atomic reads and writes its word: it has `store` set and its operation.
struct Access {
  std::uint64_t offset : 44 = 0;  // global: bytes from the start of `buffer`;
                                  // shared: bytes into the block's shared window (what the banks see)
  std::uint64_t buffer : 8 = 0;   // global: index into Trace::buffers; shared: 0
  std::uint64_t size : 5 = 0;     // bytes (1 to 16)
  bool store : 1 = false;
  Space space : 1 = Space::Global;
  AtomicOp atomic : 4 = AtomicOp::None;
  bool reduction : 1 = false;  // an atomic whose old value the kernel does not use (PTX red)
  std::uint32_t block = 0;     // linear block id: x + gx * (y + gy * z)
  std::uint16_t thread = 0;    // linear thread id in the block: x + bx * (y + by * z)
  std::uint16_t line = 0;      // source line of the access site
};
static_assert(sizeof(Access) == 16);

// One warp's arrival at one barrier.
struct BarrierEvent {
  std::uint32_t block = 0;
  std::uint16_t warp = 0;
  std::uint16_t line = 0;
  std::uint32_t arrival_rank = 0;   // order of arrival within the block, over all its barriers
  std::uint32_t seen_arrivals = 0;  // arrivals the warp saw once released (>= all of them)
  std::uint64_t arrival = 0;        // Trace::barrier_clock units; 0 where there is no clock
  std::uint64_t release = 0;
  // Trace::accesses made before the warp was released (an index into it):
  // every access of the block before this barrier is below it, the warp's
  // accesses after it at or above it. kNoAccessMark in recordings older than
  // the mark.
  std::uint32_t accesses_before = kNoAccessMark;
  static constexpr std::uint32_t kNoAccessMark = 0xffffffffu;
};

// A global load or store in no buffer of the launch (one past the end of an
// array, say). The traced run read or wrote there; it is kept apart from
// Trace::accesses, whose (buffer, offset) always lie in a buffer.
struct StrayAccess {
  Access access;               // buffer: the buffer nearest the address; offset: 0
  std::int64_t offset = 0;     // bytes from that buffer's start (negative: before it)
  std::uint32_t position = 0;  // Trace::accesses made before it, in device order
};

// One warp's passage through one barrier, as the clock pass saw it (CUDA):
// the same kernel run again with no access records, its clocks kept on the
// SM until the block's end (cuda/ptx_instrument.h, Pass::Clock). Joined with the access pass's
// BarrierEvent by (block, warp, line, pass).
struct BarrierTiming {
  std::uint32_t block = 0;
  std::uint16_t warp = 0;
  std::uint16_t line = 0;
  std::uint32_t pass = 0;     // the warp's n-th barrier in the block, from 0
  std::uint64_t arrival = 0;  // clock64 cycles of the block's SM, before the barrier
  std::uint64_t release = 0;  // after a shared-memory load the barrier orders
};

// One block's passage through one barrier, as the clock pass saw it: what
// the distributions in the barrier view are made of.
struct BarrierPassTiming {
  std::uint32_t block = 0;
  std::uint32_t pass = 0;  // the block's n-th barrier, from 0
  std::uint16_t line = 0;
  std::uint16_t slowest_warp = 0;     // the last to arrive
  std::uint32_t spread = 0;           // cycles from the first warp's arrival to the last's
  std::uint32_t release_latency = 0;  // cycles from the last arrival to the first release
  // Every warp stamped, at one line, and none released before the last arrival.
  bool release_after_arrivals = false;
};

// Every block of the grid, traced or not.
struct BlockSchedule {
  std::uint64_t start = 0;  // Trace::schedule_clock units
  std::uint64_t end = 0;
  std::uint32_t sm = 0;  // kNoSm where the device has no id to read
};
inline constexpr std::uint32_t kNoSm = 0xffffffffu;

struct TracedBuffer {
  std::string name;  // the workload's name: "a", "trA", "out", ...
  std::string role;  // input, output, scratch
  ElementType type = ElementType::Int;
  std::uint64_t bytes = 0;
  // Its layout, as the workload declared it (HostBuffer::row_elements):
  // elements per row of the matrix it holds, 0 where it is none.
  std::uint64_t row_elements = 0;
  // Which of the traced kernel's buffer parameters (its global pointer
  // parameters, in signature order: 0 the first) the traced launch passes
  // it as; kNotPassed where that launch does not take it (a reduction's
  // later partial sums). What names it as the kernel does.
  int argument = kNotPassed;
  static constexpr int kNotPassed = -1;
};

// A source line the trace hit: a load or store there, as the learner reads it.
struct AccessSite {
  std::uint16_t line = 0;
  Space space = Space::Global;
  bool store = false;
  std::string text;  // the source line, trimmed
  // Where the compiler merged accesses the source wrote separately (CUDA: a
  // run of element stores that ptxas makes one wide store, ptx_instrument.h):
  // how many of the source's accesses each recorded access is made of. 1: none.
  std::uint8_t merged = 1;
  bool atomic = false;  // an atomic read-modify-write (store is set too)
};

// The global loads and stores of the runtime that launched the kernel
// (OpenMP's libgomp: the region's arguments, its stacks), made by the traced
// blocks' code and in no buffer of the launch: counted as Nsight Compute
// counts requests and sectors, never recorded one by one.
struct RuntimeAccesses {
  std::uint64_t ld_requests = 0, ld_sectors = 0, st_requests = 0, st_sectors = 0;
  bool any() const { return ld_requests || ld_sectors || st_requests || st_sectors; }
  RuntimeAccesses& operator+=(const RuntimeAccesses& more) {
    ld_requests += more.ld_requests;
    ld_sectors += more.ld_sectors;
    st_requests += more.st_requests;
    st_sectors += more.st_sectors;
    return *this;
  }
};

struct Trace {
  std::string kernel_id;    // catalog id
  std::string kernel;       // function name
  std::string source_file;  // "transpose.cu" / "transpose.cl": what `line` refers to
  std::string backend;
  std::array<std::uint32_t, 3> grid{1, 1, 1};   // blocks per dimension of the traced launch
  std::array<std::uint32_t, 3> block{1, 1, 1};  // threads per block dimension
  int launch = 0;                               // which launch of the workload (reductions have several)
  std::uint32_t warp_width = 32;                // lanes per warp the per-warp records used
  bool warp_width_assumed = false;              // the device did not say; 32 was used
  std::string schedule_clock;                   // "globaltimer ns" or "order"
  std::string barrier_clock;                    // "clock64 cycles" or "order"
  // Where the barrier times and the schedule come from: kClockPassName (a
  // second run with clock stamps only: barrier_timings, schedule) or
  // kTracedPassName (the access pass's own stamps: older recordings, OpenCL).
  std::string timing_pass;
  double sm_clock_mhz =
      0;  // clock64 cycles per microsecond of %globaltimer, measured just after the clock pass; 0 unknown
  std::vector<std::uint32_t> traced_blocks;  // sorted
  std::vector<TracedBuffer> buffers;
  // The traced launch's shared tile as the workload declared it (Workload::tile).
  std::optional<SharedTile> tile;
  std::vector<AccessSite> sites;
  std::vector<Access> accesses;
  std::vector<StrayAccess> strays;  // accesses in no buffer, in device order
  RuntimeAccesses runtime_accesses;
  std::vector<BarrierEvent> barriers;
  std::vector<BlockSchedule> schedule;  // one per block of the grid (the clock pass's when there is one)
  // The clock pass: the passes of about one block in clock_block_stride
  // (drawn at random, and the traced blocks), and each warp's stamps in the
  // traced blocks.
  std::vector<BarrierPassTiming> barrier_pass_timings;
  std::vector<BarrierTiming> barrier_timings;
  std::uint32_t clock_block_stride = 0;
  std::uint64_t clock_passes_dropped = 0;      // warp passes through barriers the clock pass did not keep
  std::vector<BlockSchedule> traced_schedule;  // the access pass's schedule, kept beside the clock pass's

  std::uint32_t block_count() const { return grid[0] * grid[1] * grid[2]; }
  std::uint32_t threads_per_block() const { return block[0] * block[1] * block[2]; }
};

inline constexpr std::string_view kClockPassName = "clock pass";
inline constexpr std::string_view kTracedPassName = "traced pass";

// An access site (line, space, kind) as one number: sites sort by line,
// then global before shared, then load, store, atomic. kSiteKeys bounds it.
inline constexpr std::size_t kSiteKinds = 3;
inline constexpr std::size_t kSiteKeys = std::size_t{65536} * 2 * kSiteKinds;
inline std::size_t site_key(std::uint16_t line, Space space, bool store, bool atomic) {
  return (std::size_t{line} * 2 + (space == Space::Shared ? 1 : 0)) * kSiteKinds + (atomic ? 2 : store ? 1 : 0);
}
inline std::size_t site_key(const Access& a) { return site_key(a.line, a.space, a.store, a.atomic != AtomicOp::None); }

// The sites a trace's records name, a bit per site_key: filled part by part
// (a set per thread), merged, then read in site order.
class SiteKeySet {
 public:
  struct Site {
    std::size_t key;
    std::uint16_t line;
    Space space;
    bool store;
    bool atomic;
  };
  void add(std::size_t key) { bits_[key / 64] |= std::uint64_t{1} << (key % 64); }
  void merge(const SiteKeySet& other) {
    for (std::size_t k = 0; k < bits_.size(); ++k) bits_[k] |= other.bits_[k];
  }
  std::vector<Site> sites() const {
    std::vector<Site> out;
    for (std::size_t key = 0; key < kSiteKeys; ++key)
      if (bits_[key / 64] >> (key % 64) & 1)
        out.push_back({key, static_cast<std::uint16_t>(key / (2 * kSiteKinds)),
                       (key / kSiteKinds) % 2 ? Space::Shared : Space::Global, key % kSiteKinds != 0,
                       key % kSiteKinds == 2});
    return out;
  }

 private:
  std::vector<std::uint64_t> bits_ = std::vector<std::uint64_t>(kSiteKeys / 64, 0);
};

// The most access records one recording may hold (16 bytes each on the device).
inline constexpr std::uint64_t kMaxTraceRecords = std::uint64_t{1} << 26;

// A few blocks that show a kernel's pattern: the first two of the first two
// rows of the grid (a transpose's block swap needs (1,0) and (0,1)).
std::vector<std::uint32_t> default_traced_blocks(const std::array<std::uint32_t, 3>& grid);

// The trimmed text of a 1-based line of `text` ("" if none).
std::string text_line(std::string_view text, std::uint32_t line);
// The same of an embedded kernel source.
std::string source_line(std::string_view source_file, std::uint32_t line);

// "transpose.cu" / "transpose.cl": the file a backend's traces refer to.
std::string source_file_for(const Variant& variant, Dialect dialect);

}  // namespace threadmap
