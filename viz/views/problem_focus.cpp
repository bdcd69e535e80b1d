#include "viz/views/problem_focus.h"

#include <algorithm>

#include "viz/views/layout.h"

namespace threadmap::views {

namespace {

// The latest request of `block` (of `warp`, at `line`, in `space`, where
// given) that began before access position `position`; else the first such.
std::optional<std::size_t> request_before(const analysis::Analysis& a, std::uint32_t block,
                                          std::optional<std::uint16_t> warp, std::optional<std::uint16_t> line,
                                          std::uint64_t position, std::optional<Space> space = std::nullopt) {
  std::optional<std::size_t> before, first;
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    const analysis::Request& r = a.requests[i];
    if (r.block != block || (warp && r.warp != *warp) || (line && r.line != *line) || (space && r.space != *space))
      continue;
    if (!first) first = i;
    if (r.first_access < position) before = i;
  }
  return before ? before : first;
}

// The strays of the warp-level access stray `k` belongs to, `k` first, and
// that access's instance: a lane's n-th execution of a site joins its
// warp's n-th request there (analysis.cpp), so a stray counts the
// executions its lane made in bounds before it. One walk over the accesses.
struct StrayGroup {
  std::vector<std::uint32_t> strays;
  std::uint32_t instance = 0;
};
StrayGroup stray_group(const Trace& t, std::uint32_t k) {
  const Access& own = t.strays[k].access;
  const std::uint32_t width = std::max<std::uint32_t>(t.warp_width, 1);
  const auto same_site = [&](const Access& x) {
    return x.block == own.block && x.thread / width == own.thread / width && x.line == own.line &&
           x.space == own.space && x.store == own.store;
  };
  std::vector<std::uint32_t> candidates;  // in device order, as Trace::strays is
  for (std::uint32_t i = 0; i < t.strays.size(); ++i)
    if (same_site(t.strays[i].access)) candidates.push_back(i);
  std::vector<std::uint32_t> executions(width, 0);
  std::vector<std::uint32_t> instance(candidates.size(), 0);
  std::size_t next = 0;
  for (std::uint32_t i = 0; i <= t.accesses.size() && next < candidates.size(); ++i) {
    while (next < candidates.size() && t.strays[candidates[next]].position <= i) {
      instance[next] = executions[t.strays[candidates[next]].access.thread % width];
      ++next;
    }
    if (i < t.accesses.size() && same_site(t.accesses[i])) ++executions[t.accesses[i].thread % width];
  }
  StrayGroup g;
  const auto own_at = std::find(candidates.begin(), candidates.end(), k) - candidates.begin();
  g.instance = instance[static_cast<std::size_t>(own_at)];
  g.strays.push_back(k);
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (candidates[c] != k && instance[c] == g.instance) g.strays.push_back(candidates[c]);
  return g;
}

}  // namespace

std::optional<std::size_t> request_of_access(const analysis::Analysis& analysis, std::uint32_t access) {
  for (std::size_t i = 0; i < analysis.requests.size(); ++i)
    for (const std::uint32_t lane : analysis.lanes_of(analysis.requests[i]))
      if (lane == access) return i;
  return std::nullopt;
}

std::string tile_element_name(const analysis::TraceDocument& doc, std::int64_t offset) {
  const TileShape tile = tile_shape(doc);
  if (tile.known && tile.cols > 0 && tile.element_bytes > 0) {
    // The tile starts at the lowest shared word accessed, as the bank view draws it.
    const std::uint32_t word_bytes = doc.analysis.model.bank_bytes;
    std::int64_t lowest = -1;
    for (const Access& a : doc.trace().accesses)
      if (a.space == Space::Shared && (lowest < 0 || static_cast<std::int64_t>(a.offset) < lowest))
        lowest = static_cast<std::int64_t>(a.offset);
    lowest -= lowest % word_bytes;
    const std::int64_t element = (offset - lowest) / tile.element_bytes;
    if (lowest >= 0 && element >= 0 && element < std::int64_t{tile.rows} * tile.cols) {
      const std::string name = tile.declaration.substr(0, tile.declaration.find('['));
      return name + "[" + std::to_string(element / tile.cols) + "][" + std::to_string(element % tile.cols) + "]";
    }
  }
  return {};
}

std::optional<ProblemFocus> focus_on_problem(const analysis::TraceDocument& doc, std::size_t index) {
  const auto& list = doc.analysis.problems.list;
  if (index >= list.size()) return std::nullopt;
  const Trace& t = doc.trace();
  const analysis::Analysis& a = doc.analysis;
  ProblemFocus f;
  f.index = index;
  f.problem = list[index];
  const analysis::Problem& p = f.problem;
  const std::uint16_t width = static_cast<std::uint16_t>(std::max<std::uint32_t>(t.warp_width, 1));
  switch (p.kind) {
    case analysis::ProblemKind::OutOfBounds:
      if (p.first.record < t.strays.size()) {
        // The request its warp made at its line and in its space (its other
        // lanes', the stray set apart), else the warp's latest before it.
        const StrayAccess& s = t.strays[p.first.record];
        const auto warp = static_cast<std::uint16_t>(p.first.thread / width);
        StrayGroup g = stray_group(t, p.first.record);
        f.strays = std::move(g.strays);
        for (std::size_t i = 0; i < a.requests.size() && !f.requests[0]; ++i) {
          const analysis::Request& r = a.requests[i];
          if (r.block == p.block && r.warp == warp && r.line == s.access.line && r.space == s.access.space &&
              r.store == s.access.store && r.instance == g.instance)
            f.requests[0] = i;
        }
        if (!f.requests[0])
          f.requests[0] =
              request_before(a, p.block, warp, s.access.line, std::uint64_t{s.position} + 1, s.access.space);
        if (!f.requests[0])
          f.requests[0] = request_before(a, p.block, warp, std::nullopt, std::uint64_t{s.position} + 1);
      }
      if (p.space == Space::Global) f.buffer = buffer_name(doc, p.buffer);
      break;
    case analysis::ProblemKind::DivergentBarrier:
      if (p.first.record < t.barriers.size()) {
        const BarrierEvent& e = t.barriers[p.first.record];
        const std::uint64_t mark = e.accesses_before == BarrierEvent::kNoAccessMark ? UINT64_MAX : e.accesses_before;
        f.requests[0] = request_before(a, p.block, e.warp, std::nullopt, mark);
      }
      break;
    default:
      if (p.first.record < t.accesses.size()) f.requests[0] = request_of_access(a, p.first.record);
      if (p.second.record < t.accesses.size()) f.requests[1] = request_of_access(a, p.second.record);
      f.element = tile_element_name(doc, p.offset);
      break;
  }
  return f;
}

}  // namespace threadmap::views
