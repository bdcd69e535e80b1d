#pragma once
// Two recordings side by side: how their steps pair, which view draws them,
// and what their access sites and timings say, each and against each other.
// Shared by the GUI's Side by side tab and `threadmap export` of a pair.
#include <QString>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/analysis/document.h"
#include "viz/views/trace_view.h"

namespace threadmap::gui {

// The four kinds of access a lesson's variants differ in.
enum class AccessKind { GlobalLoad, GlobalStore, SharedLoad, SharedStore };
AccessKind kind_of(Space space, bool store);
QString kind_name(AccessKind kind);  // "shared load"

// Sites correspond by kind and rank: the k-th global load site (by line) of
// one kernel is the k-th global load site of the other. Each pair of a kind
// present in either recording, in kind order then rank; a side without one
// is nullptr.
using SitePair = std::array<const analysis::SiteTotals*, 2>;
std::vector<SitePair> matched_sites(const analysis::Analysis& a, const analysis::Analysis& b);

// The view that tells a pair's lesson: "coalescing" where the first pair of
// corresponding sites that differs is in global memory, "banks" where it is
// in shared memory (also where none differs).
QString lesson_view(const analysis::Analysis& a, const analysis::Analysis& b);

// One step of a pair: the request each recording shows there (an index into
// its analysis' requests), or none. Paired requests are the same block,
// warp and instance at corresponding sites, so the panes always compare like
// with like; a request without a counterpart gets a step of its own. Steps
// follow a's device order, b's unpaired requests where b reached them.
struct PairedStep {
  std::array<std::optional<std::size_t>, 2> request;
};
std::vector<PairedStep> pair_steps(const analysis::Analysis& a, const analysis::Analysis& b);

// What a pane draws at `step`: its own request there, else (it has none
// there) the one it showed last, else the first it will show. A pane of a
// recording without requests draws none.
std::optional<std::size_t> shown_request(const std::vector<PairedStep>& steps, std::size_t step, int side);

// The five trace views by name: grid, banks, barrier, coalescing, schedule.
const std::vector<QString>& view_names();
std::unique_ptr<views::TraceView> make_view(const QString& name);

// The timed run of a recording, when the session has one.
struct PaneNumbers {
  std::optional<double> gbps, median_ms;
};
PaneNumbers numbers_of(const analysis::TraceDocument& doc);

// One site's figures, its loads or stores alone: "line 71 shared load: 32
// wavefronts per request (ideal 1)".
QString site_text(const analysis::SiteTotals& site);
// Why a pane shows nothing of the other's request: "no shared load in
// transpose.naive", or "transpose.naive traced no block 16 warp 3 here".
QString missing_text(const analysis::TraceDocument& own, const analysis::TraceDocument& other,
                     std::size_t other_request);
// "849.11 GB/s · median 0.3161 ms", or that the recording has no timed run.
QString timing_text(const PaneNumbers& n);
// From a to b, site by corresponding site, where they differ: "shared load,
// wavefronts per request: 32 → 1 (bank conflicts → none) · 3.2× the
// bandwidth". Sites moving different bytes per request compare per the
// same bytes ("global load, sectors per 128 bytes: 16 → 4").
QString difference_text(const analysis::TraceDocument& a, const analysis::TraceDocument& b);

// Two recordings of one family, or why not ("" when they are).
QString comparable(const analysis::TraceDocument& a, const analysis::TraceDocument& b);

// The kernel a recording is of, and the learner's file when it ran a
// learner's text: "smem.setRowReadCol (yours: smem-conflict-free.cl)".
QString recording_name(const analysis::TraceDocument& doc);

}  // namespace threadmap::gui
