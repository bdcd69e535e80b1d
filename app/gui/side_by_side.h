#pragma once
// Two recordings side by side: how their steps pair, which view draws them,
// and what their counters and timings say, each and against each other.
// Shared by the GUI's Compare tab and `threadmap export` of a pair.
#include <QString>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "viz/analysis/document.h"
#include "viz/views/trace_view.h"

namespace threadmap::gui {

// Panes step together by warp request index: step s shows each pane's own
// request min(s, its steps - 1) (a shorter one holds its last); the pair
// has as many steps as its longest pane.
std::size_t paired_steps(const std::vector<std::size_t>& pane_steps);
std::size_t own_step(std::size_t step, std::size_t pane_steps);

// The five trace views by name: grid, banks, barrier, coalescing, schedule.
const std::vector<QString>& view_names();
std::unique_ptr<views::TraceView> make_view(const QString& name);

// A recording's numbers for a caption (docs/analysis.md defines each).
struct PaneNumbers {
  std::uint64_t shared_requests = 0, shared_wavefronts = 0, shared_ideal_wavefronts = 0;
  std::uint64_t global_requests = 0, global_sectors = 0, global_ideal_sectors = 0;
  // The costliest access site of each space: its work per request.
  double worst_wavefronts_per_request = 0, worst_sectors_per_request = 0;
  std::optional<double> gbps, median_ms;  // the timed run, when the session has one
};
PaneNumbers numbers_of(const analysis::TraceDocument& doc);

// "shared: 16.5 wavefronts per request (ideal 1), 1024 bank conflicts ·
// global: 4 sectors per request (ideal 4)\n849.11 GB/s · median 0.3161 ms"
QString counters_text(const PaneNumbers& n);
// From a to b: "32 → 1 wavefronts per request, 3.2× the bandwidth" (the
// costliest site of each space, the timed runs' GB/s).
QString difference_text(const PaneNumbers& a, const PaneNumbers& b);

// Two recordings of one family, or why not ("" when they are).
QString comparable(const analysis::TraceDocument& a, const analysis::TraceDocument& b);

// The kernel a recording is of, and the learner's file when it ran a
// learner's text: "smem.setRowReadCol (yours: smem-conflict-free.cl)".
QString recording_name(const analysis::TraceDocument& doc);

}  // namespace threadmap::gui
