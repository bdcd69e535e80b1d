#include "viz/analysis/analysis.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <tuple>

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

  // Access sites: (line, space, store), numbered densely.
  std::vector<std::int16_t> site_lookup(std::size_t{65536} * 4, -1);
  auto site_key = [](const Access& x) {
    return std::size_t{x.line} * 4 + (x.space == Space::Shared ? 2 : 0) + (x.store ? 1 : 0);
  };
  std::uint32_t site_count = 0;

  // The records of each block together, in device order (a stable bucket sort).
  std::vector<std::int32_t> block_slot(t.block_count(), -1);
  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k)
    if (t.traced_blocks[k] < block_slot.size()) block_slot[t.traced_blocks[k]] = static_cast<std::int32_t>(k);
  // Scratch kept per thread between calls: a view re-analysing traces does
  // not fault in fresh pages for it each time. The records are read once
  // here; the scatter reads only their block numbers.
  thread_local std::vector<std::int32_t> slot_of;
  thread_local std::vector<std::int16_t> site_of;
  thread_local std::vector<std::uint32_t> by_block;
  slot_of.resize(acc.size());
  site_of.resize(acc.size());
  std::vector<std::uint32_t> bucket_start(t.traced_blocks.size() + 1, 0);
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const Access& x = acc[i];
    std::int16_t& site = site_lookup[site_key(x)];
    if (site < 0 && site_count < 32767) site = static_cast<std::int16_t>(site_count++);
    site_of[i] = site;
    const std::int32_t slot = x.block < block_slot.size() ? block_slot[x.block] : -1;
    slot_of[i] = slot;
    if (slot >= 0) ++bucket_start[static_cast<std::size_t>(slot) + 1];
  }
  for (std::size_t k = 1; k < bucket_start.size(); ++k) bucket_start[k] += bucket_start[k - 1];
  by_block.resize(bucket_start.back());
  {
    std::vector<std::uint32_t> fill(bucket_start.begin(), bucket_start.end() - 1);
    for (std::uint32_t i = 0; i < acc.size(); ++i)
      if (slot_of[i] >= 0) by_block[fill[static_cast<std::size_t>(slot_of[i])]++] = i;
  }

  // Requests, block by block: a lane's n-th execution of a site joins its
  // warp's n-th request there. Each request's lanes go to request_lanes
  // together, in the order they executed.
  std::vector<Request> made;
  made.reserve(acc.size() / 16 + 16);
  const std::uint32_t warps_per_block = (threads + warp - 1) / warp;
  std::vector<std::uint32_t> executions(std::size_t{threads} * site_count);
  std::vector<std::vector<std::uint32_t>> slots(std::size_t{warps_per_block} * site_count);
  std::vector<std::uint32_t> request_of_record, filled;
  a.request_lanes.reserve(by_block.size());
  // The current block's records, compacted once when first read: what the
  // measuring needs (address key, lane) and where each request's lanes are.
  std::vector<std::uint64_t> block_key;
  std::vector<std::uint16_t> block_lane;
  std::vector<std::uint32_t> lane_position;
  std::uint32_t block_lanes_begin = 0;

  // Each request's wavefronts or sectors, measured while its block's records
  // are still in cache.
  std::array<std::uint64_t, kMaxLanes> offsets{};
  std::array<std::uint16_t, kMaxLanes> lanes{};
  auto scratch = std::make_unique<SmallSet>();
  auto addresses = std::make_unique<SmallSet>();
  auto measure = [&](Request& r) {
    const std::size_t n = r.lanes;
    addresses->clear();
    std::uint64_t distinct = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint32_t pos = lane_position[r.lanes_begin - block_lanes_begin + j];
      offsets[j] = block_key[pos];
      lanes[j] = block_lane[pos];
      if (r.space == Space::Global) distinct += addresses->insert(offsets[j]);
    }
    if (r.space == Space::Shared) {
      const Wavefronts wf = count_wavefronts(*scratch, {offsets.data(), n}, {lanes.data(), n}, r.size, model);
      r.wavefronts = static_cast<std::uint16_t>(wf.served);
      r.ideal_wavefronts = static_cast<std::uint16_t>(wf.ideal);
    } else {
      r.sectors = static_cast<std::uint16_t>(count_sectors(*scratch, {offsets.data(), n}, r.size, model));
      const std::uint64_t bytes = distinct * std::uint64_t{r.size};
      r.ideal_sectors = static_cast<std::uint16_t>((bytes + model.sector_bytes - 1) / model.sector_bytes);
    }
  };

  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k) {
    std::fill(executions.begin(), executions.end(), 0);
    for (auto& s : slots) s.clear();
    const std::uint32_t begin = bucket_start[k], end = bucket_start[k + 1];
    const std::size_t first_request = made.size();
    request_of_record.resize(end - begin);
    block_key.resize(end - begin);
    block_lane.resize(end - begin);
    for (std::uint32_t p = begin; p < end; ++p) {
      const std::uint32_t i = by_block[p];
      const Access& x = acc[i];
      const std::uint32_t site = static_cast<std::uint32_t>(site_of[i]);
      const std::uint32_t thread = std::min<std::uint32_t>(x.thread, threads - 1);
      block_key[p - begin] = x.space == Space::Global ? (std::uint64_t{x.buffer} << 56) | x.offset : x.offset;
      block_lane[p - begin] = static_cast<std::uint16_t>(thread % warp);
      const std::uint32_t n = executions[std::size_t{thread} * site_count + site]++;
      auto& slot = slots[std::size_t{thread / warp} * site_count + site];
      if (n >= slot.size()) {
        Request r;
        r.first_access = i;
        r.block = x.block;
        r.warp = static_cast<std::uint16_t>(thread / warp);
        r.line = x.line;
        r.instance = n;
        r.space = x.space;
        r.store = x.store;
        r.size = x.size;
        slot.push_back(static_cast<std::uint32_t>(made.size()));
        made.push_back(r);
      }
      const std::uint32_t r = slot[n];
      request_of_record[p - begin] = r;
      if (made[r].lanes < kMaxLanes) ++made[r].lanes;
    }
    block_lanes_begin = static_cast<std::uint32_t>(a.request_lanes.size());
    std::uint32_t running = block_lanes_begin;
    for (std::size_t r = first_request; r < made.size(); ++r) {
      made[r].lanes_begin = running;
      running += made[r].lanes;
    }
    a.request_lanes.resize(running);
    lane_position.resize(running - block_lanes_begin);
    filled.assign(made.size() - first_request, 0);
    for (std::uint32_t p = begin; p < end; ++p) {
      const std::uint32_t r = request_of_record[p - begin];
      std::uint32_t& f = filled[r - first_request];
      if (f < made[r].lanes) {
        lane_position[made[r].lanes_begin - block_lanes_begin + f] = p - begin;
        a.request_lanes[made[r].lanes_begin + f++] = by_block[p];
      }
    }
    for (std::size_t r = first_request; r < made.size(); ++r) measure(made[r]);
  }

  // Device order: by each request's earliest record. Those are distinct
  // record indexes, so a pass over a table indexed by them orders the
  // requests without a sort (the block bucket's scratch is free again).
  by_block.assign(acc.size(), 0);
  for (std::uint32_t r = 0; r < made.size(); ++r) by_block[made[r].first_access] = r + 1;
  a.requests.reserve(made.size());
  for (std::uint32_t slot : by_block)
    if (slot) a.requests.push_back(made[slot - 1]);

  // Totals: whole trace, per site, per block (dense tables: sites and traced
  // blocks are numbered already).
  std::vector<Counters> per_site(site_count);
  std::vector<Counters> per_block(t.traced_blocks.size());
  for (const Request& r : a.requests) {
    a.totals.add(r);
    const std::size_t key = std::size_t{r.line} * 4 + (r.space == Space::Shared ? 2 : 0) + (r.store ? 1 : 0);
    per_site[static_cast<std::size_t>(site_lookup[key])].add(r);
    per_block[static_cast<std::size_t>(block_slot[r.block])].add(r);
  }
  std::map<std::tuple<std::uint16_t, Space, bool>, std::uint32_t> sites_in_order;
  for (std::size_t key = 0; key < site_lookup.size(); ++key)
    if (site_lookup[key] >= 0)
      sites_in_order[{static_cast<std::uint16_t>(key / 4), (key & 2) ? Space::Shared : Space::Global, (key & 1) != 0}] =
          static_cast<std::uint32_t>(site_lookup[key]);
  for (const auto& [site, id] : sites_in_order) {
    const auto& [line, space, store] = site;
    if (per_site[id].accesses == 0) continue;
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
