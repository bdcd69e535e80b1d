// A whole grid counted in batches of blocks (kernels/engine/grid_count.h)
// holds against the same grid traced in one run and analysed whole: the
// same totals, sites, blocks, requests and barrier passes, to the last
// count. First the merge alone, on the bundled recordings split by block;
// then the batches on every backend present, each batch a real traced run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/pack/catalog.h"
#include "kernels/engine/opencl/cl_instrument.h"
#include "kernels/core/session.h"
#include "kernels/engine/record.h"
#include "tests/test_devices.h"
#include "kernels/analysis/analysis.h"
#include "kernels/engine/grid_count.h"
#include "kernels/analysis/merge.h"
#include "kernels/analysis/summary.h"

namespace threadmap {
namespace {

namespace fs = std::filesystem;

// The part of a recorded trace made by the blocks in [first, end): what a
// batch of those blocks would have recorded, the schedule of the one run.
Trace blocks_of(const Trace& t, std::uint32_t first, std::uint32_t end) {
  const auto outside = [&](const auto& record) { return record.block < first || record.block >= end; };
  Trace part = t;
  // A barrier's access mark counts the accesses before it in the batch's
  // own trace: the kept accesses below the whole trace's mark.
  std::vector<std::uint32_t> kept_below(t.accesses.size() + 1, 0);
  for (std::size_t i = 0; i < t.accesses.size(); ++i)
    kept_below[i + 1] = kept_below[i] + (outside(t.accesses[i]) ? 0 : 1);
  for (BarrierEvent& b : part.barriers)
    if (b.accesses_before != BarrierEvent::kNoAccessMark)
      b.accesses_before = kept_below[std::min<std::size_t>(b.accesses_before, t.accesses.size())];
  for (StrayAccess& s : part.strays) s.position = kept_below[std::min<std::size_t>(s.position, t.accesses.size())];
  std::erase_if(part.accesses, outside);
  std::erase_if(part.barriers, outside);
  std::erase_if(part.strays, [&](const StrayAccess& s) { return outside(s.access); });
  std::erase_if(part.barrier_timings, outside);
  std::erase_if(part.barrier_pass_timings, outside);
  std::erase_if(part.traced_blocks, [&](std::uint32_t b) { return b < first || b >= end; });
  return part;
}

// Everything counters prints of an analysis, per block included.
nlohmann::json printed(const Trace& t, const analysis::Analysis& a) {
  nlohmann::json j = analysis::summary_json(t, a);
  j["blocks_merged"] = a.batches_merged;
  return j;
}

// Each traced block of a bundled recording a batch of its own (the blocks
// between traced ones, whose clock-pass samples the recording keeps, go with
// the traced block before them), analysed alone and merged in block order:
// the merge must give what the whole trace's analysis gives.
TEST(MergeBatch, OfEveryBundledRecordingSplitByBlockIsItsWholeAnalysis) {
  int recordings = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(THREADMAP_RECORDINGS_DIR) / "h100")) {
    const Session s = load_session(entry.path());
    ASSERT_TRUE(s.trace) << entry.path();
    const Trace& t = *s.trace;
    if (t.traced_blocks.size() < 2) continue;  // one block: nothing to split
    const analysis::Analysis whole = analysis::analyze(t, analysis::model_for(t));

    analysis::Analysis merged;
    std::uint64_t accesses = 0;
    for (std::size_t k = 0; k < t.traced_blocks.size(); ++k) {
      const std::uint32_t first = k == 0 ? 0 : t.traced_blocks[k];
      const std::uint32_t end = k + 1 < t.traced_blocks.size() ? t.traced_blocks[k + 1] : t.block_count();
      const Trace part = blocks_of(t, first, end);
      accesses += part.accesses.size();
      analysis::merge_batch(merged, analysis::analyze(part, analysis::model_for(part)));
    }
    merged.whole_grid = whole.whole_grid;
    EXPECT_EQ(accesses, t.accesses.size()) << entry.path();
    EXPECT_EQ(merged.batches_merged, t.traced_blocks.size());
    EXPECT_EQ(merged.request_count(), whole.requests.size()) << entry.path();
    EXPECT_EQ(merged.barrier_pass_count(), whole.barriers.size()) << entry.path();
    nlohmann::json expected = printed(t, whole);
    expected["blocks_merged"] = t.traced_blocks.size();
    EXPECT_EQ(printed(t, merged), expected) << entry.path();
    ++recordings;
  }
  EXPECT_GE(recordings, 15);
}

// Batches in any order keep the blocks ascending, and sites met first in a
// later batch take their place by line.
TEST(MergeBatch, KeepsBlocksAndSitesInOrderWhateverTheBatchOrder) {
  const Session s = load_session(fs::path(THREADMAP_RECORDINGS_DIR) / "h100" / "transpose.shared.threadmap");
  ASSERT_TRUE(s.trace);
  const Trace& t = *s.trace;
  const analysis::Analysis whole = analysis::analyze(t, analysis::model_for(t));
  const std::uint32_t middle = t.traced_blocks[t.traced_blocks.size() / 2];
  analysis::Analysis merged;
  for (const Trace& part : {blocks_of(t, middle, t.block_count()), blocks_of(t, 0, middle)})
    analysis::merge_batch(merged, analysis::analyze(part, analysis::model_for(part)));
  ASSERT_EQ(merged.blocks.size(), whole.blocks.size());
  for (std::size_t k = 0; k < whole.blocks.size(); ++k) {
    EXPECT_EQ(merged.blocks[k].block, whole.blocks[k].block);
    EXPECT_EQ(analysis::to_json(merged.blocks[k].counters), analysis::to_json(whole.blocks[k].counters));
  }
  ASSERT_EQ(merged.sites.size(), whole.sites.size());
  for (std::size_t k = 0; k < whole.sites.size(); ++k) {
    EXPECT_EQ(merged.sites[k].line, whole.sites[k].line);
    EXPECT_EQ(merged.sites[k].space, whole.sites[k].space);
    EXPECT_EQ(merged.sites[k].store, whole.sites[k].store);
  }
  EXPECT_EQ(analysis::to_json(merged.totals), analysis::to_json(whole.totals));
}

struct BatchCase {
  std::string label;
  std::string kernel;
  std::vector<std::pair<std::string, std::string>> sets;
  std::uint64_t batch_records;  // a few blocks' worth: several batches
};

void PrintTo(const BatchCase& c, std::ostream* os) { *os << c.label; }

std::vector<BatchCase> batch_cases() {
  return {
      {"TransposeShared", "transpose.shared", {{"width", "256"}, {"height", "256"}, {"tile", "16"}}, 5000},
      // Edge blocks with partial tiles make fewer records than the others.
      {"NaiveOddSize", "transpose.naive", {{"width", "200"}, {"height", "136"}, {"tile", "16"}}, 3000},
      {"RowReadCol", "smem.setRowReadCol", {{"blocks", "6"}}, 7000},
      // Barriers in a loop, a second launch that is not traced.
      {"ReduceSequential", "reduce.sequential", {{"n", "5000"}, {"wg", "128"}}, 1000},
      // A thread walks a row: 192 records a thread, more than the first
      // batch's guess of 16, so that batch runs again with fewer blocks.
      {"MataddRows", "matadd.rows", {{"width", "64"}, {"height", "512"}, {"wg", "64"}}, 30000},
  };
}

class Batches : public ::testing::TestWithParam<std::tuple<std::string, BatchCase>> {};

TEST_P(Batches, CountTheWholeGridAsOneTracedRunDoes) {
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

  const Recording one = record_trace(*td.device, *v, params, options);
  ASSERT_EQ(one.status, RunStatus::Ok) << one.error;
  const analysis::Analysis whole = analysis::analyze(one.trace, analysis::model_for(one.trace));
  const analysis::GridCount count = analysis::count_in_batches(*td.device, *v, params, options, c.batch_records);
  ASSERT_EQ(count.recording.status, RunStatus::Ok) << count.recording.error;

  EXPECT_TRUE(count.recording.verification.verified) << "the last batch's traced run computes the right answer";
  EXPECT_GT(count.recording.batches, 2u);
  EXPECT_LE(count.recording.largest_batch, c.batch_records);
  EXPECT_EQ(count.analysis.batches_merged, count.recording.batches);
  if (c.kernel == "matadd.rows") EXPECT_GT(count.recording.access_runs, count.recording.batches);
  EXPECT_EQ(count.accesses, one.trace.accesses.size());
  EXPECT_EQ(count.barrier_arrivals, one.trace.barriers.size());
  EXPECT_EQ(count.launch.traced_blocks, one.trace.traced_blocks);
  EXPECT_TRUE(count.analysis.whole_grid);
  EXPECT_EQ(count.analysis.request_count(), whole.requests.size());

  nlohmann::json batched = analysis::summary_json(count.launch, count.analysis);
  nlohmann::json expected = analysis::summary_json(one.trace, whole);
  if (backend == "cuda") {
    // Clock readings differ from run to run: the same passes, other times.
    for (nlohmann::json* j : {&batched, &expected}) {
      for (const char* key : {"arrival_spread_median", "widest_spread", "release_latency_median", "release_latency_max",
                              "most_often_last_warp", "most_often_last_share", "sm_clock_mhz"})
        (*j)["barriers"].erase(key);
      (*j)["schedule"].erase("kernel_start");
      (*j)["schedule"].erase("kernel_end");
      (*j)["schedule"].erase("most_blocks_on_one_sm_at_once");
      (*j)["schedule"].erase("sms_used");
    }
  }
  EXPECT_EQ(batched, expected);
}

std::vector<std::tuple<std::string, BatchCase>> every_backend_case() {
  std::vector<std::tuple<std::string, BatchCase>> out;
  for (const char* backend : {"opencl", "cuda"})
    for (const BatchCase& c : batch_cases()) out.emplace_back(backend, c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Backends, Batches, ::testing::ValuesIn(every_backend_case()), [](const auto& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param).label;
});

TEST(BatchRecords, TooFewForOneBlockSayWhichBlockAndWhatToDo) {
  auto td = testing::first_device("opencl");
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  std::string why;
  if (!opencl_instrumenter_available(&why)) GTEST_SKIP() << why;
  const Variant* v = find_variant("transpose.shared");
  const Params params = make_params(v->params, {{"width", "64"}, {"height", "64"}, {"tile", "16"}}, v->id);
  TraceOptions options;
  options.all_blocks = true;
  const analysis::GridCount count = analysis::count_in_batches(*td.device, *v, params, options, 1000);
  EXPECT_EQ(count.recording.status, RunStatus::Invalid);
  EXPECT_NE(
      count.recording.error.find("block 0 alone makes more than a batch's 1000 access records; give a batch more"),
      std::string::npos)
      << count.recording.error;
}

}  // namespace
}  // namespace threadmap
