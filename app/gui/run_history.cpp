#include "app/gui/run_history.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace threadmap::gui {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "threadmap-gui-runs";

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string number(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

bool on_device(const RunReport& report, const std::string& device_spec) { return report.device.spec == device_spec; }

}  // namespace

std::string parameters_text(const RunReport& report) {
  std::string text;
  for (const auto& [name, value] : report.parameters)
    text += (text.empty() ? "" : " ") + name + "=" + value_text(value);
  return text;
}

std::vector<json> RunHistory::reports() const {
  std::vector<json> out;
  for (const RunReport& r : runs_) out.push_back(threadmap::to_json(r));
  return out;
}

std::vector<Bar> RunHistory::latest_bars(const std::vector<std::string>& kernels,
                                         const std::string& device_spec) const {
  std::vector<Bar> bars;
  for (const std::string& kernel : kernels) {
    auto it = std::find_if(runs_.rbegin(), runs_.rend(), [&](const RunReport& r) {
      return r.kernel == kernel && r.ok() && on_device(r, device_spec);
    });
    if (it != runs_.rend()) bars.push_back({kernel, it->bandwidth_gbps});
  }
  return bars;
}

std::optional<double> RunHistory::device_copy_gbps(const std::vector<std::string>& kernels,
                                                   const std::string& device_spec) const {
  for (auto it = runs_.rbegin(); it != runs_.rend(); ++it) {
    if (!on_device(*it, device_spec) || !it->ok()) continue;
    if (std::find(kernels.begin(), kernels.end(), it->kernel) == kernels.end()) continue;
    if (it->device_copy && it->device_copy->error.empty() && it->device_copy->bandwidth_gbps > 0)
      return it->device_copy->bandwidth_gbps;
    auto found = copies_.find({device_spec, it->ideal_bytes / 2});
    if (found != copies_.end()) return found->second;
    return std::nullopt;
  }
  return std::nullopt;
}

std::string RunHistory::to_csv() const {
  std::ostringstream os;
  os << "kernel,device,parameters,status,verified,mismatches,median_ms,min_ms,max_ms,"
        "bandwidth_gbps,device_copy_gbps,error\n";
  for (const RunReport& r : runs_) {
    // A run that did not happen has no measurements: empty cells, not zeros.
    const std::string gbps = r.ok() ? number(r.bandwidth_gbps) : "";
    const std::string verified = r.ok() ? (r.verified() ? "true" : "false") : "";
    const std::string mismatches = r.verification ? number(r.verification->mismatches) : "";
    const std::string median = r.timing ? number(r.timing->kernel_ms.median) : "";
    const std::string min = r.timing ? number(r.timing->kernel_ms.min) : "";
    const std::string max = r.timing ? number(r.timing->kernel_ms.max) : "";
    const std::string copy = r.device_copy ? number(r.device_copy->bandwidth_gbps) : "";
    os << csv_cell(r.kernel) << ',' << csv_cell(r.device.spec) << ',' << csv_cell(parameters_text(r)) << ','
       << csv_cell(r.status) << ',' << verified << ',' << mismatches << ',' << median << ',' << min << ',' << max << ','
       << gbps << ',' << copy << ',' << csv_cell(r.error) << '\n';
  }
  return os.str();
}

json RunHistory::to_json() const {
  json copies = json::array();
  for (const auto& [key, gbps] : copies_)
    copies.push_back({{"device", key.first}, {"bytes", key.second}, {"bandwidth_gbps", gbps}});
  return {{"format", kFormat}, {"version", 1}, {"runs", reports()}, {"device_copies", copies}};
}

RunHistory RunHistory::from_json(const json& j) {
  // (A "format" that is not text is not a run file either: compared, not read as text.)
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    throw std::runtime_error(std::string("not a ThreadMap run file (\"format\" is not \"") + kFormat + "\")");
  if (!j.contains("runs") || !j["runs"].is_array()) throw std::runtime_error("the file has no \"runs\" array");
  RunHistory h;
  for (const json& r : j["runs"]) {
    try {
      h.add(report_from_json(r));
    } catch (const ReportError& e) {
      throw std::runtime_error("run " + std::to_string(h.runs().size() + 1) + ": " + e.what());
    }
  }
  const json copies = j.value("device_copies", json::array());
  if (!copies.is_array()) throw std::runtime_error("\"device_copies\" must be a list");
  for (const json& c : copies) {
    if (!c.is_object() || !c.contains("device") || !c["device"].is_string() || !c.contains("bytes") ||
        !c["bytes"].is_number_unsigned() || !c.contains("bandwidth_gbps") || !c["bandwidth_gbps"].is_number())
      throw std::runtime_error("a device copy needs \"device\", \"bytes\" and \"bandwidth_gbps\"");
    h.add_copy(c["device"], c["bytes"], c["bandwidth_gbps"]);
  }
  return h;
}

void SweepData::add(const RunReport& report) {
  if (!report.ok()) return;
  const auto value = report.parameters.find(parameter_);
  if (value == report.parameters.end() || !std::holds_alternative<std::int64_t>(value->second)) return;
  auto line = std::find_if(lines_.begin(), lines_.end(), [&](const SweepLine& l) { return l.kernel == report.kernel; });
  if (line == lines_.end()) line = lines_.insert(lines_.end(), SweepLine{report.kernel, {}});
  line->points.emplace_back(static_cast<double>(std::get<std::int64_t>(value->second)), report.bandwidth_gbps);
}

std::string SweepData::to_csv() const {
  std::ostringstream os;
  os << "kernel," << parameter_ << ",bandwidth_gbps\n";
  for (const SweepLine& line : lines_)
    for (const auto& [x, gbps] : line.points) os << csv_cell(line.kernel) << ',' << x << ',' << gbps << '\n';
  return os.str();
}

json SweepData::to_json() const {
  json lines = json::array();
  for (const SweepLine& line : lines_) {
    json points = json::array();
    for (const auto& [x, gbps] : line.points) points.push_back({{parameter_, x}, {"bandwidth_gbps", gbps}});
    lines.push_back({{"kernel", line.kernel}, {"points", points}});
  }
  return {{"parameter", parameter_}, {"lines", lines}};
}

}  // namespace threadmap::gui
