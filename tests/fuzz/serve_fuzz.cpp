// libFuzzer target for the worker protocol (`threadmap-cli serve`, docs/cli.md):
// the input is the worker's stdin, JSON lines. LLVMFuzzerInitialize hides
// every OpenCL device (an empty OCL_ICD_VENDORS folder; CUDA is off in the
// fuzz build), so requests stop at their checks or at "no device" and
// nothing slow runs. serve_command() documents no exception: anything
// escaping it, or killing the worker, is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/serve.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  threadmap::fuzz::hide_every_device();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  if (threadmap::cli::serve_command(in, out) != 0) std::abort();

  // The replies' shape and count: every line the worker writes is one JSON
  // object whose "type" is result, error or progress (docs/cli.md), and every
  // input line gets exactly one final reply (result or error), in order,
  // until a "quit" (its reply, {"bye": true}, is then the last).
  const std::size_t lines = threadmap::fuzz::lines_of(data, size).size();
  std::size_t finals = 0;
  bool quit = false;
  std::istringstream replies(out.str());
  for (std::string reply; std::getline(replies, reply);) {
    const nlohmann::json j = nlohmann::json::parse(reply, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("type")) std::abort();
    const nlohmann::json& type = j["type"];
    if (type != "result" && type != "error" && type != "progress") std::abort();
    if (quit) std::abort();  // nothing after the bye
    if (type == "progress") continue;
    ++finals;
    quit = type == "result" && j["result"].is_object() && j["result"].value("bye", false) == true;
  }
  if (quit ? finals > lines : finals != lines) std::abort();
  return 0;
}
