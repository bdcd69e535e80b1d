#pragma once
// Every run report the GUI received this session (kernels/core/report.h's
// RunReport, read once where it arrived). Charts, export and sessions read
// from here; Qt views adapt it and never hold the numbers themselves.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/core/report.h"

namespace threadmap::gui {

struct Bar {
  std::string kernel;
  double gbps = 0;
};

struct SweepLine {
  std::string kernel;
  std::vector<std::pair<double, double>> points;  // (parameter value, GB/s)
};

class RunHistory {
 public:
  void add(RunReport report) { runs_.push_back(std::move(report)); }
  // A device-to-device copy of `bytes` measured by the worker's "copy" request.
  void add_copy(const std::string& device_spec, std::uint64_t bytes, double gbps) {
    copies_[{device_spec, bytes}] = gbps;
  }
  bool has_copy(const std::string& device_spec, std::uint64_t bytes) const {
    return copies_.count({device_spec, bytes}) > 0;
  }
  const std::vector<RunReport>& runs() const { return runs_; }
  // The same reports as JSON (kernels/core/report.h), as a run file keeps them.
  std::vector<nlohmann::json> reports() const;

  // The latest completed run (status ok, verified or not) of each of
  // `kernels` on `device_spec`, in the order given.
  std::vector<Bar> latest_bars(const std::vector<std::string>& kernels, const std::string& device_spec) const;
  // The device-to-device copy of as many bytes as the latest run among
  // `kernels` moved (ideal bytes: each byte read once and written once).
  std::optional<double> device_copy_gbps(const std::vector<std::string>& kernels, const std::string& device_spec) const;

  // Rows for CSV export: one per report.
  std::string to_csv() const;
  nlohmann::json to_json() const;
  // Accepts what to_json() wrote; throws std::runtime_error naming what is wrong.
  static RunHistory from_json(const nlohmann::json& j);

 private:
  std::vector<RunReport> runs_;
  std::map<std::pair<std::string, std::uint64_t>, double> copies_;
};

// Completed points of one sweep, one line per kernel.
class SweepData {
 public:
  void reset(std::string parameter) {
    parameter_ = std::move(parameter);
    lines_.clear();
  }
  void add(const RunReport& report);
  const std::string& parameter() const { return parameter_; }
  const std::vector<SweepLine>& lines() const { return lines_; }
  std::string to_csv() const;
  nlohmann::json to_json() const;

 private:
  std::string parameter_;
  std::vector<SweepLine> lines_;
};

// "tile=16 pad=0 type=int"
std::string parameters_text(const RunReport& report);

}  // namespace threadmap::gui
