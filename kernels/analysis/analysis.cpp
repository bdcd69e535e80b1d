#include "kernels/analysis/analysis.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

#include "kernels/core/parallel.h"

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
                            std::span<const std::uint16_t> lanes, std::uint32_t size, const DeviceModel& model) {
  const std::uint32_t words_per_lane = std::max<std::uint32_t>(1, size / model.bank_bytes);
  const std::uint32_t phase_lanes = lanes_per_phase(size, model);
  const std::uint32_t words_per_wavefront = std::max<std::uint32_t>(1, model.banks);
  Wavefronts total;
  std::array<std::uint32_t, 64> per_bank{};
  const std::uint32_t banks = std::min<std::uint32_t>(model.banks, 64);
  for (std::uint32_t phase = 0; phase < model.warp_width; phase += phase_lanes) {
    words.clear();
    std::fill(per_bank.begin(), per_bank.begin() + banks, 0);
    std::uint32_t most = 0, distinct = 0;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      if (lanes[i] < phase || lanes[i] >= phase + phase_lanes) continue;
      const std::uint64_t first_word = offsets[i] / model.bank_bytes;
      for (std::uint32_t k = 0; k < words_per_lane; ++k)
        if (words.insert(first_word + k)) {
          most = std::max(most, ++per_bank[(first_word + k) % banks]);
          ++distinct;
        }
    }
    total.served += most;
    total.ideal += (distinct + words_per_wavefront - 1) / words_per_wavefront;
    if (phase_lanes >= model.warp_width) break;
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

// Atomics, as Nsight Compute counts them on the H100 and H200 (bench/gpu/
// atomics_probe.cu measured each form; docs/traces.md). Shared: a count
// (add of 1, its old value unused: ATOMS.POPC.INC) needs a wavefront per
// distinct word of its busiest bank, as a load; any other operation one per
// lane of its busiest bank, lanes on one word included; a compare-and-swap
// twice that, its conflicts being lanes per bank less one. Global: each
// sector costs as many passes as its busiest word has lanes.
Wavefronts atomic_wavefronts(SmallSet& words, std::span<const std::uint64_t> offsets,
                             std::span<const std::uint16_t> lanes, const Request& r, const DeviceModel& model) {
  if (r.atomic == AtomicOp::AddOne && r.reduction) return count_wavefronts(words, offsets, lanes, r.size, model);
  std::array<std::uint32_t, kMaxLanes> per_bank{};
  std::uint32_t busiest = 0;
  const std::uint32_t banks = std::clamp<std::uint32_t>(model.banks, 1, kMaxLanes);
  for (std::uint64_t offset : offsets) {
    const std::uint64_t first = offset / model.bank_bytes;
    const std::uint64_t last = (offset + std::max<std::uint32_t>(r.size, 1) - 1) / model.bank_bytes;
    for (std::uint64_t w = first; w <= last && w < first + banks; ++w)
      busiest = std::max(busiest, ++per_bank[w % banks]);
  }
  if (r.atomic == AtomicOp::Cas) return {2 * busiest, busiest + 1};
  return {busiest, 1};
}

std::uint32_t atomic_sectors(std::span<const std::uint64_t> offsets, const DeviceModel& model) {
  std::array<std::uint64_t, kMaxLanes> sorted{};
  const std::size_t n = std::min(offsets.size(), sorted.size());
  std::copy_n(offsets.begin(), n, sorted.begin());
  std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n));
  std::uint32_t total = 0, sector_most = 0, run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool new_sector = i == 0 || sorted[i] / model.sector_bytes != sorted[i - 1] / model.sector_bytes;
    if (new_sector) {
      total += sector_most;
      sector_most = 0;
    }
    run = (!new_sector && sorted[i] == sorted[i - 1]) ? run + 1 : 1;
    sector_most = std::max(sector_most, run);
  }
  return total + sector_most;
}

// A traced block's threads as the model's warps see them.
struct WarpShape {
  std::uint32_t warp;     // lanes per warp
  std::uint32_t threads;  // per block
  std::uint32_t warps_per_block;

  WarpShape(const Trace& t, const DeviceModel& model)
      : warp(std::max<std::uint32_t>(1, model.warp_width)),
        threads(std::max<std::uint32_t>(1, t.threads_per_block())),
        warps_per_block((threads + warp - 1) / warp) {}
  std::uint32_t lane_of(const Access& x) const { return std::min<std::uint32_t>(x.thread, threads - 1) % warp; }
  std::uint32_t warp_of(const Access& x) const { return std::min<std::uint32_t>(x.thread, threads - 1) / warp; }
};

// The records split into contiguous parts, one per core: each part counts,
// then places, its own.
struct Partition {
  std::uint64_t records = 0;
  std::uint64_t parts = 1;
  std::pair<std::uint64_t, std::uint64_t> range(std::uint64_t part) const {
    return {records * part / parts, records * (part + 1) / parts};
  }
};

// Access sites: (line, space, store), numbered in that order.
struct SiteTable {
  std::vector<SiteKeySet::Site> keys;  // by number
  std::vector<std::int32_t> number;    // per site_key: its number, or -1
  std::uint32_t count() const { return static_cast<std::uint32_t>(keys.size()); }
};

SiteTable site_table(const SiteKeySet& seen) {
  SiteTable sites;
  sites.keys = seen.sites();
  sites.number.assign(kSiteKeys, -1);
  for (std::size_t id = 0; id < sites.keys.size(); ++id)
    sites.number[sites.keys[id].key] = static_cast<std::int32_t>(id);
  return sites;
}

// Scratch kept per calling thread between calls: a view re-analysing
// traces does not fault in fresh pages for it each time. (Named through
// references: a lambda run on another thread would see that thread's own.)
struct AnalysisScratch {
  std::vector<std::uint32_t> by_bucket, request_of, rank;
};

AnalysisScratch& analysis_scratch() {
  thread_local AnalysisScratch kept;
  return kept;
}

// The records of each traced block's warp together, in device order: a
// bucket per (traced block, warp). Records of untraced blocks are left out.
struct WarpRecords {
  Partition partition;
  SiteTable sites;
  std::vector<std::int32_t> block_slot;     // per block of the grid: its place among the traced blocks, or -1
  std::uint64_t buckets = 0;                // traced blocks x warps per block
  std::vector<std::uint32_t> bucket_start;  // per bucket, into by_bucket; then the records placed
  const std::vector<std::uint32_t>* by_bucket = nullptr;  // record indexes, bucket by bucket

  std::int64_t bucket_of(const Access& x, const WarpShape& shape) const {
    const std::int32_t slot = x.block < block_slot.size() ? block_slot[x.block] : -1;
    if (slot < 0) return -1;
    return std::int64_t{slot} * shape.warps_per_block + shape.warp_of(x);
  }
  std::uint32_t placed() const { return bucket_start[buckets]; }
};

// Each part's count per bucket, turned into where its first record of each
// bucket goes: buckets in order, within each the parts in order, so the
// records keep device order (a stable counting sort).
std::vector<std::uint32_t> bucket_starts(std::vector<std::uint32_t>& place, WarpRecords& records) {
  std::vector<std::uint32_t> bucket_start(records.buckets + 1, 0);
  const std::uint64_t parts = records.partition.parts;
  std::uint32_t placed = 0;
  for (std::uint64_t b = 0; b < records.buckets; ++b) {
    bucket_start[b] = placed;
    for (std::uint64_t part = 0; part < parts; ++part) {
      const std::uint32_t count = place[part * records.buckets + b];
      place[part * records.buckets + b] = placed;
      placed += count;
    }
  }
  bucket_start[records.buckets] = placed;
  return bucket_start;
}

// A stable counting sort, each part of the trace counting, then placing, its
// own records; on the way, the sites the records name.
WarpRecords group_by_warp(const Trace& t, const WarpShape& shape, std::vector<std::uint32_t>& by_bucket) {
  const auto& acc = t.accesses;
  WarpRecords records;
  records.block_slot.assign(t.block_count(), -1);
  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k)
    if (t.traced_blocks[k] < records.block_slot.size())
      records.block_slot[t.traced_blocks[k]] = static_cast<std::int32_t>(k);
  records.buckets = std::uint64_t{t.traced_blocks.size()} * shape.warps_per_block;
  const std::uint64_t buckets = records.buckets;
  // No more parts than keep the per-part counts within the records' size.
  const std::uint64_t n = acc.size();
  records.partition = {
      n, std::max<std::uint64_t>(1, std::min(parallel_parts(n), n / std::max<std::uint64_t>(1, buckets)))};
  const Partition& partition = records.partition;
  std::vector<SiteKeySet> keys_seen(partition.parts);
  std::vector<std::uint32_t> place(partition.parts * buckets,
                                   0);  // per part: its count, then where its next record goes
  parallel_each(partition.parts, partition.parts, [&](std::uint64_t, std::uint64_t part) {
    std::uint32_t* count = place.data() + part * buckets;
    const auto [begin, end] = partition.range(part);
    for (std::uint64_t i = begin; i < end; ++i) {
      keys_seen[part].add(site_key(acc[i]));
      if (const std::int64_t b = records.bucket_of(acc[i], shape); b >= 0) ++count[b];
    }
  });
  for (std::size_t part = 1; part < partition.parts; ++part) keys_seen[0].merge(keys_seen[part]);
  records.sites = site_table(keys_seen[0]);

  records.bucket_start = bucket_starts(place, records);
  by_bucket.resize(records.placed());
  parallel_each(partition.parts, partition.parts, [&](std::uint64_t, std::uint64_t part) {
    std::uint32_t* next = place.data() + part * buckets;
    const auto [begin, end] = partition.range(part);
    for (std::uint64_t i = begin; i < end; ++i)
      if (const std::int64_t b = records.bucket_of(acc[i], shape); b >= 0)
        by_bucket[next[b]++] = static_cast<std::uint32_t>(i);
  });
  records.by_bucket = &by_bucket;
  return records;
}

// One thread's requests and the scratch it measures them with.
struct RequestWorker {
  std::vector<Request> made;
  std::vector<std::uint32_t> executions, filled;
  std::vector<std::vector<std::uint32_t>> slots;
  std::unique_ptr<SmallSet> scratch = std::make_unique<SmallSet>();
  std::unique_ptr<SmallSet> addresses = std::make_unique<SmallSet>();
};

// A request's wavefronts (shared) or sectors (global), and their ideal, from
// its lanes' records.
void measure_request(Request& r, const Trace& t, const std::vector<std::uint32_t>& request_lanes,
                     const WarpShape& shape, const DeviceModel& model, RequestWorker& me) {
  std::array<std::uint64_t, kMaxLanes> offsets{};
  std::array<std::uint16_t, kMaxLanes> lanes{};
  const std::size_t count = r.lanes;
  me.addresses->clear();
  std::uint64_t distinct = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const Access& x = t.accesses[request_lanes[r.lanes_begin + j]];
    offsets[j] = x.space == Space::Global ? (std::uint64_t{x.buffer} << 56) | x.offset : x.offset;
    lanes[j] = static_cast<std::uint16_t>(shape.lane_of(x));
    if (r.space == Space::Global) distinct += me.addresses->insert(offsets[j]);
  }
  const bool atomic = r.atomic != AtomicOp::None;
  if (r.space == Space::Shared) {
    const Wavefronts wf =
        atomic ? atomic_wavefronts(*me.scratch, {offsets.data(), count}, {lanes.data(), count}, r, model)
               : count_wavefronts(*me.scratch, {offsets.data(), count}, {lanes.data(), count}, r.size, model);
    r.wavefronts = static_cast<std::uint16_t>(wf.served);
    r.ideal_wavefronts = static_cast<std::uint16_t>(wf.ideal);
  } else {
    r.sectors = static_cast<std::uint16_t>(atomic ? atomic_sectors({offsets.data(), count}, model)
                                                  : count_sectors(*me.scratch, {offsets.data(), count}, r.size, model));
    const std::uint64_t bytes = distinct * std::uint64_t{r.size};
    r.ideal_sectors = static_cast<std::uint16_t>((bytes + model.sector_bytes - 1) / model.sector_bytes);
  }
}

// Where a request's lanes go in request_lanes: its warp's records' room,
// each request's together, in the order they executed.
void place_request_lanes(RequestWorker& me, std::size_t first, std::uint32_t begin, std::uint32_t end,
                         const std::vector<std::uint32_t>& by_bucket, const std::vector<std::uint32_t>& request_of,
                         std::vector<std::uint32_t>& request_lanes) {
  std::uint32_t running = begin;
  for (std::size_t r = first; r < me.made.size(); ++r) {
    me.made[r].lanes_begin = running;
    running += me.made[r].lanes;
  }
  me.filled.assign(me.made.size() - first, 0);
  for (std::uint32_t p = begin; p < end; ++p) {
    Request& r = me.made[request_of[p]];
    std::uint32_t& f = me.filled[request_of[p] - first];
    if (f < r.lanes) request_lanes[r.lanes_begin + f++] = by_bucket[p];
  }
}

// One warp's requests (bucket b): a lane's n-th execution of a site joins
// its warp's n-th request there. Each is measured while its warp's records
// are in cache.
void build_warp_requests(std::uint64_t b, const Trace& t, const WarpShape& shape, const WarpRecords& records,
                         const DeviceModel& model, std::vector<std::uint32_t>& request_of,
                         std::vector<std::uint32_t>& request_lanes, RequestWorker& me) {
  const std::vector<std::uint32_t>& by_bucket = *records.by_bucket;
  const std::uint32_t site_count = records.sites.count();
  me.executions.assign(std::size_t{shape.warp} * site_count, 0);
  me.slots.resize(site_count);
  for (auto& s : me.slots) s.clear();
  const std::uint32_t begin = records.bucket_start[b], end = records.bucket_start[b + 1];
  const std::size_t first = me.made.size();
  for (std::uint32_t p = begin; p < end; ++p) {
    const std::uint32_t i = by_bucket[p];
    const Access& x = t.accesses[i];
    const auto site = static_cast<std::uint32_t>(records.sites.number[site_key(x)]);
    const std::uint32_t k = me.executions[std::size_t{shape.lane_of(x)} * site_count + site]++;
    std::vector<std::uint32_t>& slot = me.slots[site];
    if (k >= slot.size()) {
      Request r;
      r.first_access = i;
      r.block = x.block;
      r.warp = static_cast<std::uint16_t>(shape.warp_of(x));
      r.line = x.line;
      r.instance = k;
      r.space = x.space;
      r.store = x.store;
      r.atomic = x.atomic;
      r.reduction = x.reduction;
      r.size = x.size;
      slot.push_back(static_cast<std::uint32_t>(me.made.size()));
      me.made.push_back(r);
    }
    const std::uint32_t r = slot[k];
    request_of[p] = r;
    if (me.made[r].lanes < kMaxLanes) ++me.made[r].lanes;
  }
  place_request_lanes(me, first, begin, end, by_bucket, request_of, request_lanes);
  for (std::size_t r = first; r < me.made.size(); ++r) measure_request(me.made[r], t, request_lanes, shape, model, me);
}

// Requests, warp by warp, over the host's cores: each warp's requests
// depend on its own records only. request_lanes holds every request's lanes.
std::vector<RequestWorker> build_requests(const Trace& t, const WarpShape& shape, const WarpRecords& records,
                                          const DeviceModel& model, AnalysisScratch& scratch,
                                          std::vector<std::uint32_t>& request_lanes) {
  const std::uint64_t worker_count =
      std::min<std::uint64_t>(parallel_parts(t.accesses.size(), std::uint64_t{1} << 15), records.buckets);
  std::vector<RequestWorker> workers(std::max<std::uint64_t>(1, worker_count));
  scratch.request_of.resize(records.placed());
  request_lanes.resize(records.placed());
  parallel_each(records.buckets, workers.size(), [&](std::uint64_t w, std::uint64_t b) {
    build_warp_requests(b, t, shape, records, model, scratch.request_of, request_lanes, workers[w]);
  });
  return workers;
}

// Device order: by each request's earliest record. Those are distinct
// record indexes, so each request's place is the number of requests that
// start at an earlier record: a prefix count over the records, no sort.
std::vector<Request> in_device_order(const std::vector<RequestWorker>& workers, const Partition& partition,
                                     std::vector<std::uint32_t>& rank) {
  const std::uint64_t parts = partition.parts;
  rank.assign(partition.records, 0);
  for (const RequestWorker& me : workers)
    for (const Request& r : me.made) rank[r.first_access] = 1;
  std::vector<std::uint32_t> part_base(parts + 1, 0);
  parallel_each(parts, parts, [&](std::uint64_t, std::uint64_t part) {
    const auto [begin, end] = partition.range(part);
    part_base[part + 1] = static_cast<std::uint32_t>(std::accumulate(rank.begin() + begin, rank.begin() + end, 0u));
  });
  for (std::uint64_t part = 0; part < parts; ++part) part_base[part + 1] += part_base[part];
  parallel_each(parts, parts, [&](std::uint64_t, std::uint64_t part) {
    const auto [begin, end] = partition.range(part);
    std::uint32_t running = part_base[part];
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::uint32_t starts = rank[i];
      rank[i] = running;
      running += starts;
    }
  });
  std::vector<Request> requests(part_base[parts]);
  parallel_each(workers.size(), workers.size(), [&](std::uint64_t, std::uint64_t w) {
    for (const Request& r : workers[w].made) requests[rank[r.first_access]] = r;
  });
  return requests;
}

// Totals: whole trace, per site, per block (dense tables: sites and traced
// blocks are numbered already).
void count_totals(Analysis& a, const Trace& t, const WarpRecords& records) {
  const SiteTable& sites = records.sites;
  std::vector<Counters> per_site(sites.count());
  std::vector<Counters> per_block(t.traced_blocks.size());
  for (const Request& r : a.requests) {
    a.totals.add(r);
    per_site[static_cast<std::size_t>(sites.number[site_key(r.line, r.space, r.store, r.atomic != AtomicOp::None)])]
        .add(r);
    per_block[static_cast<std::size_t>(records.block_slot[r.block])].add(r);
  }
  for (std::uint32_t id = 0; id < sites.count(); ++id) {
    if (per_site[id].accesses == 0) continue;
    const auto& [key, line, space, store, atomic] = sites.keys[id];
    SiteTotals s{line, space, store, {}, per_site[id]};
    s.atomic = atomic;
    for (const AccessSite& declared : t.sites)
      if (declared.line == line && declared.space == space && declared.store == store && declared.atomic == atomic) {
        s.text = declared.text;
        s.merged = declared.merged;
      }
    a.sites.push_back(std::move(s));
  }
  for (std::size_t k = 0; k < t.traced_blocks.size(); ++k) a.blocks.push_back({t.traced_blocks[k], per_block[k]});
}

// A block's n-th barrier: (block, n).
using PassKey = std::pair<std::uint32_t, std::uint32_t>;

// One pass as the clock pass saw it.
BarrierPass clock_pass_of(PassKey key, std::vector<const BarrierTiming*> stamps, std::uint32_t warps_per_block) {
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
}

// Every warp saw all of the block's arrivals at this pass once released.
bool saw_all_arrivals(const std::vector<const BarrierEvent*>& events, PassKey key, std::uint32_t warps_per_block) {
  const std::uint64_t all_arrived = std::uint64_t{warps_per_block} * (key.second + 1);
  bool saw_all = true;
  for (const BarrierEvent* e : events) saw_all = saw_all && e->seen_arrivals >= all_arrived;
  return saw_all;
}

// One pass as the access pass saw it: its own stamps where they are clock
// readings, else places in the arrival order.
BarrierPass access_pass_of(PassKey key, std::vector<const BarrierEvent*>& events, std::uint32_t warps_per_block,
                           bool timed) {
  BarrierPass p;
  p.block = key.first;
  p.instance = key.second;
  p.line = events.front()->line;
  p.warps = static_cast<std::uint32_t>(events.size());
  p.timed = timed;
  std::sort(events.begin(), events.end(), [&](const BarrierEvent* x, const BarrierEvent* y) {
    return timed && x->arrival != y->arrival ? x->arrival < y->arrival : x->arrival_rank < y->arrival_rank;
  });
  for (const BarrierEvent* e : events) p.arrival_order.push_back(e->warp);
  p.slowest_warp = p.arrival_order.back();
  const bool saw_all = saw_all_arrivals(events, key, warps_per_block);
  if (timed) {
    std::uint64_t first_release = UINT64_MAX, last_release = 0;
    for (const BarrierEvent* e : events) {
      first_release = std::min(first_release, e->release);
      last_release = std::max(last_release, e->release);
    }
    p.first_arrival = events.front()->arrival;
    p.last_arrival = events.back()->arrival;
    p.first_release = first_release;
    p.last_release = last_release;
    p.release_after_arrivals = saw_all && p.warps == warps_per_block && p.first_release >= p.last_arrival;
  } else {
    p.first_arrival = events.front()->arrival_rank;
    p.last_arrival = events.back()->arrival_rank;
    p.release_after_arrivals = saw_all && p.warps == warps_per_block;
  }
  return p;
}

// Both runs passed this barrier at the same line with the same warps.
bool joined(const std::vector<const BarrierEvent*>& events, const std::vector<const BarrierTiming*>& stamps) {
  bool all = events.size() == stamps.size();
  for (const BarrierEvent* e : events) {
    bool found = false;
    for (const BarrierTiming* b : stamps) found = found || (b->warp == e->warp && b->line == e->line);
    all = all && found;
  }
  return all;
}

// Barriers. The access pass gives each warp's place in the arrival order
// and what it saw once released: the block's warps arrive at its n-th
// barrier with ranks n*warps .. n*warps + warps - 1 (none can reach the
// next one earlier). The clock pass, where there is one, gives the times,
// joined by (block, pass through the barrier, warp, line).
std::vector<BarrierPass> barrier_passes(const Trace& t, std::uint32_t warps_per_block, bool timed) {
  std::map<PassKey, std::vector<const BarrierEvent*>> passes;
  for (const BarrierEvent& e : t.barriers) passes[{e.block, e.arrival_rank / warps_per_block}].push_back(&e);
  std::map<PassKey, std::vector<const BarrierTiming*>> clocked;
  for (const BarrierTiming& b : t.barrier_timings) clocked[{b.block, b.pass}].push_back(&b);
  std::vector<BarrierPass> out;
  for (auto& [key, events] : passes) {
    const auto stamps = clocked.find(key);
    if (stamps == clocked.end()) {
      out.push_back(access_pass_of(key, events, warps_per_block, timed));
      continue;
    }
    BarrierPass p = clock_pass_of(key, stamps->second, warps_per_block);
    p.release_after_arrivals =
        p.release_after_arrivals && saw_all_arrivals(events, key, warps_per_block) && joined(events, stamps->second);
    out.push_back(std::move(p));
  }
  return out;
}

// The distribution: every pass of the clock pass's sample, else the traced ones.
BarrierStats barrier_stats_of(const Trace& t, const std::vector<BarrierPass>& passes, std::uint32_t warps_per_block,
                              bool timed) {
  BarrierStats st;
  st.last_by_warp.assign(warps_per_block, 0);
  auto count = [&](std::uint64_t spread, std::optional<std::uint64_t> release_latency, std::uint16_t slowest_warp,
                   bool release_after_arrivals) {
    ++st.passes;
    st.spreads.push_back(spread);
    if (release_latency) st.release_latencies.push_back(*release_latency);
    if (slowest_warp < st.last_by_warp.size()) ++st.last_by_warp[slowest_warp];
    st.release_after_arrivals = st.release_after_arrivals && release_after_arrivals;
  };
  std::set<std::uint32_t> blocks_seen;
  if (!t.barrier_pass_timings.empty()) {
    st.from = kClockPassName;
    st.timed = true;
    for (const BarrierPassTiming& p : t.barrier_pass_timings) {
      count(p.spread, p.release_latency, p.slowest_warp, p.release_after_arrivals);
      blocks_seen.insert(p.block);
    }
  } else {
    st.from = kTracedPassName;
    st.timed = timed;
    for (const BarrierPass& p : passes) {
      count(p.spread(), p.timed ? std::optional<std::uint64_t>(p.release_latency()) : std::nullopt, p.slowest_warp,
            p.release_after_arrivals);
      blocks_seen.insert(p.block);
    }
  }
  st.blocks = blocks_seen.size();
  std::sort(st.spreads.begin(), st.spreads.end());
  std::sort(st.release_latencies.begin(), st.release_latencies.end());
  return st;
}

// Schedule: the kernel's span, blocks per SM, and the most resident on one
// SM at once.
void measure_schedule(const std::vector<BlockSchedule>& schedule, Analysis& a) {
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, int>>> events_per_sm;
  a.kernel_start = UINT64_MAX;
  for (const BlockSchedule& s : schedule) {
    a.kernel_start = std::min(a.kernel_start, s.start);
    a.kernel_end = std::max(a.kernel_end, s.end);
    if (s.sm == kNoSm) continue;
    events_per_sm[s.sm].push_back({s.start, +1});
    events_per_sm[s.sm].push_back({s.end, -1});
  }
  if (schedule.empty()) a.kernel_start = 0;
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
}

}  // namespace

void release_analysis_scratch() { analysis_scratch() = {}; }

DeviceModel model_for(const Trace& trace) {
  DeviceModel m;
  m.warp_width = std::clamp<std::uint32_t>(trace.warp_width, 1, kMaxLanes);
  m.source = trace.warp_width_assumed ? "warp width " + std::to_string(m.warp_width) +
                                            " assumed (the device does not report one); 32 banks of 4 bytes and "
                                            "32-byte sectors, as on NVIDIA GPUs"
                                      : "warp width " + std::to_string(m.warp_width) + " read from the device (" +
                                            trace.backend + "); 32 banks of 4 bytes and 32-byte sectors";
  return m;
}

void Counters::add(const Request& r) {
  accesses += r.lanes;
  if (r.atomic != AtomicOp::None) {
    add_atomic(r);
  } else if (r.space == Space::Shared) {
    (r.store ? shared_st_requests : shared_ld_requests) += 1;
    (r.store ? shared_st_lanes : shared_ld_lanes) += r.lanes;
    (r.store ? shared_st_wavefronts : shared_ld_wavefronts) += r.wavefronts;
    (r.store ? shared_st_ideal_wavefronts : shared_ld_ideal_wavefronts) += r.ideal_wavefronts;
  } else {
    (r.store ? global_st_requests : global_ld_requests) += 1;
    (r.store ? global_st_lanes : global_ld_lanes) += r.lanes;
    (r.store ? global_st_sectors : global_ld_sectors) += r.sectors;
    (r.store ? global_st_ideal_sectors : global_ld_ideal_sectors) += r.ideal_sectors;
  }
}

void Counters::add_atomic(const Request& r) {
  if (r.space == Space::Shared) {
    shared_atom_requests += 1;
    shared_atom_wavefronts += r.wavefronts;
    shared_atom_ideal_wavefronts += r.ideal_wavefronts;
  } else {
    (r.reduction ? global_red_requests : global_atom_requests) += 1;
    (r.reduction ? global_red_sectors : global_atom_sectors) += r.sectors;
    (r.reduction ? global_red_ideal_sectors : global_atom_ideal_sectors) += r.ideal_sectors;
  }
}

std::uint64_t SiteTotals::requests() const {
  const Counters& c = counters;
  if (atomic) return space == Space::Shared ? c.shared_atom_requests : c.global_atom_requests + c.global_red_requests;
  if (space == Space::Shared) return store ? c.shared_st_requests : c.shared_ld_requests;
  return store ? c.global_st_requests : c.global_ld_requests;
}

std::uint64_t SiteTotals::work() const {
  const Counters& c = counters;
  if (atomic) return space == Space::Shared ? c.shared_atom_wavefronts : c.global_atom_sectors + c.global_red_sectors;
  if (space == Space::Shared) return store ? c.shared_st_wavefronts : c.shared_ld_wavefronts;
  return store ? c.global_st_sectors : c.global_ld_sectors;
}

std::uint64_t SiteTotals::ideal_work() const {
  const Counters& c = counters;
  if (atomic)
    return space == Space::Shared ? c.shared_atom_ideal_wavefronts
                                  : c.global_atom_ideal_sectors + c.global_red_ideal_sectors;
  if (space == Space::Shared) return store ? c.shared_st_ideal_wavefronts : c.shared_ld_ideal_wavefronts;
  return store ? c.global_st_ideal_sectors : c.global_ld_ideal_sectors;
}

const SiteTotals* Analysis::site_of(const Request& r) const {
  const bool atomic = r.atomic != AtomicOp::None;
  for (const SiteTotals& s : sites)
    if (s.line == r.line && s.space == r.space && s.store == r.store && s.atomic == atomic) return &s;
  return nullptr;
}

// Accesses wider than a bank are served half a warp at a time
// (lanes_per_phase); within each half, a bank serves one distinct word per
// wavefront.
std::uint32_t shared_wavefronts(std::span<const std::uint64_t> offsets, std::span<const std::uint16_t> lanes,
                                std::uint32_t size, const DeviceModel& model) {
  SmallSet words;
  return count_wavefronts(words, offsets, lanes, size, model).served;
}

std::uint32_t global_sectors(std::span<const std::uint64_t> offsets, std::uint32_t size, const DeviceModel& model) {
  SmallSet sectors;
  return count_sectors(sectors, offsets, size, model);
}

std::uint32_t lanes_per_phase(std::uint32_t size, const DeviceModel& model) {
  const std::uint32_t warp = std::max<std::uint32_t>(1, model.warp_width);
  return size > model.bank_bytes ? std::max<std::uint32_t>(1, warp / 2) : warp;
}

std::uint32_t shared_atomic_wavefronts(std::span<const std::uint64_t> offsets, std::span<const std::uint16_t> lanes,
                                       std::uint32_t size, AtomicOp op, bool reduction, const DeviceModel& model) {
  SmallSet words;
  Request r;
  r.atomic = op;
  r.reduction = reduction;
  r.size = static_cast<std::uint8_t>(size);
  return atomic_wavefronts(words, offsets, lanes, r, model).served;
}

std::uint32_t global_atomic_sectors(std::span<const std::uint64_t> offsets, const DeviceModel& model) {
  return atomic_sectors(offsets, model);
}

std::uint16_t BarrierStats::most_often_last() const {
  return static_cast<std::uint16_t>(std::max_element(last_by_warp.begin(), last_by_warp.end()) - last_by_warp.begin());
}

double BarrierStats::most_often_last_share() const {
  if (passes == 0 || last_by_warp.empty()) return 0;
  return static_cast<double>(last_by_warp[most_often_last()]) / static_cast<double>(passes);
}

Analysis analyze(const Trace& t, const DeviceModel& model) {
  Analysis a;
  a.model = model;
  a.whole_grid = t.traced_blocks.size() == t.block_count();
  a.grid = t.grid;
  const WarpShape shape(t, model);
  AnalysisScratch& scratch = analysis_scratch();
  const WarpRecords records = group_by_warp(t, shape, scratch.by_bucket);
  const std::vector<RequestWorker> workers = build_requests(t, shape, records, model, scratch, a.request_lanes);
  a.requests = in_device_order(workers, records.partition, scratch.rank);
  count_totals(a, t, records);
  a.totals.runtime = t.runtime_accesses;

  const bool timed = t.barrier_clock != "order";
  a.barriers = barrier_passes(t, shape.warps_per_block, timed);
  for (const BarrierPass& p : a.barriers) a.barriers_consistent = a.barriers_consistent && p.release_after_arrivals;
  a.barrier_stats = barrier_stats_of(t, a.barriers, shape.warps_per_block, timed);
  a.barriers_consistent = a.barriers_consistent && a.barrier_stats.release_after_arrivals;

  measure_schedule(t.schedule, a);
  a.problems = find_problems(t);
  a.totals.shared_ld_exchanged = a.problems.shared_loads_exchanged;
  return a;
}

}  // namespace threadmap::analysis
