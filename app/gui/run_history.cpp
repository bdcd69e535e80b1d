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

std::string number(const json& value) {
  if (!value.is_number()) return "";
  std::ostringstream os;
  os << value.get<double>();
  return os.str();
}

bool on_device(const json& report, const std::string& device_spec) {
  return report.contains("device") && report["device"].value("spec", "") == device_spec;
}

}  // namespace

bool report_ok(const json& report) { return report.value("status", "") == "ok"; }

std::string parameters_text(const json& report) {
  std::string text;
  const json parameters = report.value("parameters", json::object());
  for (const auto& [name, value] : parameters.items())
    text += (text.empty() ? "" : " ") + name + "=" +
            (value.is_string() ? value.get<std::string>() : value.dump());
  return text;
}

std::vector<Bar> RunHistory::latest_bars(const std::vector<std::string>& kernels,
                                         const std::string& device_spec) const {
  std::vector<Bar> bars;
  for (const std::string& kernel : kernels) {
    auto it = std::find_if(reports_.rbegin(), reports_.rend(), [&](const json& r) {
      return r.value("kernel", "") == kernel && report_ok(r) && on_device(r, device_spec);
    });
    if (it != reports_.rend()) bars.push_back({kernel, it->value("bandwidth_gbps", 0.0)});
  }
  return bars;
}

std::optional<double> RunHistory::device_copy_gbps(const std::vector<std::string>& kernels,
                                                   const std::string& device_spec) const {
  for (auto it = reports_.rbegin(); it != reports_.rend(); ++it) {
    if (!on_device(*it, device_spec) || !report_ok(*it)) continue;
    if (std::find(kernels.begin(), kernels.end(), it->value("kernel", "")) == kernels.end())
      continue;
    const json copy = it->value("device_copy", json::object());
    if (!copy.contains("error") && copy.value("bandwidth_gbps", 0.0) > 0)
      return copy["bandwidth_gbps"].get<double>();
    auto found = copies_.find({device_spec, it->value("ideal_bytes", std::uint64_t{0}) / 2});
    if (found != copies_.end()) return found->second;
    return std::nullopt;
  }
  return std::nullopt;
}

std::string RunHistory::to_csv() const {
  std::ostringstream os;
  os << "kernel,device,parameters,status,verified,mismatches,median_ms,min_ms,max_ms,"
        "bandwidth_gbps,device_copy_gbps,error\n";
  for (const json& r : reports_) {
    const json timing = r.value("timing", json::object()).value("kernel_ms", json::object());
    const json verification = r.value("verification", json::object());
    const json copy = r.value("device_copy", json::object());
    os << csv_cell(r.value("kernel", "")) << ','
       << csv_cell(r.value("device", json::object()).value("spec", "")) << ','
       << csv_cell(parameters_text(r)) << ',' << csv_cell(r.value("status", "")) << ','
       << (report_ok(r) ? (verification.value("verified", false) ? "true" : "false") : "") << ','
       << number(verification.value("mismatches", json())) << ','
       << number(timing.value("median", json())) << ',' << number(timing.value("min", json()))
       << ',' << number(timing.value("max", json())) << ','
       << number(r.value("bandwidth_gbps", json())) << ','
       << number(copy.value("bandwidth_gbps", json())) << ','
       << csv_cell(r.value("error", "")) << '\n';
  }
  return os.str();
}

json RunHistory::to_json() const {
  json copies = json::array();
  for (const auto& [key, gbps] : copies_)
    copies.push_back({{"device", key.first}, {"bytes", key.second}, {"bandwidth_gbps", gbps}});
  return {{"format", kFormat}, {"version", 1}, {"runs", reports_}, {"device_copies", copies}};
}

RunHistory RunHistory::from_json(const json& j) {
  // (A "format" that is not text is not a run file either: compared, not read as text.)
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    throw std::runtime_error(std::string("not a ThreadMap run file (\"format\" is not \"") +
                             kFormat + "\")");
  if (!j.contains("runs") || !j["runs"].is_array())
    throw std::runtime_error("the file has no \"runs\" array");
  RunHistory h;
  for (const json& r : j["runs"]) {
    if (const std::string problem = report_problem(r); !problem.empty())
      throw std::runtime_error("run " + std::to_string(h.reports().size() + 1) + ": " + problem);
    h.add(r);
  }
  const json copies = j.value("device_copies", json::array());
  if (!copies.is_array()) throw std::runtime_error("\"device_copies\" must be a list");
  for (const json& c : copies) {
    if (!c.is_object() || !c.contains("device") || !c["device"].is_string() ||
        !c.contains("bytes") || !c["bytes"].is_number_unsigned() ||
        !c.contains("bandwidth_gbps") || !c["bandwidth_gbps"].is_number())
      throw std::runtime_error("a device copy needs \"device\", \"bytes\" and \"bandwidth_gbps\"");
    h.add_copy(c["device"], c["bytes"], c["bandwidth_gbps"]);
  }
  return h;
}

void SweepData::add(const json& report) {
  if (!report_ok(report)) return;
  const json value = report.value("parameters", json::object()).value(parameter_, json());
  if (!value.is_number()) return;
  const std::string kernel = report.value("kernel", "");
  auto line = std::find_if(lines_.begin(), lines_.end(),
                           [&](const SweepLine& l) { return l.kernel == kernel; });
  if (line == lines_.end()) line = lines_.insert(lines_.end(), SweepLine{kernel, {}});
  line->points.emplace_back(value.get<double>(), report.value("bandwidth_gbps", 0.0));
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
