#include "kernels/analysis/problems.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <span>
#include <tuple>

#include "kernels/core/json_fields.h"
#include "kernels/core/parallel.h"

namespace threadmap::analysis {

namespace {

using json = nlohmann::json;

// Problems of one kind at the same line(s) are one problem: its first
// example (lowest block, earliest record) and how many there were.
using ProblemKey = std::tuple<ProblemKind, std::uint16_t, std::uint16_t, std::uint8_t>;

class ProblemSet {
 public:
  void add(const ProblemKey& key, const Problem& p) {
    auto [it, added] = by_key_.try_emplace(key, p);
    if (!added) {
      if (std::tie(p.block, p.first.record) < std::tie(it->second.block, it->second.first.record)) {
        const std::uint64_t seen = it->second.occurrences;
        it->second = p;
        it->second.occurrences += seen;
      } else {
        it->second.occurrences += p.occurrences;
      }
    }
  }
  void merge(const ProblemSet& other) {
    for (const auto& [key, p] : other.by_key_) add(key, p);
  }
  std::vector<Problem> list() const {
    std::vector<Problem> out;
    for (const auto& entry : by_key_) out.push_back(entry.second);
    return out;
  }

 private:
  std::map<ProblemKey, Problem> by_key_;
};

// Each traced block's shared accesses, as indexes into Trace::accesses in
// device order: a counting sort by block.
std::vector<std::vector<std::uint32_t>> shared_accesses_by_block(const Trace& t) {
  std::vector<std::uint32_t> slot_of(t.block_count(), 0);
  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k) slot_of[t.traced_blocks[k]] = static_cast<std::uint32_t>(k);
  std::vector<std::vector<std::uint32_t>> out(t.traced_blocks.size());
  for (std::uint32_t i = 0; i < t.accesses.size(); ++i)
    if (t.accesses[i].space == Space::Shared) out[slot_of[t.accesses[i].block]].push_back(i);
  return out;
}

// Each traced block's barrier records (indexes into Trace::barriers), per
// warp, in the order the warp arrived.
using WarpBarriers = std::vector<std::vector<std::uint32_t>>;  // [warp] -> records

std::vector<WarpBarriers> barriers_by_block(const Trace& t, std::uint32_t warps) {
  std::vector<std::uint32_t> slot_of(t.block_count(), 0);
  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k) slot_of[t.traced_blocks[k]] = static_cast<std::uint32_t>(k);
  std::vector<WarpBarriers> out(t.traced_blocks.size(), WarpBarriers(warps));
  for (std::uint32_t i = 0; i < t.barriers.size(); ++i) {
    const BarrierEvent& e = t.barriers[i];
    if (e.warp < warps) out[slot_of[e.block]][e.warp].push_back(i);
  }
  for (WarpBarriers& block : out)
    for (std::vector<std::uint32_t>& warp : block)
      std::sort(warp.begin(), warp.end(), [&](std::uint32_t x, std::uint32_t y) {
        return t.barriers[x].arrival_rank < t.barriers[y].arrival_rank;
      });
  return out;
}

// Where each barrier interval of a block ends among Trace::accesses: the
// earliest mark any warp read on release from its n-th barrier. Every access
// of the block before that barrier is below it; none after it is.
std::vector<std::uint32_t> interval_ends(const Trace& t, const WarpBarriers& warps) {
  std::vector<std::uint32_t> ends;
  for (const std::vector<std::uint32_t>& warp : warps)
    for (std::size_t pass = 0; pass < warp.size(); ++pass) {
      if (pass >= ends.size()) ends.push_back(BarrierEvent::kNoAccessMark);
      ends[pass] = std::min(ends[pass], t.barriers[warp[pass]].accesses_before);
    }
  for (std::size_t k = ends.size(); k-- > 1;) ends[k - 1] = std::min(ends[k - 1], ends[k]);  // ascending
  return ends;
}

// The unit of shared memory a block's accesses are compared in: the largest
// that every access's offset and size are multiples of (4 bytes as a rule),
// so an element is one entry, not four.
std::uint32_t common_unit(const Trace& t, const std::vector<std::uint32_t>& accesses) {
  std::uint64_t unit = 16;
  for (std::uint32_t i : accesses)
    unit = std::gcd(unit, std::gcd(std::uint64_t{t.accesses[i].offset}, std::uint64_t{t.accesses[i].size}));
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(unit, 1));
}

// One unit of shared memory touched by one access: sorted by unit, then by
// the access's place in device order.
struct Touch {
  std::uint32_t unit;
  std::uint32_t order;  // position in the block's list
  bool operator<(const Touch& o) const { return std::tie(unit, order) < std::tie(o.unit, o.order); }
};

Problem problem_at(ProblemKind kind, const Trace& t, std::uint32_t first, std::uint32_t second, std::uint64_t offset) {
  Problem p;
  p.kind = kind;
  const Access& a = t.accesses[first];
  p.block = a.block;
  p.first = {a.line, a.thread, a.store, first, a.atomic != AtomicOp::None};
  if (second != ProblemSite::kNone) {
    const Access& b = t.accesses[second];
    p.second = {b.line, b.thread, b.store, second, b.atomic != AtomicOp::None};
  }
  p.space = Space::Shared;
  p.offset = static_cast<std::int64_t>(offset);
  return p;
}

// What one block's shared accesses to one unit show: loads (and atomics,
// which read the word first) before any store (uninitialised), and, in each
// barrier interval, a store and another thread's access (a race; two
// atomics never race). Each conflicting access is paired with the
// interval's first store by another thread.
struct UnitWalk {
  const Trace& t;
  const std::vector<std::uint32_t>& accesses;  // the block's, in device order
  const std::vector<std::uint32_t>& interval;  // of each
  bool races;
  ProblemSet& found;
  std::vector<std::uint8_t>& exchanged;  // of each access: a load of a unit another thread stored last
  static constexpr std::uint32_t kNoThread = 0xffffffffu;

  void operator()(std::span<const Touch> touches, std::uint64_t offset) const {
    bool stored = false;
    std::uint32_t writer = kNoThread;  // the thread that stored the unit last
    for (const Touch& touch : touches) {
      const Access& a = t.accesses[accesses[touch.order]];
      if ((!a.store || a.atomic != AtomicOp::None) && !stored)
        report(ProblemKind::UninitializedRead, touch.order, ProblemSite::kNone, offset);
      if (!a.store && writer != kNoThread && writer != a.thread) exchanged[touch.order] = 1;
      stored = stored || a.store;
      if (a.store) writer = a.thread;
    }
    if (!races) return;
    for (std::size_t from = 0; from < touches.size();) {
      std::size_t to = from;
      while (to < touches.size() && interval[touches[to].order] == interval[touches[from].order]) ++to;
      interval_races(touches.subspan(from, to - from), offset);
      from = to;
    }
  }

  // An interval's first store by any thread, and its first by another.
  struct Writers {
    std::uint32_t first = ProblemSite::kNone, other = ProblemSite::kNone;  // orders
  };

  Writers first_writers(std::span<const Touch> touches, bool atomic) const {
    Writers w;
    for (const Touch& touch : touches) {
      const Access& a = t.accesses[accesses[touch.order]];
      if (!a.store || (a.atomic != AtomicOp::None) != atomic) continue;
      if (w.first == ProblemSite::kNone) w.first = touch.order;
      else if (w.other == ProblemSite::kNone && a.thread != thread(w.first)) w.other = touch.order;
    }
    return w;
  }

  // The writer of `w` a thread races with: the first store of another thread.
  std::uint32_t writer_for(const Writers& w, std::uint16_t thread_id) const {
    if (w.first == ProblemSite::kNone) return ProblemSite::kNone;
    return thread(w.first) != thread_id ? w.first : w.other;
  }

  void interval_races(std::span<const Touch> touches, std::uint64_t offset) const {
    const Writers plain = first_writers(touches, false), atomic = first_writers(touches, true);
    if (plain.first == ProblemSite::kNone && atomic.first == ProblemSite::kNone) return;
    for (const Touch& touch : touches) {
      const Access& a = t.accesses[accesses[touch.order]];
      std::uint32_t partner = writer_for(plain, a.thread);
      if (a.atomic == AtomicOp::None) partner = std::min(partner, writer_for(atomic, a.thread));
      if (partner == ProblemSite::kNone || partner == touch.order) continue;
      if (a.store && partner > touch.order) continue;  // a pair of stores counted once, at the later
      const std::uint32_t first = std::min(partner, touch.order), second = std::max(partner, touch.order);
      const ProblemKind kind = a.store            ? ProblemKind::WriteAfterWrite
                               : first == partner ? ProblemKind::ReadAfterWrite
                                                  : ProblemKind::WriteAfterRead;
      report(kind, first, second, offset);
    }
  }

  std::uint16_t thread(std::uint32_t order) const { return t.accesses[accesses[order]].thread; }

  void report(ProblemKind kind, std::uint32_t first, std::uint32_t second, std::uint64_t offset) const {
    Problem p = problem_at(kind, t, accesses[first], second == ProblemSite::kNone ? second : accesses[second], offset);
    p.interval = interval[first];
    found.add({kind, p.first.line, p.second.line, 0}, p);
  }
};

// Races and uninitialised loads in one block's shared memory; returns its
// loads of words another thread stored (Problems::shared_loads_exchanged).
std::uint64_t shared_problems(const Trace& t, const std::vector<std::uint32_t>& accesses, const WarpBarriers& warps,
                              bool races, ProblemSet& found) {
  if (accesses.empty()) return 0;
  const std::vector<std::uint32_t> ends = races ? interval_ends(t, warps) : std::vector<std::uint32_t>{};
  std::vector<std::uint32_t> interval(accesses.size());
  std::size_t pass = 0;
  for (std::size_t k = 0; k < accesses.size(); ++k) {
    while (pass < ends.size() && ends[pass] <= accesses[k]) ++pass;
    interval[k] = static_cast<std::uint32_t>(pass);
  }
  const std::uint32_t unit = common_unit(t, accesses);
  std::vector<Touch> touches;
  touches.reserve(accesses.size());
  for (std::uint32_t k = 0; k < accesses.size(); ++k) {
    const Access& a = t.accesses[accesses[k]];
    for (std::uint32_t u = 0; u < a.size / unit; ++u)
      touches.push_back({static_cast<std::uint32_t>(a.offset / unit + u), k});
  }
  std::sort(touches.begin(), touches.end());
  std::vector<std::uint8_t> exchanged(accesses.size(), 0);
  const UnitWalk walk{t, accesses, interval, races, found, exchanged};
  for (std::size_t from = 0; from < touches.size();) {
    std::size_t to = from;
    while (to < touches.size() && touches[to].unit == touches[from].unit) ++to;
    walk(std::span<const Touch>(touches).subspan(from, to - from), std::uint64_t{touches[from].unit} * unit);
    from = to;
  }
  return static_cast<std::uint64_t>(std::count(exchanged.begin(), exchanged.end(), std::uint8_t{1}));
}

// A barrier that some warps of the block reached and others did not: the
// first pass at which the warps' barrier lines part.
void divergent_barriers(const Trace& t, std::uint32_t block, const WarpBarriers& warps, ProblemSet& found) {
  std::size_t most = 0;
  for (const auto& w : warps) most = std::max(most, w.size());
  for (std::size_t pass = 0; pass < most; ++pass) {
    std::uint32_t reached = ProblemSite::kNone;  // the first warp's record at this pass
    for (const auto& w : warps)
      if (pass < w.size()) {
        reached = w[pass];
        break;
      }
    const std::uint16_t line = t.barriers[reached].line;
    Problem p;
    p.kind = ProblemKind::DivergentBarrier;
    p.block = block;
    p.first = {line, static_cast<std::uint16_t>(t.barriers[reached].warp * t.warp_width), false, reached};
    p.interval = static_cast<std::uint32_t>(pass);
    for (std::uint16_t w = 0; w < warps.size(); ++w)
      if (pass >= warps[w].size() || t.barriers[warps[w][pass]].line != line) p.warps_missing.push_back(w);
    if (p.warps_missing.empty()) continue;
    found.add({p.kind, line, 0, 0}, p);
    return;  // past the first parting, the passes no longer line up
  }
}

// The accesses in no buffer or shared array, one problem per line and
// buffer (shared ones: per line).
void out_of_bounds(const Trace& t, ProblemSet& found) {
  for (std::uint32_t k = 0; k < t.strays.size(); ++k) {
    const StrayAccess& s = t.strays[k];
    Problem p;
    p.kind = ProblemKind::OutOfBounds;
    p.block = s.access.block;
    p.first = {s.access.line, s.access.thread, s.access.store, k, s.access.atomic != AtomicOp::None};
    p.space = s.access.space;
    p.buffer = static_cast<std::uint8_t>(s.access.buffer);
    p.offset = s.offset;
    const int store_and_space = (s.access.store ? 1 : 0) + (p.space == Space::Shared ? 2 : 0);
    found.add({p.kind, p.first.line, static_cast<std::uint16_t>(store_and_space), p.buffer}, p);
  }
}

std::string thread_text(const Trace& t, std::uint16_t thread) {
  std::string s = "thread " + std::to_string(thread);
  if (t.block[1] > 1 || t.block[2] > 1) {
    s += " (" + std::to_string(thread % t.block[0]) + "," + std::to_string(thread / t.block[0] % t.block[1]);
    if (t.block[2] > 1) s += "," + std::to_string(thread / (t.block[0] * t.block[1]));
    s += ")";
  }
  return s;
}

std::string address_text(const Problem& p, const Trace& t) {
  if (p.space == Space::Shared) return "shared offset " + std::to_string(p.offset);
  const TracedBuffer& b = t.buffers.at(p.buffer);
  return b.name + (p.offset < 0 ? " - " + std::to_string(-p.offset) : " + " + std::to_string(p.offset)) +
         " bytes (the buffer holds " + std::to_string(b.bytes) + ")";
}

std::string verb(const ProblemSite& s) { return s.atomic ? "updates" : s.store ? "writes" : "reads"; }

}  // namespace

std::string_view problem_kind_name(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::ReadAfterWrite: return "read-after-write";
    case ProblemKind::WriteAfterRead: return "write-after-read";
    case ProblemKind::WriteAfterWrite: return "write-after-write";
    case ProblemKind::UninitializedRead: return "uninitialized-read";
    case ProblemKind::OutOfBounds: return "out-of-bounds";
    case ProblemKind::DivergentBarrier: return "divergent-barrier";
  }
  return "read-after-write";
}

Problems find_problems(const Trace& t) {
  Problems out;
  const std::uint32_t warps = (t.threads_per_block() + t.warp_width - 1) / std::max<std::uint32_t>(t.warp_width, 1);
  out.races_checked = std::all_of(t.barriers.begin(), t.barriers.end(), [](const BarrierEvent& e) {
    return e.accesses_before != BarrierEvent::kNoAccessMark;
  });
  const auto shared = shared_accesses_by_block(t);
  const auto barriers = barriers_by_block(t, warps);
  std::vector<ProblemSet> per_block(t.traced_blocks.size());
  std::vector<std::uint64_t> exchanged(t.traced_blocks.size(), 0);
  parallel_each(t.traced_blocks.size(), parallel_cores(), [&](std::uint64_t, std::uint64_t k) {
    exchanged[k] = shared_problems(t, shared[k], barriers[k], out.races_checked, per_block[k]);
    divergent_barriers(t, t.traced_blocks[k], barriers[k], per_block[k]);
  });
  for (const std::uint64_t n : exchanged) out.shared_loads_exchanged += n;
  ProblemSet all;
  out_of_bounds(t, all);
  for (const ProblemSet& s : per_block) all.merge(s);
  out.list = all.list();
  return out;
}

std::string describe(const Problem& p, const Trace& t) {
  const std::string block = "block " + std::to_string(p.block);
  const std::string times = p.occurrences > 1 ? "; " + std::to_string(p.occurrences) + " like it" : "";
  const auto line = [](std::uint16_t l) { return "line " + std::to_string(l); };
  switch (p.kind) {
    case ProblemKind::ReadAfterWrite:
    case ProblemKind::WriteAfterRead:
    case ProblemKind::WriteAfterWrite:
      return "data race (" + std::string(problem_kind_name(p.kind)) + ") on " + address_text(p, t) + ": " +
             thread_text(t, p.first.thread) + " " + verb(p.first) + " it at " + line(p.first.line) + ", " +
             thread_text(t, p.second.thread) + " " + verb(p.second) + " it at " + line(p.second.line) +
             ", with no barrier between (" + block + ", barrier interval " + std::to_string(p.interval) + ")" + times;
    case ProblemKind::UninitializedRead:
      return "uninitialised read of " + address_text(p, t) + ": " + thread_text(t, p.first.thread) + " " +
             verb(p.first) + " it at " + line(p.first.line) + " before any thread of the block wrote it (" + block +
             ")" + times;
    case ProblemKind::OutOfBounds:
      return "out of bounds: " + thread_text(t, p.first.thread) + " " + verb(p.first) + " " + address_text(p, t) +
             " at " + line(p.first.line) +
             (p.space == Space::Shared ? ", in no shared array of the block (" : ", in no buffer of the launch (") +
             block + ")" + times;
    case ProblemKind::DivergentBarrier: {
      std::string missing;
      for (std::size_t k = 0; k < p.warps_missing.size() && k < 8; ++k)
        missing += (k ? ", " : "") + std::to_string(p.warps_missing[k]);
      if (p.warps_missing.size() > 8) missing += ", ... (" + std::to_string(p.warps_missing.size()) + " warps)";
      return "barrier in divergent code: the barrier at " + line(p.first.line) + " was reached by warp " +
             std::to_string(p.first.thread / std::max<std::uint32_t>(t.warp_width, 1)) + " but not by warp" +
             (p.warps_missing.size() > 1 ? "s " : " ") + missing + " (" + block + ", barrier " +
             std::to_string(p.interval) + ")" + times;
    }
  }
  return {};
}

ProblemReport report_of(const Problem& p, const Trace& t) {
  ProblemReport r;
  r.kind = problem_kind_name(p.kind);
  r.lines = {p.first.line};
  r.block = p.block;
  r.threads = {p.first.thread};
  r.records = {p.first.record};
  if (p.second.record != ProblemSite::kNone) {
    r.lines.push_back(p.second.line);
    r.threads.push_back(p.second.thread);
    r.records.push_back(p.second.record);
  }
  if (p.kind != ProblemKind::DivergentBarrier)
    r.address = p.space == Space::Shared ? ProblemAddress{"shared", std::nullopt, p.offset}
                                         : ProblemAddress{"global", t.buffers.at(p.buffer).name, p.offset};
  r.occurrences = p.occurrences;
  r.message = describe(p, t);
  if (p.is_race()) r.interval = p.interval;
  if (p.kind == ProblemKind::DivergentBarrier) {
    r.barrier = p.interval;
    r.warps_missing = p.warps_missing;
  }
  return r;
}

ProblemList reports_of(const Problems& problems, const Trace& t) {
  ProblemList out{problems.races_checked, {}};
  for (const Problem& p : problems.list) out.list.push_back(report_of(p, t));
  return out;
}

namespace {

json to_json(const ProblemReport& p) {
  json address = nullptr;
  if (p.address) {
    address = {{"space", p.address->space}, {"offset", p.address->offset}};
    if (p.address->buffer) address["buffer"] = *p.address->buffer;
  }
  json out = {{"kind", p.kind},
              {"lines", p.lines},
              {"block", p.block},
              {"threads", p.threads},
              {"address", address},
              {"records", p.records},
              {"occurrences", p.occurrences},
              {"message", p.message}};
  if (p.interval) out["interval"] = *p.interval;
  if (p.barrier) {
    out["barrier"] = *p.barrier;
    out["warps_missing"] = p.warps_missing;
  }
  return out;
}

ProblemReport problem_from_json(const json& problem) {
  const JsonFields f(problem, "a problem");
  ProblemReport p;
  p.kind = f.text("kind");
  p.lines = f.counts<std::uint16_t>("lines");
  p.block = f.narrow<std::uint32_t>("block");
  p.threads = f.counts<std::uint16_t>("threads");
  if (const json* address = f.find("address"); address && !address->is_null()) {
    const JsonFields a(*address, "a problem's \"address\"");
    p.address = ProblemAddress{a.text("space"), a.maybe_text("buffer"), a.integer("offset")};
  }
  p.records = f.counts<std::uint32_t>("records");
  p.occurrences = f.count("occurrences");
  p.message = f.text("message");
  if (f.find("interval")) p.interval = f.narrow<std::uint32_t>("interval");
  if (f.find("barrier")) p.barrier = f.narrow<std::uint32_t>("barrier");
  p.warps_missing = f.counts<std::uint16_t>("warps_missing");
  return p;
}

ProblemList problem_list_from(const JsonFields& f) {
  ProblemList out;
  if (f.find("races_checked")) out.races_checked = f.flag("races_checked");
  if (!f.find("list")) f.fail("list", "a list of problems");
  for (const json& problem : f.list("list")) {
    if (!problem.is_object() || !problem.value("message", json()).is_string())
      f.fail("list", "a list of problems, each with its \"message\" as text");
    out.list.push_back(problem_from_json(problem));
  }
  return out;
}

}  // namespace

json to_json(const ProblemList& problems) {
  json list = json::array();
  for (const ProblemReport& p : problems.list) list.push_back(to_json(p));
  return {{"races_checked", problems.races_checked}, {"list", list}};
}

ProblemList problem_list_from_json(const json& problems, const std::string& what) {
  return problem_list_from(JsonFields(problems, what));
}

json to_json(const ProblemsScan& scan) {
  if (scan.error) return {{"error", *scan.error}};
  json out = to_json(scan.problems);
  out["traced_blocks"] = scan.traced_blocks;
  return out;
}

ProblemsScan scan_from_json(const json& scan, const std::string& what) {
  const JsonFields f(scan, what);
  ProblemsScan out;
  if ((out.error = f.maybe_text("error"))) return out;
  out.problems = problem_list_from(f);
  out.traced_blocks = f.counts<std::uint32_t>("traced_blocks");
  return out;
}

}  // namespace threadmap::analysis
