// Traces recorded by the real kernels on every backend present, analysed, and
// held against the counts the lessons work out by hand: per warp-level
// request, shared wavefronts (e.g. setRowReadCol's column read: 32; padded: 1)
// and global sectors (the naive transpose's strided read: one per row).
// A missing backend skips with its reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "kernels/pack/catalog.h"
#include "kernels/core/learner_source.h"
#include "kernels/engine/opencl/cl_instrument.h"
#include "kernels/core/sources.h"
#include "kernels/engine/record.h"
#include "tests/test_devices.h"
#include "kernels/analysis/analysis.h"

namespace threadmap {
namespace {

// What one access site does per request: shared wavefronts or global sectors.
struct SiteExpectation {
  Space space;
  bool store;
  double per_request;
};

struct Case {
  std::string label;
  std::string kernel;
  std::vector<std::pair<std::string, std::string>> sets;
  std::vector<SiteExpectation> sites;
  std::uint64_t accesses;  // thread-level loads and stores in the whole grid
};

constexpr Space G = Space::Global;
constexpr Space S = Space::Shared;
constexpr bool LD = false;
constexpr bool ST = true;

std::vector<Case> cases() {
  const std::vector<std::pair<std::string, std::string>> square = {{"blocks", "4"}, {"type", "int"}};
  const std::vector<std::pair<std::string, std::string>> rect = {{"blocks", "4"}, {"type", "int"}};
  auto with = [](std::vector<std::pair<std::string, std::string>> base,
                 std::vector<std::pair<std::string, std::string>> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
  };
  const std::vector<std::pair<std::string, std::string>> m256 = {{"width", "256"}, {"height", "256"}, {"type", "int"}};
  return {
      // The Spanish lesson's layouts, 32 x 32 int blocks: the global store is
      // always one row of 32 ints, 4 sectors.
      {"RowRow", "smem.setRowReadRow", square, {{S, ST, 1}, {S, LD, 1}, {G, ST, 4}}, 12288},
      {"ColCol", "smem.setColReadCol", square, {{S, ST, 32}, {S, LD, 32}, {G, ST, 4}}, 12288},
      {"RowCol", "smem.setRowReadCol", square, {{S, ST, 1}, {S, LD, 32}, {G, ST, 4}}, 12288},
      {"RowColDyn", "smem.setRowReadColDyn", square, {{S, ST, 1}, {S, LD, 32}, {G, ST, 4}}, 12288},
      {"RowColPad", "smem.setRowReadColPad", square, {{S, ST, 1}, {S, LD, 1}, {G, ST, 4}}, 12288},
      {"RowColDynPad", "smem.setRowReadColDynPad", square, {{S, ST, 1}, {S, LD, 1}, {G, ST, 4}}, 12288},
      // 32 x 16 (tile[16][32]): each half-warp reads 16 words of one bank.
      {"Rect", "smem.setRowReadColRect", rect, {{S, ST, 1}, {S, LD, 16}, {G, ST, 4}}, 6144},
      {"RectDyn", "smem.setRowReadColRectDyn", rect, {{S, ST, 1}, {S, LD, 16}, {G, ST, 4}}, 6144},
      {"RectPad1", "smem.setRowReadColRectPad", with(rect, {{"pad", "1"}}), {{S, ST, 1}, {S, LD, 2}, {G, ST, 4}}, 6144},
      {"RectPad2", "smem.setRowReadColRectPad", with(rect, {{"pad", "2"}}), {{S, ST, 1}, {S, LD, 1}, {G, ST, 4}}, 6144},
      {"RectDynPad2",
       "smem.setRowReadColRectDynPad",
       with(rect, {{"pad", "2"}}),
       {{S, ST, 1}, {S, LD, 1}, {G, ST, 4}},
       6144},
      // 8-byte elements: a warp's 256 bytes take two wavefronts at best.
      {"RowRowDouble",
       "smem.setRowReadRow",
       {{"blocks", "2"}, {"type", "double"}},
       {{S, ST, 2}, {S, LD, 2}, {G, ST, 8}},
       6144},
      // Transposes: i (the row of A) comes from thread x.
      {"NaiveT32", "transpose.naive", with(m256, {{"tile", "32"}}), {{G, LD, 32}, {G, ST, 4}}, 131072},
      {"NaiveT16", "transpose.naive", with(m256, {{"tile", "16"}}), {{G, LD, 16}, {G, ST, 4}}, 131072},
      {"SharedT32P0",
       "transpose.shared",
       with(m256, {{"tile", "32"}, {"pad", "0"}}),
       {{G, LD, 32}, {S, ST, 1}, {S, LD, 32}, {G, ST, 32}},
       262144},
      {"SharedT32P1",
       "transpose.shared",
       with(m256, {{"tile", "32"}, {"pad", "1"}}),
       {{G, LD, 32}, {S, ST, 1}, {S, LD, 1}, {G, ST, 32}},
       262144},
      {"SharedT16P0",
       "transpose.shared",
       with(m256, {{"tile", "16"}, {"pad", "0"}}),
       {{G, LD, 16}, {S, ST, 1}, {S, LD, 8}, {G, ST, 16}},
       262144},
      {"SharedT16P1",
       "transpose.shared",
       with(m256, {{"tile", "16"}, {"pad", "1"}}),
       {{G, LD, 16}, {S, ST, 2}, {S, LD, 2}, {G, ST, 16}},
       262144},
      // copy and coalesced move 16-byte strips: 8 lanes per tile row at T = 32, so a
      // warp request covers four 128-byte row segments, 16 sectors (its ideal).
      {"CoalescedT32",
       "transpose.coalesced",
       with(m256, {{"tile", "32"}, {"strips", "4"}, {"pad", "1"}}),
       {{G, LD, 16}, {S, ST, 1}, {S, LD, 1}, {G, ST, 16}},
       163840},
      // T = 64: 16 lanes per tile row, 4 words apart: lanes 8 apart share a bank,
      // 2-way conflicts both ways with pad 1, the default.
      {"CoalescedT64",
       "transpose.coalesced",
       with(m256, {{"tile", "64"}, {"strips", "4"}, {"pad", "1"}}),
       {{G, LD, 16}, {S, ST, 2}, {S, LD, 2}, {G, ST, 16}},
       163840},
      {"Copy", "transpose.copy", with(m256, {{"tile", "32"}, {"strips", "4"}}), {{G, LD, 16}, {G, ST, 16}}, 32768},
      {"MataddCols",
       "matadd.cols",
       {{"width", "64"}, {"height", "8"}, {"type", "int"}},
       {{G, LD, 4}, {G, ST, 4}},
       1536},
      {"MataddElementsK2",
       "matadd.elements",
       {{"width", "256"}, {"height", "4"}, {"block_x", "32"}, {"block_y", "1"}, {"per_thread", "2"}, {"type", "int"}},
       {{G, LD, 4}, {G, ST, 4}},
       3072},
      {"MataddRows",
       "matadd.rows",
       {{"width", "8"}, {"height", "64"}, {"type", "int"}},
       {{G, LD, 32}, {G, ST, 32}},
       1536},
  };
}

class TraceTest : public ::testing::TestWithParam<std::tuple<std::string, Case>> {};

std::uint64_t per_request(const analysis::SiteTotals& s) { return s.work() * 1000 / s.requests(); }

TEST_P(TraceTest, CountsMatchTheLessons) {
  const auto& [backend, c] = GetParam();
  auto td = testing::first_device(backend);
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  std::string why;
  if (backend == "opencl" && !opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  const Variant* v = find_variant(c.kernel);
  ASSERT_NE(v, nullptr);
  const Params params = make_params(v->params, c.sets, v->id);
  TraceOptions options;
  options.all_blocks = true;
  const Recording rec = record_trace(*td.device, *v, params, options);
  ASSERT_EQ(rec.status, RunStatus::Ok) << rec.error;
  EXPECT_TRUE(rec.verification.verified) << "the traced kernel must still compute the right answer";
  const Trace& t = rec.trace;
  EXPECT_EQ(t.traced_blocks.size(), t.block_count());
  EXPECT_EQ(t.accesses.size(), c.accesses) << "every thread's every access is recorded once";

  const analysis::Analysis a = analysis::analyze(t, analysis::model_for(t));
  EXPECT_TRUE(a.whole_grid);
  std::multiset<std::tuple<Space, bool>> seen;
  for (const analysis::SiteTotals& s : a.sites) seen.insert({s.space, s.store});
  for (const SiteExpectation& e : c.sites) {
    bool found = false;
    for (const analysis::SiteTotals& s : a.sites) {
      if (s.space != e.space || s.store != e.store) continue;
      found = true;
      EXPECT_EQ(per_request(s), static_cast<std::uint64_t>(e.per_request * 1000))
          << (e.space == Space::Shared ? "shared " : "global ") << (e.store ? "store" : "load") << " at line " << s.line
          << ": " << s.text;
    }
    EXPECT_TRUE(found) << "no " << (e.store ? "store" : "load") << " site recorded";
  }
  EXPECT_EQ(a.totals.accesses, t.accesses.size());

  // Barriers: each block's warps all arrive before any is released.
  for (const analysis::BarrierPass& p : a.barriers)
    EXPECT_TRUE(p.release_after_arrivals) << "block " << p.block << " barrier " << p.instance << ": first release "
                                          << p.first_release << ", last arrival " << p.last_arrival;
  // Schedule: every block of the grid ran once.
  ASSERT_EQ(t.schedule.size(), t.block_count());
  if (t.schedule_clock == "order") {
    std::set<std::uint64_t> starts;
    for (const BlockSchedule& s : t.schedule) starts.insert(s.start);
    EXPECT_EQ(starts.size(), t.block_count());
    EXPECT_EQ(*starts.rbegin(), t.block_count() - 1);
  } else {
    for (const BlockSchedule& s : t.schedule) {
      EXPECT_LE(s.start, s.end);
      EXPECT_NE(s.sm, kNoSm);
    }
  }
}

std::string name(const ::testing::TestParamInfo<TraceTest::ParamType>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param).label;
}

INSTANTIATE_TEST_SUITE_P(Lessons, TraceTest,
                         ::testing::Combine(::testing::Values("opencl", "cuda"), ::testing::ValuesIn(cases())), name);

// Every site a trace hits is an access the instrumenter marked on that line
// of the plain kernel text (opencl/cl_instrument.h): the hook of its space
// and direction is there.
TEST(InstrumentedSites, TracesHitOnlyTheAccessesTheInstrumenterMarked) {
  std::string why;
  if (!opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  auto td = testing::first_device("opencl");
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  for (const char* id : {"transpose.shared", "reduce.sequential", "matadd.elements", "smem.setRowReadCol"}) {
    const Variant* v = find_variant(id);
    const Params p = make_params(v->params,
                                 {{v->param("n")       ? "n"
                                   : v->param("width") ? "width"
                                                       : "blocks",
                                   v->param("blocks") ? "4" : "200"}},
                                 v->id);
    const Recording rec = record_trace(*td.device, *v, p, {});
    ASSERT_EQ(rec.status, RunStatus::Ok) << rec.error;
    ASSERT_FALSE(rec.trace.sites.empty()) << id;
    const Workload w = v->build(*v, p, 1);
    const std::string file = source_file_for(*v, threadmap::Dialect::OpenCL);
    const std::string instrumented =
        instrument_opencl(embedded_source(file), file, opencl_trace_prelude(),
                          opencl_defines(w.launches.front().program, td.device->info().has_subgroup_shuffle));
    for (const AccessSite& hit : rec.trace.sites) {
      const std::string line = text_line(instrumented, hit.line);
      const std::string hook = std::string(hit.store ? "ST" : "LD") + (hit.space == Space::Global ? "G(" : "S(");
      const std::string both = hit.space == Space::Global ? "LDSTG(" : "LDSTS(";
      EXPECT_TRUE(line.find(hook) != std::string::npos || line.find(both) != std::string::npos)
          << id << " line " << hit.line << " (" << hit.text << "): the instrumented line is `" << line << "`";
      EXPECT_EQ(hit.text, text_line(embedded_source(file), hit.line)) << id;
    }
  }
}

// The kernel that exists only where the device has sub-group shuffles is
// instrumented with the build's own switch, as the device compiles it.
TEST(InstrumentedSites, SubGroupShuffleKernelIsInstrumentedWithTheBuildsSwitch) {
  std::string why;
  if (!opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  const std::string out = instrument_opencl(embedded_source("reduce.cl"), "reduce.cl", opencl_trace_prelude(),
                                            {{"ELEM", "float"}, {"WG", "256"}, {"THREADMAP_SUBGROUP_SHUFFLE", "1"}});
  const std::size_t kernel = out.find("void reduce_warp_shuffle(");
  ASSERT_NE(kernel, std::string::npos);
  const std::size_t body = out.find('{', kernel);
  EXPECT_NE(out.substr(kernel, body - kernel).find("TM_TRACE_PARAM"), std::string::npos) << out.substr(kernel, 200);
  EXPECT_NE(out.find("LDG(", body), std::string::npos);
}

class TraceLimits : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceLimits, DefaultBlocksOverflowAndBadBlocks) {
  auto td = testing::first_device(GetParam());
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  std::string why;
  if (GetParam() == "opencl" && !opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  const Variant* v = find_variant("transpose.shared");
  const Params params = make_params(v->params, {{"width", "100"}, {"height", "70"}, {"tile", "16"}}, v->id);

  const Recording few = record_trace(*td.device, *v, params, {});
  ASSERT_EQ(few.status, RunStatus::Ok) << few.error;
  const std::uint32_t gx = few.trace.grid[0];
  const std::vector<std::uint32_t> first_two_of_two_rows{0, 1, gx, gx + 1};
  EXPECT_EQ(few.trace.traced_blocks, first_two_of_two_rows);
  EXPECT_TRUE(few.verification.verified);
  for (const Access& a : few.trace.accesses) {
    EXPECT_TRUE(std::count(first_two_of_two_rows.begin(), first_two_of_two_rows.end(), a.block));
    if (a.space == Space::Global) EXPECT_LT(a.offset + a.size, few.trace.buffers[a.buffer].bytes + 1);
  }
  EXPECT_EQ(few.trace.schedule.size(), 35u) << "the schedule covers every block";

  TraceOptions small;
  small.capacity = 10;
  const Recording overflow = record_trace(*td.device, *v, params, small);
  EXPECT_EQ(overflow.status, RunStatus::Invalid);
  EXPECT_NE(overflow.error.find("overflow"), std::string::npos) << overflow.error;
  EXPECT_NE(overflow.error.find("room for 10"), std::string::npos) << overflow.error;

  TraceOptions outside;
  outside.blocks = {35};
  const Recording bad = record_trace(*td.device, *v, params, outside);
  EXPECT_EQ(bad.status, RunStatus::Invalid);
  EXPECT_NE(bad.error.find("block 35 is outside the grid of 35 blocks"), std::string::npos) << bad.error;
}

INSTANTIATE_TEST_SUITE_P(Backends, TraceLimits, ::testing::Values("opencl", "cuda"));

// Barrier times and the schedule come from the clock pass on CUDA: the same
// kernel again with clock stamps kept on the SM. Its stamps join the access
// pass's by (block, pass, warp, line); every pass holds, its output verifies,
// and it disturbs the barrier less than the access pass's own stamps do
// (global atomics between a warp's accesses and the barrier). OpenCL keeps
// the order only.
class ClockPass : public ::testing::TestWithParam<std::string> {};

TEST_P(ClockPass, BarrierTimesComeFromARunWithClockStampsOnly) {
  auto td = testing::first_device(GetParam());
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  std::string why;
  if (GetParam() == "opencl" && !opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  const bool cuda = td.device->info().backend == "cuda";
  // Grids of at most TM_CLOCK_SAMPLE_WARPS warps (every block's stamps at a
  // slot the kernel computes), and on CUDA a larger one (the slot table's).
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> kernels{
      {"smem.setRowReadCol", {{"blocks", "264"}}},
      {"transpose.shared", {{"width", "1024"}, {"height", "1024"}}},
      {"reduce.sequential", {{"n", "1048576"}}}};
  if (cuda) kernels.push_back({"smem.setRowReadCol", {{"blocks", "65536"}}});
  for (const auto& [id, sets] : kernels) {
    SCOPED_TRACE(id);
    const Variant* v = find_variant(id);
    ASSERT_NE(v, nullptr);
    const Params params = make_params(v->params, sets, v->id);
    const Recording rec = record_trace(*td.device, *v, params, {});
    ASSERT_EQ(rec.status, RunStatus::Ok) << rec.error;
    const Trace& t = rec.trace;
    const analysis::Analysis a = analysis::analyze(t, analysis::model_for(t));
    ASSERT_FALSE(a.barriers.empty());
    EXPECT_TRUE(a.barriers_consistent);
    if (!cuda) {
      EXPECT_EQ(t.timing_pass, kTracedPassName);
      EXPECT_TRUE(t.barrier_timings.empty());
      EXPECT_FALSE(a.barrier_stats.timed);
      continue;
    }
    EXPECT_EQ(t.timing_pass, kClockPassName);
    EXPECT_EQ(a.barrier_stats.from, kClockPassName);
    EXPECT_GT(t.sm_clock_mhz, 300.0);
    EXPECT_LT(t.sm_clock_mhz, 4000.0);
    EXPECT_EQ(t.clock_passes_dropped, 0u);
    // The clock pass holds as many blocks per SM as the timed kernel (its
    // registers capped where its stamps would need more).
    const Workload w = v->build(*v, params, 1);
    LaunchCmd clocked = w.launches.front();
    clocked.program.defines.emplace_back(std::string(kTraceDefine), kClockPass);
    const int timed_blocks = td.device->resident_blocks(w.launches.front());
    EXPECT_GT(timed_blocks, 0);
    EXPECT_EQ(td.device->resident_blocks(clocked), timed_blocks);
    ASSERT_EQ(t.traced_schedule.size(), t.block_count()) << "the access pass's schedule is kept";
    for (const BlockSchedule& s : t.schedule) EXPECT_NE(s.sm, kNoSm);
    for (const analysis::BarrierPass& p : a.barriers) {
      EXPECT_TRUE(p.from_clock_pass) << "block " << p.block << " pass " << p.instance;
      EXPECT_TRUE(p.release_after_arrivals) << "block " << p.block << " pass " << p.instance;
    }
    EXPECT_GE(a.barrier_stats.passes, a.barriers.size()) << "every block of these grids";
    EXPECT_GT(a.barrier_stats.blocks, t.traced_blocks.size());

    // The access pass's own stamps: its first release after the last arrival.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::uint64_t, std::uint64_t>> own;
    const std::uint32_t warps = (t.threads_per_block() + 31) / 32;
    for (const BarrierEvent& e : t.barriers) {
      auto [it, fresh] = own.try_emplace({e.block, e.arrival_rank / warps}, 0, UINT64_MAX);
      it->second.first = std::max(it->second.first, e.arrival);
      it->second.second = std::min(it->second.second, e.release);
    }
    std::vector<std::uint64_t> own_latency;
    for (const auto& [key, stamps] : own) own_latency.push_back(stamps.second - stamps.first);
    std::sort(own_latency.begin(), own_latency.end());
    const std::uint64_t clock_median = analysis::BarrierStats::median(a.barrier_stats.release_latencies);
    EXPECT_LT(clock_median, analysis::BarrierStats::median(own_latency))
        << "the clock pass's release stamp needs no global round trip";
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ClockPass, ::testing::Values("opencl", "cuda"));

}  // namespace
}  // namespace threadmap

namespace threadmap {
namespace {

// Small launches of each family, traced whole.
const std::map<std::string, std::vector<std::pair<std::string, std::string>>>& small_launches(
    const std::string& backend) {
  static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> opencl{
      {"transpose", {{"width", "96"}, {"height", "64"}}},
      {"matadd", {{"width", "64"}, {"height", "32"}}},
      {"reduce", {{"n", "4096"}}},
      {"smem", {{"blocks", "4"}}}};
  static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> cuda{
      {"transpose", {{"width", "256"}, {"height", "256"}}},
      {"matadd", {{"width", "128"}, {"height", "64"}}},
      {"reduce", {{"n", "65536"}}},
      {"smem", {{"blocks", "8"}}}};
  return backend == "cuda" ? cuda : opencl;
}

// A catalog variant traced on every block twice: as the catalog's, and from
// its text (`threadmap-cli source`) given as a learner's kernel.
struct CatalogAndPlain {
  Recording catalog, plain;
};

CatalogAndPlain trace_catalog_and_plain(Device& device, const Variant& v) {
  const std::string backend = device.info().backend;
  const std::string family = v.id.substr(0, v.id.find('.'));
  const Params params = make_params(v.params, small_launches(backend).at(family), v.id);
  TraceOptions catalog;
  catalog.all_blocks = true;
  TraceOptions plain = catalog;
  plain.source_name = family + (backend == "cuda" ? ".cu" : ".cl");
  plain.source_text = learner_source(plain.source_name);
  return {record_trace(device, v, params, catalog), record_trace(device, v, params, plain)};
}

// A learner's OpenCL kernel is traced as the catalog's is: libclang puts the
// hooks in (opencl/cl_instrument.h). Every catalog kernel's text given as a
// learner's (`threadmap-cli source`) records what the catalog kernel records:
// the same accesses, requests, wavefronts, sectors and barrier passes.
TEST(LearnerTrace, PlainOpenClTextTracesAsTheCatalogKernel) {
  auto td = testing::first_device("opencl");
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  std::string why;
  if (!opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  int compared = 0;
  for (const Variant& v : catalog()) {
    if (v.availability == Availability::NeedsSubgroupShuffle && !td.device->info().has_subgroup_shuffle) continue;
    if (!v.written_in(Dialect::OpenCL)) continue;
    SCOPED_TRACE(v.id);
    const auto [a, b] = trace_catalog_and_plain(*td.device, v);
    ASSERT_EQ(a.status, RunStatus::Ok) << a.error;
    ASSERT_EQ(b.status, RunStatus::Ok) << b.error;
    EXPECT_TRUE(b.verification.verified);
    ASSERT_EQ(a.trace.accesses.size(), b.trace.accesses.size());
    EXPECT_EQ(a.trace.barriers.size(), b.trace.barriers.size());
    const auto x = analysis::analyze(a.trace, analysis::model_for(a.trace));
    const auto y = analysis::analyze(b.trace, analysis::model_for(b.trace));
    EXPECT_EQ(x.requests.size(), y.requests.size());
    EXPECT_EQ(x.totals.shared_ld_wavefronts, y.totals.shared_ld_wavefronts);
    EXPECT_EQ(x.totals.shared_st_wavefronts, y.totals.shared_st_wavefronts);
    EXPECT_EQ(x.totals.global_ld_sectors, y.totals.global_ld_sectors);
    EXPECT_EQ(x.totals.global_st_sectors, y.totals.global_st_sectors);
    EXPECT_EQ(x.sites.size(), y.sites.size());
    EXPECT_EQ(x.barriers.size(), y.barriers.size());
    EXPECT_TRUE(y.barriers_consistent);
    ++compared;
  }
  EXPECT_GE(compared, 20);
}

// A compile error in the learner's text names its line, before anything runs.
TEST(LearnerTrace, AParseErrorNamesTheLearnersLine) {
  auto td = testing::first_device("opencl");
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  std::string why;
  if (!opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  const Variant* v = find_variant("smem.setRowReadCol");
  TraceOptions o;
  o.source_name = "mine.cl";
  o.source_text = "\n\n\n\n__kernel void setRowReadCol(__global ELEM* out_all) { undeclared_name = 1; }\n";
  const Recording r = record_trace(*td.device, *v, make_params(v->params, {{"blocks", "2"}}, v->id), o);
  EXPECT_EQ(r.status, RunStatus::Invalid);
  EXPECT_NE(r.error.find("mine.cl:5:"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("undeclared_name"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace threadmap

namespace threadmap {
namespace {

// A learner's CUDA kernel is traced as the catalog's is: the timed build's
// PTX instrumented (cuda/ptx_instrument.h), so the trace holds the machine's
// accesses. Every catalog kernel's text given as a learner's records the
// same requests, wavefronts, sectors and barrier passes as the catalog
// kernel; where the compiler merged element accesses into a wide one (the
// strip transposes' four element stores per strip at pad 0), the trace has
// the machine's one 16-byte shared store.
TEST(LearnerTrace, PlainCudaTextTracesTheMachinesAccesses) {
  auto td = testing::first_device("cuda");
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  int compared = 0, wide = 0;
  for (const Variant& v : catalog()) {
    if (!v.written_in(Dialect::Cuda)) continue;
    SCOPED_TRACE(v.id);
    const auto [a, b] = trace_catalog_and_plain(*td.device, v);
    ASSERT_EQ(a.status, RunStatus::Ok) << a.error;
    ASSERT_EQ(b.status, RunStatus::Ok) << b.error;
    EXPECT_TRUE(b.verification.verified);
    const auto x = analysis::analyze(a.trace, analysis::model_for(a.trace));
    const auto y = analysis::analyze(b.trace, analysis::model_for(b.trace));
    EXPECT_EQ(x.requests.size(), y.requests.size());
    EXPECT_EQ(x.totals.global_ld_sectors, y.totals.global_ld_sectors);
    EXPECT_EQ(x.totals.global_st_sectors, y.totals.global_st_sectors);
    EXPECT_EQ(x.totals.shared_ld_wavefronts, y.totals.shared_ld_wavefronts);
    EXPECT_EQ(x.totals.shared_st_wavefronts, y.totals.shared_st_wavefronts);
    EXPECT_EQ(x.barriers.size(), y.barriers.size());
    EXPECT_TRUE(y.barriers_consistent);
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int>(std::count_if(catalog().begin(), catalog().end(), [](const Variant& v) {
              return v.written_in(Dialect::Cuda);
            })));
  // At pad 0 the strip's four element stores are one STS.128 on the machine:
  // the trace has 16-byte shared stores, a quarter as many as elements stored.
  const Variant* v = find_variant("transpose.coalesced");
  TraceOptions all;
  all.all_blocks = true;
  const Recording r = record_trace(
      *td.device, *v,
      make_params(v->params, {{"width", "256"}, {"height", "256"}, {"tile", "64"}, {"strips", "4"}, {"pad", "0"}},
                  v->id),
      all);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  const auto a = analysis::analyze(r.trace, analysis::model_for(r.trace));
  for (const analysis::Request& q : a.requests) wide += q.space == Space::Shared && q.store && q.size == 16;
  EXPECT_EQ(wide * 4 * 32, 256 * 256) << "the strip transposes' element stores are one 16-byte store on the machine";
  // The trace says so at that line: four of the source's stores in each.
  int merged_sites = 0;
  for (const AccessSite& site : r.trace.sites)
    if (site.space == Space::Shared && site.store) {
      EXPECT_EQ(site.merged, 4) << "line " << site.line << ": " << site.text;
      ++merged_sites;
    }
  EXPECT_EQ(merged_sites, 1);
}

}  // namespace
}  // namespace threadmap
