#include "viz/analysis/analysis.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <tuple>

#include "kernels/parallel.h"

namespace threadmap::analysis {

namespace {

constexpr std::uint32_t kMaxLanes = 64;

// A set of the few keys one request touches (at most a warp's lanes times the
// words each lane covers), emptied in O(1) between requests.
class SmallSet {
 public:
  void clear() { ++now_; }
  bool insert(std::uint64_t key) {
    std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - kBits));
    while (stamp_[h] == now_) {
      if (keys_[h] == key) return false;
      h = (h + 1) & (kSlots - 1);
    }
    stamp_[h] = now_;
    keys_[h] = key;
    return true;
  }

 private:
  static constexpr int kBits = 9;
  static constexpr std::size_t kSlots = std::size_t{1} << kBits;
  std::array<std::uint64_t, kSlots> keys_{};
  std::array<std::uint32_t, kSlots> stamp_{};
  std::uint32_t now_ = 1;
};

struct Wavefronts {
  std::uint32_t served = 0;  // wavefronts the banks needed
  std::uint32_t ideal = 0;   // the fewest for that many bytes: one per part of the warp with lanes
};

Wavefronts count_wavefronts(SmallSet& words, std::span<const std::uint64_t> offsets,
                            std::span<const std::uint16_t> lanes, std::uint32_t size,
                            const DeviceModel& model) {
  const std::uint32_t words_per_lane = std::max<std::uint32_t>(1, size / model.bank_bytes);
  const std::uint32_t lanes_per_phase =
      std::max<std::uint32_t>(1, model.banks * model.bank_bytes / std::max(size, model.bank_bytes));
  Wavefronts total;
  std::array<std::uint32_t, 64> per_bank{};
  const std::uint32_t banks = std::min<std::uint32_t>(model.banks, 64);
  for (std::uint32_t phase = 0; phase < model.warp_width; phase += lanes_per_phase) {
    words.clear();
    std::fill(per_bank.begin(), per_bank.begin() + banks, 0);
    std::uint32_t most = 0;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      if (lanes[i] < phase || lanes[i] >= phase + lanes_per_phase) continue;
      const std::uint64_t first_word = offsets[i] / model.bank_bytes;
      for (std::uint32_t k = 0; k < words_per_lane; ++k)
        if (words.insert(first_word + k)) most = std::max(most, ++per_bank[(first_word + k) % banks]);
    }
    total.served += most;
    total.ideal += most > 0 ? 1 : 0;
    if (lanes_per_phase >= model.warp_width) break;
  }
  return total;
}

std::uint32_t count_sectors(SmallSet& sectors, std::span<const std::uint64_t> offsets, std::uint32_t size,
                            const DeviceModel& model) {
  sectors.clear();
  std::uint32_t n = 0;
  for (std::uint64_t offset : offsets) {
    const std::uint64_t first = offset / model.sector_bytes;
    const std::uint64_t last = (offset + std::max<std::uint32_t>(size, 1) - 1) / model.sector_bytes;
    for (std::uint64_t s = first; s <= last; ++s) n += sectors.insert(s);
  }
  return n;
}

}  // namespace

DeviceModel model_for(const Trace& trace) {
  DeviceModel m;
  m.warp_width = std::clamp<std::uint32_t>(trace.warp_width, 1, kMaxLanes);
  m.source = trace.warp_width_assumed
                 ? "warp width " + std::to_string(m.warp_width) +
                       " assumed (the device does not report one); 32 banks of 4 bytes and "
                       "32-byte sectors, as on NVIDIA GPUs"
                 : "warp width " + std::to_string(m.warp_width) + " read from the device (" +
                       trace.backend + "); 32 banks of 4 bytes and 32-byte sectors";
  return m;
}

void Counters::add(const Request& r) {
  accesses += r.lanes;
  if (r.space == Space::Shared) {
    (r.store ? shared_st_requests : shared_ld_requests) += 1;
    (r.store ? shared_st_wavefronts : shared_ld_wavefronts) += r.wavefronts;
    (r.store ? shared_st_ideal_wavefronts : shared_ld_ideal_wavefronts) += r.ideal_wavefronts;
  } else {
    (r.store ? global_st_requests : global_ld_requests) += 1;
    (r.store ? global_st_sectors : global_ld_sectors) += r.sectors;
    (r.store ? global_st_ideal_sectors : global_ld_ideal_sectors) += r.ideal_sectors;
  }
}

std::uint64_t SiteTotals::requests() const {
  const Counters& c = counters;
  if (space == Space::Shared) return store ? c.shared_st_requests : c.shared_ld_requests;
  return store ? c.global_st_requests : c.global_ld_requests;
}

std::uint64_t SiteTotals::work() const {
  const Counters& c = counters;
  if (space == Space::Shared) return store ? c.shared_st_wavefronts : c.shared_ld_wavefronts;
  return store ? c.global_st_sectors : c.global_ld_sectors;
}

std::uint64_t SiteTotals::ideal_work() const {
  const Counters& c = counters;
  if (space == Space::Shared) return store ? c.shared_st_ideal_wavefronts : c.shared_ld_ideal_wavefronts;
  return store ? c.global_st_ideal_sectors : c.global_ld_ideal_sectors;
}

const SiteTotals* Analysis::site_of(const Request& r) const {
  for (const SiteTotals& s : sites)
    if (s.line == r.line && s.space == r.space && s.store == r.store) return &s;
  return nullptr;
}

// Accesses wider than a bank are served a part of the warp at a time: as
// many lanes as fill the banks once (16 lanes of 8 bytes, 8 of 16 bytes).
// Within each part, a bank serves one distinct word per wavefront.
std::uint32_t shared_wavefronts(std::span<const std::uint64_t> offsets,
                                std::span<const std::uint16_t> lanes, std::uint32_t size,
                                const DeviceModel& model) {
  SmallSet words;
  return count_wavefronts(words, offsets, lanes, size, model).served;
}

std::uint32_t global_sectors(std::span<const std::uint64_t> offsets, std::uint32_t size,
                             const DeviceModel& model) {
  SmallSet sectors;
  return count_sectors(sectors, offsets, size, model);
}

std::uint16_t BarrierStats::most_often_last() const {
  return static_cast<std::uint16_t>(
      std::max_element(last_by_warp.begin(), last_by_warp.end()) - last_by_warp.begin());
}

double BarrierStats::most_often_last_share() const {
  if (passes == 0 || last_by_warp.empty()) return 0;
  return static_cast<double>(last_by_warp[most_often_last()]) / static_cast<double>(passes);
}

Analysis analyze(const Trace& t, const DeviceModel& model) {
  Analysis a;
  a.model = model;
  const auto& acc = t.accesses;
  const std::uint32_t warp = std::max<std::uint32_t>(1, model.warp_width);
  const std::uint32_t threads = std::max<std::uint32_t>(1, t.threads_per_block());
  a.whole_grid = t.traced_blocks.size() == t.block_count();

  // The work is split over the host's cores: a recording of millions of
  // records (threads that each walk a row) is analysed while the learner
  // waits. Each warp's requests depend on its own records only.
  const std::uint64_t n = acc.size();
  const std::uint32_t warps_per_block = (threads + warp - 1) / warp;
  auto lane_of = [&](const Access& x) { return std::min<std::uint32_t>(x.thread, threads - 1) % warp; };

  // The records of each traced block's warp together, in device order: a
  // stable counting sort, each part of the trace counting, then placing, its
  // own records. Records of untraced blocks are left out.
  std::vector<std::int32_t> block_slot(t.block_count(), -1);
  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k)
    if (t.traced_blocks[k] < block_slot.size()) block_slot[t.traced_blocks[k]] = static_cast<std::int32_t>(k);
  const std::uint64_t buckets = std::uint64_t{t.traced_blocks.size()} * warps_per_block;
  auto bucket_of = [&](const Access& x) -> std::int64_t {
    const std::int32_t slot = x.block < block_slot.size() ? block_slot[x.block] : -1;
    if (slot < 0) return -1;
    return std::int64_t{slot} * warps_per_block + std::min<std::uint32_t>(x.thread, threads - 1) / warp;
  };
  // No more parts than keep the per-part counts within the records' size.
  const std::uint64_t parts =
      std::max<std::uint64_t>(1, std::min(parallel_parts(n), n / std::max<std::uint64_t>(1, buckets)));
  auto part_range = [&](std::uint64_t part) {
    return std::pair<std::uint64_t, std::uint64_t>{n * part / parts, n * (part + 1) / parts};
  };
  std::vector<SiteKeySet> keys_seen(parts);
  std::vector<std::uint32_t> place(parts * buckets, 0);  // per part: its count, then where its next record goes
  parallel_each(parts, parts, [&](std::uint64_t, std::uint64_t part) {
    std::uint32_t* count = place.data() + part * buckets;
    const auto [begin, end] = part_range(part);
    for (std::uint64_t i = begin; i < end; ++i) {
      keys_seen[part].add(site_key(acc[i]));
      if (const std::int64_t b = bucket_of(acc[i]); b >= 0) ++count[b];
    }
  });

  // Access sites: (line, space, store), numbered in that order.
  for (std::size_t part = 1; part < parts; ++part) keys_seen[0].merge(keys_seen[part]);
  const std::vector<SiteKeySet::Site> site_keys = keys_seen[0].sites();
  std::vector<std::int32_t> site_lookup(kSiteKeys, -1);
  for (std::size_t id = 0; id < site_keys.size(); ++id) site_lookup[site_keys[id].key] = static_cast<std::int32_t>(id);
  const std::uint32_t site_count = static_cast<std::uint32_t>(site_keys.size());

  std::vector<std::uint32_t> bucket_start(buckets + 1, 0);
  std::uint32_t placed = 0;
  for (std::uint64_t b = 0; b < buckets; ++b) {
    bucket_start[b] = placed;
    for (std::uint64_t part = 0; part < parts; ++part) {
      const std::uint32_t count = place[part * buckets + b];
      place[part * buckets + b] = placed;
      placed += count;
    }
  }
  bucket_start[buckets] = placed;
  // Scratch kept per calling thread between calls: a view re-analysing
  // traces does not fault in fresh pages for it each time. (Named through
  // references: a lambda run on another thread would see that thread's own.)
  thread_local std::vector<std::uint32_t> kept_by_bucket, kept_request_of, kept_rank;
  std::vector<std::uint32_t>& by_bucket = kept_by_bucket;
  std::vector<std::uint32_t>& request_of = kept_request_of;
  std::vector<std::uint32_t>& rank = kept_rank;
  by_bucket.resize(placed);
  request_of.resize(placed);
  parallel_each(parts, parts, [&](std::uint64_t, std::uint64_t part) {
    std::uint32_t* next = place.data() + part * buckets;
    const auto [begin, end] = part_range(part);
    for (std::uint64_t i = begin; i < end; ++i)
      if (const std::int64_t b = bucket_of(acc[i]); b >= 0) by_bucket[next[b]++] = static_cast<std::uint32_t>(i);
  });

  // Requests, warp by warp: a lane's n-th execution of a site joins its
  // warp's n-th request there. A warp's requests keep their lanes in its
  // records' room in request_lanes, each request's together, in the order
  // they executed; each is measured while its warp's records are in cache.
  struct Worker {
    std::vector<Request> made;
    std::vector<std::uint32_t> executions, filled;
    std::vector<std::vector<std::uint32_t>> slots;
    std::unique_ptr<SmallSet> scratch = std::make_unique<SmallSet>();
    std::unique_ptr<SmallSet> addresses = std::make_unique<SmallSet>();
  };
  const std::uint64_t worker_count = std::min<std::uint64_t>(parallel_parts(n, std::uint64_t{1} << 15), buckets);
  std::vector<Worker> workers(std::max<std::uint64_t>(1, worker_count));
  a.request_lanes.resize(placed);
  auto measure = [&](Worker& me, Request& r) {
    std::array<std::uint64_t, kMaxLanes> offsets{};
    std::array<std::uint16_t, kMaxLanes> lanes{};
    const std::size_t count = r.lanes;
    me.addresses->clear();
    std::uint64_t distinct = 0;
    for (std::size_t j = 0; j < count; ++j) {
      const Access& x = acc[a.request_lanes[r.lanes_begin + j]];
      offsets[j] = x.space == Space::Global ? (std::uint64_t{x.buffer} << 56) | x.offset : x.offset;
      lanes[j] = static_cast<std::uint16_t>(lane_of(x));
      if (r.space == Space::Global) distinct += me.addresses->insert(offsets[j]);
    }
    if (r.space == Space::Shared) {
      const Wavefronts wf = count_wavefronts(*me.scratch, {offsets.data(), count}, {lanes.data(), count}, r.size, model);
      r.wavefronts = static_cast<std::uint16_t>(wf.served);
      r.ideal_wavefronts = static_cast<std::uint16_t>(wf.ideal);
    } else {
      r.sectors = static_cast<std::uint16_t>(count_sectors(*me.scratch, {offsets.data(), count}, r.size, model));
      const std::uint64_t bytes = distinct * std::uint64_t{r.size};
      r.ideal_sectors = static_cast<std::uint16_t>((bytes + model.sector_bytes - 1) / model.sector_bytes);
    }
  };
  parallel_each(buckets, workers.size(), [&](std::uint64_t w, std::uint64_t b) {
    Worker& me = workers[w];
    me.executions.assign(std::size_t{warp} * site_count, 0);
    me.slots.resize(site_count);
    for (auto& s : me.slots) s.clear();
    const std::uint32_t begin = bucket_start[b], end = bucket_start[b + 1];
    const std::size_t first = me.made.size();
    for (std::uint32_t p = begin; p < end; ++p) {
      const std::uint32_t i = by_bucket[p];
      const Access& x = acc[i];
      const auto site = static_cast<std::uint32_t>(site_lookup[site_key(x)]);
      const std::uint32_t k = me.executions[std::size_t{lane_of(x)} * site_count + site]++;
      std::vector<std::uint32_t>& slot = me.slots[site];
      if (k >= slot.size()) {
        Request r;
        r.first_access = i;
        r.block = x.block;
        r.warp = static_cast<std::uint16_t>(std::min<std::uint32_t>(x.thread, threads - 1) / warp);
        r.line = x.line;
        r.instance = k;
        r.space = x.space;
        r.store = x.store;
        r.size = x.size;
        slot.push_back(static_cast<std::uint32_t>(me.made.size()));
        me.made.push_back(r);
      }
      const std::uint32_t r = slot[k];
      request_of[p] = r;
      if (me.made[r].lanes < kMaxLanes) ++me.made[r].lanes;
    }
    std::uint32_t running = begin;
    for (std::size_t r = first; r < me.made.size(); ++r) {
      me.made[r].lanes_begin = running;
      running += me.made[r].lanes;
    }
    me.filled.assign(me.made.size() - first, 0);
    for (std::uint32_t p = begin; p < end; ++p) {
      Request& r = me.made[request_of[p]];
      std::uint32_t& f = me.filled[request_of[p] - first];
      if (f < r.lanes) a.request_lanes[r.lanes_begin + f++] = by_bucket[p];
    }
    for (std::size_t r = first; r < me.made.size(); ++r) measure(me, me.made[r]);
  });

  // Device order: by each request's earliest record. Those are distinct
  // record indexes, so each request's place is the number of requests that
  // start at an earlier record: a prefix count over the records, no sort.
  rank.assign(n, 0);
  for (const Worker& me : workers)
    for (const Request& r : me.made) rank[r.first_access] = 1;
  std::vector<std::uint32_t> part_base(parts + 1, 0);
  parallel_each(parts, parts, [&](std::uint64_t, std::uint64_t part) {
    const auto [begin, end] = part_range(part);
    part_base[part + 1] = static_cast<std::uint32_t>(std::accumulate(rank.begin() + begin, rank.begin() + end, 0u));
  });
  for (std::uint64_t part = 0; part < parts; ++part) part_base[part + 1] += part_base[part];
  parallel_each(parts, parts, [&](std::uint64_t, std::uint64_t part) {
    const auto [begin, end] = part_range(part);
    std::uint32_t running = part_base[part];
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::uint32_t starts = rank[i];
      rank[i] = running;
      running += starts;
    }
  });
  a.requests.resize(part_base[parts]);
  parallel_each(workers.size(), workers.size(), [&](std::uint64_t, std::uint64_t w) {
    for (const Request& r : workers[w].made) a.requests[rank[r.first_access]] = r;
  });

  // Totals: whole trace, per site, per block (dense tables: sites and traced
  // blocks are numbered already).
  std::vector<Counters> per_site(site_count);
  std::vector<Counters> per_block(t.traced_blocks.size());
  for (const Request& r : a.requests) {
    a.totals.add(r);
    per_site[static_cast<std::size_t>(site_lookup[site_key(r.line, r.space, r.store)])].add(r);
    per_block[static_cast<std::size_t>(block_slot[r.block])].add(r);
  }
  for (std::uint32_t id = 0; id < site_count; ++id) {
    if (per_site[id].accesses == 0) continue;
    const auto& [key, line, space, store] = site_keys[id];
    SiteTotals s{line, space, store, {}, per_site[id]};
    for (const AccessSite& declared : t.sites)
      if (declared.line == line && declared.space == space && declared.store == store) {
        s.text = declared.text;
        s.merged = declared.merged;
      }
    a.sites.push_back(std::move(s));
  }
  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k) a.blocks.push_back({t.traced_blocks[k], per_block[k]});

  // Barriers. The access pass gives each warp's place in the arrival order
  // and what it saw once released: the block's warps arrive at its n-th
  // barrier with ranks n*warps .. n*warps + warps - 1 (none can reach the
  // next one earlier). The clock pass, where there is one, gives the times,
  // joined by (block, pass through the barrier, warp, line).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const BarrierEvent*>> passes;
  for (const BarrierEvent& e : t.barriers)
    passes[{e.block, e.arrival_rank / warps_per_block}].push_back(&e);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const BarrierTiming*>> clocked;
  for (const BarrierTiming& b : t.barrier_timings) clocked[{b.block, b.pass}].push_back(&b);
  const bool timed = t.barrier_clock != "order";

  // One pass as the clock pass saw it.
  auto clock_pass = [&](std::pair<std::uint32_t, std::uint32_t> key,
                        std::vector<const BarrierTiming*> stamps) {
    BarrierPass p;
    p.block = key.first;
    p.instance = key.second;
    p.line = stamps.front()->line;
    p.warps = static_cast<std::uint32_t>(stamps.size());
    p.timed = p.from_clock_pass = true;
    std::sort(stamps.begin(), stamps.end(), [](const BarrierTiming* x, const BarrierTiming* y) {
      return x->arrival != y->arrival ? x->arrival < y->arrival : x->warp < y->warp;
    });
    bool one_line = true;
    p.first_release = UINT64_MAX;
    for (const BarrierTiming* b : stamps) {
      p.arrival_order.push_back(b->warp);
      one_line = one_line && b->line == p.line;
      p.first_release = std::min(p.first_release, b->release);
      p.last_release = std::max(p.last_release, b->release);
    }
    p.slowest_warp = p.arrival_order.back();
    p.first_arrival = stamps.front()->arrival;
    p.last_arrival = stamps.back()->arrival;
    p.release_after_arrivals = one_line && p.warps == warps_per_block && p.first_release >= p.last_arrival;
    return p;
  };

  for (auto& [key, events] : passes) {
    const auto stamps = clocked.find(key);
    const bool from_clock = stamps != clocked.end();
    BarrierPass p = from_clock ? clock_pass(key, stamps->second) : BarrierPass{};
    p.block = key.first;
    p.instance = key.second;
    if (!from_clock) {
      p.line = events.front()->line;
      p.warps = static_cast<std::uint32_t>(events.size());
      p.timed = timed;
      std::sort(events.begin(), events.end(), [&](const BarrierEvent* x, const BarrierEvent* y) {
        return timed && x->arrival != y->arrival ? x->arrival < y->arrival : x->arrival_rank < y->arrival_rank;
      });
      for (const BarrierEvent* e : events) p.arrival_order.push_back(e->warp);
      p.slowest_warp = p.arrival_order.back();
    }
    const std::uint64_t all_arrived = std::uint64_t{warps_per_block} * (p.instance + 1);
    bool saw_all = true;
    std::uint64_t first_release = UINT64_MAX, last_release = 0;
    for (const BarrierEvent* e : events) {
      saw_all = saw_all && e->seen_arrivals >= all_arrived;
      first_release = std::min(first_release, e->release);
      last_release = std::max(last_release, e->release);
    }
    if (from_clock) {
      // Both runs passed this barrier at the same line with the same warps.
      bool joined = events.size() == stamps->second.size();
      for (const BarrierEvent* e : events) {
        bool found = false;
        for (const BarrierTiming* b : stamps->second) found = found || (b->warp == e->warp && b->line == e->line);
        joined = joined && found;
      }
      p.release_after_arrivals = p.release_after_arrivals && saw_all && joined;
    } else if (timed) {
      p.first_arrival = events.front()->arrival;
      p.last_arrival = events.back()->arrival;
      p.first_release = first_release;
      p.last_release = last_release;
      p.release_after_arrivals =
          saw_all && p.warps == warps_per_block && p.first_release >= p.last_arrival;
    } else {
      p.first_arrival = events.front()->arrival_rank;
      p.last_arrival = events.back()->arrival_rank;
      p.release_after_arrivals = saw_all && p.warps == warps_per_block;
    }
    a.barriers_consistent = a.barriers_consistent && p.release_after_arrivals;
    a.barriers.push_back(std::move(p));
  }

  // The distribution: every pass of the clock pass's sample, else the traced ones.
  BarrierStats& st = a.barrier_stats;
  st.last_by_warp.assign(warps_per_block, 0);
  auto count = [&](const BarrierPass& p) {
    ++st.passes;
    st.spreads.push_back(p.spread());
    if (p.timed) st.release_latencies.push_back(p.release_latency());
    if (p.slowest_warp < st.last_by_warp.size()) ++st.last_by_warp[p.slowest_warp];
    st.release_after_arrivals = st.release_after_arrivals && p.release_after_arrivals;
  };
  std::set<std::uint32_t> blocks_seen;
  if (!t.barrier_pass_timings.empty()) {
    st.from = kClockPassName;
    st.timed = true;
    for (const BarrierPassTiming& p : t.barrier_pass_timings) {
      ++st.passes;
      st.spreads.push_back(p.spread);
      st.release_latencies.push_back(p.release_latency);
      if (p.slowest_warp < st.last_by_warp.size()) ++st.last_by_warp[p.slowest_warp];
      st.release_after_arrivals = st.release_after_arrivals && p.release_after_arrivals;
      blocks_seen.insert(p.block);
    }
  } else {
    st.from = kTracedPassName;
    st.timed = timed;
    for (const BarrierPass& p : a.barriers) {
      count(p);
      blocks_seen.insert(p.block);
    }
  }
  st.blocks = blocks_seen.size();
  std::sort(st.spreads.begin(), st.spreads.end());
  std::sort(st.release_latencies.begin(), st.release_latencies.end());
  a.barriers_consistent = a.barriers_consistent && st.release_after_arrivals;

  // Schedule: blocks per SM, and the most resident on one SM at once.
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, int>>> events_per_sm;
  a.kernel_start = UINT64_MAX;
  for (const BlockSchedule& s : t.schedule) {
    a.kernel_start = std::min(a.kernel_start, s.start);
    a.kernel_end = std::max(a.kernel_end, s.end);
    if (s.sm == kNoSm) continue;
    events_per_sm[s.sm].push_back({s.start, +1});
    events_per_sm[s.sm].push_back({s.end, -1});
  }
  if (t.schedule.empty()) a.kernel_start = 0;
  for (auto& [sm, events] : events_per_sm) {
    std::sort(events.begin(), events.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? x.first < y.first : x.second < y.second;  // ends first
    });
    SmLoad load{sm, static_cast<std::uint32_t>(events.size() / 2), 0};
    int now = 0;
    for (const auto& e : events) {
      now += e.second;
      load.most_at_once = std::max<std::uint32_t>(load.most_at_once, static_cast<std::uint32_t>(std::max(now, 0)));
    }
    a.sms.push_back(load);
  }
  return a;
}

}  // namespace threadmap::analysis
