#pragma once
// A problem the trace shows (kernels/analysis/problems.h) as the views draw it:
// the requests its two sites belong to, for the playback to step to, and the
// shared word they touch named as the kernel declares it ("tile[1][0]").
// Plain data, computed from the TraceDocument when the problem is chosen.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/analysis/document.h"

namespace threadmap::views {

struct ProblemFocus {
  std::size_t index = 0;  // into Analysis::problems.list
  analysis::Problem problem;
  // The requests (Analysis::requests) of the first and second sites. A race
  // or an uninitialised read: the requests holding the two accesses. Out of
  // bounds: the request of the stray's warp-level access (its other lanes,
  // the same execution of the site), else the warp's latest before it. A
  // divergent barrier: the warp's latest request in the block before it, or
  // the block's first after it.
  std::array<std::optional<std::size_t>, 2> requests;
  int site = 0;         // which site the playback was sent to (0 or 1)
  std::string element;  // shared: the tile element ("tile[1][0]"), "" where the tile is not known
  std::string buffer;   // out of bounds: the kernel's name for the nearest buffer
  // Out of bounds: the strays (Trace::strays) of the warp-level access the
  // problem's stray is part of (its warp's execution of the site), the
  // problem's own first: the lanes the views draw outside their cells.
  std::vector<std::uint32_t> strays;

  bool has_second() const { return problem.second.record != analysis::ProblemSite::kNone; }
  // Whether `request` is one of the problem's sites' requests.
  bool at(std::size_t request) const { return requests[0] == request || requests[1] == request; }
};

// The request holding access `access` (an index into Trace::accesses).
std::optional<std::size_t> request_of_access(const analysis::Analysis& analysis, std::uint32_t access);

// The focus for problem `index` of the document's list (nullopt past its end).
std::optional<ProblemFocus> focus_on_problem(const analysis::TraceDocument& doc, std::size_t index);

// The shared element at byte `offset` as the kernel declares its tile
// ("tile[1][0]"), or "" where the tile is not known or the offset is not in it.
std::string tile_element_name(const analysis::TraceDocument& doc, std::int64_t offset);

}  // namespace threadmap::views
