// libFuzzer target for the GUI's run files and run reports
// (app/gui/run_history.h, Qt-free): JSON text from a file or the worker goes
// through report_from_json() (kernels/core/report.h, which refuses what is
// malformed with ReportError) and RunHistory::from_json() (std::runtime_error).
// What they accept, the GUI then reads (bars, the copy ceiling, CSV, JSON):
// that must hold too, and a report read back must write the JSON it came from
// read again the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "app/gui/run_history.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using nlohmann::json;
  const json j = json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;

  // A report from the worker: accepted ones are read as the GUI reads them.
  const bool accepted = threadmap::report_problem(j).empty();
  try {
    const threadmap::RunReport report = threadmap::report_from_json(j);
    if (!accepted) std::abort();  // the reader and the check disagree
    const json written = threadmap::to_json(report);
    if (threadmap::to_json(threadmap::report_from_json(written)) != written) std::abort();
    threadmap::gui::RunHistory one;
    one.add(report);
    one.latest_bars({report.kernel}, report.device.spec);
    one.device_copy_gbps({report.kernel}, report.device.spec);
    one.to_csv();
    threadmap::gui::SweepData sweep;
    for (const auto& [name, value] : report.parameters) {
      sweep.reset(name);
      sweep.add(report);
      sweep.to_csv();
      sweep.to_json().dump();
    }
  } catch (const threadmap::ReportError&) {
    if (accepted) std::abort();
  }

  // A run file: refused with a message, or read back whole.
  try {
    const threadmap::gui::RunHistory h = threadmap::gui::RunHistory::from_json(j);
    h.to_csv();
    for (const threadmap::RunReport& r : h.runs()) {
      h.latest_bars({r.kernel}, r.device.spec);
      h.device_copy_gbps({r.kernel}, r.device.spec);
    }
    // What it writes, it reads again.
    if (threadmap::gui::RunHistory::from_json(h.to_json()).runs().size() != h.runs().size()) std::abort();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
