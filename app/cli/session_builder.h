#pragma once
// One recorded run as a session file's contents: what `threadmap-cli record`
// writes and what the serve worker's "record" op writes, built in one place.
#include <string>

#include "kernels/catalog.h"
#include "kernels/device.h"
#include "kernels/runner.h"
#include "kernels/session.h"
#include "kernels/trace.h"
#include "viz/analysis/analysis.h"

namespace threadmap::cli {

// The timed run `run`, the traced run `recording` and its analysis, of
// `variant` with `params` on the device described by `device`. `copy`, a
// device-to-device copy of half the run's ideal bytes measured beside it, is
// kept as run.device_copy: the ceiling a chart of the recording draws.
Session build_session(const Variant& variant, const Params& params, const DeviceInfo& device,
                      const RunResult& run, const CopyResult& copy,
                      const Recording& recording, const analysis::Analysis& analysis);

// UTC now, ISO 8601 ("2026-11-22T20:41:07Z").
std::string utc_now();

}  // namespace threadmap::cli
