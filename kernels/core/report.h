#pragma once
// JSON forms of the engine's values: what `threadmap-cli --format json` prints,
// what a session keeps and what the worker replies. The run report has a
// reader too (RunReport): every key of it is written and read in report.cpp
// alone, so the GUI, the worker's client and a session's reader never name one.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "kernels/core/variant.h"
#include "kernels/core/device.h"
#include "kernels/core/run.h"

namespace threadmap {

nlohmann::json to_json(const DeviceInfo& d);
nlohmann::json to_json(const BackendReport& b);
nlohmann::json to_json(const ParamSpec& p);
nlohmann::json to_json(const Variant& v);
nlohmann::json to_json(const Variant& v, const Params& p);  // {name: value}, choices by name
nlohmann::json to_json(const TimingStats& t);
// The device's timing lock as a run held it: {exclusive, waited_ms, runs_ahead, start_ns, end_ns[, note]}.
nlohmann::json to_json(const ExclusiveSection& s);
// {verified, checked, mismatches, first_mismatches, method}: a run's output check.
nlohmann::json to_json(const Verification& v);
// A device-to-device copy of `bytes` bytes: {bytes, ms, bandwidth_gbps[, error]}.
nlohmann::json to_json(const CopyResult& c, std::uint64_t bytes);

// Empty when `device` has the shape of to_json(DeviceInfo) (each field it
// has, with its type), else what is wrong.
std::string device_problem(const nlohmann::json& device);
// Empty when `report` has the shape of to_json(RunReport) (the fields
// readers use, with their types), else what is wrong.
std::string report_problem(const nlohmann::json& report);

// --- Reading the JSON back: a run report as it was sent or saved.

// A report, device or copy whose JSON is malformed; the message is what the
// *_problem checks above say.
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A parameter's value in a report: a number, or a choice's name ("float").
using ReportValue = std::variant<std::int64_t, std::string>;
std::string value_text(const ReportValue& value);  // "16", "float"
// A run's parameters as reports name them, by name.
using ReportParameters = std::map<std::string, ReportValue>;
ReportParameters report_parameters(const Variant& v, const Params& p);
nlohmann::json to_json(const ReportParameters& p);  // {name: value}
// Throws ReportError naming a value that is neither a whole number nor a name.
ReportParameters parameters_from_json(const nlohmann::json& parameters);

struct ReportTiming {
  TimingStats kernel_ms;      // device events, kernels only
  TimingStats end_to_end_ms;  // host clock: upload, kernels, read back
  int launches_per_run = 0;
  int runs_per_timed_sample = 1;
  ExclusiveSection device_lock;  // the device's timing lock, as the run held it
};

// A device-to-device copy of `bytes`: the ceiling a chart draws.
struct CopyReport {
  std::uint64_t bytes = 0;
  TimingStats ms;
  double bandwidth_gbps = 0;
  std::string error;                            // empty: measured
  std::optional<ExclusiveSection> device_lock;  // none in reports from before the lock
};

// A run report as its JSON says it. It needs no catalog: parameters are kept
// as the report named them, so a report from an older file reads as it was.
struct RunReport {
  std::string kernel;
  std::string status;  // status_name(): "ok", "invalid", "unavailable", "device-failure"
  std::string error;   // why it did not run, when not ok
  DeviceInfo device;
  ReportParameters parameters;
  // What a run that happened measured (status "ok").
  std::optional<Verification> verification;
  std::optional<ReportTiming> timing;
  std::uint64_t ideal_bytes = 0;
  std::uint64_t working_set_bytes = 0;
  double bandwidth_gbps = 0;
  double end_to_end_gbps = 0;
  bool cache_resident = false;
  std::string note;
  // Measured beside the run: a recording's, or a worker run asked for it.
  std::optional<CopyReport> device_copy;

  bool ok() const { return status == status_name(RunStatus::Ok); }
  bool verified() const { return verification && verification->verified; }
};

// The report of a run of `variant` (its parameters named as the variant names them).
RunReport make_report(const RunResult& r, const Variant& variant);
CopyReport make_copy_report(const CopyResult& c, std::uint64_t bytes);
nlohmann::json to_json(const RunReport& r);
nlohmann::json to_json(const CopyReport& c);

// Each throws ReportError naming what is wrong; each accepts what its
// *_problem check accepts, fields it lacks read as their defaults.
RunReport report_from_json(const nlohmann::json& report);
DeviceInfo device_from_json(const nlohmann::json& device);
BackendReport backend_from_json(const nlohmann::json& backend);
CopyReport copy_from_json(const nlohmann::json& copy);
// A session's trace verification or a report's: the fields it has, read
// leniently (a field of another type reads as its default).
Verification verification_from_json(const nlohmann::json& verification);
// For JSON whose shape was checked already (a loaded session's run and
// device): nothing for a run that is null or {} (not timed), and, all the
// same, for one that is malformed; a default device for one that is.
std::optional<RunReport> report_if_any(const nlohmann::json& run);
DeviceInfo device_or_default(const nlohmann::json& device);

}  // namespace threadmap
