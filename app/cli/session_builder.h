#pragma once
// One recorded run as a session file's contents: what `threadmap-cli record`
// writes and what the serve worker's "record" op writes, built in one place.
#include <filesystem>
#include <string>

#include "kernels/pack/catalog.h"
#include "kernels/core/device.h"
#include "kernels/engine/runner.h"
#include "kernels/core/session.h"
#include "kernels/engine/record.h"
#include "kernels/analysis/analysis.h"

namespace threadmap::cli {

// A recording of `variant` with `params` on `device`: the timed run, a
// device-to-device copy of half its ideal bytes (kept as run.device_copy, the
// ceiling a chart of the recording draws), the traced run and its analysis,
// gathered into `session`. When the timed or the traced run fails, `status`
// and `error` say so and the later steps are not taken.
struct RecordedSession {
  RunStatus status = RunStatus::Ok;
  std::string error;
  RunResult run;
  Recording recording;  // its trace is moved into session.trace once the session is built
  analysis::Analysis analysis;
  Session session;
  // Where the time went, wall clock, in order: "timed run", "device copy",
  // "traced runs" (record_trace, whose own phases are recording.phases_ms),
  // "analysis", "session built", and "session written" once saved.
  Phases phases_ms;
};
// trace_params, when given, are the traced run's parameters (a smaller size
// than the timed run's, so the trace stays small); else it uses `params`.
RecordedSession record_session(Device& device, const Variant& variant, const Params& params,
                               const RunOptions& run_options, const TraceOptions& trace_options,
                               const Params* trace_params = nullptr);

// Writes r.session to `path` (save_session, never over one of `inputs`) and
// adds the "session written" phase. Throws SessionError.
void save_recorded_session(RecordedSession& r, const std::filesystem::path& path,
                           Durability durability = Durability::Synced,
                           std::span<const std::filesystem::path> inputs = {});

// Before record_trace of a pack's variant (nothing for a built-in one): its
// kernel text in the device's dialect becomes the trace's source (so the
// trace names the pack's file and lines) unless a learner's is given, and
// its reference runs on the traced inputs, so the traced run verifies.
// Throws the engine's errors.
void prepare_pack_trace(Device& device, const Variant& variant, const Params& params, TraceOptions& options);

// UTC now, ISO 8601 ("2026-11-22T20:41:07Z").
std::string utc_now();

}  // namespace threadmap::cli
