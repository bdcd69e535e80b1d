#include "tests/cli_runner.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "kernels/engine/devices.h"

namespace threadmap::testing {

Outcome cli(const std::string& args) { return run_program(THREADMAP_CLI, args); }

Outcome run_program(const std::string& program, const std::string& args) {
  // One file per process: ctest runs these tests in parallel.
  const std::string err_file = ::testing::TempDir() + "threadmap_cli_stderr_" + std::to_string(getpid()) + ".txt";
  const std::string command = program + " " + args + " 2>" + err_file;
  Outcome o;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return o;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) o.out.append(buffer, n);
  const int status = pclose(pipe);
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  std::stringstream ss;
  ss << err.rdbuf();
  o.err = ss.str();
  return o;
}

namespace {

bool has_device(const std::string& backend) {
  for (const auto& b : list_backends())
    if (b.backend == backend && b.available) return true;
  return false;
}

}  // namespace

bool has_opencl_device() { return has_device("opencl"); }
bool has_cuda_device() { return has_device("cuda"); }

}  // namespace threadmap::testing
