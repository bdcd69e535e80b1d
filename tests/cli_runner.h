#pragma once
// threadmap-cli run as a learner runs it, for the CLI's tests: its exit code,
// what it printed and what it said on stderr.
#include <string>

namespace threadmap::testing {

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

// THREADMAP_CLI ARGS, through the shell (ARGS may redirect or pipe).
Outcome cli(const std::string& args);
// PROGRAM ARGS likewise (a copy of the CLI elsewhere, say).
Outcome run_program(const std::string& program, const std::string& args);

bool has_opencl_device();
bool has_cuda_device();

}  // namespace threadmap::testing

#define REQUIRE_OPENCL() \
  if (!threadmap::testing::has_opencl_device()) GTEST_SKIP() << "no OpenCL device found"
