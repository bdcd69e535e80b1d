#include "app/cli/session_builder.h"

#include <ctime>

#include "kernels/report.h"
#include "viz/analysis/summary.h"

namespace threadmap::cli {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

Session build_session(const Variant& variant, const Params& params, const DeviceInfo& device,
                      const RunResult& run, const CopyResult& copy,
                      const Recording& recording, const analysis::Analysis& analysis) {
  Session s;
  s.created_by = std::string("threadmap-cli ") + THREADMAP_VERSION;
  s.created_at = utc_now();
  s.kernel_id = variant.id;
  for (const ParamSpec& p : variant.params) s.params[p.name] = p.format(params.get(p.name));
  s.device = to_json(device);
  s.run = to_json(run);
  s.run["device_copy"] = to_json(copy, run.ideal_bytes / 2);
  s.trace = recording.trace;
  s.trace_verification = {{"verified", recording.verification.verified},
                          {"checked", recording.verification.checked},
                          {"mismatches", recording.verification.mismatches},
                          {"method", recording.verification.method}};
  s.record_ms = recording.record_ms;
  s.analysis = analysis::summary_json(recording.trace, analysis);
  return s;
}

}  // namespace threadmap::cli
