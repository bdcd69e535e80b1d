#pragma once
// JSON forms of analysis results: what `threadmap-cli counters/show --format
// json` print and what a session file keeps beside its trace.
#include <nlohmann/json.hpp>

#include "kernels/analysis/analysis.h"

namespace threadmap::analysis {

// Nsight Compute's metric names as keys, so the two can be set side by side.
nlohmann::json to_json(const Counters& c);
// One entry of the summary's per-block list.
nlohmann::json to_json(const BlockTotals& b);
// Model, totals, per-site and per-block counters, barriers and schedule summary.
nlohmann::json summary_json(const Trace& trace, const Analysis& a);

}  // namespace threadmap::analysis
