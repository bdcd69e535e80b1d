#pragma once
// Why a kernel failed: the problems a recorded trace shows (docs/traces.md,
// "Problems"). Like Oclgrind's plugins, each kind is one small observer of
// the recorded accesses and barriers; nothing is run again or simulated.
//
//   data race        two threads of one block touch the same shared bytes in
//                    one barrier interval, at least one of them writing:
//                    read after write, write after read, write after write
//                    (threads of one warp included: a warp's lanes are not in
//                    lock-step since Volta, and OpenCL promises nothing)
//   uninitialised    a shared load of bytes no thread of the block had
//                    stored to before it, in device order
//   out of bounds    a global load or store in no buffer of the launch
//   divergent barrier  a barrier some warps of a block reached and others
//                    did not (a barrier in a branch)
//
// The barrier intervals come from each barrier record's access mark
// (BarrierEvent::accesses_before): a recording made before the mark has no
// intervals, and its races are not looked for (Problems::races_checked).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/core/trace.h"

namespace threadmap::analysis {

enum class ProblemKind : std::uint8_t {
  ReadAfterWrite,
  WriteAfterRead,
  WriteAfterWrite,
  UninitializedRead,
  OutOfBounds,
  DivergentBarrier,
};

// "read-after-write", ...: the JSON name.
std::string_view problem_kind_name(ProblemKind kind);

// One side of a problem: a thread at a line, and the record that shows it.
struct ProblemSite {
  std::uint16_t line = 0;
  std::uint16_t thread = 0;  // linear thread id in the block (divergent barrier: a warp's first thread)
  bool store = false;
  // Index into Trace::accesses (out of bounds: Trace::strays; divergent
  // barrier: Trace::barriers); kNone where there is no second site.
  std::uint32_t record = kNone;
  bool atomic = false;  // an atomic read-modify-write (store is set too)
  static constexpr std::uint32_t kNone = 0xffffffffu;
};

// One problem: the first example of its kind at its line (pair), with how
// often the trace shows it. A race's `first` is the earlier access in device
// order; the other kinds have only `first`.
struct Problem {
  ProblemKind kind = ProblemKind::ReadAfterWrite;
  std::uint32_t block = 0;
  ProblemSite first, second;
  Space space = Space::Shared;
  std::uint8_t buffer = 0;                   // global: index into Trace::buffers
  std::int64_t offset = 0;                   // shared: bytes into the window; global: from the buffer's start
  std::uint32_t interval = 0;                // a race's barrier interval in its block (0: before the first barrier);
                                             // a divergent barrier's pass
  std::uint64_t occurrences = 1;             // thread pairs (races), loads, accesses or blocks like it
  std::vector<std::uint16_t> warps_missing;  // divergent barrier: warps that did not reach it

  bool is_race() const { return kind <= ProblemKind::WriteAfterWrite; }
};

struct Problems {
  std::vector<Problem> list;  // by kind, then lines
  bool races_checked = true;  // the barrier intervals were known (barrier marks recorded)
  // Not a problem: what the same walk over each block's shared words counts
  // for the exercises' goals (Counters::shared_ld_exchanged): thread-level
  // shared loads of a word whose last store before them, in device order,
  // was another thread's.
  std::uint64_t shared_loads_exchanged = 0;
};

// Every problem of the traced blocks. Linear in the accesses apart from a
// sort of each block's shared accesses by address.
Problems find_problems(const Trace& trace);

// One line, as the CLI prints it: what, where (lines, block, threads,
// address) and how often.
std::string describe(const Problem& problem, const Trace& trace);

// --- A problem as reports give it, without its trace: what `run
// --problems`, `counters` and `show` print, a session keeps and a worker
// sends. Its JSON is written and read here alone.
struct ProblemAddress {
  std::string space;                  // "shared" or "global"
  std::optional<std::string> buffer;  // global: the buffer's name
  std::int64_t offset = 0;            // shared: bytes into the window; global: from the buffer's start
};
struct ProblemReport {
  std::string kind;                  // problem_kind_name()
  std::vector<std::uint16_t> lines;  // each site's line (a race: two)
  std::uint32_t block = 0;
  std::vector<std::uint16_t> threads;     // each site's thread
  std::optional<ProblemAddress> address;  // none: a divergent barrier
  std::vector<std::uint32_t> records;     // each site's record (Problem::first, second)
  std::uint64_t occurrences = 1;
  std::string message;                    // describe()
  std::optional<std::uint32_t> interval;  // a race's barrier interval
  std::optional<std::uint32_t> barrier;   // a divergent barrier's pass, and its missing warps
  std::vector<std::uint16_t> warps_missing;
};
struct ProblemList {
  bool races_checked = true;
  std::vector<ProblemReport> list;
};
ProblemReport report_of(const Problem& problem, const Trace& trace);
ProblemList reports_of(const Problems& problems, const Trace& trace);
// {races_checked, list}
nlohmann::json to_json(const ProblemList& problems);
// Throws ReportError naming the field, `what` naming the object.
ProblemList problem_list_from_json(const nlohmann::json& problems, const std::string& what);

// A run's problems scan (`run --problems`): what a traced run of its last
// block shows, or why that run failed.
struct ProblemsScan {
  std::optional<std::string> error;  // the traced run failed; nothing else is set
  ProblemList problems;
  std::vector<std::uint32_t> traced_blocks;
};
// {races_checked, list, traced_blocks}, or {error}.
nlohmann::json to_json(const ProblemsScan& scan);
ProblemsScan scan_from_json(const nlohmann::json& scan, const std::string& what);

}  // namespace threadmap::analysis
