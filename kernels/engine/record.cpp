#include "kernels/engine/record.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <functional>
#include <iterator>
#include <numeric>
#include <optional>
#include <random>
#include <new>
#include <set>
#include <span>
#include <sstream>
#include <tuple>

#include "kernels/core/bulk_allocator.h"
#include "kernels/core/error.h"
#include "kernels/core/parallel.h"
#include "kernels/engine/runner.h"
#include "kernels/core/sources.h"
#include "kernels/core/trace_format.h"

namespace threadmap {

namespace {

using Clock = std::chrono::steady_clock;

// A trace buffer read back from the device: its record area is read into
// room that is not zeroed first (BulkAllocator default-initialises).
using TraceWords = std::vector<std::uint32_t, BulkAllocator<std::uint32_t>>;

// Where each section of the trace buffer starts, in 32-bit words.
// The bounds section's room (trace_format.h): the buffers and __local
// parameters a launch may have, each checked on the device.
constexpr std::uint32_t kMaxBoundsBuffers = 64;
constexpr std::uint32_t kMaxLocalParameters = 64;
constexpr std::uint64_t kBoundsAt = 32;  // 128 bytes in: the sink is 128-byte aligned
constexpr std::uint64_t kBoundsWords = TM_BD_TABLE + kMaxBoundsBuffers * TM_BD_BUFFER_WORDS + kMaxLocalParameters;

struct Layout {
  std::uint32_t blocks = 0;
  std::uint64_t bounds = kBoundsAt;
  std::uint64_t bitmap = kBoundsAt + kBoundsWords;
  std::uint64_t schedule = 0;
  std::uint64_t slots = 0;  // the clock pass's slot table
  std::uint64_t barriers = 0;
  std::uint64_t accesses = 0;
  std::uint64_t barrier_capacity = 0;
  std::uint64_t access_capacity = 0;
  std::uint64_t words = 0;

  static std::uint64_t even(std::uint64_t w) { return (w + 1) & ~std::uint64_t{1}; }  // 8-byte aligned

  // The access pass: TM_BARRIER_WORDS per arrival, TM_ACCESS_WORDS per access.
  Layout(std::uint32_t block_count, std::uint64_t barrier_cap, std::uint64_t access_cap)
      : blocks(block_count), barrier_capacity(barrier_cap), access_capacity(access_cap) {
    schedule = even(bitmap + (blocks + 31) / 32);
    barriers = schedule + std::uint64_t{blocks} * TM_SCHEDULE_WORDS;
    accesses = even(barriers + barrier_capacity * TM_BARRIER_WORDS);
    slots = accesses;
    words = accesses + access_capacity * TM_ACCESS_WORDS;
  }

  // The clock pass (trace_format.h): no bitmap; a schedule record per warp,
  // the slot table, then TM_CLOCK_WARP_WORDS per slot. Every offset follows
  // from the grid, so the kernel computes them and loads nothing but its slot.
  static Layout clock(std::uint32_t block_count, std::uint32_t warps, std::uint64_t slot_count) {
    Layout l(block_count, 0, 0);
    l.schedule = TM_HEADER_WORDS;
    l.slots = l.schedule + std::uint64_t{block_count} * warps * TM_CLOCK_SCHEDULE_WORDS;
    l.barriers = even(l.slots + block_count);
    l.barrier_capacity = slot_count;
    l.accesses = l.barriers + slot_count * TM_CLOCK_WARP_WORDS;
    l.words = l.accesses;
    return l;
  }
};

std::string_view role_name(BufferRole r) {
  switch (r) {
    case BufferRole::Input: return "input";
    case BufferRole::Output: return "output";
    case BufferRole::Scratch: return "scratch";
  }
  return "input";
}

std::uint64_t word64(const TraceWords& w, std::uint64_t at) {
  return std::uint64_t{w[at]} | (std::uint64_t{w[at + 1]} << 32);
}

std::vector<BlockSchedule> decode_schedule(const TraceWords& words, const Layout& layout, bool named_sms) {
  std::vector<BlockSchedule> schedule(layout.blocks);
  for (std::uint32_t b = 0; b < layout.blocks; ++b) {
    const std::uint64_t at = layout.schedule + std::uint64_t{b} * TM_SCHEDULE_WORDS;
    schedule[b].start = word64(words, at + TM_S_START);
    schedule[b].end = word64(words, at + TM_S_END);
    schedule[b].sm = named_sms ? words[at + TM_S_SM] : kNoSm;
  }
  return schedule;
}

// The warps whose barrier stamps the clock pass keeps: the blocks of about
// this many, drawn at random, and the traced blocks'. A recording keeps 24
// bytes per sampled block and barrier, and the traced blocks' stamps (28
// bytes per warp and barrier).
constexpr std::uint64_t kClockSampleWarps = TM_CLOCK_SAMPLE_WARPS;

// The SM clock against %globaltimer (diagnostic.cu's sm_clock_rate), in
// MHz: one thread spins for 200 us reading both.
LaunchCmd sm_clock_launch() {
  LaunchCmd l;
  l.program.source = "diagnostic";
  l.program.type = ElementType::Int;
  l.kernel = "sm_clock_rate";
  l.args = {BufferArg{0}, std::int32_t{200000}};
  return l;
}

double measure_sm_clock_mhz(Device& device) {
  auto out = device.allocate(4 * sizeof(std::uint64_t));
  device.execute({sm_clock_launch()}, {out.get()});
  std::uint64_t stamps[4] = {};
  device.read(*out, stamps, sizeof stamps);
  if (stamps[3] <= stamps[1] || stamps[2] <= stamps[0])
    throw DeviceError("the SM clock could not be measured against %globaltimer");
  return static_cast<double>(stamps[2] - stamps[0]) * 1000.0 / static_cast<double>(stamps[3] - stamps[1]);
}

// Each block's passage through each barrier, from its warps' stamps
// (t.barrier_timings): t.barrier_pass_timings. Only the traced blocks keep
// their warps' stamps, for the barrier view's single-block picture.
void summarize_passes(Trace& t, std::uint32_t warps) {
  std::vector<BarrierTiming> stamps = std::move(t.barrier_timings);
  t.barrier_timings.clear();
  t.barrier_pass_timings.clear();
  // By block, pass, arrival. The clock pass writes its stamps block by block
  // (the slots are in block order), so each block's few are sorted alone.
  const auto by_block = [](const BarrierTiming& x, const BarrierTiming& y) { return x.block < y.block; };
  if (!std::is_sorted(stamps.begin(), stamps.end(), by_block)) std::stable_sort(stamps.begin(), stamps.end(), by_block);
  for (auto from = stamps.begin(); from != stamps.end();) {
    const auto to = std::upper_bound(from, stamps.end(), *from, by_block);
    std::sort(from, to, [](const BarrierTiming& x, const BarrierTiming& y) {
      return std::tie(x.pass, x.arrival, x.warp) < std::tie(y.pass, y.arrival, y.warp);
    });
    from = to;
  }
  for (std::size_t k = 0; k < stamps.size();) {
    std::size_t end = k;
    BarrierPassTiming p;
    p.block = stamps[k].block;
    p.pass = stamps[k].pass;
    p.line = stamps[k].line;
    bool one_line = true;
    std::uint64_t first_release = UINT64_MAX;
    for (; end < stamps.size() && stamps[end].block == p.block && stamps[end].pass == p.pass; ++end) {
      one_line = one_line && stamps[end].line == p.line;
      first_release = std::min(first_release, stamps[end].release);
    }
    const BarrierTiming& first = stamps[k];
    const BarrierTiming& last = stamps[end - 1];
    auto cycles = [](std::uint64_t c) { return static_cast<std::uint32_t>(std::min<std::uint64_t>(c, UINT32_MAX)); };
    p.slowest_warp = last.warp;
    p.spread = cycles(last.arrival - first.arrival);
    p.release_after_arrivals = one_line && end - k == warps && first_release >= last.arrival;
    p.release_latency = first_release >= last.arrival ? cycles(first_release - last.arrival) : 0;
    t.barrier_pass_timings.push_back(p);
    k = end;
  }
  for (const BarrierTiming& b : stamps)
    if (std::binary_search(t.traced_blocks.begin(), t.traced_blocks.end(), b.block)) t.barrier_timings.push_back(b);
}

// The blocks whose warps' barrier stamps the clock pass keeps, and where
// each block's first slot is (TM_NO_SLOT: not sampled).
struct ClockSample {
  std::vector<std::uint32_t> blocks;  // ascending
  std::vector<std::uint32_t> slots;   // per block of the grid
  std::uint64_t capacity = 0;         // slots in all: sampled blocks x warps
  // A grid of at most kClockSampleWarps warps: every block writes its
  // stamps, block b's at slot b * warps (the kernel computes it, loading
  // nothing); those of `blocks` are kept.
  bool dense = false;
};

// The sampled blocks: drawn at random (a fixed seed, so a recording can be
// made again), not every n-th, which would follow any pattern the block
// numbers have on the SMs; and the traced blocks. A batch of a whole grid
// (record_trace_in_batches) samples its traced blocks alone. A grid of at
// most kClockSampleWarps warps is sampled whole, its slots in block order
// (`dense`: the kernel computes its slot), and a batch keeps its own.
ClockSample choose_clock_sample(const Trace& t, std::uint32_t warps, bool random_blocks) {
  const std::uint32_t blocks = t.block_count();
  const std::uint64_t budget = std::max<std::uint64_t>(1, kClockSampleWarps / warps);
  ClockSample sample;
  std::vector<std::uint32_t>& chosen = sample.blocks;
  if (random_blocks && blocks <= budget) {
    chosen.resize(blocks);
    std::iota(chosen.begin(), chosen.end(), 0u);
  } else if (random_blocks) {
    std::vector<std::uint32_t> all(blocks);
    std::iota(all.begin(), all.end(), 0u);
    std::sample(all.begin(), all.end(), std::back_inserter(chosen), budget, std::mt19937(20261123));
  }
  for (std::uint32_t b : t.traced_blocks) chosen.push_back(b);
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  sample.dense = std::uint64_t{blocks} * warps <= kClockSampleWarps;
  if (sample.dense) {
    sample.slots.resize(blocks);
    for (std::uint32_t b = 0; b < blocks; ++b) sample.slots[b] = b * warps;
    sample.capacity = std::uint64_t{blocks} * warps;
    return sample;
  }
  sample.slots.assign(blocks, TM_NO_SLOT);
  for (std::uint32_t b : chosen) {
    sample.slots[b] = static_cast<std::uint32_t>(sample.capacity);
    sample.capacity += warps;
  }
  return sample;
}

// One warp's stamps from its clock record (slot `slot`, at word `at`).
struct WarpStamps {
  std::vector<BarrierTiming> kept;  // the passes it timed
  std::uint32_t dropped = 0;        // passes through barriers it did not keep
};

// Each site kept its first pass, numbered by the kernel where a barrier
// sits in a loop, else (TM_PASS_IN_ORDER) by the order of the warp's
// arrivals. Later passes through a site, and passes numbered past
// TM_CLOCK_PASSES, are counted as not timed.
WarpStamps decode_warp_stamps(const TraceWords& words, std::uint64_t at, std::uint64_t slot,
                              const std::string& kernel_id) {
  const std::uint32_t block = words[at + TM_CW_BLOCK];
  const std::uint32_t warp = words[at + TM_CW_WARP_PASSES] & 0xffffu;
  const std::uint32_t passes = words[at + TM_CW_WARP_PASSES] >> 16;
  const std::uint32_t sites = words[at + TM_CW_SITES];
  // The stamps are clock64's low words: within the warp's life, each is the
  // first value after its start with those low bits.
  const std::uint64_t start = word64(words, at + TM_CW_START_CLOCK);
  auto widen = [&](std::uint32_t low) {
    return start + static_cast<std::uint32_t>(low - static_cast<std::uint32_t>(start));
  };
  std::array<BarrierTiming, TM_CLOCK_PASSES> stamps_of_warp;
  std::size_t stamped = 0;
  bool in_order = false;
  for (std::uint32_t site = 0; site < sites; ++site) {
    const std::uint64_t q = at + TM_CW_PASSES + std::uint64_t{site} * TM_CP_WORDS;
    const std::uint32_t pass = words[q + TM_CP_PASS];
    if (pass == TM_NO_PASS) continue;
    in_order = in_order || pass == TM_PASS_IN_ORDER;
    BarrierTiming b;
    b.block = block;
    b.warp = static_cast<std::uint16_t>(warp);
    b.line = static_cast<std::uint16_t>(words[q + TM_CP_LINE]);
    b.pass = pass;
    b.arrival = widen(words[q + TM_CP_ARRIVAL]);
    b.release = widen(words[q + TM_CP_RELEASE]);
    stamps_of_warp[stamped++] = b;
  }
  const std::span<BarrierTiming> warp_stamps(stamps_of_warp.data(), stamped);
  if (in_order) {
    std::sort(warp_stamps.begin(), warp_stamps.end(),
              [](const BarrierTiming& x, const BarrierTiming& y) { return x.arrival < y.arrival; });
    for (std::uint32_t k = 0; k < warp_stamps.size(); ++k) {
      if (warp_stamps[k].pass != TM_PASS_IN_ORDER)
        throw DeviceError(kernel_id + ": clock record " + std::to_string(slot) + " mixes numbered and ordered passes");
      warp_stamps[k].pass = k;
    }
  }
  WarpStamps out;
  for (const BarrierTiming& b : warp_stamps) {
    if (b.pass >= TM_CLOCK_PASSES) continue;
    if (b.pass >= passes)
      throw DeviceError(kernel_id + ": clock record " + std::to_string(slot) + " numbers a pass " +
                        std::to_string(b.pass) + " of " + std::to_string(passes));
    out.kept.push_back(b);
  }
  out.dropped = passes - static_cast<std::uint32_t>(out.kept.size());
  return out;
}

// Every sampled warp's stamps into t.barrier_timings (all of them, before
// summarize_passes keeps the traced blocks'), and the passes not kept into
// t.clock_passes_dropped. Each record is checked against its slot.
void decode_clock_stamps(Trace& t, const TraceWords& words, const Layout& layout, const ClockSample& sample,
                         std::uint32_t warps) {
  const std::uint32_t blocks = t.block_count();
  t.clock_passes_dropped = 0;
  t.barrier_timings.clear();
  for (std::uint64_t i = 0; i < sample.capacity; ++i) {
    const std::uint64_t at = layout.barriers + i * TM_CLOCK_WARP_WORDS;
    if (words[at + TM_CW_WRITTEN] != TM_CLOCK_WRITTEN) continue;  // a warp that ended early
    const std::uint32_t block = words[at + TM_CW_BLOCK];
    const std::uint32_t warp = words[at + TM_CW_WARP_PASSES] & 0xffffu;
    const std::uint32_t sites = words[at + TM_CW_SITES];
    if (block >= blocks || warp >= warps || std::uint64_t{sample.slots[block]} + warp != i || sites > TM_CLOCK_PASSES)
      throw DeviceError(t.kernel_id + ": clock record " + std::to_string(i) + " names block " + std::to_string(block) +
                        ", warp " + std::to_string(warp) + ", " + std::to_string(sites) +
                        " barrier sites, not the slot's");
    if (sample.dense && !std::binary_search(sample.blocks.begin(), sample.blocks.end(), block)) continue;
    const WarpStamps stamps = decode_warp_stamps(words, at, i, t.kernel_id);
    t.barrier_timings.insert(t.barrier_timings.end(), stamps.kept.begin(), stamps.kept.end());
    t.clock_passes_dropped += stamps.dropped;
  }
}

// Each block: its warps' earliest start and latest end, and its SM; its
// start in %globaltimer time is its end, less its cycles at the measured
// clock.
std::vector<BlockSchedule> decode_clock_schedule(const TraceWords& words, const Layout& layout, const Trace& t,
                                                 std::uint32_t warps) {
  std::vector<BlockSchedule> schedule(t.block_count());
  for (std::uint32_t b = 0; b < t.block_count(); ++b) {
    std::uint64_t start_clock = UINT64_MAX, end_clock = 0, end_ns = 0;
    std::uint32_t sm = kNoSm;
    for (std::uint32_t w = 0; w < warps; ++w) {
      const std::uint64_t at = layout.schedule + (std::uint64_t{b} * warps + w) * TM_CLOCK_SCHEDULE_WORDS;
      if (words[at + TM_CS_WRITTEN] != TM_CLOCK_WRITTEN) continue;  // a warp with no lanes, or none
      start_clock = std::min(start_clock, word64(words, at + TM_CS_START));
      end_clock = std::max(end_clock, word64(words, at + TM_CS_END_CLOCK));
      end_ns = std::max(end_ns, word64(words, at + TM_CS_END));
      if (sm == kNoSm) sm = words[at + TM_CS_SM];
      else if (sm != words[at + TM_CS_SM])
        throw DeviceError(t.kernel_id + ": the clock pass saw block " + std::to_string(b) + " on SMs " +
                          std::to_string(sm) + " and " + std::to_string(words[at + TM_CS_SM]));
    }
    if (sm == kNoSm || end_clock < start_clock || end_ns == 0)
      throw DeviceError(t.kernel_id + ": the clock pass did not stamp block " + std::to_string(b));
    const auto ns =
        static_cast<std::uint64_t>(static_cast<double>(end_clock - start_clock) * 1000.0 / t.sm_clock_mhz + 0.5);
    schedule[b] = {end_ns > ns ? end_ns - ns : 0, end_ns, sm};
  }
  return schedule;
}

// The clock pass (CUDA): the kernel run again with clock stamps only
// (its PTX instrumented for the clock pass: cuda/ptx_instrument.h). `run(layout, slots)` launches it and
// returns the buffer; `mhz` is the SM clock measured after it. Its warp
// records become t.barrier_pass_timings and (traced blocks) t.barrier_timings, and its schedule (clock64 at each
// block's start, %globaltimer and clock64 at its end) replaces the access
// pass's, which is kept as t.traced_schedule.
template <class Run>
void run_clock_pass(Trace& t, Run run, const std::function<double()>& mhz, bool random_blocks = true) {
  const std::uint32_t blocks = t.block_count();
  const std::uint32_t warps = (t.threads_per_block() + 31) / 32;
  const ClockSample sample = choose_clock_sample(t, warps, random_blocks);
  const Layout layout = Layout::clock(blocks, warps, sample.capacity);
  // The second of two runs: the first loads the code into the SMs' caches,
  // as every launch after the first of a timed run finds it.
  run(layout, sample.slots);
  const TraceWords words = run(layout, sample.slots);
  t.sm_clock_mhz = mhz();

  t.clock_block_stride = static_cast<std::uint32_t>((blocks + sample.blocks.size() - 1) / sample.blocks.size());
  decode_clock_stamps(t, words, layout, sample, warps);
  summarize_passes(t, warps);
  t.traced_schedule = std::move(t.schedule);
  t.schedule = decode_clock_schedule(words, layout, t, warps);
}

// What the first step of a recording decides: the workload, the traced
// build of its first launch, and the launches of each pass.
struct TracePlan {
  Workload workload;
  LaunchCmd traced;                        // the access pass's build of the first launch
  std::vector<LaunchCmd> access_launches;  // the workload's launches, `traced` first
  std::vector<LaunchCmd> clock_launches;   // the same with the clock pass's build first (CUDA)
  bool learner = false;                    // the kernel text is a learner's
  bool clocks = false;                     // the device's kernels read clocks (DeviceInfo::kernel_clocks)
  bool clock_pass = false;
};

// Builds the workload, makes the traced build of its first launch (the
// kernel's text, the catalog's or the learner's, instrumented) and compiles
// every program of the recording before anything runs.
TracePlan plan_trace(Device& device, const Variant& variant, const Params& params, const TraceOptions& options) {
  const DeviceInfo& info = device.info();
  TracePlan plan;
  Workload& w = plan.workload;
  w = variant.build(variant, params, options.seed);
  validate_launch(variant, params, w, info);
  if (!options.source_text.empty()) {
    check_source_dialect(options.source_name, info);
    use_source(w, variant, options.source_text, options.source_name);
  }

  LaunchCmd& traced = plan.traced;
  traced = w.launches.front();
  plan.learner = !traced.program.text.empty();
  // The device makes the traced build from the define: OpenCL puts the
  // hooks into the kernel's text, CUDA instruments its PTX.
  traced.program.defines.emplace_back(std::string(kTraceDefine), kAccessPass);
  traced.args.push_back(BufferArg{static_cast<int>(w.buffers.size())});
  // A launch its runtime shapes (OpenMP) is recorded in the shape it chose
  // for the traced build.
  const auto runtime_shape = device.runtime_launch(w.launches.front());
  if (runtime_shape) {
    traced.groups = runtime_shape->groups;
    traced.group_size = runtime_shape->group_size;
  }
  plan.access_launches = w.launches;
  plan.access_launches.front() = traced;
  // CUDA runs the kernel a second time for the clocks: the same PTX,
  // instrumented for the clock pass (cuda/ptx_instrument.h). An image
  // another runtime launches (OpenMP) is instrumented for the access pass
  // alone: its own stamps time the blocks and name their SMs.
  plan.clocks = info.kernel_clocks;
  plan.clock_pass = plan.clocks && !runtime_shape;
  plan.clock_launches = w.launches;
  plan.clock_launches.front().program.defines.emplace_back(std::string(kTraceDefine), kClockPass);
  plan.clock_launches.front().args = traced.args;
  for (const LaunchCmd& l : plan.access_launches) device.prepare(l);
  if (plan.clock_pass) {
    device.prepare(plan.clock_launches.front());
    device.prepare(sm_clock_launch());
  }
  return plan;
}

// What the trace says about the launch it recorded: kernel, file, grid,
// warp width and which clocks its stamps read.
void describe_traced_launch(Trace& t, const TracePlan& plan, const Variant& variant, const DeviceInfo& info,
                            const TraceOptions& options) {
  const LaunchCmd& traced = plan.traced;
  t.kernel_id = variant.id;
  t.kernel = traced.kernel;
  t.backend = info.backend;
  // The lines are the learner's file's where the kernel is theirs.
  t.source_file = plan.learner ? options.source_name : source_file_for(variant, info.dialect);
  for (int d = 0; d < 3; ++d) {
    if (traced.groups[d] > 0xffffffffu) throw InvalidRequest(variant.id + ": grid too large to trace");
    t.grid[d] = static_cast<std::uint32_t>(traced.groups[d]);
    t.block[d] = static_cast<std::uint32_t>(traced.group_size[d]);
  }
  t.warp_width = info.warp_width > 0 ? static_cast<std::uint32_t>(info.warp_width) : 32;
  t.warp_width_assumed = info.warp_width <= 0;
  t.schedule_clock = plan.clocks ? "globaltimer ns" : "order";
  t.barrier_clock = plan.clocks ? "clock64 cycles" : "order";
  t.timing_pass = plan.clock_pass ? kClockPassName : kTracedPassName;
  t.tile = plan.workload.tile;
}

// The blocks asked for, ascending, each checked against the grid.
std::vector<std::uint32_t> choose_traced_blocks(const Trace& t, const TraceOptions& options, const std::string& id) {
  const std::uint32_t blocks = t.block_count();
  std::vector<std::uint32_t> chosen;
  if (options.all_blocks) {
    chosen.resize(blocks);
    for (std::uint32_t b = 0; b < blocks; ++b) chosen[b] = b;
    return chosen;
  }
  chosen = options.blocks.empty() ? default_traced_blocks(t.grid) : options.blocks;
  if (options.blocks.empty() && options.last_block) chosen.push_back(blocks - 1);
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  for (std::uint32_t b : chosen)
    if (b >= blocks)
      throw InvalidRequest(id + ": block " + std::to_string(b) + " is outside the grid of " + std::to_string(blocks) +
                           " blocks (" + std::to_string(t.grid[0]) + " x " + std::to_string(t.grid[1]) +
                           "); blocks are numbered x + " + std::to_string(t.grid[0]) + " * y");
  return chosen;
}

// The workload's buffers on the device, and each one's device address (what
// a traced global access names).
struct UploadedBuffers {
  std::vector<std::unique_ptr<DeviceBuffer>> owned;
  std::vector<DeviceBuffer*> buffers;
  std::vector<std::uint64_t> bases;
};

// Without `host_copies` (a whole grid in batches: the device holds the
// inputs and receives the outputs, and the host's copies would be as large
// again) an output gets none and an input's is given back once uploaded;
// scratch buffers keep theirs. Each buffer goes into the trace with its
// layout: its row length, and which of the kernel's buffer parameters the
// traced launch passes it as (its place among the launch's buffer
// arguments: the trace buffer comes last and names no buffer of `w`).
UploadedBuffers upload_buffers(Device& device, Workload& w, const LaunchCmd& traced, Trace& t,
                               bool host_copies = true) {
  UploadedBuffers up;
  std::vector<int> argument(w.buffers.size(), TracedBuffer::kNotPassed);
  int buffer_arguments = 0;
  for (const KernelArg& a : traced.args)
    if (const auto* b = std::get_if<BufferArg>(&a)) {
      if (b->buffer >= 0 && static_cast<std::size_t>(b->buffer) < argument.size() &&
          argument[b->buffer] == TracedBuffer::kNotPassed)
        argument[b->buffer] = buffer_arguments;
      ++buffer_arguments;
    }
  for (HostBuffer& b : w.buffers) {
    if (host_copies || b.role != BufferRole::Output)
      materialize(b);  // outputs: the poisoned host copy receives the result
    up.owned.push_back(device.allocate(b.bytes()));
    up.buffers.push_back(up.owned.back().get());
    up.bases.push_back(device.device_address(*up.owned.back()));
    if (b.role != BufferRole::Output) device.write(*up.owned.back(), b.data.data(), b.data.size());
    if (!host_copies && b.role == BufferRole::Input) decltype(b.data)().swap(b.data);
    t.buffers.push_back(
        {b.name, std::string(role_name(b.role)), b.type, b.bytes(), b.row_elements, argument[up.owned.size() - 1]});
  }
  return up;
}

// An output as each run starts it: poisoned, or its own initial contents
// (made afresh: the host copy may hold an earlier run's result).
void reset_output(Device& device, const HostBuffer& b, DeviceBuffer& on_device) {
  if (!b.fill) return device.fill(on_device, 0xFF, b.data.size());
  HostBuffer initial = b;
  initial.data = {};
  materialize(initial);
  device.write(on_device, initial.data.data(), initial.data.size());
}

void read_outputs(Device& device, Workload& w, const UploadedBuffers& up) {
  for (std::size_t i = 0; i < w.buffers.size(); ++i)
    if (w.buffers[i].role == BufferRole::Output)
      device.read(*up.buffers[i], w.buffers[i].data.data(), w.buffers[i].data.size());
}

// The access pass's bounds section: each buffer's first and end address as
// the kernel's accesses name them, and the bytes of each __local parameter
// (the k-th LocalArrayArg of a launch; the largest where launches differ).
void write_bounds(TraceWords& words, const Layout& layout, const UploadedBuffers& uploaded,
                  const std::vector<HostBuffer>& buffers, const std::vector<LaunchCmd>& launches) {
  if (uploaded.bases.size() > kMaxBoundsBuffers)
    throw InvalidRequest("a traced launch may have at most " + std::to_string(kMaxBoundsBuffers) +
                         " buffers, this one has " + std::to_string(uploaded.bases.size()));
  std::vector<std::uint64_t> local_bytes;
  for (const LaunchCmd& l : launches) {
    std::size_t k = 0;
    for (const KernelArg& a : l.args)
      if (const auto* local = std::get_if<LocalArrayArg>(&a)) {
        if (k >= kMaxLocalParameters) throw InvalidRequest("a traced kernel may have at most 64 __local parameters");
        if (k >= local_bytes.size()) local_bytes.resize(k + 1, 0);
        local_bytes[k] = std::max<std::uint64_t>(local_bytes[k], local->bytes);
        ++k;
      }
  }
  std::uint32_t* b = &words[layout.bounds];
  b[TM_BD_BUFFERS] = static_cast<std::uint32_t>(uploaded.bases.size());
  b[TM_BD_LOCALS] = static_cast<std::uint32_t>(local_bytes.size());
  for (std::size_t k = 0; k < uploaded.bases.size(); ++k) {
    std::uint32_t* e = b + TM_BD_TABLE + k * TM_BD_BUFFER_WORDS;
    const std::uint64_t first = uploaded.bases[k], end = first + buffers[k].bytes();
    e[0] = static_cast<std::uint32_t>(first);
    e[1] = static_cast<std::uint32_t>(first >> 32);
    e[2] = static_cast<std::uint32_t>(end);
    e[3] = static_cast<std::uint32_t>(end >> 32);
  }
  for (std::size_t k = 0; k < local_bytes.size(); ++k)
    b[TM_BD_TABLE + uploaded.bases.size() * TM_BD_BUFFER_WORDS + k] = static_cast<std::uint32_t>(local_bytes[k]);
}

// The trace buffer as the kernel must find it: the header, and for the
// access pass the bounds, bitmap and schedule initialised (the record areas
// need no initial contents); the clock pass starts from a zeroed barrier
// section (its slots say whether a warp wrote them) with its slot table after it.
TraceWords initial_trace_words(const Layout& layout, const Trace& t, const std::vector<std::uint32_t>& clock_slots,
                               bool clocks) {
  TraceWords words(clock_slots.empty() ? layout.barriers : layout.accesses, 0);
  std::copy(clock_slots.begin(), clock_slots.end(), words.begin() + static_cast<std::ptrdiff_t>(layout.slots));
  words[TM_H_VERSION] = TM_FORMAT_VERSION;
  words[TM_H_ACCESS_CAPACITY] = static_cast<std::uint32_t>(layout.access_capacity);
  words[TM_H_BARRIER_CAPACITY] = static_cast<std::uint32_t>(layout.barrier_capacity);
  words[TM_H_BLOCKS] = t.block_count();
  words[TM_H_WARP] = t.warp_width;
  words[TM_H_BITMAP] = static_cast<std::uint32_t>(layout.bitmap);
  words[TM_H_SCHEDULE] = static_cast<std::uint32_t>(layout.schedule);
  words[TM_H_BARRIERS] = static_cast<std::uint32_t>(layout.barriers);
  words[TM_H_ACCESSES] = static_cast<std::uint32_t>(layout.accesses);
  words[TM_H_CLOCK_SLOTS] = static_cast<std::uint32_t>(layout.slots);
  if (clock_slots.empty()) words[TM_H_BOUNDS] = static_cast<std::uint32_t>(layout.bounds);
  if (clock_slots.empty())
    for (std::uint32_t b : t.traced_blocks) words[layout.bitmap + b / 32] |= 1u << (b % 32);
  if (clocks && clock_slots.empty())  // the start is a minimum over warps
    for (std::uint32_t b = 0; b < t.block_count(); ++b) {
      words[layout.schedule + std::uint64_t{b} * TM_SCHEDULE_WORDS + TM_S_START] = 0xffffffffu;
      words[layout.schedule + std::uint64_t{b} * TM_SCHEDULE_WORDS + TM_S_START + 1] = 0xffffffffu;
    }
  return words;
}

// What every traced run of one recording shares.
struct TracedRun {
  Device& device;
  const std::string& id;  // the variant, for messages
  const Workload& workload;
  const UploadedBuffers& uploaded;
  const Trace& trace;
  bool clocks = false;  // DeviceInfo::kernel_clocks

  // One traced run: poisoned outputs, the trace buffer initialised, the
  // launches, then only as much of the trace read back as was written.
  TraceWords operator()(const Layout& layout, const std::vector<LaunchCmd>& launches,
                        const std::vector<std::uint32_t>& clock_slots) const {
    const DeviceInfo& info = device.info();
    const std::uint64_t bytes = layout.words * 4;
    if (info.max_allocation_bytes && bytes > info.max_allocation_bytes)
      throw InvalidRequest(id + ": the trace needs " + std::to_string(bytes) +
                           " bytes, more than the largest allocation on " + info.name + "; trace fewer blocks");
    TraceWords words = initial_trace_words(layout, trace, clock_slots, clocks);
    if (clock_slots.empty()) write_bounds(words, layout, uploaded, workload.buffers, launches);
    auto trace_buffer = device.allocate(bytes);
    device.write(*trace_buffer, words.data(), words.size() * 4);
    for (std::size_t i = 0; i < workload.buffers.size(); ++i)
      if (workload.buffers[i].role == BufferRole::Output)
        reset_output(device, workload.buffers[i], *uploaded.buffers[i]);
    std::vector<DeviceBuffer*> with_trace = uploaded.buffers;
    with_trace.push_back(trace_buffer.get());
    device.execute(launches, with_trace);
    device.read(*trace_buffer, words.data(), TM_HEADER_WORDS * 4);
    const std::uint64_t written =
        layout.accesses + std::min<std::uint64_t>(words[TM_H_ACCESS_COUNT], layout.access_capacity) * TM_ACCESS_WORDS;
    reserve_on_huge_pages(words, written);
    words.resize(written);
    device.read(*trace_buffer, words.data(), written * 4);
    return words;
  }
};

// The access pass's buffer, read back, and the layout it was run with.
struct SizedTrace {
  TraceWords words;
  Layout layout;
};

// A first guess at the room needed; when the kernel makes more records
// (loops over a row), the counts it reports size a second, exact run.
SizedTrace run_and_size(const TracedRun& run, const std::vector<LaunchCmd>& launches, const TraceOptions& options) {
  const Trace& t = run.trace;
  const std::uint32_t blocks = t.block_count();
  const std::uint64_t traced_threads = std::uint64_t{t.traced_blocks.size()} * t.threads_per_block();
  const std::uint64_t guess = std::min<std::uint64_t>(traced_threads * 16, std::uint64_t{1} << 22);
  const std::uint64_t barrier_guess = traced_threads / t.warp_width * 16 + 64;
  std::uint64_t capacity = options.capacity ? std::min(options.capacity, kMaxTraceRecords) : guess;
  TraceWords words = run(Layout(blocks, barrier_guess, capacity), launches, {});
  const std::uint64_t needed = words[TM_H_ACCESS_COUNT];
  const std::uint64_t barrier_needed = words[TM_H_BARRIER_COUNT];
  if (const std::uint64_t limit = std::min(kMaxTraceRecords, options.max_records); needed > limit)
    throw InvalidRequest(run.id + ": tracing " + std::to_string(t.traced_blocks.size()) + " blocks makes " +
                         std::to_string(needed) + " access records, more than the limit of " + std::to_string(limit) +
                         (limit < kMaxTraceRecords ? " a session file holds" : "") + "; trace fewer blocks");
  std::uint64_t barrier_capacity = barrier_guess;
  if ((!options.capacity && needed > capacity) || barrier_needed > barrier_guess) {
    if (!options.capacity) capacity = needed;
    barrier_capacity = barrier_needed;
    words = run(Layout(blocks, barrier_capacity, capacity), launches, {});
  }
  return {std::move(words), Layout(blocks, barrier_capacity, capacity)};
}

// Counters count every attempt, also past the capacity: an overflow is
// reported, never silent.
void check_trace_fits(const SizedTrace& sized, const std::string& id) {
  const std::uint64_t attempts = sized.words[TM_H_ACCESS_COUNT];
  if (attempts > sized.layout.access_capacity)
    throw InvalidRequest(id + ": trace buffer overflow: room for " + std::to_string(sized.layout.access_capacity) +
                         " access records, the kernel made " + std::to_string(attempts) +
                         "; raise the capacity or trace fewer blocks");
  if (sized.words[TM_H_BARRIER_COUNT] > sized.layout.barrier_capacity)
    throw DeviceError(id + ": the traced run made " + std::to_string(sized.words[TM_H_BARRIER_COUNT]) +
                      " barrier records, the " + "first run " + std::to_string(sized.layout.barrier_capacity));
}

// 1 for each traced block of the grid.
std::vector<std::uint8_t> traced_bitmap(const Trace& t) {
  std::vector<std::uint8_t> traced_bit(t.block_count(), 0);
  for (std::uint32_t b : t.traced_blocks) traced_bit[b] = 1;
  return traced_bit;
}

// Why an access record cannot be decoded.
enum class BadAccess { None, NotTraced, NoBuffer };

// What an access record is checked against: the launch's traced blocks and
// threads, and the buffers a global address may fall in.
struct AccessBounds {
  const std::vector<std::uint8_t>& traced_bit;
  std::uint32_t threads;
  const std::vector<std::uint64_t>& bases;  // each buffer's device address
  const std::vector<HostBuffer>& buffers;   // and its size
};

std::uint64_t access_address(const std::uint32_t* record) {
  return std::uint64_t{record[TM_A_ADDRESS_LO]} | (std::uint64_t{record[TM_A_ADDRESS_HI] & TM_A_ADDRESS_HI_MASK} << 32);
}

BadAccess decode_access(const std::uint32_t* r, const AccessBounds& bounds, Access& a) {
  const std::uint32_t flags = r[TM_A_ADDRESS_HI] >> 24;
  const std::uint64_t address = access_address(r);
  a = Access{};
  a.block = r[TM_A_BLOCK];
  a.thread = static_cast<std::uint16_t>(r[TM_A_THREAD_LINE] & 0xffffu);
  a.line = static_cast<std::uint16_t>(r[TM_A_THREAD_LINE] >> 16);
  a.store = flags & TM_F_STORE;
  a.space = (flags & TM_F_SHARED) ? Space::Shared : Space::Global;
  a.size = static_cast<std::uint8_t>(1u << ((flags >> TM_F_SIZE_SHIFT) & TM_F_SIZE_MASK));
  const std::uint32_t op = (r[TM_A_ADDRESS_HI] >> TM_A_ATOM_SHIFT) & TM_ATOM_MASK;
  a.atomic = op < kAtomicOps ? static_cast<AtomicOp>(op) : AtomicOp::None;
  a.reduction = a.atomic != AtomicOp::None && (flags & TM_F_REDUCTION);
  if (a.block >= bounds.traced_bit.size() || !bounds.traced_bit[a.block] || a.thread >= bounds.threads)
    return BadAccess::NotTraced;
  if (a.space == Space::Shared) {
    a.offset = address;
    return (flags & TM_F_OUTSIDE) ? BadAccess::NoBuffer : BadAccess::None;
  }
  for (std::size_t k = 0; k < bounds.bases.size(); ++k)
    if (address >= bounds.bases[k] && address + a.size <= bounds.bases[k] + bounds.buffers[k].bytes()) {
      a.buffer = static_cast<std::uint8_t>(k);
      a.offset = address - bounds.bases[k];
      return BadAccess::None;
    }
  return BadAccess::NoBuffer;
}

// A global access in no buffer, placed against the buffer nearest its
// address (the array it ran off, as a rule).
StrayAccess stray_access(const std::uint32_t* r, const AccessBounds& bounds, const Access& decoded) {
  const std::uint64_t address = access_address(r);
  StrayAccess s;
  s.access = decoded;
  if (decoded.space == Space::Shared) {  // outside every shared array: its offset, as the 56 bits recorded it
    s.access.offset = 0;
    s.offset = static_cast<std::int64_t>(address << 8) >> 8;
    return s;
  }
  std::uint64_t best = UINT64_MAX;
  for (std::size_t k = 0; k < bounds.bases.size(); ++k) {
    const std::uint64_t begin = bounds.bases[k], end = begin + bounds.buffers[k].bytes();
    const std::uint64_t distance = address < begin                ? begin - address
                                   : address + decoded.size > end ? address + decoded.size - end
                                                                  : 0;
    if (distance < best) {
      best = distance;
      s.access.buffer = static_cast<std::uint8_t>(k);
      s.offset = static_cast<std::int64_t>(address - begin);
    }
  }
  return s;
}

// The slots of the stray accesses, ascending, and the strays themselves,
// taken out of t.accesses: the records of every part that found some.
struct Strays {
  std::vector<std::uint64_t> slots;
  std::vector<StrayAccess> accesses;
  // Trace::accesses made before slot `slot`: the slots less the strays among them.
  std::uint64_t kept_before(std::uint64_t slot) const {
    return slot - static_cast<std::uint64_t>(std::lower_bound(slots.begin(), slots.end(), slot) - slots.begin());
  }
};

// Removes the stray accesses' places from t.accesses (they hold no buffer
// offset) and gives each stray its position among the accesses kept.
void set_strays_apart(Trace& t, Strays& strays) {
  if (strays.slots.empty()) return;
  std::uint64_t kept = 0, next = 0;
  for (std::uint64_t i = 0; i < t.accesses.size(); ++i) {
    if (next < strays.slots.size() && strays.slots[next] == i) {
      strays.accesses[next++].position = static_cast<std::uint32_t>(kept);
      continue;
    }
    t.accesses[kept++] = t.accesses[i];
  }
  t.accesses.resize(kept);
  t.strays = strays.accesses;
}

// The access records into t.accesses, over the host's cores. Every record
// is checked against the launch: one of a block or thread not traced means
// the instrumentation is wrong, and the trace is refused, naming the first
// such record. A global access in no buffer is the kernel's own doing (an
// index past the end): it goes to t.strays, a problem the analysis reports
// (kernels/analysis/problems.h). Returns the sites' keys (site_key) the records
// name, and the strays' slots.
std::pair<SiteKeySet, Strays> decode_accesses(Trace& t, const SizedTrace& sized, const UploadedBuffers& uploaded,
                                              const Workload& w, const std::vector<std::uint8_t>& traced_bit,
                                              const std::string& id) {
  const AccessBounds bounds{traced_bit, t.threads_per_block(), uploaded.bases, w.buffers};
  t.runtime_accesses = {sized.words[TM_H_RUNTIME_LD_REQUESTS], sized.words[TM_H_RUNTIME_LD_SECTORS],
                        sized.words[TM_H_RUNTIME_ST_REQUESTS], sized.words[TM_H_RUNTIME_ST_SECTORS]};
  const std::uint64_t attempts = sized.words[TM_H_ACCESS_COUNT];
  auto record = [&](std::uint64_t i) { return &sized.words[sized.layout.accesses + i * TM_ACCESS_WORDS]; };
  reserve_on_huge_pages(t.accesses, attempts);
  t.accesses.resize(attempts);
  const std::uint64_t parts = parallel_parts(attempts);
  std::vector<std::uint64_t> first_bad(parts, attempts);
  std::vector<SiteKeySet> keys_seen(parts);
  std::vector<Strays> strays_of(parts);
  parallel_each(parts, parts, [&](std::uint64_t, std::uint64_t part) {
    const std::uint64_t end = attempts * (part + 1) / parts;
    for (std::uint64_t i = attempts * part / parts; i < end; ++i) {
      Access& a = t.accesses[i];
      const BadAccess bad = decode_access(record(i), bounds, a);
      if (bad == BadAccess::NotTraced) {
        first_bad[part] = i;
        break;
      }
      if (bad == BadAccess::NoBuffer) {
        strays_of[part].slots.push_back(i);
        strays_of[part].accesses.push_back(stray_access(record(i), bounds, a));
        continue;
      }
      keys_seen[part].add(site_key(a));
    }
  });
  if (const auto bad = std::min_element(first_bad.begin(), first_bad.end());
      bad != first_bad.end() && *bad < attempts) {
    Access a;
    decode_access(record(*bad), bounds, a);
    throw DeviceError(id + ": trace record " + std::to_string(*bad) + " names block " + std::to_string(a.block) +
                      ", thread " + std::to_string(a.thread) + ", which were not traced");
  }
  Strays strays;
  for (std::size_t part = 0; part < parts; ++part) {
    if (part > 0) keys_seen[0].merge(keys_seen[part]);
    strays.slots.insert(strays.slots.end(), strays_of[part].slots.begin(), strays_of[part].slots.end());
    strays.accesses.insert(strays.accesses.end(), strays_of[part].accesses.begin(), strays_of[part].accesses.end());
  }
  set_strays_apart(t, strays);
  return {std::move(keys_seen[0]), std::move(strays)};
}

// The barrier records; each one's access mark (the access counter it read
// once released) becomes an index into t.accesses, past the strays.
void decode_barriers(Trace& t, const SizedTrace& sized, const std::vector<std::uint8_t>& traced_bit,
                     const Strays& strays, const std::string& id) {
  const TraceWords& words = sized.words;
  for (std::uint64_t i = 0; i < words[TM_H_BARRIER_COUNT]; ++i) {
    const std::uint64_t at = sized.layout.barriers + i * TM_BARRIER_WORDS;
    BarrierEvent e;
    e.block = words[at + TM_B_BLOCK];
    e.warp = static_cast<std::uint16_t>(words[at + TM_B_WARP_LINE] & 0xffffu);
    e.line = static_cast<std::uint16_t>(words[at + TM_B_WARP_LINE] >> 16);
    e.arrival_rank = words[at + TM_B_ARRIVAL_RANK];
    e.seen_arrivals = words[at + TM_B_RELEASE_RANK];
    e.arrival = word64(words, at + TM_B_ARRIVAL);
    e.release = word64(words, at + TM_B_RELEASE);
    e.accesses_before = static_cast<std::uint32_t>(
        strays.kept_before(std::min<std::uint64_t>(words[at + TM_B_ACCESSES], words[TM_H_ACCESS_COUNT])));
    if (e.block >= t.block_count() || !traced_bit[e.block])
      throw DeviceError(id + ": barrier record " + std::to_string(i) + " names block " + std::to_string(e.block) +
                        ", which was not traced");
    t.barriers.push_back(e);
  }
}

// The sites, by line, then global before shared, then load, store, atomic:
// the keys the records named, each with its source line as the learner
// reads it and what the compiler merged there.
void name_sites(Trace& t, const SiteKeySet& keys_seen, const std::vector<Device::MergedAccess>& merges, bool learner,
                const std::string& learner_text) {
  for (const auto& [key, line, space, store, atomic] : keys_seen.sites()) {
    AccessSite site{line, space, store, learner ? text_line(learner_text, line) : source_line(t.source_file, line)};
    site.atomic = atomic;
    // What the compiler merged at this line: the machine's wide access,
    // made of `merged` of the source's.
    for (const Device::MergedAccess& m : merges)
      if (!atomic && m.line == line && m.store == store && (space == Space::Shared ? m.shared : m.global))
        site.merged = static_cast<std::uint8_t>(std::clamp(m.merged, 1, 16));
    t.sites.push_back(std::move(site));
  }
}

// The clock pass (CUDA), run with the access pass's buffers. A built-in
// kernel's output must verify in it as in the access pass (else the clock
// stamps broke it). A kernel brought by a learner or a pack may be wrong, or
// race, and differ run to run: its trace is what shows why, so it is kept.
void run_and_verify_clock_pass(Trace& t, const TracedRun& run, TracePlan& plan, PhaseClock& phase,
                               bool access_pass_verified) {
  int clock_runs = 0;
  run_clock_pass(
      t,
      [&](const Layout& l, const std::vector<std::uint32_t>& slots) {
        auto words = run(l, plan.clock_launches, slots);
        phase(++clock_runs == 1 ? "clock pass, first run" : "clock pass, run read back");
        return words;
      },
      [&] {
        const double mhz = measure_sm_clock_mhz(run.device);
        phase("SM clock");
        return mhz;
      });
  phase("clock pass decoded");
  read_outputs(run.device, plan.workload, run.uploaded);
  const Verification clocked = plan.workload.verify(plan.workload.buffers);
  if (!plan.learner && access_pass_verified && !clocked.verified)
    throw DeviceError(run.id + ": the clock pass's output does not verify (" + std::to_string(clocked.mismatches) +
                      " of " + std::to_string(clocked.checked) + " elements differ)");
  phase("clock pass verified");
}

}  // namespace

Recording record_trace(Device& device, const Variant& variant, const Params& params, const TraceOptions& options) {
  Recording rec;
  const auto started = Clock::now();
  PhaseClock phase(rec.phases_ms);
  Trace& t = rec.trace;
  const Outcome outcome = run_capturing_errors(
      [&] {
        TracePlan plan = plan_trace(device, variant, params, options);
        describe_traced_launch(t, plan, variant, device.info(), options);
        t.traced_blocks = choose_traced_blocks(t, options, variant.id);
        phase("set-up");

        const UploadedBuffers uploaded = upload_buffers(device, plan.workload, plan.traced, t);
        phase("inputs made and uploaded");

        const TracedRun traced_run{device, variant.id, plan.workload, uploaded, t, plan.clocks};
        const SizedTrace sized = run_and_size(traced_run, plan.access_launches, options);
        phase("traced run and read back");
        check_trace_fits(sized, variant.id);

        const std::vector<std::uint8_t> traced_bit = traced_bitmap(t);
        const auto [keys_seen, strays] = decode_accesses(t, sized, uploaded, plan.workload, traced_bit, variant.id);
        decode_barriers(t, sized, traced_bit, strays, variant.id);
        t.schedule = decode_schedule(sized.words, sized.layout, plan.clocks);
        name_sites(t, keys_seen, device.merged_accesses(plan.traced), plan.learner, options.source_text);
        phase("decoded");

        read_outputs(device, plan.workload, uploaded);
        phase("outputs read back");
        rec.verification = plan.workload.verify(plan.workload.buffers);
        phase("verified");
        // An access outside the launch's memory, in any block: the access pass
        // skipped it, the clock pass (which checks nothing) would make it. The
        // barrier times and schedule are then the access pass's own.
        if (plan.clock_pass && sized.words[TM_H_OUTSIDE] > 0) {
          plan.clock_pass = false;
          t.timing_pass = kTracedPassName;
        }
        if (plan.clock_pass) run_and_verify_clock_pass(t, traced_run, plan, phase, rec.verification.verified);
      },
      variant.id + ": recording the trace");
  rec.status = outcome.status;
  rec.error = outcome.error;
  rec.record_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  return rec;
}

}  // namespace threadmap

namespace threadmap {

namespace {

// Each phase's milliseconds added to the same phase's earlier batches'.
void add_batch_phases(Phases& total, const Phases& batch) {
  for (const auto& phase : batch) {
    const auto same = std::find_if(total.begin(), total.end(), [&](const auto& p) { return p.first == phase.first; });
    if (same == total.end()) total.push_back(phase);
    else same->second += phase.second;
  }
}

// The last run's outputs, verified with as little held at once as can be:
// the device's inputs freed, each output read back and its device buffer
// freed, then the inputs made again (materialize makes the same values from
// the same seed), so the check sees the inputs the kernel was given even
// where it wrote over its own.
Verification verify_last_run(Device& device, Workload& w, UploadedBuffers& up) {
  for (std::size_t i = 0; i < w.buffers.size(); ++i)
    if (w.buffers[i].role == BufferRole::Input) up.owned[i].reset();
  for (std::size_t i = 0; i < w.buffers.size(); ++i) {
    HostBuffer& b = w.buffers[i];
    if (b.role != BufferRole::Output) continue;
    b.data.resize(b.bytes());
    device.read(*up.buffers[i], b.data.data(), b.data.size());
    up.owned[i].reset();
  }
  for (HostBuffer& b : w.buffers)
    if (b.role == BufferRole::Input) materialize(b);
  return w.verify(w.buffers);
}

// On CUDA the workload's buffers are in the GPU's memory and leave the
// host's room as it is; an OpenCL device may be the host's CPU (PoCL), whose
// buffers are host memory.
std::uint64_t default_batch_records(const Workload& w, const DeviceInfo& device) {
  std::uint64_t buffers = 0;
  if (device.memory_is_host)
    for (const HostBuffer& b : w.buffers) buffers += b.bytes();
  const std::uint64_t left = kBatchMemory > buffers ? kBatchMemory - buffers : 0;
  return std::clamp(left / kBatchBytesPerRecord, kMinBatchRecords, kMaxBatchRecords);
}

// How many blocks the next batch takes: as many as fit the batch's room at
// the most records a block has made in any batch so far (before the first,
// 16 a thread: record_trace's first guess), and room for their barrier
// arrivals likewise.
class BatchSizer {
 public:
  BatchSizer(std::uint64_t records, const Trace& t)
      : records_(records),
        access_per_block_(std::max<std::uint64_t>(1, std::uint64_t{t.threads_per_block()} * 16)),
        barrier_per_block_(std::uint64_t{t.threads_per_block()} / std::max<std::uint32_t>(1, t.warp_width) * 16) {}

  std::size_t blocks(std::size_t left) const {
    return static_cast<std::size_t>(std::clamp<std::uint64_t>(records_ / access_per_block_, 1, left));
  }
  std::uint64_t barrier_room(std::size_t blocks) const { return barrier_per_block_ * blocks + 64; }
  // What `blocks` blocks made: access records (attempts, also past the
  // room) and barrier records.
  void saw(std::size_t blocks, std::uint64_t accesses, std::uint64_t barriers) {
    const auto per_block = [&](std::uint64_t n) { return std::max<std::uint64_t>(1, (n + blocks - 1) / blocks); };
    access_per_block_ = measured_ ? std::max(access_per_block_, per_block(accesses)) : per_block(accesses);
    barrier_per_block_ = measured_ ? std::max(barrier_per_block_, per_block(barriers)) : per_block(barriers);
    measured_ = true;
  }

 private:
  std::uint64_t records_;
  std::uint64_t access_per_block_;
  std::uint64_t barrier_per_block_;
  bool measured_ = false;
};

// One batch's access pass, with room for `records` access records; run
// again where its barrier arrivals did not fit the room guessed for them.
// Empty where its access records did not fit: the batch is too large.
std::optional<SizedTrace> run_batch_access(const TracedRun& run, const std::vector<LaunchCmd>& launches,
                                           std::uint64_t records, BatchSizer& sizer, std::size_t& runs) {
  const Trace& t = run.trace;
  const std::size_t blocks = t.traced_blocks.size();
  std::uint64_t barrier_room = sizer.barrier_room(blocks);
  TraceWords words = run(Layout(t.block_count(), barrier_room, records), launches, {});
  ++runs;
  const std::uint64_t accesses = words[TM_H_ACCESS_COUNT], barriers = words[TM_H_BARRIER_COUNT];
  sizer.saw(blocks, accesses, barriers);
  if (accesses > records) return std::nullopt;
  if (barriers > barrier_room) {
    barrier_room = barriers;
    words = run(Layout(t.block_count(), barrier_room, records), launches, {});
    ++runs;
  }
  return SizedTrace{std::move(words), Layout(t.block_count(), barrier_room, records)};
}

// The trace made ready for the next batch: its blocks, and no records.
void start_batch(Trace& t, const std::vector<std::uint32_t>& blocks, std::size_t first, std::size_t count) {
  t.traced_blocks.assign(blocks.begin() + static_cast<std::ptrdiff_t>(first),
                         blocks.begin() + static_cast<std::ptrdiff_t>(first + count));
  t.accesses.clear();
  t.barriers.clear();
  t.sites.clear();
  t.barrier_pass_timings.clear();
  t.barrier_timings.clear();
}

// What every batch of one whole-grid trace shares.
struct BatchRunner {
  Device& device;
  const Variant& variant;
  const TraceOptions& options;
  const TracePlan& plan;
  const UploadedBuffers& uploaded;
  const TracedRun& run;
  const std::vector<Device::MergedAccess>& merges;
  std::uint64_t records;  // room per batch
  BatchSizer& sizer;
  BatchedRecording& rec;

  // The batch whose blocks `t` names, traced into `t`: on CUDA its clock
  // pass first, so that the last run of all is an access pass, whose output
  // verify_last_run checks. False where its records did not fit.
  bool operator()(Trace& t, PhaseClock& phase) const {
    if (plan.clock_pass) {
      run_clock_pass(
          t,
          [&](const Layout& l, const std::vector<std::uint32_t>& slots) { return run(l, plan.clock_launches, slots); },
          [&] { return measure_sm_clock_mhz(device); }, false);
      phase("clock pass");
    }
    std::optional<SizedTrace> sized = run_batch_access(run, plan.access_launches, records, sizer, rec.access_runs);
    phase("traced runs and read back");
    if (!sized) {
      if (t.traced_blocks.size() == 1)
        throw InvalidRequest(variant.id + ": block " + std::to_string(t.traced_blocks.front()) +
                             " alone makes more than a batch's " + std::to_string(records) +
                             " access records; give a batch more");
      return false;
    }
    check_trace_fits(*sized, variant.id);
    const std::vector<std::uint8_t> traced_bit = traced_bitmap(t);
    const auto [keys_seen, strays] = decode_accesses(t, *sized, uploaded, plan.workload, traced_bit, variant.id);
    decode_barriers(t, *sized, traced_bit, strays, variant.id);
    // The clock pass's schedule is the one shown (run_clock_pass); the
    // access pass's is kept beside it, as record_trace keeps it.
    (plan.clock_pass ? t.traced_schedule : t.schedule) = decode_schedule(sized->words, sized->layout, plan.clocks);
    name_sites(t, keys_seen, merges, plan.learner, options.source_text);
    rec.largest_batch = std::max<std::uint64_t>(rec.largest_batch, t.accesses.size());
    phase("decoded");
    return true;
  }
};

}  // namespace

BatchedRecording record_trace_in_batches(Device& device, const Variant& variant, const Params& params,
                                         const TraceOptions& options, std::uint64_t batch_records,
                                         const TraceBatchSink& each) {
  BatchedRecording rec;
  const auto started = Clock::now();
  PhaseClock phase(rec.phases_ms);
  const Outcome outcome = run_capturing_errors(
      [&] {
        if (batch_records > kMaxTraceRecords)
          throw InvalidRequest(variant.id + ": a batch of " + std::to_string(batch_records) +
                               " access records: give 1 to " + std::to_string(kMaxTraceRecords) +
                               ", or 0 for the default");
        TracePlan plan = plan_trace(device, variant, params, options);
        // A learner's kernel may reach outside the launch's memory, which only
        // the access pass guards against: no clock pass for it in batches.
        if (plan.learner) plan.clock_pass = false;
        if (batch_records == 0) batch_records = default_batch_records(plan.workload, device.info());
        rec.batch_records = batch_records;
        Trace t;
        describe_traced_launch(t, plan, variant, device.info(), options);
        const std::vector<std::uint32_t> blocks = choose_traced_blocks(t, options, variant.id);
        const std::vector<Device::MergedAccess> merges = device.merged_accesses(plan.traced);
        phase("set-up");
        UploadedBuffers uploaded = upload_buffers(device, plan.workload, plan.traced, t, false);
        phase("inputs made and uploaded");

        const TracedRun traced_run{device, variant.id, plan.workload, uploaded, t, plan.clocks};
        BatchSizer sizer(batch_records, t);
        const BatchRunner run_batch{device,     variant, options,       plan,  uploaded,
                                    traced_run, merges,  batch_records, sizer, rec};
        Phases batches;
        for (std::size_t next = 0; next < blocks.size();) {
          PhaseClock batch_phase(batches);
          const std::size_t count = sizer.blocks(blocks.size() - next);
          start_batch(t, blocks, next, count);
          if (!run_batch(t, batch_phase)) continue;  // the sizer now knows: fewer blocks
          each(t);
          batch_phase("analysed");
          next += count;
          ++rec.batches;
        }
        add_batch_phases(rec.phases_ms, batches);
        PhaseClock end_phase(rec.phases_ms);
        start_batch(t, {}, 0, 0);
        rec.verification = verify_last_run(device, plan.workload, uploaded);
        end_phase("outputs read back and verified");
      },
      variant.id + ": recording the trace in batches");
  rec.status = outcome.status;
  rec.error = outcome.error;
  rec.record_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  return rec;
}

}  // namespace threadmap
