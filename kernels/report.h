#pragma once
// JSON forms of the engine's values: what `threadmap-cli --format json` prints
// and what the GUI's worker reads.
#include <nlohmann/json.hpp>

#include "kernels/catalog.h"
#include "kernels/devices.h"
#include "kernels/runner.h"

namespace threadmap {

nlohmann::json to_json(const DeviceInfo& d);
nlohmann::json to_json(const BackendReport& b);
nlohmann::json to_json(const ParamSpec& p);
nlohmann::json to_json(const Variant& v);
nlohmann::json to_json(const Variant& v, const Params& p);  // {name: value}, choices by name
nlohmann::json to_json(const RunResult& r);
nlohmann::json to_json(const TimingStats& t);
// The device's timing lock as a run held it: {exclusive, waited_ms, runs_ahead, start_ns, end_ns[, note]}.
nlohmann::json to_json(const ExclusiveSection& s);
// A device-to-device copy of `bytes` bytes: {bytes, ms, bandwidth_gbps[, error]}.
nlohmann::json to_json(const CopyResult& c, std::uint64_t bytes);

// Empty when `device` has the shape of to_json(DeviceInfo) (each field it
// has, with its type), else what is wrong.
std::string device_problem(const nlohmann::json& device);
// Empty when `report` has the shape of to_json(RunResult) (the fields
// readers use, with their types), else what is wrong.
std::string report_problem(const nlohmann::json& report);

}  // namespace threadmap
