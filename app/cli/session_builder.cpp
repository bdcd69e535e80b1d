#include "app/cli/session_builder.h"

#include <ctime>

#include "kernels/core/report.h"
#include "kernels/core/sources.h"
#include "kernels/analysis/summary.h"

namespace threadmap::cli {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

namespace {

Session build_session(const Variant& variant, const Params& params, const Params* trace_params,
                      const DeviceInfo& device, const RunResult& run, const CopyResult& copy, Recording& recording,
                      const analysis::Analysis& analysis) {
  Session s;
  s.created_by = std::string("threadmap-cli ") + THREADMAP_VERSION;
  s.created_at = utc_now();
  s.kernel_id = variant.id;
  for (const ParamSpec& p : variant.params) s.params[p.name] = p.format(params.get(p.name));
  if (trace_params) {
    for (const ParamSpec& p : variant.params) s.trace_params[p.name] = p.format(trace_params->get(p.name));
    if (s.trace_params == s.params) s.trace_params.clear();
  }
  s.device = to_json(device);
  RunReport report = make_report(run, variant);
  report.device_copy = make_copy_report(copy, run.ideal_bytes / 2);
  s.run = to_json(report);
  s.analysis = analysis::summary_json(recording.trace, analysis);
  s.trace = std::move(recording.trace);  // the bulk of the session: moved, not copied
  s.trace_verification = to_json(recording.verification);
  s.record_ms = recording.record_ms;
  return s;
}

// The text the session compiled, kept so the trace's lines keep their text
// when a file changes: a learner's (`asked` had one), else the kernel's own,
// a pack's (`traced` has it from prepare_pack_trace) or the built-in file.
void keep_kernel_text(Session& s, const TraceOptions& asked, const TraceOptions& traced) {
  if (!asked.source_text.empty()) {
    s.source_name = asked.source_name;
    s.source_text = asked.source_text;
  } else if (!traced.source_text.empty()) {
    s.kernel_file = traced.source_name;
    s.kernel_text = traced.source_text;
  } else if (s.trace) {
    s.kernel_file = s.trace->source_file;
    s.kernel_text = std::string(embedded_source(s.kernel_file));
  }
}

}  // namespace

RecordedSession record_session(Device& device, const Variant& variant, const Params& params,
                               const RunOptions& run_options, const TraceOptions& trace_options,
                               const Params* trace_params) {
  RecordedSession r;
  PhaseClock phase(r.phases_ms);
  r.run = run_variant(device, variant, params, run_options);
  phase("timed run");
  if (r.run.status != RunStatus::Ok) {
    r.status = r.run.status;
    r.error = r.run.error;
    return r;
  }
  const CopyResult copy = measure_device_copy(device, r.run.ideal_bytes / 2, run_options);
  phase("device copy");
  // A trace too large for a session file is refused after the first count,
  // before the traced run that would fill it.
  TraceOptions bounded = trace_options;
  bounded.max_records = std::min(bounded.max_records, kMaxSessionAccessRecords);
  const Outcome prepared =
      run_capturing_errors([&] { prepare_pack_trace(device, variant, trace_params ? *trace_params : params, bounded); },
                           variant.id + ": running the reference");
  if (prepared.status != RunStatus::Ok) {
    r.status = prepared.status;
    r.error = prepared.error;
    return r;
  }
  r.recording = record_trace(device, variant, trace_params ? *trace_params : params, bounded);
  phase("traced runs");
  if (r.recording.status != RunStatus::Ok) {
    r.status = r.recording.status;
    r.error = r.recording.error;
    return r;
  }
  r.analysis = analysis::analyze(r.recording.trace, analysis::model_for(r.recording.trace));
  phase("analysis");
  r.session = build_session(variant, params, trace_params, device.info(), r.run, copy, r.recording, r.analysis);
  keep_kernel_text(r.session, trace_options, bounded);
  phase("session built");
  return r;
}

void prepare_pack_trace(Device& device, const Variant& variant, const Params& params, TraceOptions& options) {
  if (variant.pack.empty()) return;
  if (options.source_text.empty())
    if (const Variant::KernelText* text = pack_text(variant, device.info().dialect)) {
      options.source_text = text->text;
      options.source_name = text->file;
    }
  run_reference(device, variant, params, options.seed);
}

void save_recorded_session(RecordedSession& r, const std::filesystem::path& path, Durability durability,
                           std::span<const std::filesystem::path> inputs) {
  PhaseClock phase(r.phases_ms);
  save_session(r.session, path, durability, inputs);
  phase("session written");
}

}  // namespace threadmap::cli
