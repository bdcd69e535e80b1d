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

std::string report_problem(const json& report) {
  if (!report.is_object()) return "a run report is a JSON object";
  auto wrong = [&](const json& j, const char* key, auto is_type) {
    return j.contains(key) && !is_type(j[key]);
  };
  const auto is_string = [](const json& v) { return v.is_string(); };
  const auto is_number = [](const json& v) { return v.is_number(); };
  const auto is_object = [](const json& v) { return v.is_object(); };
  const auto is_bool = [](const json& v) { return v.is_boolean(); };
  for (const char* key : {"kernel", "status"})
    if (!report.contains(key) || !report[key].is_string())
      return std::string("a run report needs \"") + key + "\" as text";
  for (const char* key : {"error", "note"})
    if (wrong(report, key, is_string)) return std::string("\"") + key + "\" must be text";
  for (const char* key : {"bandwidth_gbps", "end_to_end_gbps", "ideal_bytes", "working_set_bytes"})
    if (wrong(report, key, is_number)) return std::string("\"") + key + "\" must be a number";
  for (const char* key : {"device", "parameters", "verification", "timing", "device_copy"})
    if (wrong(report, key, is_object)) return std::string("\"") + key + "\" must be an object";
  if (wrong(report, "cache_resident", is_bool)) return "\"cache_resident\" must be true or false";
  const json device = report.value("device", json::object());
  for (const char* key : {"spec", "name", "backend"})
    if (wrong(device, key, is_string)) return std::string("device.") + key + " must be text";
  const json parameters = report.value("parameters", json::object());
  for (const auto& [name, value] : parameters.items())
    if (!value.is_number_integer() && !value.is_string())
      return "parameter " + name + " must be a whole number or a name";
  const json verification = report.value("verification", json::object());
  if (wrong(verification, "verified", is_bool)) return "verification.verified must be true or false";
  for (const char* key : {"checked", "mismatches"})
    if (wrong(verification, key, is_number)) return std::string("verification.") + key + " must be a number";
  if (verification.contains("first_mismatches")) {
    if (!verification["first_mismatches"].is_array()) return "verification.first_mismatches must be a list";
    for (const json& m : verification["first_mismatches"])
      for (const char* key : {"where", "expected", "actual"})
        if (!m.is_object() || !m.contains(key) || !m[key].is_string())
          return std::string("each first mismatch needs \"") + key + "\" as text";
  }
  const json timing = report.value("timing", json::object());
  if (wrong(timing, "kernel_ms", is_object)) return "timing.kernel_ms must be an object";
  for (const char* key : {"median", "min", "max", "samples"})
    if (wrong(timing.value("kernel_ms", json::object()), key, is_number))
      return std::string("timing.kernel_ms.") + key + " must be a number";
  const json copy = report.value("device_copy", json::object());
  if (wrong(copy, "bandwidth_gbps", is_number)) return "device_copy.bandwidth_gbps must be a number";
  if (wrong(copy, "error", is_string)) return "device_copy.error must be text";
  return {};
}

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
  if (!j.is_object() || j.value("format", "") != kFormat)
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
