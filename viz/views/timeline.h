#pragma once
// The recorded order of events the playback walks: the analysis' warp-level
// requests in device order. A step is one request; the counters "so far"
// include the request at the step.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/analysis/analysis.h"

namespace threadmap::views {

struct Progress {
  std::uint64_t requests = 0;
  std::uint64_t shared_wavefronts = 0, shared_ideal_wavefronts = 0;
  std::uint64_t global_sectors = 0, global_ideal_sectors = 0;
};

class Timeline {
 public:
  explicit Timeline(const analysis::Analysis& analysis);

  std::size_t steps() const { return so_far_.size(); }
  // Through `step` inclusive; the empty progress when there are no steps.
  Progress so_far(std::size_t step) const;
  const Progress& total() const { return total_; }

 private:
  std::vector<Progress> so_far_;
  Progress total_;
};

// The latest request in `space` at or before `step`, else the first one after
// it (a view that has nothing yet shows what comes first), else none.
std::optional<std::size_t> request_near(const analysis::Analysis& analysis, std::size_t step, Space space);

// Sets what every per-request frame says of its request (has_request,
// request, store, atomic, line and the site's source text) and returns the request.
template <class Frame>
const analysis::Request& take_request(Frame& f, const analysis::Analysis& analysis, std::size_t index) {
  const analysis::Request& r = analysis.requests[index];
  f.has_request = true;
  f.request = index;
  f.store = r.store;
  f.atomic = r.atomic;
  f.line = r.line;
  if (const analysis::SiteTotals* site = analysis.site_of(r)) {
    f.source = site->text;
    // Where the compiler merged the source's accesses into this one.
    f.merged = site->merged;
    f.access_bytes = r.size;
  }
  return r;
}

// (x, y) of a linear block or thread id in a 3-D shape.
struct Coord2 {
  std::uint32_t x = 0, y = 0;
};
Coord2 block_coord(const Trace& trace, std::uint32_t block);
Coord2 thread_coord(const Trace& trace, std::uint32_t thread);
// "(1, 0)": how every view and caption names a block.
std::string block_name(const Trace& trace, std::uint32_t block);

}  // namespace threadmap::views
