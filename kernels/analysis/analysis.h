#pragma once
// What a recorded trace means for the memory system, in Nsight Compute's
// terms (docs/traces.md defines each number). Qt-free: the CLI, the tests
// and the GUI's views all read these plain values.
//
// A warp-level request is one execution of one access site by one warp: the
// lanes' n-th execution of that source line's load (or store) in the same
// space. For it:
//   shared  wavefronts = the most distinct bank words any one bank must serve
//           (lanes reading the same word share it); ideal = the fewest the
//           bytes allow (1 for 4-byte words, 2 for a warp of 8-byte words);
//           bank conflicts = wavefronts - ideal, as Nsight Compute counts them
//   global  sectors    = distinct 32-byte sectors the lanes' bytes fall in;
//           ideal      = the fewest sectors that many distinct bytes could fill
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kernels/core/trace.h"
#include "kernels/analysis/problems.h"

namespace threadmap::analysis {

struct DeviceModel {
  std::uint32_t warp_width = 32;
  std::uint32_t banks = 32;
  std::uint32_t bank_bytes = 4;
  std::uint32_t sector_bytes = 32;
  std::string source;  // where the numbers come from, said in every report
};

// The model for a trace: its recorded warp width (read from the device, or
// assumed when the device does not say) and the NVIDIA memory geometry.
DeviceModel model_for(const Trace& trace);

struct Request {
  std::uint32_t first_access = 0;  // index of its earliest lane record: its place in device order
  std::uint32_t block = 0;
  std::uint16_t warp = 0;
  std::uint16_t line = 0;
  std::uint32_t instance = 0;  // the n-th execution of this site by this warp
  Space space : 1 = Space::Global;
  bool store : 1 = false;
  AtomicOp atomic : 4 = AtomicOp::None;  // an atomic's (its first lane's) operation
  bool reduction : 1 = false;            // an atomic whose old value is not used (PTX red)
  std::uint8_t size = 0;                 // bytes per lane
  std::uint8_t lanes = 0;                // active lanes
  std::uint16_t wavefronts = 0;          // shared
  std::uint16_t ideal_wavefronts = 0;    // shared
  std::uint16_t sectors = 0;             // global
  std::uint16_t ideal_sectors = 0;       // global
  std::uint32_t lanes_begin = 0;         // into Analysis::request_lanes
};

struct Counters {
  std::uint64_t accesses = 0;  // thread-level loads, stores and atomics
  std::uint64_t shared_ld_requests = 0, shared_st_requests = 0;
  std::uint64_t shared_ld_wavefronts = 0, shared_st_wavefronts = 0;
  std::uint64_t shared_ld_ideal_wavefronts = 0, shared_st_ideal_wavefronts = 0;
  std::uint64_t global_ld_requests = 0, global_st_requests = 0;
  std::uint64_t global_ld_sectors = 0, global_st_sectors = 0;
  std::uint64_t global_ld_ideal_sectors = 0, global_st_ideal_sectors = 0;
  // Atomics: shared ones (atom and red alike, as the SM's ATOMS), global
  // ones that return the old value (atom) and those that do not (red).
  std::uint64_t shared_atom_requests = 0, shared_atom_wavefronts = 0, shared_atom_ideal_wavefronts = 0;
  std::uint64_t global_atom_requests = 0, global_atom_sectors = 0, global_atom_ideal_sectors = 0;
  std::uint64_t global_red_requests = 0, global_red_sectors = 0, global_red_ideal_sectors = 0;
  // Thread-level accesses (a request's active lanes, summed) of each kind:
  // lanes per request is how widely a warp shares the work.
  std::uint64_t shared_ld_lanes = 0, shared_st_lanes = 0, global_ld_lanes = 0, global_st_lanes = 0;
  // Thread-level shared loads of a word that another thread of the block
  // stored last before them: the exchange a tile exists for (a thread
  // reading back only what it stored itself makes none). From the problems'
  // walk over each block's shared words (Problems::shared_loads_exchanged).
  std::uint64_t shared_ld_exchanged = 0;
  // The launching runtime's own global loads and stores (OpenMP's libgomp),
  // the trace's Trace::runtime_accesses, apart from the kernel's above;
  // Nsight Compute's l1tex__t_*_global_op_* count both.
  RuntimeAccesses runtime;

  std::uint64_t shared_ld_conflicts() const { return shared_ld_wavefronts - shared_ld_ideal_wavefronts; }
  std::uint64_t shared_st_conflicts() const { return shared_st_wavefronts - shared_st_ideal_wavefronts; }
  std::uint64_t shared_atom_conflicts() const { return shared_atom_wavefronts - shared_atom_ideal_wavefronts; }
  void add(const Request& r);

 private:
  void add_atomic(const Request& r);
};

struct SiteTotals {
  std::uint16_t line = 0;
  Space space = Space::Global;
  bool store = false;
  std::string text;
  Counters counters;
  std::uint8_t merged = 1;  // source accesses per recorded one (AccessSite::merged)
  bool atomic = false;      // atomics (store is set too)

  // This site's own kind of each number: its requests, and the work they
  // cost the memory system (shared: wavefronts; global: sectors) with its ideal.
  std::uint64_t requests() const;
  std::uint64_t work() const;
  std::uint64_t ideal_work() const;
};

struct BlockTotals {
  std::uint32_t block = 0;
  Counters counters;
};

// One barrier as one block passed it: every warp's arrival, and the release.
struct BarrierPass {
  std::uint32_t block = 0;
  std::uint16_t line = 0;
  std::uint32_t instance = 0;                // the block's n-th barrier
  std::uint32_t warps = 0;                   // arrivals recorded
  std::vector<std::uint16_t> arrival_order;  // warps, first to last
  std::uint16_t slowest_warp = 0;            // the last to arrive
  bool timed = false;                        // arrival/release are clock readings, not only order
  bool from_clock_pass = false;              // the readings are the clock pass's (else the access pass's)
  std::uint64_t first_arrival = 0, last_arrival = 0;
  std::uint64_t first_release = 0, last_release = 0;
  // Every warp was released only after all had arrived: each saw every
  // arrival, and (timed) the earliest release is not before the last arrival.
  bool release_after_arrivals = false;
  std::uint64_t spread() const { return last_arrival - first_arrival; }
  // From the last arrival to the first warp's release (0 where untimed or
  // released early, which release_after_arrivals reports).
  std::uint64_t release_latency() const {
    return timed && first_release > last_arrival ? first_release - last_arrival : 0;
  }
};

// Every barrier pass a recording timed: the clock pass's (every n-th block
// of the grid), else the traced blocks' own.
struct BarrierStats {
  std::string from;    // kClockPassName or kTracedPassName
  bool timed = false;  // cycles; else places in the arrival order
  std::size_t passes = 0;
  std::size_t blocks = 0;
  std::vector<std::uint64_t> spreads;            // per pass, ascending
  std::vector<std::uint64_t> release_latencies;  // per pass, ascending; empty where untimed
  std::vector<std::uint32_t> last_by_warp;       // how many passes each warp arrived last at
  bool release_after_arrivals = true;            // in every pass

  // The lower median of an ascending list (0 for none).
  static std::uint64_t median(const std::vector<std::uint64_t>& sorted) {
    return sorted.empty() ? 0 : sorted[(sorted.size() - 1) / 2];
  }
  std::uint16_t most_often_last() const;  // the warp most often last
  double most_often_last_share() const;   // in how many of the passes, 0..1
};

struct SmLoad {
  std::uint32_t sm = 0;
  std::uint32_t blocks = 0;
  std::uint32_t most_at_once = 0;  // blocks resident together at the busiest moment
};

struct Analysis {
  DeviceModel model;
  bool whole_grid = false;                   // every block traced: totals are the kernel's
  // The traced launch's blocks per dimension, which turn a request's linear
  // block id into coordinates; 0 where the analysis was made without a trace.
  std::array<std::uint32_t, 3> grid{0, 0, 0};
  std::vector<Request> requests;             // in device order
  std::vector<std::uint32_t> request_lanes;  // access indexes, each request's lanes together
  Counters totals;
  std::vector<SiteTotals> sites;      // by line
  std::vector<BlockTotals> blocks;    // traced blocks, ascending
  std::vector<BarrierPass> barriers;  // by block, then instance
  bool barriers_consistent = true;    // every pass has release_after_arrivals (both passes)
  BarrierStats barrier_stats;
  std::vector<SmLoad> sms;                         // devices that name SMs
  std::uint64_t kernel_start = 0, kernel_end = 0;  // over every block, in schedule clock units
  Problems problems;                               // races, uninitialised and stray accesses, divergent barriers
  // A whole grid counted in batches of blocks (merge.h): how many batches,
  // and their requests and barrier passes, counted but not kept.
  std::size_t batches_merged = 0;
  std::uint64_t requests_not_kept = 0, barrier_passes_not_kept = 0;

  std::uint64_t request_count() const { return requests.size() + requests_not_kept; }
  std::uint64_t barrier_pass_count() const { return barriers.size() + barrier_passes_not_kept; }

  std::span<const std::uint32_t> lanes_of(const Request& r) const {
    return std::span<const std::uint32_t>(request_lanes).subspan(r.lanes_begin, r.lanes);
  }
  // The access site a request belongs to (nullptr only for a request of
  // another analysis).
  const SiteTotals* site_of(const Request& r) const;
};

Analysis analyze(const Trace& trace, const DeviceModel& model);
// analyze keeps its scratch on the calling thread for the next call (a view
// analysing again faults in no fresh pages); this gives it back.
void release_analysis_scratch();

// The building blocks, for one request: lanes' byte offsets (shared: into the
// window; global: into one buffer) and the access size.
//
// The lanes the banks serve together: the whole warp for words of 4 bytes or
// less, half a warp for 8- and 16-byte accesses (Nsight Compute on the H200:
// 32 lanes loading one 16-byte word need 2 wavefronts, 32 contiguous ones 4).
// Within a part each bank serves its distinct words one per wavefront; the
// ideal is the part's distinct bytes over the 128 the banks serve at once.
std::uint32_t lanes_per_phase(std::uint32_t size, const DeviceModel& model);
std::uint32_t shared_wavefronts(std::span<const std::uint64_t> offsets, std::span<const std::uint16_t> lanes,
                                std::uint32_t size, const DeviceModel& model);
std::uint32_t global_sectors(std::span<const std::uint64_t> offsets, std::uint32_t size, const DeviceModel& model);
// The same for one atomic request of `op` (reduction: its old value unused),
// as Nsight Compute counts them on the H100 and H200.
std::uint32_t shared_atomic_wavefronts(std::span<const std::uint64_t> offsets, std::span<const std::uint16_t> lanes,
                                       std::uint32_t size, AtomicOp op, bool reduction, const DeviceModel& model);
std::uint32_t global_atomic_sectors(std::span<const std::uint64_t> offsets, const DeviceModel& model);

}  // namespace threadmap::analysis
