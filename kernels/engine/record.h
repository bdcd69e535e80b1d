#pragma once
// Recording a trace: the traced build of a variant's kernel run on a device
// (the access pass, and on CUDA the clock pass), what it wrote read back and
// decoded into a Trace (kernels/core/trace.h). The whole grid in batches of
// blocks, for counters that must stay in bounded memory.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/pack/catalog.h"
#include "kernels/core/device.h"
#include "kernels/engine/runner.h"
#include "kernels/core/trace.h"

namespace threadmap {

struct TraceOptions {
  std::vector<std::uint32_t> blocks;  // linear block ids; empty: default_traced_blocks()
  bool all_blocks = false;
  // With the default blocks (`blocks` empty), the grid's last block too:
  // where an index one past the end shows (what `run` traces for problems).
  bool last_block = false;
  // Access records the buffer holds; 0: count them in a first run and size
  // the buffer exactly. A smaller capacity is an overflow, reported as an error.
  std::uint64_t capacity = 0;
  std::uint64_t seed = 20261122;
  // A learner's version of the kernel (OpenCL C or CUDA, the device's
  // dialect): traced in the catalog's place, instrumented as the catalog's is.
  std::string source_text;
  std::string source_name;
  // At most this many access records (kMaxTraceRecords); `record` asks for
  // fewer, so that a session file stays within what its readers take.
  std::uint64_t max_records = UINT64_MAX;
};

// Where a piece of work's wall-clock time went, phase by phase, in order.
using Phases = std::vector<std::pair<std::string, double>>;

// Appends each phase's milliseconds since the last one (or since it was made).
class PhaseClock {
 public:
  explicit PhaseClock(Phases& out) : out_(out), last_(std::chrono::steady_clock::now()) {}
  void operator()(std::string name) {
    const auto now = std::chrono::steady_clock::now();
    out_.emplace_back(std::move(name), std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  Phases& out_;
  std::chrono::steady_clock::time_point last_;
};

struct Recording {
  RunStatus status = RunStatus::Ok;
  std::string error;  // set unless status is Ok
  Trace trace;
  Verification verification;  // the traced run's output, checked like any other
  double record_ms = 0;       // host wall clock: buffers, traced runs, read back, decode
  Phases phases_ms;           // where record_ms went
};

Recording record_trace(Device& device, const Variant& variant, const Params& params, const TraceOptions& options);

// A whole grid traced in batches of blocks, so that what the host holds
// stays bounded whatever the grid: the traced launch runs once per batch
// (the whole grid each time, on the same inputs), with only that batch's
// blocks marked, and each batch's records go to `each` before the next
// batch runs. A batch takes as many blocks as fit `batch_records` access
// records at the most a block has made so far; a batch that made more is
// run again with fewer blocks.
//
// `each` receives the launch described as record_trace describes it, the
// batch's blocks as traced_blocks (ascending, batch after batch) with their
// records and barrier arrivals, and the schedule of the batch's own run;
// on CUDA its clock pass times the batch's blocks alone, so over every
// batch each block's barrier passes are timed once. It may take what it
// needs: the trace is cleared and reused for the next batch.
//
// The host's copies of the inputs and outputs are given back while the
// batches run (the device holds its own), and the output of the last
// traced run (the last batch's access pass) is read back and verified once,
// at the end, against inputs made again from the seed.
//
// `batch_records` 0: as many as fit, at kBatchBytesPerRecord, in what
// kBatchMemory leaves beside the workload's buffers (on OpenCL, whose
// device may be the host's CPU and its buffers host memory; a CUDA GPU's
// are its own), between kMinBatchRecords and kMaxBatchRecords. A batch holds, at its peak, the device's records and
// their copy read back (16 bytes each), then the decoded records and the
// analysis' indexes of them.
inline constexpr std::uint64_t kBatchMemory = std::uint64_t{672} << 20;
inline constexpr std::uint64_t kBatchBytesPerRecord = 32;
inline constexpr std::uint64_t kMinBatchRecords = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kMaxBatchRecords = std::uint64_t{1} << 24;

struct BatchedRecording {
  RunStatus status = RunStatus::Ok;
  std::string error;                // set unless status is Ok
  Verification verification;        // the last traced run's output
  std::size_t batches = 0;          // batches of blocks passed to `each`
  std::size_t access_runs = 0;      // access passes run: a batch, and any batch that did not fit
  std::uint64_t batch_records = 0;  // the room each batch had
  std::uint64_t largest_batch = 0;  // access records
  double record_ms = 0;             // host wall clock, `each` included
  Phases phases_ms;                 // summed over the batches, phase by phase
};

using TraceBatchSink = std::function<void(Trace& batch)>;

BatchedRecording record_trace_in_batches(Device& device, const Variant& variant, const Params& params,
                                         const TraceOptions& options, std::uint64_t batch_records,
                                         const TraceBatchSink& each);

}  // namespace threadmap
