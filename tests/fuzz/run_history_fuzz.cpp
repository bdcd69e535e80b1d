// libFuzzer target for the GUI's run files and run reports
// (app/gui/run_history.h, Qt-free): JSON text from a file or the worker goes
// through report_problem() and RunHistory::from_json(), which refuses what is
// malformed with std::runtime_error. What they accept, the GUI then reads
// (bars, the copy ceiling, CSV, JSON): that must hold too.
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
  if (threadmap::report_problem(j).empty()) {
    threadmap::gui::RunHistory one;
    one.add(j);
    const std::string kernel = j["kernel"].get<std::string>();
    const std::string spec = j.value("device", json::object()).value("spec", "");
    one.latest_bars({kernel}, spec);
    one.device_copy_gbps({kernel}, spec);
    one.to_csv();
    threadmap::gui::SweepData sweep;
    const json parameters = j.value("parameters", json::object());
    for (const auto& [name, value] : parameters.items()) {
      sweep.reset(name);
      sweep.add(j);
      sweep.to_csv();
      sweep.to_json().dump();
    }
  }

  // A run file: refused with a message, or read back whole.
  try {
    const threadmap::gui::RunHistory h = threadmap::gui::RunHistory::from_json(j);
    h.to_csv();
    for (const json& r : h.reports()) {
      const std::string spec = r.value("device", json::object()).value("spec", "");
      h.latest_bars({r["kernel"].get<std::string>()}, spec);
      h.device_copy_gbps({r["kernel"].get<std::string>()}, spec);
    }
    // What it writes, it reads again.
    if (threadmap::gui::RunHistory::from_json(h.to_json()).reports().size() != h.reports().size())
      std::abort();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
