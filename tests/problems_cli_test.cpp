// The problems a trace shows (kernels/analysis/problems.h), on real traced runs
// of the kernels in tests/data/problems: each a lesson's kernel with one of
// the learners' common bugs (a barrier removed, a tile read before it is
// written, an index one past the end), or clean. ThreadMap's findings are
// asserted against a table, then against Oclgrind's on the same runs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace {

using nlohmann::json;

struct ProblemsOutcome {
  int code = -1;
  std::string out;
};

ProblemsOutcome run_shell(const std::string& command) {
  ProblemsOutcome o;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return o;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) o.out.append(buffer, n);
  const int status = pclose(pipe);
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

// Lines as text: a race "7-8" (the two lines, lower first); one line "8".
using Lines = std::set<std::string>;

struct Found {
  Lines races, uninitialized, out_of_bounds;
};

std::string pair_text(int a, int b) { return std::to_string(std::min(a, b)) + "-" + std::to_string(std::max(a, b)); }

struct ProblemCase {
  const char* file;    // in tests/data/problems
  const char* kernel;  // the catalog kernel it replaces
  const char* sets;    // --set arguments: small, so Oclgrind takes a second
  Found expected;
};

const std::vector<ProblemCase>& problem_cases() {
  static const std::vector<ProblemCase> cases = {
      {"smem.setRowReadCol.no-barrier.cl", "smem.setRowReadCol", "--set blocks=2", {{"7-8"}, {"8"}, {}}},
      {"smem.setRowReadCol.clean.cl", "smem.setRowReadCol", "--set blocks=2", {}},
      {"smem.setRowReadColDyn.no-barrier.cl", "smem.setRowReadColDyn", "--set blocks=2", {{"6-7"}, {"7"}, {}}},
      {"smem.setRowReadColPad.no-barrier.cl", "smem.setRowReadColPad", "--set blocks=2", {{"7-8"}, {"8"}, {}}},
      {"smem.setRowReadColPad.pad-read.cl", "smem.setRowReadColPad", "--set blocks=2", {{}, {"9"}, {}}},
      {"reduce.interleaved.no-loop-barrier.cl", "reduce.interleaved", "--set n=1024", {{"16-16"}, {}, {}}},
      {"reduce.interleaved.clean.cl", "reduce.interleaved", "--set n=1024", {}},
      {"reduce.interleaved.half-loaded.cl", "reduce.interleaved", "--set n=1024", {{}, {"15"}, {}}},
      {"transpose.shared.no-barrier.cl", "transpose.shared", "--set width=64 --set height=64", {{"10-15"}, {"15"}, {}}},
      {"transpose.shared.clean.cl", "transpose.shared", "--set width=64 --set height=64", {}},
      {"transpose.naive.one-past.cl", "transpose.naive", "--set width=64 --set height=64", {{}, {}, {"8"}}},
      {"matadd.rows.one-past.cl", "matadd.rows", "--set width=64 --set height=64 --set wg=32", {{}, {}, {"8"}}},
      {"matadd.rows.clean.cl", "matadd.rows", "--set width=64 --set height=64 --set wg=32", {}},
      {"smem.setRowReadCol.past-the-tile.cl", "smem.setRowReadCol", "--set blocks=2", {{}, {}, {"9"}}},
      // Its run crashes PoCL: the traced run, which skips what is outside, says why.
      {"matadd.rows.far-past.cl", "matadd.rows", "--set width=64 --set height=64 --set wg=32", {{}, {}, {"9"}}},
  };
  return cases;
}

std::string data_file(const ProblemCase& c) {
  return std::string(THREADMAP_SOURCE_DIR) + "/tests/data/problems/" + c.file;
}

std::string run_args(const ProblemCase& c, const std::string& device = "opencl:0:0", const std::string& file = "") {
  return std::string("run ") + c.kernel + " --source " + (file.empty() ? data_file(c) : file) + " --device " + device +
         " " + c.sets + " --reps 1 --warmup 0 --timeout 120";
}

// The CUDA twin of a case's OpenCL kernel (the same bug on the same lines), if there is one.
std::string cuda_twin(const ProblemCase& c) {
  std::string file = data_file(c);
  file.replace(file.size() - 3, 3, ".cu");
  return std::filesystem::exists(file) ? file : "";
}

// ThreadMap's problems list (analysis::to_json) by kind.
Found found_by_threadmap(const json& problems) {
  Found f;
  for (const json& p : problems.at("list")) {
    const std::string kind = p.at("kind");
    const json& lines = p.at("lines");
    if (kind == "read-after-write" || kind == "write-after-read" || kind == "write-after-write")
      f.races.insert(pair_text(lines.at(0), lines.at(1)));
    else if (kind == "uninitialized-read") f.uninitialized.insert(std::to_string(lines.at(0).get<int>()));
    else if (kind == "out-of-bounds") f.out_of_bounds.insert(std::to_string(lines.at(0).get<int>()));
    else ADD_FAILURE() << "unexpected kind " << kind;
  }
  return f;
}

json threadmap_problems(const ProblemCase& c, const std::string& device = "opencl:0:0", const std::string& file = "") {
  const ProblemsOutcome o =
      run_shell(std::string(THREADMAP_CLI) + " " + run_args(c, device, file) + " --format json 2>&1");
  // The run's report, or (a run that crashed or failed on the device) the
  // traced run's that follows it: the last object holding problems.
  json found;
  for (std::size_t brace = o.out.find('{'); brace != std::string::npos; brace = o.out.find("\n{", brace + 1)) {
    if (o.out[brace] == '\n') ++brace;
    const std::size_t end = o.out.find("\n}", brace);
    const json report = json::parse(o.out.substr(brace, end == std::string::npos ? std::string::npos : end + 2 - brace),
                                    nullptr, false);
    if (report.is_object() && report.contains("problems")) found = report["problems"];
  }
  return found;
}

// Oclgrind's log: each report's first line, then "At line N" per entity
// (two for a race, one otherwise).
Found found_by_oclgrind(const std::string& log) {
  Found f;
  std::istringstream in(log);
  std::string kind;
  std::vector<int> lines;
  auto flush = [&] {
    if (kind.find("data race") != std::string::npos && lines.size() == 2) f.races.insert(pair_text(lines[0], lines[1]));
    else if (kind.find("Uninitialized value") != std::string::npos && !lines.empty())
      f.uninitialized.insert(std::to_string(lines[0]));
    else if (kind.find("Invalid ") == 0 && !lines.empty()) f.out_of_bounds.insert(std::to_string(lines[0]));
    kind.clear();
    lines.clear();
  };
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '\t' && line[0] != ' ') {
      flush();
      kind = line;
    } else if (const auto at = line.find("At line "); at != std::string::npos) {
      lines.push_back(std::atoi(line.c_str() + at + 8));
    }
  }
  flush();
  return f;
}

TEST(Problems, TraceShowsEachKernelsBug) {
  if (!threadmap::testing::has_opencl_device()) GTEST_SKIP() << "no OpenCL device found";
  for (const ProblemCase& c : problem_cases()) {
    SCOPED_TRACE(c.file);
    const json problems = threadmap_problems(c);
    ASSERT_TRUE(problems.is_object()) << "no problems in the run's report";
    if (problems.contains("error") && problems["error"].get<std::string>().find("libclang") != std::string::npos)
      GTEST_SKIP() << problems["error"];
    ASSERT_FALSE(problems.contains("error")) << problems["error"];
    EXPECT_TRUE(problems["races_checked"].get<bool>());
    const Found f = found_by_threadmap(problems);
    EXPECT_EQ(f.races, c.expected.races);
    EXPECT_EQ(f.uninitialized, c.expected.uninitialized);
    EXPECT_EQ(f.out_of_bounds, c.expected.out_of_bounds);
    for (const json& p : problems["list"]) {
      EXPECT_LT(p["block"].get<std::uint32_t>(), 64u);
      EXPECT_FALSE(p["message"].get<std::string>().empty());
    }
  }
}

// The CUDA twins, traced through the PTX instrumenter: the same problems on
// the same lines as their OpenCL kernels.
TEST(Problems, CudaTwinsShowTheSameBugs) {
  if (!threadmap::testing::has_cuda_device())
    GTEST_SKIP() << "no CUDA device found (the CUDA twins run on an NVIDIA GPU)";
  int twins = 0;
  for (const ProblemCase& c : problem_cases()) {
    const std::string twin = cuda_twin(c);
    if (twin.empty()) continue;
    SCOPED_TRACE(twin);
    ++twins;
    const json problems = threadmap_problems(c, "cuda:0", twin);
    ASSERT_TRUE(problems.is_object() && !problems.contains("error")) << problems.dump();
    EXPECT_TRUE(problems["races_checked"].get<bool>());
    const Found f = found_by_threadmap(problems);
    EXPECT_EQ(f.races, c.expected.races);
    EXPECT_EQ(f.out_of_bounds, c.expected.out_of_bounds);
    // A racing read finds its word unwritten only where this run ordered it
    // before the store (the GPU's warps need not run as PoCL's do); a word
    // no thread writes is unwritten in every run.
    if (c.expected.races.empty()) EXPECT_EQ(f.uninitialized, c.expected.uninitialized);
    for (const std::string& line : f.uninitialized) EXPECT_EQ(c.expected.uninitialized.count(line), 1u) << line;
  }
  EXPECT_GE(twins, 6);
}

// A barrier only the lower half of the block's warps reach (CUDA: PoCL
// cannot run a barrier in divergent code at all).
TEST(Problems, CudaBarrierInABranchIsNamed) {
  if (!threadmap::testing::has_cuda_device())
    GTEST_SKIP() << "no CUDA device found (the CUDA twins run on an NVIDIA GPU)";
  const ProblemCase c{"smem.setRowReadCol.divergent-barrier.cu", "smem.setRowReadCol", "--set blocks=2", {}};
  const json problems = threadmap_problems(c, "cuda:0");
  ASSERT_TRUE(problems.is_object() && !problems.contains("error")) << problems.dump();
  bool divergent = false;
  for (const json& p : problems.at("list"))
    if (p.at("kind") == "divergent-barrier") {
      divergent = true;
      EXPECT_EQ(p.at("lines").at(0).get<int>(), 8) << p.dump();
    }
  EXPECT_TRUE(divergent) << problems.dump();
}

// A run that verified by luck still says it has a problem, and `record` keeps
// what `show` needs to find the same problems in the session.
TEST(Problems, RecordKeepsThemAndShowFindsThemAgain) {
  if (!threadmap::testing::has_opencl_device()) GTEST_SKIP() << "no OpenCL device found";
  const ProblemCase& c = problem_cases().front();
  const std::string session = ::testing::TempDir() + "problems_" + std::to_string(getpid()) + ".threadmap";
  const ProblemsOutcome rec =
      run_shell(std::string(THREADMAP_CLI) + " record " + c.kernel + " --source " + data_file(c) +
                " --device opencl:0:0 " + c.sets + " --reps 1 -o " + session + " 2>&1");
  if (rec.out.find("libclang") != std::string::npos) GTEST_SKIP() << rec.out;
  EXPECT_NE(rec.out.find("data race (read-after-write) on shared offset"), std::string::npos) << rec.out;
  EXPECT_NE(rec.out.find("at line 7"), std::string::npos) << rec.out;
  const ProblemsOutcome show = run_shell(std::string(THREADMAP_CLI) + " show " + session + " --format json 2>&1");
  std::filesystem::remove(session);
  ASSERT_EQ(show.code, 0) << show.out;
  const json shown = json::parse(show.out, nullptr, false);
  ASSERT_TRUE(shown.is_object()) << show.out;
  const Found f = found_by_threadmap(shown.at("problems"));
  EXPECT_EQ(f.races, c.expected.races);
  EXPECT_EQ(f.uninitialized, c.expected.uninitialized);
}

// The same runs under Oclgrind (its own OpenCL platform, in ThreadMap's
// place of PoCL): the same race line pairs and out-of-bounds lines. Oclgrind
// reports an uninitialised value where it is used (stored to memory), not
// where it is read, so there every line ThreadMap names must be among
// Oclgrind's, and each finds one iff the other does (an out-of-bounds read
// also yields one to Oclgrind).
TEST(Problems, MatchOclgrind) {
  if (run_shell("command -v oclgrind >/dev/null 2>&1").code != 0)
    GTEST_SKIP() << "oclgrind is not installed (Debian: apt install oclgrind; .ci/setup installs it)";
  if (!threadmap::testing::has_opencl_device()) GTEST_SKIP() << "no OpenCL device found";
  for (const ProblemCase& c : problem_cases()) {
    SCOPED_TRACE(c.file);
    const std::string log = ::testing::TempDir() + "oclgrind_" + std::to_string(getpid()) + ".log";
    const ProblemsOutcome o = run_shell("oclgrind --data-races --uninitialized --max-errors 1000000 --log " + log +
                                        " " + THREADMAP_CLI + " " + run_args(c) + " --problems off 2>&1");
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(log);
    ASSERT_NE(o.out.find("on Oclgrind Simulator"), std::string::npos) << "not run on Oclgrind's platform: " << o.out;
    const Found oclgrind = found_by_oclgrind(text.str());
    const json problems = threadmap_problems(c);
    ASSERT_TRUE(problems.is_object() && !problems.contains("error")) << problems.dump();
    const Found threadmap = found_by_threadmap(problems);
    EXPECT_EQ(threadmap.races, oclgrind.races);
    EXPECT_EQ(threadmap.out_of_bounds, oclgrind.out_of_bounds);
    for (const std::string& line : threadmap.uninitialized) EXPECT_EQ(oclgrind.uninitialized.count(line), 1u) << line;
    // A read outside every buffer or array yields a value no one wrote, and
    // Oclgrind says so too.
    bool reads_outside = false;
    for (const json& p : problems["list"])
      reads_outside = reads_outside || (p["kind"] == "out-of-bounds" &&
                                        p["message"].get<std::string>().find(" reads ") != std::string::npos);
    EXPECT_EQ(!oclgrind.uninitialized.empty(), !threadmap.uninitialized.empty() || reads_outside);
  }
}

}  // namespace
