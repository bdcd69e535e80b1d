#pragma once
// Runs one catalog variant on one device: validate, build, verify against the
// CPU reference, then time. Errors come back as values (RunResult::error).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "kernels/pack/catalog.h"
#include "kernels/core/device.h"
#include "kernels/core/run.h"
#include "kernels/core/stats.h"
#include "kernels/engine/timing_lock.h"
#include "kernels/core/workload.h"

namespace threadmap {

// How many runs back to back make one timed sample of about min_sample_ms.
int repeats_for(double single_ms, double min_sample_ms = kMinSampleMs);

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

CopyResult measure_device_copy(Device& device, std::uint64_t bytes, const RunOptions& options);


// Errors are values at the engine's edge: runs body and turns an engine
// error it throws (or the host running out of memory) into a status and its
// message. `what_ran` names the work in the out-of-memory message.
struct Outcome {
  RunStatus status = RunStatus::Ok;
  std::string error;
};
Outcome run_capturing_errors(const std::function<void()>& body, const std::string& what_ran);

}  // namespace threadmap
