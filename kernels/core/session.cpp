#include "kernels/core/session.h"
#include "kernels/core/sources.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "kernels/core/bounded_json.h"
#include "kernels/core/bulk_allocator.h"
#include "kernels/core/parallel.h"
#include "kernels/core/report.h"
#include "kernels/core/trace_format.h"

namespace threadmap {

namespace {

using json = nlohmann::json;

constexpr const char* kFormatName = "threadmap-session";
constexpr std::size_t kMaxDepth = 32;
constexpr std::size_t kAccessBytes = 20;
constexpr std::size_t kBarrierBytes = 32;
constexpr std::size_t kScheduleBytes = 20;
constexpr std::size_t kTimingBytes = 28;
constexpr std::size_t kPassTimingBytes = 24;
constexpr std::size_t kMarkBytes = 4;
constexpr std::size_t kStrayBytes = 32;

// Little-endian packing of the bulk records (CBOR byte strings): compact, and
// their length alone bounds what a reader allocates.
class Packer {
 public:
  // Room for `bytes` more, made once: a trace's millions of records are
  // then written in place, with no growth check that reallocates.
  void reserve(std::size_t bytes) {
    if (used_ + bytes <= bytes_.size()) return;
    reserve_on_huge_pages(bytes_, used_ + bytes);  // a 100 MB trace: fifty page faults, not 25000
    bytes_.resize(used_ + bytes);
  }
  template <class T>
  void put(T v) {
    if (used_ + sizeof(T) > bytes_.size()) bytes_.resize(std::max(2 * bytes_.size(), used_ + sizeof(T)));
    used_ = put_at(bytes_.data(), used_, v);
  }
  // `bytes` more, to be written by the caller (put_at), in parallel if it likes.
  std::uint8_t* room(std::size_t bytes) {
    reserve(bytes);
    std::uint8_t* at = bytes_.data() + used_;
    used_ += bytes;
    return at;
  }
  // Writes v at `at`, little-endian; returns the offset after it.
  template <class T>
  static std::size_t put_at(std::uint8_t* out, std::size_t at, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
      out[at + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i));
    return at + sizeof(T);
  }
  // A CBOR byte string holding what was put, moved, not copied.
  json take() {
    bytes_.resize(used_);
    used_ = 0;
    return json::binary(std::move(bytes_));
  }

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t used_ = 0;
};

class Unpacker {
 public:
  explicit Unpacker(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t{bytes_[at_ + i]} << (8 * i);
    at_ += sizeof(T);
    return static_cast<T>(v);
  }

 private:
  const std::vector<std::uint8_t>& bytes_;
  std::size_t at_ = 0;
};

std::string_view space_name(Space s) { return s == Space::Shared ? "shared" : "global"; }

// An access's last byte: its atomic operation (0: a load or store), and 16
// for a reduction. Recordings made before atomics were traced have 0 there.
std::uint8_t atomic_byte(const Access& a) {
  return static_cast<std::uint8_t>(static_cast<unsigned>(a.atomic) | (a.reduction ? 16u : 0u));
}

// Reads atomic_byte's byte into `a`; false for an operation that is none.
bool set_atomic(Access& a, std::uint8_t byte) {
  const unsigned op = byte & 15u;
  if (op >= kAtomicOps || byte > 31 || (op == 0 && byte != 0)) return false;
  a.atomic = static_cast<AtomicOp>(op);
  a.reduction = (byte & 16u) != 0;
  return a.atomic == AtomicOp::None || a.store;
}

// One access record, kAccessBytes at `at`.
void pack_access(std::uint8_t* packed, std::size_t at, const Access& a) {
  at = Packer::put_at(packed, at, std::uint64_t{a.offset});
  at = Packer::put_at(packed, at, a.block);
  at = Packer::put_at(packed, at, a.thread);
  at = Packer::put_at(packed, at, a.line);
  at = Packer::put_at(packed, at, static_cast<std::uint8_t>(a.buffer));
  at = Packer::put_at(packed, at, static_cast<std::uint8_t>(a.size));
  at = Packer::put_at(packed, at, static_cast<std::uint8_t>((a.store ? 1 : 0) | (a.space == Space::Shared ? 2 : 0)));
  Packer::put_at(packed, at, atomic_byte(a));
}

json encode_trace(const Trace& t) {
  Packer blocks, accesses, barriers, schedule, timings, pass_timings, traced_schedule, marks, strays;
  for (std::uint32_t b : t.traced_blocks) blocks.put(b);
  // Millions of records, each at a fixed place: packed over the host's cores.
  std::uint8_t* packed = accesses.room(t.accesses.size() * kAccessBytes);
  parallel_for(t.accesses.size(), [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t k = first; k < last; ++k) pack_access(packed, k * kAccessBytes, t.accesses[k]);
  });
  for (const StrayAccess& stray : t.strays) {
    std::uint8_t* at = strays.room(kStrayBytes);
    pack_access(at, 0, stray.access);
    Packer::put_at(at, Packer::put_at(at, kAccessBytes, stray.offset), stray.position);
  }
  for (const BarrierEvent& e : t.barriers) {
    barriers.put(e.block);
    barriers.put(e.warp);
    barriers.put(e.line);
    barriers.put(e.arrival_rank);
    barriers.put(e.seen_arrivals);
    barriers.put(e.arrival);
    barriers.put(e.release);
    marks.put(e.accesses_before);
  }
  auto put_schedule = [](Packer& out, const std::vector<BlockSchedule>& blocks) {
    for (const BlockSchedule& s : blocks) {
      out.put(s.start);
      out.put(s.end);
      out.put(s.sm);
    }
  };
  put_schedule(schedule, t.schedule);
  put_schedule(traced_schedule, t.traced_schedule);
  for (const BarrierPassTiming& p : t.barrier_pass_timings) {
    pass_timings.put(p.block);
    pass_timings.put(p.pass);
    pass_timings.put(p.line);
    pass_timings.put(p.slowest_warp);
    pass_timings.put(p.spread);
    pass_timings.put(p.release_latency);
    pass_timings.put(std::uint32_t{p.release_after_arrivals ? 1u : 0u});
  }
  for (const BarrierTiming& b : t.barrier_timings) {
    timings.put(b.block);
    timings.put(b.warp);
    timings.put(b.line);
    timings.put(b.pass);
    timings.put(b.arrival);
    timings.put(b.release);
  }
  json buffers = json::array();
  for (const TracedBuffer& b : t.buffers)
    buffers.push_back({{"name", b.name},
                       {"role", b.role},
                       {"type", element_name(b.type)},
                       {"bytes", b.bytes},
                       {"row", b.row_elements},
                       {"argument", b.argument == TracedBuffer::kNotPassed ? json(nullptr) : json(b.argument)}});
  json sites = json::array();
  for (const AccessSite& s : t.sites) {
    json site = {{"line", s.line}, {"space", space_name(s.space)}, {"store", s.store}, {"text", s.text}};
    if (s.merged > 1) site["merged"] = s.merged;
    if (s.atomic) site["atomic"] = true;
    sites.push_back(std::move(site));
  }
  json out = {{"kernel_id", t.kernel_id},
              {"kernel", t.kernel},
              {"source_file", t.source_file},
              {"backend", t.backend},
              {"grid", t.grid},
              {"block", t.block},
              {"launch", t.launch},
              {"warp_width", t.warp_width},
              {"warp_width_assumed", t.warp_width_assumed},
              {"schedule_clock", t.schedule_clock},
              {"barrier_clock", t.barrier_clock},
              {"buffers", buffers},
              {"tile", t.tile ? json{{"rows", t.tile->rows}, {"cols", t.tile->cols}, {"data_cols", t.tile->data_cols}}
                              : json(nullptr)},
              {"sites", sites},
              {"traced_blocks", blocks.take()},
              {"accesses", nullptr},
              {"barriers", barriers.take()},
              {"schedule", schedule.take()},
              {"timing_pass", t.timing_pass},
              {"sm_clock_mhz", t.sm_clock_mhz},
              {"clock_block_stride", t.clock_block_stride},
              {"clock_passes_dropped", t.clock_passes_dropped},
              {"barrier_pass_timings", pass_timings.take()},
              {"barrier_timings", timings.take()},
              {"traced_schedule", traced_schedule.take()}};
  // Since the problems (kernels/analysis/problems.h): where each barrier falls
  // among the accesses, and the accesses in no buffer.
  if (!t.barriers.empty() && t.barriers.front().accesses_before != BarrierEvent::kNoAccessMark)
    out["barrier_marks"] = marks.take();
  if (!t.strays.empty()) out["strays"] = strays.take();
  if (t.runtime_accesses.any()) {
    const RuntimeAccesses& r = t.runtime_accesses;
    out["runtime_accesses"] = {{"ld_requests", r.ld_requests},
                               {"ld_sectors", r.ld_sectors},
                               {"st_requests", r.st_requests},
                               {"st_sectors", r.st_sectors}};
  }
  out["accesses"] = accesses.take();  // the bulk, moved in (an initializer list copies)
  return out;
}

// Reading: every field is looked up and type-checked; the first problem is
// reported with its path.
[[noreturn]] void bad(const std::string& what) { throw SessionError("not a valid session file: " + what); }

const json& field(const json& object, const char* name, const std::string& where) {
  if (!object.is_object()) bad(where + " is not a map");
  const auto it = object.find(name);
  if (it == object.end()) bad(where + "." + name + " is missing");
  return *it;
}

std::string text(const json& object, const char* name, const std::string& where) {
  const json& v = field(object, name, where);
  if (!v.is_string()) bad(where + "." + name + " is not text");
  return v.get<std::string>();
}

std::uint64_t number(const json& object, const char* name, const std::string& where, std::uint64_t max) {
  const json& v = field(object, name, where);
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    bad(where + "." + name + " is not a whole number");
  const std::uint64_t n = v.get<std::uint64_t>();
  if (n > max) bad(where + "." + name + " = " + std::to_string(n) + " is over the limit of " + std::to_string(max));
  return n;
}

bool flag(const json& object, const char* name, const std::string& where) {
  const json& v = field(object, name, where);
  if (!v.is_boolean()) bad(where + "." + name + " is not true/false");
  return v.get<bool>();
}

const std::vector<std::uint8_t>& blob(const json& object, const char* name, const std::string& where,
                                      std::size_t record, std::uint64_t max_records) {
  const json& v = field(object, name, where);
  if (!v.is_binary()) bad(where + "." + name + " is not a byte string");
  const auto& bytes = v.get_binary();
  if (bytes.size() % record != 0)
    bad(where + "." + name + " holds " + std::to_string(bytes.size()) + " bytes, not a whole number of " +
        std::to_string(record) + "-byte records");
  if (bytes.size() / record > max_records)
    bad(where + "." + name + " holds " + std::to_string(bytes.size() / record) + " records, over the limit of " +
        std::to_string(max_records));
  return bytes;
}

std::array<std::uint32_t, 3> dims(const json& object, const char* name, const std::string& where, std::uint32_t max) {
  const json& v = field(object, name, where);
  if (!v.is_array() || v.size() != 3) bad(where + "." + name + " is not three numbers");
  std::array<std::uint32_t, 3> d{};
  for (std::size_t i = 0; i < 3; ++i) {
    if (!v[i].is_number_unsigned() || v[i].get<std::uint64_t>() == 0 || v[i].get<std::uint64_t>() > max)
      bad(where + "." + name + "[" + std::to_string(i) + "] is not a number from 1 to " + std::to_string(max));
    d[i] = static_cast<std::uint32_t>(v[i].get<std::uint64_t>());
  }
  return d;
}

// The trace's sizes every record is checked against.
struct TraceBounds {
  std::uint64_t blocks = 0;   // in the grid
  std::uint64_t threads = 0;  // per block
  std::uint64_t warps = 0;    // per block
};

// What was traced: kernel, grid, block, warp width and clocks.
TraceBounds decode_launch(const json& j, Trace& t) {
  const std::string w = "trace";
  t.kernel_id = text(j, "kernel_id", w);
  t.kernel = text(j, "kernel", w);
  t.source_file = text(j, "source_file", w);
  t.backend = text(j, "backend", w);
  t.grid = dims(j, "grid", w, 0x7fffffffu);
  t.block = dims(j, "block", w, 4096);
  TraceBounds bounds;
  bounds.blocks = std::uint64_t{t.grid[0]} * t.grid[1] * t.grid[2];
  if (bounds.blocks > 0x7fffffffu) bad("trace.grid has " + std::to_string(bounds.blocks) + " blocks, over the limit");
  bounds.threads = std::uint64_t{t.block[0]} * t.block[1] * t.block[2];
  if (bounds.threads > 4096) bad("trace.block has " + std::to_string(bounds.threads) + " threads, over 4096");
  t.launch = static_cast<int>(number(j, "launch", w, 64));
  t.warp_width = static_cast<std::uint32_t>(number(j, "warp_width", w, 64));
  if (t.warp_width == 0) bad("trace.warp_width is 0");
  bounds.warps = (bounds.threads + t.warp_width - 1) / t.warp_width;
  t.warp_width_assumed = flag(j, "warp_width_assumed", w);
  t.schedule_clock = text(j, "schedule_clock", w);
  t.barrier_clock = text(j, "barrier_clock", w);
  return bounds;
}

// Whether the trace carries its layouts: every trace written since they
// exist has the key "tile" (null where the kernel declares none); an older
// one has none of the layout keys, and decode_session fills them in
// (fill_older_layouts).
bool has_layouts(const json& j) { return j.is_object() && j.contains("tile"); }

std::vector<TracedBuffer> decode_buffers(const json& j) {
  const json& buffers = field(j, "buffers", "trace");
  if (!buffers.is_array() || buffers.size() > 255) bad("trace.buffers is not a list of at most 255");
  const bool layouts = has_layouts(j);
  std::vector<TracedBuffer> out;
  for (const json& b : buffers) {
    TracedBuffer tb;
    tb.name = text(b, "name", "trace.buffers[]");
    tb.role = text(b, "role", "trace.buffers[]");
    const auto type = parse_element_type(text(b, "type", "trace.buffers[]"));
    if (!type) bad("trace.buffers[].type is not int, float or double");
    tb.type = *type;
    tb.bytes = number(b, "bytes", "trace.buffers[]", std::uint64_t{1} << 40);
    if (layouts) {
      tb.row_elements = number(b, "row", "trace.buffers[]", std::uint64_t{1} << 40);
      if (!field(b, "argument", "trace.buffers[]").is_null()) {
        tb.argument = static_cast<int>(number(b, "argument", "trace.buffers[]", 254));
        for (const TracedBuffer& other : out)
          if (other.argument == tb.argument)
            bad("trace.buffers[].argument " + std::to_string(tb.argument) + " is given to buffers " + other.name +
                " and " + tb.name);
      }
    }
    out.push_back(std::move(tb));
  }
  return out;
}

// A tile's sides and size, checked wherever it came from (`where`).
void check_tile(const SharedTile& tile, const std::string& where) {
  if (tile.rows == 0 || tile.cols == 0 || tile.data_cols == 0 || tile.rows > kMaxTileSide || tile.cols > kMaxTileSide)
    bad(where + " is tile[" + std::to_string(tile.rows) + "][" + std::to_string(tile.cols) +
        "]: each side must be 1 to " + std::to_string(kMaxTileSide) + ", and data_cols at least 1");
  if (tile.data_cols > tile.cols)
    bad(where + ".data_cols = " + std::to_string(tile.data_cols) + " is more than its " + std::to_string(tile.cols) +
        " columns");
  if (std::uint64_t{tile.rows} * tile.cols > kMaxTileElements)
    bad(where + " holds " + std::to_string(std::uint64_t{tile.rows} * tile.cols) + " elements, over the limit of " +
        std::to_string(kMaxTileElements));
}

// The shared tile: null, or {rows, cols, data_cols}.
std::optional<SharedTile> decode_tile(const json& j) {
  const json& tile = field(j, "tile", "trace");
  if (tile.is_null()) return std::nullopt;
  if (!tile.is_object()) bad("trace.tile is neither null nor a map");
  SharedTile out;
  out.rows = static_cast<std::uint32_t>(number(tile, "rows", "trace.tile", kMaxTileSide));
  out.cols = static_cast<std::uint32_t>(number(tile, "cols", "trace.tile", kMaxTileSide));
  out.data_cols = static_cast<std::uint32_t>(number(tile, "data_cols", "trace.tile", kMaxTileSide));
  check_tile(out, "trace.tile");
  return out;
}

std::vector<AccessSite> decode_sites(const json& j) {
  const json& sites = field(j, "sites", "trace");
  if (!sites.is_array() || sites.size() > 65536) bad("trace.sites is not a list");
  std::vector<AccessSite> out;
  for (const json& s : sites) {
    AccessSite site;
    site.line = static_cast<std::uint16_t>(number(s, "line", "trace.sites[]", 65535));
    const std::string space = text(s, "space", "trace.sites[]");
    if (space != "global" && space != "shared") bad("trace.sites[].space is not global or shared");
    site.space = space == "shared" ? Space::Shared : Space::Global;
    site.store = flag(s, "store", "trace.sites[]");
    site.text = text(s, "text", "trace.sites[]");
    if (s.contains("merged"))
      site.merged = static_cast<std::uint8_t>(std::max<std::uint64_t>(1, number(s, "merged", "trace.sites[]", 16)));
    if (s.contains("atomic")) site.atomic = flag(s, "atomic", "trace.sites[]");
    if (site.atomic && !site.store) bad("trace.sites[] is atomic but not a store");
    out.push_back(std::move(site));
  }
  return out;
}

std::vector<std::uint32_t> decode_traced_blocks(const json& j, const TraceBounds& bounds) {
  const auto& traced = blob(j, "traced_blocks", "trace", 4, bounds.blocks);
  Unpacker tb(traced);
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < traced.size() / 4; ++i) {
    const auto b = tb.get<std::uint32_t>();
    if (b >= bounds.blocks)
      bad("trace.traced_blocks names block " + std::to_string(b) + " of " + std::to_string(bounds.blocks));
    if (!out.empty() && b <= out.back()) bad("trace.traced_blocks is not ascending");
    out.push_back(b);
  }
  return out;
}

bool is_traced(const Trace& t, std::uint32_t block) {
  return std::binary_search(t.traced_blocks.begin(), t.traced_blocks.end(), block);
}

// One access record, checked against the traced blocks, the block's
// threads and, for global memory, its buffer.
Access unpack_access(Unpacker& ac, std::size_t i, const Trace& t, const TraceBounds& bounds) {
  Access a;
  const auto offset = ac.get<std::uint64_t>();
  a.offset = offset;
  a.block = ac.get<std::uint32_t>();
  a.thread = ac.get<std::uint16_t>();
  a.line = ac.get<std::uint16_t>();
  a.buffer = ac.get<std::uint8_t>();
  const auto size = ac.get<std::uint8_t>();
  a.size = size;
  const auto flags = ac.get<std::uint8_t>();
  const auto atomic = ac.get<std::uint8_t>();
  a.store = flags & 1;
  a.space = (flags & 2) ? Space::Shared : Space::Global;
  const auto at = [i] { return "trace.accesses[" + std::to_string(i) + "]"; };
  if (!set_atomic(a, atomic))
    bad(at() + " has an atomic operation " + std::to_string(atomic) + " ThreadMap does not know");
  if (i == 0 || a.block != t.accesses.back().block)  // records come in runs of one block
    if (!is_traced(t, a.block)) bad(at() + " names block " + std::to_string(a.block) + ", which was not traced");
  if (a.thread >= bounds.threads)
    bad(at() + " names thread " + std::to_string(a.thread) + " of " + std::to_string(bounds.threads));
  if (size == 0 || size > 16 || (size & (size - 1))) bad(at() + " has size " + std::to_string(size));
  if (a.space == Space::Global) {
    if (a.buffer >= t.buffers.size()) bad(at() + " names buffer " + std::to_string(a.buffer));
    if (offset > t.buffers[a.buffer].bytes || t.buffers[a.buffer].bytes - offset < a.size)
      bad(at() + " is outside buffer " + t.buffers[a.buffer].name);
  } else if (offset > (std::uint64_t{1} << 32)) {
    bad(at() + " is beyond any shared window");
  }
  // A buffer holds at most 2^40 bytes and a shared window 2^32: every
  // offset that passed fits Access::offset's 44 bits.
  return a;
}

void decode_accesses(const json& j, Trace& t, const TraceBounds& bounds) {
  const auto& accesses = blob(j, "accesses", "trace", kAccessBytes, kMaxTraceRecords);
  Unpacker ac(accesses);
  reserve_on_huge_pages(t.accesses, accesses.size() / kAccessBytes);
  for (std::size_t i = 0; i < accesses.size() / kAccessBytes; ++i)
    t.accesses.push_back(unpack_access(ac, i, t, bounds));
}

void decode_barriers(const json& j, Trace& t, const TraceBounds& bounds) {
  const auto& barriers = blob(j, "barriers", "trace", kBarrierBytes, kMaxTraceRecords);
  Unpacker ba(barriers);
  for (std::size_t i = 0; i < barriers.size() / kBarrierBytes; ++i) {
    BarrierEvent e;
    e.block = ba.get<std::uint32_t>();
    e.warp = ba.get<std::uint16_t>();
    e.line = ba.get<std::uint16_t>();
    e.arrival_rank = ba.get<std::uint32_t>();
    e.seen_arrivals = ba.get<std::uint32_t>();
    e.arrival = ba.get<std::uint64_t>();
    e.release = ba.get<std::uint64_t>();
    const std::string at = "trace.barriers[" + std::to_string(i) + "]";
    if (!is_traced(t, e.block)) bad(at + " names block " + std::to_string(e.block) + ", which was not traced");
    if (e.warp >= bounds.warps)
      bad(at + " names warp " + std::to_string(e.warp) + " of " + std::to_string(bounds.warps));
    t.barriers.push_back(e);
  }
}

// Each barrier's place among the accesses (recordings made since the
// problems; older ones have none, and their barriers kNoAccessMark).
void decode_barrier_marks(const json& j, Trace& t) {
  if (!j.contains("barrier_marks")) return;
  const auto& marks = blob(j, "barrier_marks", "trace", kMarkBytes, kMaxTraceRecords);
  if (marks.size() / kMarkBytes != t.barriers.size())
    bad("trace.barrier_marks has " + std::to_string(marks.size() / kMarkBytes) + " marks for " +
        std::to_string(t.barriers.size()) + " barriers");
  Unpacker m(marks);
  for (std::size_t i = 0; i < t.barriers.size(); ++i) {
    const auto mark = m.get<std::uint32_t>();
    if (mark > t.accesses.size())
      bad("trace.barrier_marks[" + std::to_string(i) + "] is past the " + std::to_string(t.accesses.size()) +
          " accesses");
    t.barriers[i].accesses_before = mark;
  }
}

// The global accesses in no buffer, each checked as an access is but for its
// offset, which lies outside the buffer it names.
void decode_strays(const json& j, Trace& t, const TraceBounds& bounds) {
  if (!j.contains("strays")) return;
  const auto& strays = blob(j, "strays", "trace", kStrayBytes, kMaxTraceRecords);
  Unpacker st(strays);
  for (std::size_t i = 0; i < strays.size() / kStrayBytes; ++i) {
    StrayAccess s;
    s.access.offset = st.get<std::uint64_t>();
    s.access.block = st.get<std::uint32_t>();
    s.access.thread = st.get<std::uint16_t>();
    s.access.line = st.get<std::uint16_t>();
    s.access.buffer = st.get<std::uint8_t>();
    const auto size = st.get<std::uint8_t>();
    s.access.size = size;
    const auto flags = st.get<std::uint8_t>();
    s.access.store = flags & 1;
    s.access.space = (flags & 2) ? Space::Shared : Space::Global;
    const auto atomic = st.get<std::uint8_t>();
    s.offset = st.get<std::int64_t>();
    s.position = st.get<std::uint32_t>();
    const std::string at = "trace.strays[" + std::to_string(i) + "]";
    if (!set_atomic(s.access, atomic))
      bad(at + " has an atomic operation " + std::to_string(atomic) + " ThreadMap does not know");
    if (!is_traced(t, s.access.block))
      bad(at + " names block " + std::to_string(s.access.block) + ", which was not traced");
    if (s.access.thread >= bounds.threads) bad(at + " names thread " + std::to_string(s.access.thread));
    if (s.access.buffer >= t.buffers.size()) bad(at + " names buffer " + std::to_string(s.access.buffer));
    if (size == 0 || size > 16 || (size & (size - 1))) bad(at + " has size " + std::to_string(size));
    if (s.position > t.accesses.size() || (!t.strays.empty() && s.position < t.strays.back().position))
      bad(at + " is not in device order among the accesses");
    t.strays.push_back(s);
  }
}

// One record per block of the grid.
std::vector<BlockSchedule> decode_schedule(const json& j, const char* name, const TraceBounds& bounds) {
  const auto& schedule = blob(j, name, "trace", kScheduleBytes, bounds.blocks);
  if (schedule.size() / kScheduleBytes != bounds.blocks)
    bad("trace." + std::string(name) + " has " + std::to_string(schedule.size() / kScheduleBytes) +
        " blocks, the grid " + std::to_string(bounds.blocks));
  Unpacker sc(schedule);
  std::vector<BlockSchedule> out;
  out.reserve(bounds.blocks);
  for (std::uint64_t b = 0; b < bounds.blocks; ++b) {
    BlockSchedule s;
    s.start = sc.get<std::uint64_t>();
    s.end = sc.get<std::uint64_t>();
    s.sm = sc.get<std::uint32_t>();
    out.push_back(s);
  }
  return out;
}

std::vector<BarrierPassTiming> decode_pass_timings(const json& j, const TraceBounds& bounds) {
  const auto& pass_timings = blob(j, "barrier_pass_timings", "trace", kPassTimingBytes, kMaxTraceRecords);
  Unpacker pt(pass_timings);
  std::vector<BarrierPassTiming> out;
  for (std::size_t i = 0; i < pass_timings.size() / kPassTimingBytes; ++i) {
    BarrierPassTiming p;
    p.block = pt.get<std::uint32_t>();
    p.pass = pt.get<std::uint32_t>();
    p.line = pt.get<std::uint16_t>();
    p.slowest_warp = pt.get<std::uint16_t>();
    p.spread = pt.get<std::uint32_t>();
    p.release_latency = pt.get<std::uint32_t>();
    const auto flags = pt.get<std::uint32_t>();
    p.release_after_arrivals = flags & 1u;
    const std::string at = "trace.barrier_pass_timings[" + std::to_string(i) + "]";
    if (p.block >= bounds.blocks)
      bad(at + " names block " + std::to_string(p.block) + " of " + std::to_string(bounds.blocks));
    if (p.slowest_warp >= bounds.warps)
      bad(at + " names warp " + std::to_string(p.slowest_warp) + " of " + std::to_string(bounds.warps));
    if (flags > 1u) bad(at + " has unknown flags");
    if (p.pass >= TM_CLOCK_PASSES) bad(at + " names barrier " + std::to_string(p.pass) + " of a block");
    out.push_back(p);
  }
  return out;
}

std::vector<BarrierTiming> decode_barrier_timings(const json& j, const Trace& t, const TraceBounds& bounds) {
  const auto& timings = blob(j, "barrier_timings", "trace", kTimingBytes, kMaxTraceRecords);
  Unpacker ti(timings);
  std::vector<BarrierTiming> out;
  for (std::size_t i = 0; i < timings.size() / kTimingBytes; ++i) {
    BarrierTiming b;
    b.block = ti.get<std::uint32_t>();
    b.warp = ti.get<std::uint16_t>();
    b.line = ti.get<std::uint16_t>();
    b.pass = ti.get<std::uint32_t>();
    b.arrival = ti.get<std::uint64_t>();
    b.release = ti.get<std::uint64_t>();
    const std::string at = "trace.barrier_timings[" + std::to_string(i) + "]";
    if (b.block >= bounds.blocks)
      bad(at + " names block " + std::to_string(b.block) + " of " + std::to_string(bounds.blocks));
    if (b.warp >= bounds.warps)
      bad(at + " names warp " + std::to_string(b.warp) + " of " + std::to_string(bounds.warps));
    if (!is_traced(t, b.block)) bad(at + " names block " + std::to_string(b.block) + ", which was not traced");
    if (b.pass >= TM_CLOCK_PASSES) bad(at + " names barrier " + std::to_string(b.pass) + " of a block");
    out.push_back(b);
  }
  return out;
}

// The clock pass (recordings made since it exists; older ones have the
// access pass's stamps only).
void decode_clock_pass(const json& j, Trace& t, const TraceBounds& bounds) {
  const std::string w = "trace";
  if (!j.contains("timing_pass")) {
    t.timing_pass = std::string(kTracedPassName);
    return;
  }
  t.timing_pass = text(j, "timing_pass", w);
  if (t.timing_pass != kClockPassName && t.timing_pass != kTracedPassName)
    bad("trace.timing_pass is not \"clock pass\" or \"traced pass\"");
  const json& mhz = field(j, "sm_clock_mhz", w);
  if (!mhz.is_number() || !(mhz.get<double>() == 0 || (mhz.get<double>() >= 1 && mhz.get<double>() < 1e5)))
    bad("trace.sm_clock_mhz is not a clock rate in MHz");
  t.sm_clock_mhz = mhz.get<double>();
  t.clock_block_stride = static_cast<std::uint32_t>(number(j, "clock_block_stride", w, bounds.blocks));
  t.clock_passes_dropped = number(j, "clock_passes_dropped", w, std::uint64_t{1} << 40);
  t.barrier_pass_timings = decode_pass_timings(j, bounds);
  t.barrier_timings = decode_barrier_timings(j, t, bounds);
  if (!blob(j, "traced_schedule", w, kScheduleBytes, bounds.blocks).empty())
    t.traced_schedule = decode_schedule(j, "traced_schedule", bounds);
}

// Since OpenMP: the launching runtime's own global loads and stores.
void decode_runtime_accesses(const json& j, Trace& t) {
  if (!j.contains("runtime_accesses")) return;
  const json& r = j["runtime_accesses"];
  const std::string w = "trace.runtime_accesses";
  if (!r.is_object()) bad(w + " is not a map");
  constexpr std::uint64_t kMost = std::uint64_t{1} << 40;
  t.runtime_accesses = {number(r, "ld_requests", w, kMost), number(r, "ld_sectors", w, kMost),
                        number(r, "st_requests", w, kMost), number(r, "st_sectors", w, kMost)};
}

Trace decode_trace(const json& j) {
  Trace t;
  const TraceBounds bounds = decode_launch(j, t);
  t.buffers = decode_buffers(j);
  if (has_layouts(j)) t.tile = decode_tile(j);
  t.sites = decode_sites(j);
  t.traced_blocks = decode_traced_blocks(j, bounds);
  decode_accesses(j, t, bounds);
  decode_barriers(j, t, bounds);
  decode_barrier_marks(j, t);
  decode_strays(j, t, bounds);
  decode_runtime_accesses(j, t);
  t.schedule = decode_schedule(j, "schedule", bounds);
  decode_clock_pass(j, t, bounds);
  return t;
}

// The traced run's output check: {verified, checked, mismatches, method},
// each with its type where present.
void check_trace_verification(const json& v) {
  if (!v.is_object()) bad("session.trace_verification is not a map");
  if (v.contains("verified")) flag(v, "verified", "session.trace_verification");
  for (const char* key : {"checked", "mismatches"})
    if (v.contains(key) && !v[key].is_number())
      bad(std::string("session.trace_verification.") + key + " is not a number");
  if (v.contains("method") && !v["method"].is_string()) bad("session.trace_verification.method is not text");
}

}  // namespace

void fill_older_layouts(Trace& t, const std::map<std::string, std::string>& params) {
  const auto param = [&](const char* name, std::int64_t fallback) {
    const auto it = params.find(name);
    if (it == params.end()) return fallback;
    std::int64_t value = fallback;
    const std::string& text = it->second;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() ? value : fallback;
  };
  const std::string family = t.kernel_id.substr(0, t.kernel_id.find('.'));
  const std::int64_t width = param("width", 0), height = param("height", 0);
  for (std::size_t k = 0; k < t.buffers.size(); ++k) {
    TracedBuffer& b = t.buffers[k];
    // Rows: a transpose reads height x width and writes width x height (the
    // copy height x width); matadd's three are height x width; smem's output
    // is each block's block_x-wide slice; the rest are no matrices.
    std::int64_t row = 0;
    if (family == "transpose" && width > 0 && height > 0)
      row = b.role == "output" && t.kernel_id != "transpose.copy" ? height : width;
    else if (family == "matadd" && width > 0) row = width;
    else if (family == "smem") row = param("block_x", 32);
    if (row > (std::int64_t{1} << 40))
      bad("trace.buffers[].row from the older session's parameters is " + std::to_string(row) + ", over 2^40");
    b.row_elements = row > 0 ? static_cast<std::uint64_t>(row) : 0;
    // A reduction's launch L reads buffer L and writes buffer L + 1, its
    // only two; every other kernel takes its buffers in order.
    const std::int64_t argument = static_cast<std::int64_t>(k) - (family == "reduce" ? t.launch : 0);
    b.argument =
        argument >= 0 && (family != "reduce" || argument < 2) ? static_cast<int>(argument) : TracedBuffer::kNotPassed;
  }
  const auto side = [](std::int64_t n) { return static_cast<std::uint32_t>(n); };
  const std::uint32_t pad = side(param("pad", 0));
  t.tile.reset();
  if (family == "transpose") {
    // tile[T][T + PAD]; transpose.shared_dynamic sizes its tile T * T at launch.
    const std::uint32_t tile = side(param("tile", t.block[0]));
    t.tile = SharedTile{tile, tile + (t.kernel_id == "transpose.shared_dynamic" ? 0 : pad), tile};
  } else if (family == "smem") {
    const std::uint32_t bx = side(param("block_x", t.block[0])), by = side(param("block_y", t.block[1]));
    // setColReadCol declares tile[BX][BY]; the others tile[BY][BX + PAD].
    t.tile = t.kernel_id == "smem.setColReadCol" ? SharedTile{bx, by, by} : SharedTile{by, bx + pad, bx};
  }
  if (t.tile) check_tile(*t.tile, "trace.tile from the older session's parameters");
}

std::string_view traced_source_text(const Session& session) {
  if (!session.source_text.empty()) return session.source_text;
  if (!session.kernel_text.empty()) return session.kernel_text;
  return session.trace ? embedded_source(session.trace->source_file) : std::string_view();
}

std::string traced_source_name(const Session& session) {
  if (!session.source_text.empty()) return session.source_name;
  if (!session.kernel_text.empty()) return session.kernel_file;
  return session.trace ? session.trace->source_file : std::string();
}

const std::map<std::string, std::string>& traced_params(const Session& session) {
  return session.trace_params.empty() ? session.params : session.trace_params;
}

namespace {

json session_json(const Session& s) {
  json j = {{"format", kFormatName},      {"version", kSessionVersion},
            {"created_by", s.created_by}, {"created_at", s.created_at},
            {"kernel_id", s.kernel_id},   {"params", s.params},
            {"device", s.device},         {"run", s.run},
            {"trace", nullptr},           {"trace_verification", s.trace_verification},
            {"record_ms", s.record_ms},   {"analysis", s.analysis}};
  if (s.trace) j["trace"] = encode_trace(*s.trace);
  if (!s.trace_params.empty()) j["trace_params"] = s.trace_params;
  if (!s.source_text.empty()) j["source"] = {{"name", s.source_name}, {"text", s.source_text}};
  if (!s.kernel_text.empty()) j["kernel_source"] = {{"name", s.kernel_file}, {"text", s.kernel_text}};
  return j;
}

}  // namespace

std::vector<std::uint8_t> encode_session(const Session& s) { return json::to_cbor(session_json(s)); }

namespace {

// The CBOR's shape, walked without recursion before nlohmann's reader sees
// it: that reader (3.11.2) recurses once per chunk of an indefinite-length
// string, so 1 MB of nested chunks overflows the stack before any handler is
// called. ThreadMap writes definite lengths only; an indefinite-length
// string, nesting deeper than kMaxDepth, or an item past the end is refused.
void check_cbor_shape(std::span<const std::uint8_t> bytes) {
  const auto refuse = [](const std::string& why) { throw SessionError("not a ThreadMap session file (CBOR): " + why); };
  constexpr std::uint64_t kUntilBreak = UINT64_MAX;
  std::vector<std::uint64_t> open;  // items still to come in each open array, map or tag
  std::size_t at = 0;
  const auto left = [&] { return static_cast<std::uint64_t>(bytes.size() - at); };
  const auto argument = [&](std::uint8_t info) -> std::uint64_t {
    if (info < 24) return info;
    if (info > 27) refuse("a reserved length code at byte " + std::to_string(at - 1));
    const std::size_t n = std::size_t{1} << (info - 24);
    if (left() < n) refuse("it ends inside a length");
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = v << 8 | bytes[at++];
    return v;
  };
  // One whole item was read: it counts in its container, which may be whole too.
  const auto item_done = [&] {
    while (!open.empty() && open.back() != kUntilBreak && --open.back() == 0) open.pop_back();
  };
  const auto enter = [&](std::uint64_t items) {
    open.push_back(items);
    if (open.size() > kMaxDepth) refuse("nested deeper than " + std::to_string(kMaxDepth) + " levels");
  };
  do {
    if (left() == 0) refuse("it ends inside an item");
    const std::uint8_t major = bytes[at] >> 5, info = bytes[at] & 31;
    ++at;
    if (info == 31) {
      if (major == 7) {  // a break closes an indefinite-length array or map
        if (open.empty() || open.back() != kUntilBreak) refuse("a break outside an indefinite-length item");
        open.pop_back();
        item_done();
      } else if (major == 4 || major == 5) {
        enter(kUntilBreak);
      } else {
        refuse(major == 2 || major == 3 ? "an indefinite-length string (ThreadMap writes none)"
                                        : "a malformed item at byte " + std::to_string(at - 1));
      }
      continue;
    }
    const std::uint64_t n = argument(info);
    if (major == 2 || major == 3) {
      if (n > left()) refuse("a string longer than the file");
      at += n;
    }
    const bool container = major == 4 || major == 5 || major == 6;
    if ((major == 4 || major == 5) && n > left() / (major == 5 ? 2 : 1)) refuse("a count larger than the file");
    const std::uint64_t items = major == 6 ? 1 : major == 5 ? 2 * n : n;
    if (container && items > 0) enter(items);
    else item_done();
  } while (!open.empty());
}

// The file's map, its format and version checked; its fields are not yet.
json parse_session_map(std::span<const std::uint8_t> bytes) {
  if (bytes.size() > kMaxSessionBytes)
    throw SessionError("the file is " + std::to_string(bytes.size()) + " bytes, over the limit of " +
                       std::to_string(kMaxSessionBytes));
  check_cbor_shape(bytes);
  json j;
  DepthBoundedSax sax(j, kMaxDepth);
  bool parsed = false;
  try {
    parsed = json::sax_parse(bytes.begin(), bytes.end(), &sax, json::input_format_t::cbor, true);
  } catch (const json::exception& e) {
    throw SessionError(std::string("not a ThreadMap session file (CBOR): ") + e.what());
  }
  if (sax.too_deep())
    throw SessionError("not a valid session file: nested deeper than " + std::to_string(kMaxDepth) + " levels");
  if (!parsed || sax.is_errored())
    throw SessionError("not a ThreadMap session file (truncated or corrupt CBOR" +
                       (sax.message().empty() ? std::string(")") : "): " + sax.message()));
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormatName)
    throw SessionError("not a ThreadMap session file (no \"format\": \"threadmap-session\")");
  const std::uint64_t version = number(j, "version", "session", 1u << 20);
  if (version != kSessionVersion)
    throw SessionError("session format version " + std::to_string(version) + " (this ThreadMap reads version " +
                       std::to_string(kSessionVersion) + ")");
  return j;
}

}  // namespace

Session decode_session(std::span<const std::uint8_t> bytes) {
  const json j = parse_session_map(bytes);
  try {
    Session s;
    s.created_by = text(j, "created_by", "session");
    s.created_at = text(j, "created_at", "session");
    s.kernel_id = text(j, "kernel_id", "session");
    const auto read_params = [&](const char* key, std::map<std::string, std::string>& into) {
      const json& params = field(j, key, "session");
      if (!params.is_object()) bad(std::string("session.") + key + " is not a map");
      for (const auto& [name, value] : params.items()) {
        if (!value.is_string()) bad(std::string("session.") + key + "." + name + " is not text");
        into[name] = value.get<std::string>();
      }
    };
    read_params("params", s.params);
    if (j.contains("trace_params")) read_params("trace_params", s.trace_params);
    // The parts kept as JSON are checked here, with the types their readers
    // (the window, show, export) take them with.
    // Null (nothing known) becomes an empty map, or a null run (not timed).
    s.device = field(j, "device", "session");
    if (s.device.is_null()) s.device = json::object();
    if (const std::string problem = device_problem(s.device); !problem.empty()) bad("session." + problem);
    s.run = field(j, "run", "session");
    if (s.run.is_object() && s.run.empty()) s.run = nullptr;
    if (!s.run.is_null())
      if (const std::string problem = report_problem(s.run); !problem.empty()) bad("session.run: " + problem);
    const json& trace = field(j, "trace", "session");
    if (!trace.is_null()) {
      s.trace = decode_trace(trace);
      if (!has_layouts(trace)) fill_older_layouts(*s.trace, traced_params(s));
    }
    s.trace_verification = field(j, "trace_verification", "session");
    if (s.trace_verification.is_null()) s.trace_verification = json::object();
    check_trace_verification(s.trace_verification);
    const json& ms = field(j, "record_ms", "session");
    if (!ms.is_number()) bad("session.record_ms is not a number");
    s.record_ms = ms.get<double>();
    s.analysis = field(j, "analysis", "session");
    if (j.contains("source")) {
      const json& source = field(j, "source", "session");
      s.source_name = text(source, "name", "session.source");
      s.source_text = text(source, "text", "session.source");
      if (s.source_text.empty()) bad("session.source.text is empty");
    }
    if (j.contains("kernel_source")) {
      const json& kernel = field(j, "kernel_source", "session");
      s.kernel_file = text(kernel, "name", "session.kernel_source");
      s.kernel_text = text(kernel, "text", "session.kernel_source");
      if (s.kernel_text.empty()) bad("session.kernel_source.text is empty");
    }
    return s;
  } catch (const json::exception& e) {
    throw SessionError(std::string("not a valid session file: ") + e.what());
  }
}

std::vector<std::uint8_t> keep_kernel_text(std::span<const std::uint8_t> bytes, std::string_view text) {
  if (text.empty()) throw SessionError("no kernel text to keep");
  const Session s = decode_session(bytes);
  if (!s.trace) throw SessionError("the session has no trace: there are no lines to keep the text of");
  if (!s.source_text.empty()) throw SessionError("the session keeps its kernel text already (" + s.source_name + ")");
  const std::string& file = s.trace->source_file;
  if (s.kernel_text == text) return {bytes.begin(), bytes.end()};
  if (!s.kernel_text.empty()) throw SessionError("the session keeps another text of " + file + " already");
  for (const AccessSite& site : s.trace->sites)
    if (const std::string line = text_line(text, site.line); line != site.text)
      throw SessionError(file + " line " + std::to_string(site.line) + " is \"" + line +
                         "\", but the trace recorded \"" + site.text +
                         "\" there: not the text the trace was recorded from");
  json j = parse_session_map(bytes);
  if (!std::ranges::equal(json::to_cbor(j), bytes))
    throw SessionError("the file does not encode back to its own bytes; nothing is changed");
  j["kernel_source"] = {{"name", file}, {"text", text}};
  std::vector<std::uint8_t> kept = json::to_cbor(j);
  // Everything but the new key is the file's, byte for byte.
  json again = parse_session_map(kept);
  again.erase("kernel_source");
  if (!std::ranges::equal(json::to_cbor(again), bytes))
    throw SessionError("keeping the text changed the file's other fields");
  decode_session(kept);
  return kept;
}

std::uint64_t session_record_bytes(const Session& s) {
  if (!s.trace) return 0;
  const Trace& t = *s.trace;
  return t.accesses.size() * kAccessBytes + t.barriers.size() * (kBarrierBytes + kMarkBytes) +
         t.strays.size() * kStrayBytes + (t.schedule.size() + t.traced_schedule.size()) * kScheduleBytes +
         t.barrier_timings.size() * kTimingBytes + t.barrier_pass_timings.size() * kPassTimingBytes +
         t.traced_blocks.size() * 4;
}

void save_session(const Session& session, const std::filesystem::path& path, Durability durability,
                  std::span<const std::filesystem::path> inputs) {
  // A file its own readers would refuse is not written at all.
  if (const std::uint64_t bytes = session_record_bytes(session); bytes > kMaxSessionBytes)
    throw SessionError("cannot write " + path.string() + ": its trace alone is " + std::to_string(bytes) +
                       " bytes, over the limit of " + std::to_string(kMaxSessionBytes) +
                       " for a session file; trace fewer blocks (--blocks) or a smaller size (--trace-set)");
  try {
    OutputFile out(path, durability, inputs, kMaxSessionBytes);
    // The CBOR goes straight into the file: a trace of millions of records
    // is not copied into a second buffer first.
    json::to_cbor(session_json(session), out.stream());
    out.commit();
  } catch (const OutputError& e) {
    throw SessionError(e.what());
  }
}

Session load_session(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw SessionError("cannot open " + path.string() + ": " + ec.message());
  if (size > kMaxSessionBytes)
    throw SessionError(path.string() + " is " + std::to_string(size) + " bytes, over the limit of " +
                       std::to_string(kMaxSessionBytes) + " for a session file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SessionError("cannot open " + path.string() + ": " + std::strerror(errno));
  std::vector<std::uint8_t, BulkAllocator<std::uint8_t>> bytes(size);  // huge pages, not zeroed: read next
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (static_cast<std::uint64_t>(in.gcount()) != size) throw SessionError("cannot read all of " + path.string());
  try {
    return decode_session(bytes);
  } catch (const SessionError& e) {
    throw SessionError(path.string() + ": " + e.what());
  }
}

}  // namespace threadmap
