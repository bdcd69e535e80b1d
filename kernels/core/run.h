#pragma once
// A run of a variant (engine/runner.h: run_variant) as plain data: what it is
// asked (RunOptions) and what it gives back (RunResult); the worker's
// requests and the report's JSON (report.h) carry them.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "kernels/core/device.h"
#include "kernels/core/params.h"
#include "kernels/core/stats.h"
#include "kernels/core/workload.h"

namespace threadmap {

// What a report says of its exclusive section.
struct ExclusiveSection {
  bool exclusive = false;  // the lock was held (false: `note` says why not)
  double waited_ms = 0;    // from asking for the lock to holding it
  int runs_ahead = 0;      // ThreadMap processes holding or waiting for it when asked
  // The host's monotonic clock (CLOCK_MONOTONIC, the same in every process
  // of the machine) when the lock was held and when it was let go.
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::string note;
  // Other processes' CPU use during the section, in cores on average (from
  // /proc/PID/stat); -1 for a GPU's section (not measured) or where unreadable.
  double others_cores = -1;
  int cores = 0;  // the machine's online cores
  // A device that runs on the machine's cores (a CPU device) timed while
  // other processes used a tenth of them or more: its times may be slower
  // than on a quiet machine; `note` says by how much the machine was shared.
  bool busy = false;
};

// Called once, before blocking, with a line such as
// "waiting for the GPU: 2 runs ahead".
using WaitNotice = std::function<void(const std::string&)>;

constexpr int kMaxRepeatsPerSample = 64;
constexpr double kMinSampleMs = 1.0;
struct RunOptions {
  int warmup = 2;
  int repetitions = 20;
  // A timed sample runs the launches back to back until it lasts about this
  // long (at most kMaxRepeatsPerSample times) and divides by the count, so
  // the few microseconds of event and launch latency stay out of short kernels.
  double min_sample_ms = kMinSampleMs;
  int end_to_end_repetitions = 5;
  std::uint64_t seed = 20261122;
  // A learner's version of the variant's source, in the device's dialect
  // (.cl for OpenCL, .cu for CUDA), run in place of the embedded one.
  std::string source_text;
  std::string source_name;  // the file it came from, for compiler messages
  // Told once when the timed work waits for another ThreadMap process's on
  // the same device (timing_lock.h).
  WaitNotice on_wait;
};

enum class RunStatus { Ok, Invalid, Unavailable, DeviceFailure };

struct RunResult {
  std::string kernel_id;
  DeviceInfo device;
  Params params;
  RunStatus status = RunStatus::Ok;
  std::string error;  // set unless status is Ok
  Verification verification;
  TimingStats kernel_ms;      // device events, kernels only
  TimingStats end_to_end_ms;  // host clock: upload inputs, kernels, read outputs
  std::uint64_t ideal_bytes = 0;
  std::uint64_t working_set_bytes = 0;
  double bandwidth_gbps = 0;    // ideal_bytes / median kernel time
  double end_to_end_gbps = 0;   // ideal_bytes / median end-to-end time
  bool cache_resident = false;  // working set fits in the last-level cache
  std::string note;
  int launches = 0;            // kernels per run (multi-pass reductions > 1)
  int repeats_per_sample = 1;  // runs back to back in one timed sample
  ExclusiveSection exclusive;  // the device's timing lock: waited, held from, to
};

// A device-to-device copy's measure (engine/runner.h: measure_device_copy).
struct CopyResult {
  TimingStats ms;
  int repeats_per_sample = 1;
  double bandwidth_gbps = 0;
  std::string error;
  ExclusiveSection exclusive;
};

std::string_view status_name(RunStatus s);
}  // namespace threadmap
