#pragma once
// Runs one catalog variant on one device: validate, build, verify against the
// CPU reference, then time. Errors come back as values (RunResult::error).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "kernels/catalog.h"
#include "kernels/device.h"
#include "kernels/stats.h"
#include "kernels/timing_lock.h"
#include "kernels/workload.h"

namespace threadmap {

constexpr int kMaxRepeatsPerSample = 64;
constexpr double kMinSampleMs = 1.0;
// How many runs back to back make one timed sample of about min_sample_ms.
int repeats_for(double single_ms, double min_sample_ms = kMinSampleMs);

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

// Throws InvalidRequest unless `name` ends in the device's dialect: .cl for
// OpenCL, .cu for CUDA.
void check_source_dialect(const std::string& name, const DeviceInfo& device);
// Points every launch of the variant's own kernel at `text`.
void use_source(Workload& work, const Variant& variant, const std::string& text, const std::string& name);
// A pack variant's launches (and its reference's) get the pack's text in the
// device's dialect (validate_launch refuses a dialect the pack lacks).
// Nothing for a built-in variant.
void use_pack_text(Workload& work, const Variant& variant, const DeviceInfo& device);

// One build a launch needs: timed (pass 0) or for a trace pass (kAccessPass,
// kClockPass: kTraceDefine among its defines).
struct Build {
  int pass = 0;
  LaunchCmd launch;
};
// Every distinct build `launches` need, each timed and in both trace passes,
// in order: the same program and kernel at the same values once.
std::vector<Build> builds_of(const std::vector<LaunchCmd>& launches);

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

// Checks the workload against the device's limits; throws InvalidRequest.
void validate_launch(const Variant& variant, const Params& params, const Workload& work, const DeviceInfo& device);

RunResult run_variant(Device& device, const Variant& variant, const Params& params, const RunOptions& options = {});

// For a variant verified against a reference kernel on the device (a pack's,
// Workload::reference): runs the reference on the inputs of (params, seed),
// so that a traced run of the same inputs (record_trace, which runs no
// reference) verifies. Nothing for the built-in variants. Throws the
// engine's errors.
void run_reference(Device& device, const Variant& variant, const Params& params, std::uint64_t seed);

// Where the variant leaves an output element as the buffer held it before
// the run: its launches run twice on the same inputs, the outputs first
// poisoned, then zeroed, and an element that differs was never written (a
// pack whose arguments are in the wrong order, a grid too small). Outputs
// with a fill of their own (a histogram's bins, which the kernel updates) are
// left out. None when every element is written. Throws the engine's errors.
std::optional<std::string> unwritten_output(Device& device, const Variant& variant, const Params& params,
                                            std::uint64_t seed);

// Device-to-device copy of `bytes` (read + write counted), the practical limit.

struct CopyResult {
  TimingStats ms;
  int repeats_per_sample = 1;
  double bandwidth_gbps = 0;
  std::string error;
  ExclusiveSection exclusive;
};
CopyResult measure_device_copy(Device& device, std::uint64_t bytes, const RunOptions& options);

std::string_view status_name(RunStatus s);

// Errors are values at the engine's edge: runs body and turns an engine
// error it throws (or the host running out of memory) into a status and its
// message. `what_ran` names the work in the out-of-memory message.
struct Outcome {
  RunStatus status = RunStatus::Ok;
  std::string error;
};
Outcome run_capturing_errors(const std::function<void()>& body, const std::string& what_ran);

}  // namespace threadmap
