// The counting rules on their own, for request shapes the lessons draw:
// conflict-free rows, broadcast, strided columns, 8-byte words, sectors.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "kernels/analysis/analysis.h"
#include "kernels/analysis/exercises.h"

namespace threadmap::analysis {
namespace {

struct Lanes {
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint16_t> lanes;
};

// 32 lanes, lane l at byte offset f(l).
template <class F>
Lanes warp(F offset_of, int count = 32) {
  Lanes w;
  for (int l = 0; l < count; ++l) {
    w.offsets.push_back(offset_of(l));
    w.lanes.push_back(static_cast<std::uint16_t>(l));
  }
  return w;
}

std::uint32_t wavefronts(const Lanes& w, std::uint32_t size) {
  return shared_wavefronts(w.offsets, w.lanes, size, DeviceModel{});
}

TEST(SharedWavefronts, FollowTheBankRule) {
  EXPECT_EQ(wavefronts(warp([](int l) { return 4 * l; }), 4), 1u) << "a row: 32 banks once";
  EXPECT_EQ(wavefronts(warp([](int) { return 64; }), 4), 1u) << "one word: broadcast";
  EXPECT_EQ(wavefronts(warp([](int l) { return 8 * l; }), 4), 2u) << "stride 2 words";
  EXPECT_EQ(wavefronts(warp([](int l) { return 128 * l; }), 4), 32u) << "a column of a 32-wide tile";
  EXPECT_EQ(wavefronts(warp([](int l) { return 132 * l; }), 4), 1u) << "a column of a 33-wide tile";
  EXPECT_EQ(wavefronts(warp([](int l) { return 4 * (l / 2); }), 4), 1u) << "pairs of lanes share words";
  EXPECT_EQ(wavefronts(warp([](int l) { return 8 * l; }), 8), 2u) << "8-byte row: two halves of 128 bytes";
  EXPECT_EQ(wavefronts(warp([](int l) { return 256 * l; }), 8), 32u) << "8-byte column of a 32-wide tile";
  EXPECT_EQ(wavefronts(warp([](int l) { return 4 * l; }, 16), 4), 1u) << "half a warp active";
  EXPECT_EQ(wavefronts(warp([](int l) { return 16 * l; }), 16), 4u) << "16-byte row: 256 bytes a half warp";
  EXPECT_EQ(wavefronts(warp([](int) { return 64; }), 16), 2u) << "one 16-byte word: once per half warp";
  EXPECT_EQ(wavefronts(warp([](int l) { return 64 * (l / 16); }), 16), 2u) << "matmul_tiled's A tile, TILE 16";
}

TEST(GlobalSectors, CountDistinct32ByteSectors) {
  const DeviceModel m;
  auto sectors = [&](const Lanes& w, std::uint32_t size) { return global_sectors(w.offsets, size, m); };
  EXPECT_EQ(sectors(warp([](int l) { return 4 * l; }), 4), 4u);
  EXPECT_EQ(sectors(warp([](int l) { return 4 * l + 4; }), 4), 5u) << "misaligned by one int";
  EXPECT_EQ(sectors(warp([](int l) { return 8192 * l; }), 4), 32u) << "one row each";
  EXPECT_EQ(sectors(warp([](int l) { return 8 * l; }), 8), 8u);
  EXPECT_EQ(sectors(warp([](int) { return 0; }), 4), 1u);
  EXPECT_EQ(sectors(warp([](int l) { return 30 + 0 * l; }), 4), 2u) << "an int across a sector edge";
}

// Atomics, against what Nsight Compute counted for one warp on the H200
// (bench/gpu/atomics_probe.cu; the kernel's name in each message).
TEST(SharedWavefronts, OfAtomicsFollowTheirMachineForm) {
  const DeviceModel m;
  auto wf = [&](const Lanes& w, AtomicOp op, bool reduction = false, std::uint32_t size = 4) {
    return shared_atomic_wavefronts(w.offsets, w.lanes, size, op, reduction, m);
  };
  // A count (add of 1, unused: ATOMS.POPC.INC): distinct words of the busiest bank.
  EXPECT_EQ(wf(warp([](int) { return 0; }), AtomicOp::AddOne, true), 1u) << "s02_word0";
  EXPECT_EQ(wf(warp([](int l) { return 128 * (l % 2); }), AtomicOp::AddOne, true), 2u) << "s09";
  EXPECT_EQ(wf(warp([](int l) { return 128 * l; }), AtomicOp::AddOne, true), 32u) << "s08_word_32lane";
  // Any other form: lanes of the busiest bank, same-word lanes included.
  EXPECT_EQ(wf(warp([](int l) { return 4 * (l / 8); }), AtomicOp::Add, true), 8u) << "sx4";
  EXPECT_EQ(wf(warp([](int l) { return 128 * (l % 2); }), AtomicOp::Add, true), 32u) << "sy03";
  EXPECT_EQ(wf(warp([](int) { return 0; }), AtomicOp::Exch), 32u) << "s17_exch_word0";
  EXPECT_EQ(wf(warp([](int l) { return 4 * (l / 4); }), AtomicOp::Max, true), 4u) << "s18";
  EXPECT_EQ(wf(warp([](int l) { return 4 * l; }), AtomicOp::AddOne), 1u) << "s14: a count whose value is used";
  EXPECT_EQ(wf(warp([](int l) { return 4 * l; }, 16), AtomicOp::Add, true), 1u) << "s12: 16 lanes";
  // Compare-and-swap: twice the lanes of the busiest bank.
  EXPECT_EQ(wf(warp([](int l) { return 4 * l; }), AtomicOp::Cas), 2u) << "s16";
  EXPECT_EQ(wf(warp([](int l) { return 128 * l; }), AtomicOp::Cas), 64u) << "sy08";
}

TEST(GlobalSectors, OfAtomicsPassOncePerLaneOnTheBusiestWord) {
  const DeviceModel m;
  auto sectors = [&](const Lanes& w) { return global_atomic_sectors(w.offsets, m); };
  EXPECT_EQ(sectors(warp([](int l) { return 4 * l; })), 4u) << "g01_word_lane";
  EXPECT_EQ(sectors(warp([](int) { return 0; })), 32u) << "gx1_word0_opaque";
  EXPECT_EQ(sectors(warp([](int l) { return 4 * (l / 2); })), 4u) << "g10: 2 sectors, 2 lanes a word";
  EXPECT_EQ(sectors(warp([](int l) { return 32 * l; })), 32u) << "g05_word_8lane";
  EXPECT_EQ(sectors(warp([](int l) { return l < 16 ? 0 : 4 * l; })), 18u) << "gy2: 16 on word 0, 16 in 2 sectors";
  EXPECT_EQ(sectors(warp([](int l) { return 128 * (l % 8); })), 32u) << "gy5: 8 sectors, 4 lanes a word";
}

// A block of two warps, one barrier at line 40. The access pass traced
// block 0 (order, and what each warp saw); the clock pass stamped blocks 0
// and 1 (each warp's stamps kept for the traced block 0). The figures come
// from the clock pass, joined by (block, pass, warp, line).
Trace two_warp_barriers() {
  Trace t;
  t.grid = {2, 1, 1};
  t.block = {64, 1, 1};
  t.barrier_clock = "clock64 cycles";
  t.timing_pass = kClockPassName;
  t.traced_blocks = {0};
  t.schedule.resize(2);
  // Access pass: warp 1 then warp 0 arrive; each saw both arrivals.
  t.barriers.push_back({0, 1, 40, 0, 2, 5000, 9000});
  t.barriers.push_back({0, 0, 40, 1, 2, 7000, 9100});
  // Clock pass: block 0, warp 0 last by 100 cycles, released 120 after;
  // block 1, warp 1 last by 300, released 80 after.
  t.barrier_timings.push_back({0, 0, 40, 0, 1100, 1220});
  t.barrier_timings.push_back({0, 1, 40, 0, 1000, 1230});
  t.barrier_pass_timings.push_back({0, 0, 40, 0, 100, 120, true});
  t.barrier_pass_timings.push_back({1, 0, 40, 1, 300, 80, true});
  return t;
}

// A trace of the size the analysis splits over the host's cores: threads
// that each walk a row (matadd.rows' mapping), blocks interleaved in device
// order. Every request is whole, measured, in device order, and holds only
// its own warp's lanes at its own site.
TEST(Requests, OfALargeTraceAreEachWarpsOwnInDeviceOrder) {
  Trace t;
  t.grid = {4, 1, 1};
  t.block = {64, 1, 1};
  t.traced_blocks = {0, 2, 3};
  t.buffers.push_back({"a", "input", ElementType::Int, 1u << 30});
  constexpr std::uint32_t kRow = 1024, kSteps = 400;
  for (std::uint32_t j = 0; j < kSteps; ++j)
    for (std::uint32_t warp = 0; warp < 2; ++warp)
      for (std::uint32_t block : {3u, 0u, 2u}) {
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
          const std::uint32_t thread = warp * 32 + lane;
          Access load;
          load.block = block;
          load.thread = static_cast<std::uint16_t>(thread);
          load.line = 7;
          load.size = 4;
          load.offset = ((std::uint64_t{block} * 64 + thread) * kRow + j) * 4;
          t.accesses.push_back(load);
        }
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
          Access store;
          store.block = block;
          store.thread = static_cast<std::uint16_t>(warp * 32 + lane);
          store.line = 9;
          store.size = 4;
          store.store = true;
          store.space = Space::Shared;
          store.offset = store.thread * 4;
          t.accesses.push_back(store);
        }
      }
  ASSERT_GT(t.accesses.size(), std::size_t{1} << 17);
  const Analysis a = analyze(t, DeviceModel{});
  ASSERT_EQ(a.requests.size(), std::size_t{kSteps} * 2 * 3 * 2);
  EXPECT_EQ(a.totals.global_ld_requests, std::uint64_t{kSteps} * 6);
  EXPECT_EQ(a.totals.global_ld_sectors, std::uint64_t{kSteps} * 6 * 32);
  EXPECT_EQ(a.totals.global_ld_ideal_sectors, std::uint64_t{kSteps} * 6 * 4);
  EXPECT_EQ(a.totals.shared_st_wavefronts, std::uint64_t{kSteps} * 6);
  EXPECT_EQ(a.totals.shared_st_conflicts(), 0u);
  ASSERT_EQ(a.blocks.size(), 3u);
  for (const BlockTotals& b : a.blocks) EXPECT_EQ(b.counters.global_ld_sectors, std::uint64_t{kSteps} * 2 * 32);
  ASSERT_EQ(a.sites.size(), 2u);
  EXPECT_EQ(a.sites[0].line, 7);
  EXPECT_EQ(a.sites[1].line, 9);
  for (std::size_t k = 0; k < a.requests.size(); ++k) {
    const Request& r = a.requests[k];
    if (k > 0) ASSERT_LT(a.requests[k - 1].first_access, r.first_access);
    ASSERT_EQ(r.lanes, 32);
    // Request k is the k-th warp-instruction of the trace: 64 records each.
    ASSERT_EQ(r.first_access, k * 32);
    std::uint16_t lane = 0;
    for (std::uint32_t i : a.lanes_of(r)) {
      const Access& x = t.accesses[i];
      ASSERT_EQ(x.block, r.block);
      ASSERT_EQ(x.thread / 32u, r.warp);
      ASSERT_EQ(x.thread % 32u, lane++);
      ASSERT_EQ(x.line, r.line);
    }
    ASSERT_EQ(r.instance, k / 12);
  }
}

TEST(BarrierStats, ComeFromTheClockPassJoinedWithTheAccessPass) {
  const Trace t = two_warp_barriers();
  const Analysis a = analyze(t, DeviceModel{});
  ASSERT_EQ(a.barriers.size(), 1u) << "the traced block's pass";
  const BarrierPass& p = a.barriers[0];
  EXPECT_TRUE(p.from_clock_pass);
  EXPECT_EQ(p.spread(), 100u);
  EXPECT_EQ(p.release_latency(), 120u);
  EXPECT_EQ(p.slowest_warp, 0u) << "by the clock pass, not the access pass's order";
  EXPECT_TRUE(p.release_after_arrivals);
  EXPECT_TRUE(a.barriers_consistent);

  const BarrierStats& st = a.barrier_stats;
  EXPECT_EQ(st.from, kClockPassName);
  EXPECT_EQ(st.passes, 2u);
  EXPECT_EQ(st.blocks, 2u);
  EXPECT_EQ(st.spreads, (std::vector<std::uint64_t>{100, 300}));
  EXPECT_EQ(st.release_latencies, (std::vector<std::uint64_t>{80, 120}));
  EXPECT_EQ(BarrierStats::median(st.spreads), 100u) << "the lower median";
  EXPECT_EQ(st.most_often_last_share(), 0.5);
}

TEST(BarrierStats, EveryPassMustReleaseAfterItsLastArrival) {
  Trace early = two_warp_barriers();
  early.barrier_pass_timings[1].release_after_arrivals = false;  // block 1, not traced
  EXPECT_FALSE(analyze(early, DeviceModel{}).barriers_consistent) << "an untraced block's pass counts too";

  Trace missing = two_warp_barriers();
  missing.barrier_timings.erase(missing.barrier_timings.begin());
  const Analysis a = analyze(missing, DeviceModel{});
  EXPECT_FALSE(a.barriers[0].release_after_arrivals) << "a warp of the block has no stamps";

  Trace other_line = two_warp_barriers();
  other_line.barrier_timings[0].line = 41;
  EXPECT_FALSE(analyze(other_line, DeviceModel{}).barriers_consistent) << "the two runs must pass the same barrier";

  Trace access_only = two_warp_barriers();
  access_only.barrier_timings.clear();
  access_only.barrier_pass_timings.clear();
  access_only.timing_pass = kTracedPassName;
  const Analysis old = analyze(access_only, DeviceModel{});
  EXPECT_EQ(old.barrier_stats.from, kTracedPassName);
  EXPECT_EQ(old.barriers[0].spread(), 2000u) << "older recordings: the access pass's own stamps";
  EXPECT_EQ(old.barriers[0].release_latency(), 2000u);
}

}  // namespace
}  // namespace threadmap::analysis

// The places compilers name in their messages, as the editor marks them.
TEST(CompilerMessages, NameTheLineInClangAndNvrtcForms) {
  const auto m = threadmap::compiler_messages(
      "learner.cl does not compile for opencl:0 (cpu):\n"
      "learner.cl:5:3: error: use of undeclared identifier 'tiel'\n"
      "  tiel[threadIdx.y] = 1;\n"
      "  ^\n"
      "learner.cl:9: warning: unused variable 'x'\r\n"
      "kernel.cu(12): error: identifier \"tile\" is undefined\n"
      "<stdin>:2:1: fatal error: 'missing.h' file not found\n"
      "C:/work/a.cl:7:1: note: see here\n"
      "2 errors generated.\n"
      "error: no place named\n"
      "error: b.cl:48:14: use of undeclared identifier 'tiel'; did you mean 'tile'?\n");
  ASSERT_EQ(m.size(), 6u);
  EXPECT_EQ(m[0].file, "learner.cl");
  EXPECT_EQ(m[0].line, 5);
  EXPECT_EQ(m[0].column, 3);
  EXPECT_EQ(m[0].severity, "error");
  EXPECT_EQ(m[0].text, "use of undeclared identifier 'tiel'");
  EXPECT_EQ(m[1].line, 9);
  EXPECT_EQ(m[1].column, 0);
  EXPECT_EQ(m[1].severity, "warning");
  EXPECT_EQ(m[1].text, "unused variable 'x'");
  EXPECT_EQ(m[2].file, "kernel.cu");
  EXPECT_EQ(m[2].line, 12);
  EXPECT_EQ(m[2].text, "identifier \"tile\" is undefined");
  EXPECT_EQ(m[3].severity, "error");  // a fatal error is an error
  EXPECT_EQ(m[4].file, "C:/work/a.cl");
  EXPECT_EQ(m[4].severity, "note");
  EXPECT_EQ(m[5].file, "b.cl");  // PoCL puts the severity first
  EXPECT_EQ(m[5].line, 48);
  EXPECT_EQ(m[5].column, 14);
  EXPECT_EQ(m[5].text, "use of undeclared identifier 'tiel'; did you mean 'tile'?");
}

TEST(CompilerMessages, AnyBytesParseWithoutHarm) {
  std::mt19937 random(7);
  const std::string alphabet = "a:(0123456789) error:warning\n\r\t\xff";
  for (int round = 0; round < 2000; ++round) {
    std::string text(random() % 120, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    for (const auto& m : threadmap::compiler_messages(text)) {
      EXPECT_GT(m.line, 0);
      EXPECT_FALSE(m.severity.empty());
    }
  }
}

// The grader's own conditions, on a hand-made trace (the shape of one, not a
// recording): an input the trace never loads fails the goal (a read in a form
// the hooks miss would otherwise pass unmeasured), and so does a problem the
// trace shows; the shared loads of a word another thread stored are counted.
TEST(Grading, AnUntracedInputAndAProblemEachFailTheGoal) {
  threadmap::Exercise e;
  e.goal.push_back({"verified"});
  threadmap::Trace t;
  t.grid = {1, 1, 1};
  t.block = {2, 1, 1};
  t.traced_blocks = {0};
  t.schedule.resize(1);
  t.buffers.push_back({"a", "input", threadmap::ElementType::Int, 8, 0, 0});
  t.buffers.push_back({"out", "output", threadmap::ElementType::Int, 8, 0, 1});
  const auto access = [&](threadmap::Space space, bool store, std::uint16_t thread, std::uint64_t offset,
                          std::uint8_t buffer) {
    threadmap::Access x;
    x.space = space;
    x.store = store;
    x.thread = thread;
    x.offset = offset;
    x.buffer = buffer;
    x.size = 4;
    x.line = 3;
    t.accesses.push_back(x);
  };
  // Each thread stores its word into shared memory and reads its neighbour's,
  // then stores the output: no load of `a`.
  access(threadmap::Space::Shared, true, 0, 0, 0);
  access(threadmap::Space::Shared, true, 1, 4, 0);
  // The one warp's barrier, released after the two stores.
  t.barriers.push_back({0, 0, 2, 0, 1, 0, 0, 2});
  access(threadmap::Space::Shared, false, 0, 4, 0);
  access(threadmap::Space::Shared, false, 1, 4, 0);  // its own word: no exchange
  access(threadmap::Space::Global, true, 0, 0, 1);
  access(threadmap::Space::Global, true, 1, 4, 1);
  const auto a = threadmap::analysis::analyze(t, threadmap::analysis::model_for(t));
  EXPECT_EQ(a.totals.shared_ld_lanes, 2u);
  EXPECT_EQ(a.totals.shared_ld_exchanged, 1u);
  const threadmap::GoalCheck untraced = threadmap::check_goal(e, true, a, t);
  EXPECT_FALSE(untraced.met);
  ASSERT_EQ(untraced.untraced.size(), 1u);
  EXPECT_NE(untraced.untraced[0].find("the input 'a' and its trace shows no load of it"), std::string::npos);
  EXPECT_TRUE(untraced.problems.empty());

  access(threadmap::Space::Global, false, 0, 0, 0);
  const auto read = threadmap::analysis::analyze(t, threadmap::analysis::model_for(t));
  EXPECT_TRUE(threadmap::check_goal(e, true, read, t).met);
  // Thread 1 writes again the word thread 0 read after the barrier, with no
  // barrier between: a race.
  access(threadmap::Space::Shared, true, 1, 4, 0);
  const auto raced = threadmap::analysis::analyze(t, threadmap::analysis::model_for(t));
  const threadmap::GoalCheck race = threadmap::check_goal(e, true, raced, t);
  EXPECT_FALSE(race.met);
  ASSERT_FALSE(race.problems.empty());
  EXPECT_EQ(race.problems[0].kind, "write-after-read");
}

// A prediction of wavefronts per shared request against the recorded ones:
// the distribution, and the first request in playback order that differs.
TEST(Predictions, FindTheFirstRequestUnlikeThePrediction) {
  threadmap::analysis::Analysis a;
  auto request = [&](threadmap::Space space, std::uint16_t value) {
    threadmap::analysis::Request r;
    r.space = space;
    r.lanes = 32;
    (space == threadmap::Space::Shared ? r.wavefronts : r.sectors) = value;
    a.requests.push_back(r);
  };
  request(threadmap::Space::Global, 4);
  request(threadmap::Space::Shared, 1);   // the row-wise store
  request(threadmap::Space::Shared, 32);  // the column read
  request(threadmap::Space::Global, 4);
  const auto shared = threadmap::per_request(a, threadmap::Space::Shared);
  EXPECT_EQ(shared.requests, 2u);
  EXPECT_EQ(shared.requests_by_value.at(1), 1u);
  EXPECT_EQ(shared.requests_by_value.at(32), 1u);
  EXPECT_DOUBLE_EQ(shared.mean, 16.5);
  EXPECT_EQ(threadmap::first_request_unlike(a, threadmap::Space::Shared, 1), std::optional<std::size_t>(2));
  EXPECT_EQ(threadmap::first_request_unlike(a, threadmap::Space::Shared, 32), std::optional<std::size_t>(1));
  EXPECT_FALSE(threadmap::first_request_unlike(a, threadmap::Space::Global, 4));
  EXPECT_EQ(threadmap::first_request_unlike(a, threadmap::Space::Global, 1), std::optional<std::size_t>(0));
}
