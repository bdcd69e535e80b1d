#pragma once
// The analysis as reports give it, without its trace: what `threadmap-cli
// counters/show --format json` print, what a session file keeps beside its
// trace and what a worker sends. Its JSON is written and read here alone.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/analysis/analysis.h"
#include "kernels/analysis/problems.h"

namespace threadmap::analysis {

struct BarrierSummary {
  std::uint64_t passes = 0;
  std::string clock;        // Trace::barrier_clock
  std::string timing_from;  // BarrierStats::from
  std::uint64_t timed_passes = 0;
  std::uint64_t timed_blocks = 0;
  std::uint64_t arrival_spread_median = 0;
  std::uint64_t widest_spread = 0;
  std::optional<std::uint64_t> release_latency_median;  // none: no pass was timed
  std::optional<std::uint64_t> release_latency_max;
  std::optional<std::uint16_t> most_often_last_warp;  // none: no pass
  std::optional<double> most_often_last_share;
  std::optional<double> sm_clock_mhz;  // none: not measured
  bool release_after_arrivals = true;
};

struct ScheduleSummary {
  std::string clock;  // Trace::schedule_clock
  std::string from;   // Trace::timing_pass
  std::uint64_t kernel_start = 0;
  std::uint64_t kernel_end = 0;
  std::uint64_t sms_used = 0;
  std::uint32_t most_blocks_on_one_sm_at_once = 0;
};

// Model, totals, per-site and per-block counters, barriers, schedule and problems.
struct Summary {
  DeviceModel model;
  bool whole_grid = false;
  std::uint64_t traced_blocks = 0;  // how many
  std::uint64_t grid_blocks = 0;
  std::uint64_t requests = 0;
  Counters totals;
  std::vector<SiteTotals> sites;
  std::vector<BlockTotals> blocks;
  BarrierSummary barriers;
  ScheduleSummary schedule;
  ProblemList problems;
};

Summary summarize(const Trace& trace, const Analysis& a);

// Nsight Compute's metric names as keys, so the two can be set side by side.
nlohmann::json to_json(const Counters& c);
// One entry of the summary's per-block list.
nlohmann::json to_json(const BlockTotals& b);
// The summary's JSON. Given a `blocks_placeholder`, "blocks" is that text
// instead of the list, for a printer that writes a whole grid's hundreds of
// thousands of blocks one at a time in its place.
nlohmann::json to_json(const Summary& s, const char* blocks_placeholder = nullptr);
// Throws ReportError naming the field, `what` naming the summary.
Summary summary_from_json(const nlohmann::json& summary, const std::string& what);

// to_json(summarize(trace, a)).
nlohmann::json summary_json(const Trace& trace, const Analysis& a);

}  // namespace threadmap::analysis
