// libFuzzer target for the CLI's own argument parsers, through the
// subcommands that use them: `--set NAME=VALUE`, `--vary NAME=V1,V2,...`,
// `--blocks all|0,1,64` and the device spec ("auto", "opencl:P:D", "cuda:N",
// kernels/engine/devices.cpp open_device). Lines: the kernel id, the device spec,
// the --blocks list, then "s..." for each --set and "v..." for each --vary.
// `counters` and `sweep` check all of them before they run anything, and
// LLVMFuzzerInitialize hides every OpenCL device (an empty OCL_ICD_VENDORS
// folder; CUDA is off in the fuzz build), so nothing ever opens: each call
// ends in an error's exit code (guarded() catches the engine's documented
// exceptions; anything else escaping is a finding).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "kernels/engine/devices.h"
#include "kernels/core/error.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  threadmap::fuzz::hide_every_device();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> lines = threadmap::fuzz::lines_of(data, size);
  auto line = [&](std::size_t i) { return i < lines.size() ? lines[i] : std::string(); };
  const std::string kernel = line(0);
  threadmap::cli::RunArgs args;
  args.device = line(1);
  const std::string blocks = line(2);
  std::vector<std::string> vary;
  for (std::size_t i = 3; i < lines.size(); ++i) {
    if (lines[i].starts_with('s')) args.sets.push_back(lines[i].substr(1));
    if (lines[i].starts_with('v')) vary.push_back(lines[i].substr(1));
  }
  auto refused = [](int code) {
    return code == threadmap::cli::kExitInvalid || code == threadmap::cli::kExitDeviceFailure ||
           code == threadmap::cli::kExitUnavailable;
  };
  threadmap::fuzz::Muted muted;
  if (!refused(threadmap::cli::counters_command(kernel, args, blocks))) std::abort();
  if (!refused(threadmap::cli::sweep_command(kernel, args, vary))) std::abort();
  try {
    threadmap::open_device(args.device);
    std::abort();  // there is no device to open
  } catch (const threadmap::InvalidRequest&) {
  } catch (const threadmap::DeviceError&) {
  }
  return 0;
}
