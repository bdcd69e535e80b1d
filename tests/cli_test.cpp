// The CLI's contract, exercised through the real binary: exit codes, messages
// naming the parameter and the limit, and outputs that parse.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "kernels/pack/catalog.h"
#include "kernels/engine/devices.h"
#include "kernels/core/sources.h"
#include "kernels/core/session.h"
#include "tests/cpu_hogs.h"
#include "tests/cli_runner.h"

namespace {

using threadmap::testing::cli;
using threadmap::testing::has_cuda_device;
using threadmap::testing::has_opencl_device;
using threadmap::testing::Outcome;

TEST(Cli, VersionAndHelp) {
  const Outcome v = cli("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("threadmap-cli "), std::string::npos);
  for (const char* sub : {"devices", "list", "run", "sweep", "bench"}) {
    const Outcome h = cli(std::string(sub) + " --help");
    EXPECT_EQ(h.code, 0) << sub;
    EXPECT_NE(h.out.find("--"), std::string::npos) << sub;
  }
  EXPECT_NE(cli("run --help").out.find("Exit codes"), std::string::npos);
}

// `doctor --format json --arch LIST` with a cache folder of its own, emptied
// after, so every kernel really goes through NVRTC.
struct Doctor {
  Outcome outcome;
  nlohmann::json report;
};
Doctor doctor_with_empty_cache(const std::string& architectures) {
  const std::string cache = ::testing::TempDir() + "threadmap_doctor_cache_" + std::to_string(getpid());
  setenv("THREADMAP_CACHE_DIR", cache.c_str(), 1);
  Doctor d{cli("doctor --format json --arch " + architectures), {}};
  unsetenv("THREADMAP_CACHE_DIR");
  std::filesystem::remove_all(cache);
  d.report = nlohmann::json::parse(d.outcome.out, nullptr, false);
  return d;
}

#define SKIP_WITHOUT_NVRTC(j)                 \
  if (!(j)["nvrtc"]["available"].get<bool>()) \
  GTEST_SKIP() << "no CUDA compiler: " << (j)["nvrtc"]["reason"].get<std::string>()

// The doctor's builds (timed, traced, clock pass) of the catalog's variants
// not written in CUDA.
std::size_t cuda_less_jobs() {
  std::size_t n = 0;
  for (const auto& v : threadmap::catalog()) n += v.written_in(threadmap::Dialect::Cuda) ? 0 : 3;
  return n;
}

// The check a lecturer runs before class: every catalog kernel compiles,
// timed and traced, for every GPU architecture a class may own, with no GPU.
TEST(Cli, DoctorCompilesEveryKernelForEveryArchitecture) {
  const std::vector<std::string> archs{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};
  std::string list;
  for (const std::string& a : archs) list += (list.empty() ? "" : ",") + a;
  const auto [o, j] = doctor_with_empty_cache(list);
  ASSERT_FALSE(j.is_discarded()) << o.out << o.err;
  SKIP_WITHOUT_NVRTC(j);
  EXPECT_EQ(o.code, 0) << o.out;
  EXPECT_TRUE(j["ok"].get<bool>());
  ASSERT_EQ(j["targets"].size(), archs.size());
  // Each catalog variant, timed and traced, at least once.
  EXPECT_GE(j["jobs"].get<std::size_t>(), 2 * threadmap::catalog().size());
  for (std::size_t i = 0; i < archs.size(); ++i) {
    const auto& t = j["targets"][i];
    EXPECT_EQ(t["name"], archs[i]);
    EXPECT_EQ(t["cuda_target"], archs[i]) << "NVRTC emits a cubin for each of these";
    // Every build of a kernel written in CUDA (the catalog's OpenMP-only
    // variants are no builds for a GPU architecture).
    EXPECT_EQ(t["compiled"], t["kernels"].size()) << archs[i];
    EXPECT_EQ(t["compiled"], j["jobs"].get<std::size_t>() - cuda_less_jobs()) << archs[i];
    for (const auto& k : t["kernels"]) EXPECT_TRUE(k["compiled"].get<bool>()) << k.dump();
  }
}

// A GPU newer than every architecture NVRTC knows gets PTX for the newest
// one it knows, which the driver finishes.
TEST(Cli, DoctorFallsBackToPtxForAnArchitectureNvrtcDoesNotKnow) {
  const auto [o, j] = doctor_with_empty_cache("sm_990");
  ASSERT_FALSE(j.is_discarded()) << o.out << o.err;
  SKIP_WITHOUT_NVRTC(j);
  EXPECT_EQ(o.code, 0) << o.out;
  const std::string target = j["targets"][0]["cuda_target"];
  EXPECT_EQ(target, "compute_" + std::to_string(j["nvrtc"]["architectures"].back().get<int>()));
  EXPECT_NE(j["targets"][0]["detail"].get<std::string>().find("PTX"), std::string::npos);
  EXPECT_EQ(j["targets"][0]["compiled"], j["jobs"].get<std::size_t>() - cuda_less_jobs());
}

// Without NVRTC, doctor says what is missing and what to install.
TEST(Cli, DoctorNamesAMissingNvrtc) {
  setenv("THREADMAP_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so.13", 1);
  const Outcome o = cli("doctor --arch sm_86");
  unsetenv("THREADMAP_NVRTC_LIBRARY");
  if (o.out.find("no CUDA backend") != std::string::npos) GTEST_SKIP() << o.out;
  EXPECT_EQ(o.code, 3) << o.out << o.err;
  EXPECT_NE(o.out.find("NVRTC"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("/nonexistent/libnvrtc.so.13"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("Install"), std::string::npos) << o.out;
}

TEST(Cli, DoctorRefusesANameThatIsNoArchitecture) {
  const Outcome o = cli("doctor --arch sm_75,banana");
  if (o.out.find("cannot compile") != std::string::npos) GTEST_SKIP() << "no NVRTC: " << o.out;
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("banana"), std::string::npos) << o.err;
}

// A learner's own kernel (run --source): plain OpenCL C with the catalog
// kernel's name, parameter and compile-time constants, no trace hooks.
std::string learner_file(const std::string& name, const std::string& read, const std::string& extra = "") {
  const std::string path = ::testing::TempDir() + std::to_string(getpid()) + "_" + name;
  std::ofstream(path) << "// a learner's setRowReadCol with a padded tile\n"
                         "__kernel void setRowReadCol(__global ELEM* out_all) {\n"
                         "  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);\n"
                         "  __local ELEM tile[BLOCK_Y][BLOCK_X + 1];\n"
                         "  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
                         "  tile[get_local_id(1)][get_local_id(0)] = idx;\n" +
                             extra +
                             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "  out[idx] = " +
                             read +
                             ";\n"
                             "}\n";
  return path;
}

const std::string kColumnRead = "tile[get_local_id(0)][get_local_id(1)]";

TEST(Cli, LearnerSourceRunsVerified) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("pad.cl", kColumnRead);
  const Outcome o = cli("run smem.setRowReadCol --device opencl:0:0 --set blocks=16 --format json --source " + file);
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_TRUE(j["verification"]["verified"].get<bool>());
  EXPECT_EQ(j["verification"]["checked"], 16 * 32 * 32);
}

TEST(Cli, LearnerSourceWithTheWrongReadIsNotVerified) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("rowwise.cl", "tile[get_local_id(1)][get_local_id(0)]");
  const Outcome o = cli("run smem.setRowReadCol --device opencl:0:0 --set blocks=16 --source " + file);
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("expected"), std::string::npos) << o.out;
}

// Traced without hooks: the padded tile's column read is 1 shared wavefront
// per load request, as the lesson says; the catalog's unpadded kernel, 32.
TEST(Cli, LearnerSourceCountersShowOneWavefrontPerLoad) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("pad_counters.cl", kColumnRead);
  const Outcome o =
      cli("counters smem.setRowReadCol --device opencl:0:0 --set blocks=4 --format json --source " + file);
  if (o.err.find("needs libclang") != std::string::npos) GTEST_SKIP() << o.err;
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_TRUE(j["verified"].get<bool>());
  const auto& t = j["totals"];
  ASSERT_GT(t["smsp__inst_executed_op_shared_ld.sum"].get<std::uint64_t>(), 0u) << t.dump();
  EXPECT_EQ(t["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], t["smsp__inst_executed_op_shared_ld.sum"])
      << t.dump();
  const Outcome catalog = cli("counters smem.setRowReadCol --device opencl:0:0 --set blocks=4 --format json");
  const auto c = nlohmann::json::parse(catalog.out)["totals"];
  EXPECT_EQ(c["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"].get<std::uint64_t>(),
            32 * c["smsp__inst_executed_op_shared_ld.sum"].get<std::uint64_t>())
      << c.dump();

  const std::string typo = learner_file("typo_counters.cl", kColumnRead, "  undeclared_name = 1;\n");
  const Outcome bad = cli("counters smem.setRowReadCol --device opencl:0:0 --set blocks=4 --source " + typo);
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("typo_counters.cl:7"), std::string::npos) << bad.err;
}

// A session made from a learner's kernel carries its text, and show prints it.
TEST(Cli, LearnerSourceRecordKeepsTheSourceInTheSession) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("pad_record.cl", kColumnRead);
  const std::string session = ::testing::TempDir() + std::to_string(getpid()) + "_learner.threadmap";
  const Outcome o =
      cli("record smem.setRowReadCol --device opencl:0:0 --set blocks=4 --reps 2 --source " + file + " -o " + session);
  if (o.err.find("needs libclang") != std::string::npos) GTEST_SKIP() << o.err;
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  const Outcome text = cli("show " + session);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("pad_record.cl (run and traced in the catalog kernel's place)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("   4    __local ELEM tile[BLOCK_Y][BLOCK_X + 1];"), std::string::npos) << text.out;
  const auto j = nlohmann::json::parse(cli("show " + session + " --format json").out);
  EXPECT_NE(j["source"]["text"].get<std::string>().find("BLOCK_X + 1"), std::string::npos);
  EXPECT_EQ(j["totals"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"],
            j["totals"]["smsp__inst_executed_op_shared_ld.sum"])
      << "traced from the learner's padded tile";
}

TEST(Cli, LearnerSourceCompileErrorNamesItsLine) {
  REQUIRE_OPENCL();
  // The undeclared name is on line 5 of the file.
  const std::string file = learner_file("typo.cl", kColumnRead);
  std::string text;
  {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  const std::string marker = "const unsigned int idx";
  text.insert(text.find(marker), "undeclared_name = 1; ");
  std::ofstream(file) << text;
  const Outcome o = cli("run smem.setRowReadCol --device opencl:0:0 --set blocks=16 --source " + file);
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  const std::string name = std::filesystem::path(file).filename().string();
  EXPECT_NE(o.err.find(name + ":5:"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("undeclared_name"), std::string::npos) << o.err;
}

TEST(Cli, LearnerSourceEndlessLoopIsStoppedAtTheTimeout) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("loop.cl", kColumnRead, "  while (idx < 100000u) { out[0] = 1; }\n");
  const auto started = std::chrono::steady_clock::now();
  const Outcome o = cli("run smem.setRowReadCol --device opencl:0:0 --set blocks=16 --timeout 2 --source " + file);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(o.code, 5) << o.out << o.err;
  EXPECT_NE(o.err.find("did not finish within 2 s"), std::string::npos) << o.err;
  EXPECT_LT(seconds, 10.0);
}

TEST(Cli, LearnerSourceOverTheLocalMemoryLimitIsRefused) {
  REQUIRE_OPENCL();
  const std::string file =
      learner_file("huge.cl", kColumnRead,
                   "  __local ELEM huge[1 << 24]; huge[(idx * 7919u) % (1u << 24)] = idx;\n"
                   "  barrier(CLK_LOCAL_MEM_FENCE); out[idx] = huge[(idx * 104729u) % (1u << 24)];\n");
  const Outcome o = cli("run smem.setRowReadCol --device opencl:0:0 --set blocks=16 --timeout 20 --source " + file);
  EXPECT_NE(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.code, 5) << "refused with a message, not stopped: " << o.err;
  EXPECT_NE(o.err.find("__local"), std::string::npos) << o.err;
}

TEST(Cli, LearnerSourceInTheOtherDialectIsRefused) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("pad.cu", kColumnRead);
  const Outcome o = cli("run smem.setRowReadCol --device opencl:0:0 --source " + file);
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("is CUDA"), std::string::npos) << o.err;
}

// What `source` prints is each kernel as a learner edits it: no trace hooks,
// and, given back through --source, the same kernel: verified.
TEST(Cli, SourceOfEveryKernelIsHookFreeAndRunsVerified) {
  for (const char* dialect : {"cuda", "opencl"})
    for (const auto& v : threadmap::catalog()) {
      if (!v.written_in(*threadmap::dialect_from_key(dialect))) continue;  // matadd.cols_simd: OpenMP alone
      const Outcome o = cli("source " + v.id + " --dialect " + dialect);
      ASSERT_EQ(o.code, 0) << v.id << o.err;
      EXPECT_NE(o.out.find(v.kernel), std::string::npos) << v.id;
      for (const char* hook : {"LDG(", "STG(", "LDS(", "STS(", "TM_", "trace.cuh"})
        EXPECT_EQ(o.out.find(hook), std::string::npos) << v.id << " (" << dialect << ") shows " << hook;
    }
  REQUIRE_OPENCL();
  for (const auto& v : threadmap::catalog()) {
    if (!v.written_in(threadmap::Dialect::OpenCL)) continue;
    const std::string file = ::testing::TempDir() + std::to_string(getpid()) + "_" + v.source + ".cl";
    std::ofstream(file) << cli("source " + v.id + " --dialect opencl").out;
    std::string size = "--set blocks=8";
    if (v.family == "reduction") size = "--set n=100001";
    if (v.source == "transpose" || v.source == "matadd") size = "--set width=200 --set height=120";
    const Outcome o = cli("run " + v.id + " --device opencl:0:0 --reps 2 " + size + " --source " + file);
    EXPECT_TRUE(o.code == 0 || o.code == 4) << v.id << ": " << o.out << o.err;  // 4: no shuffles here
  }
}

TEST(Cli, ListJsonHoldsTheWholeCatalog) {
  const Outcome o = cli("list --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  ASSERT_EQ(j.size(), threadmap::catalog().size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    EXPECT_EQ(j[i]["id"], threadmap::catalog()[i].id);
    EXPECT_FALSE(j[i]["parameters"].empty());
  }
}

TEST(Cli, DevicesJsonNamesEveryBackend) {
  const Outcome o = cli("devices --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  std::vector<std::string> names;
  for (const auto& b : j) {
    names.push_back(b["backend"]);
    if (!b["available"].get<bool>()) EXPECT_FALSE(b["reason"].get<std::string>().empty());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"cuda", "opencl", "openmp"}));
}

struct BadCall {
  const char* args;
  int code;
  const char* message;
};

class CliRejects : public ::testing::TestWithParam<BadCall> {};

TEST_P(CliRejects, WithAClearMessageAndExitCode) {
  const BadCall& c = GetParam();
  if (std::string(c.args).find("--device opencl:0:0") != std::string::npos && !has_opencl_device())
    GTEST_SKIP() << "no OpenCL device found";
  const Outcome o = cli(c.args);
  EXPECT_EQ(o.code, c.code) << c.args << "\n" << o.err;
  EXPECT_NE(o.err.find(c.message), std::string::npos) << c.args << "\nstderr: " << o.err;
  EXPECT_EQ(o.err.find("terminate"), std::string::npos) << o.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, CliRejects,
    ::testing::Values(
        BadCall{"run transpose.nope", 2, "unknown kernel 'transpose.nope'"},
        BadCall{"run transpose.shared --set tile=0", 2, "tile=0 is not allowed"},
        BadCall{"run transpose.shared --set tile=1", 2, "tile=1 is not allowed"},
        BadCall{"run transpose.shared --set tile=33", 2, "one of 4, 8, 16 or 32"},
        BadCall{"run transpose.shared --set tile=64", 2, "tile=64 is not allowed"},
        BadCall{"run transpose.naive --set width=0", 2, "width=0 is out of range"},
        BadCall{"run transpose.naive --set width=-3", 2, "width=-3 is out of range"},
        BadCall{"run transpose.naive --set width=big", 2, "width=big is not a whole number"},
        BadCall{"run transpose.naive --set tile", 2, "expected NAME=VALUE"},
        BadCall{"run transpose.naive --set pad=1", 2, "has no parameter 'pad'"},
        BadCall{"run transpose.naive --device gpu0", 2, "unknown device 'gpu0'"},
        BadCall{"run transpose.naive --device opencl:9:0", 2, "no OpenCL platform 9"},
        BadCall{"run transpose.naive --device opencl:0:7", 2, "has no device 7"},
        BadCall{"run transpose.naive --device cuda:7", 2, "cuda:7"},
        BadCall{"run transpose.naive --reps 0", 2, "--reps"},
        BadCall{"run transpose.naive --format xml", 2, "--format"}, BadCall{"run", 2, "KERNEL_ID"},
        BadCall{"frobnicate", 2, "subcommand"},
        BadCall{"frobnicate", 2, "unknown subcommand 'frobnicate'; the subcommands are devices, list, run"},
        BadCall{"run transpose.naive --reps x", 2, "--reps: 'x' is not a whole number: give one from 1 to 100000"},
        BadCall{"run transpose.naive --seed -1", 2, "--seed: '-1' is not a whole number"},
        BadCall{"record transpose.naive --capacity -1 -o /tmp/x.threadmap", 2, "--capacity: '-1' is not a whole number"},
        BadCall{"run transpose.naive --set tile=8 --set tile=16", 2, "--set tile is given twice (8 and 16): give it once"},
        BadCall{"sweep transpose.shared --vary tile=8,33", 2, "tile=33 is not allowed"},
        BadCall{"sweep transpose.shared --vary nope=1", 2, "no parameter 'nope'"},
        BadCall{"run matadd.elements --device opencl:0:0 --set block_x=1024 --set block_y=1024", 2, "1048576 threads"},
        BadCall{"run smem.setRowReadColPad --device opencl:0:0 --set block_y=16", 2, "needs block_x = block_y"},
        BadCall{"record transpose.naive --device opencl:0:0 --blocks 0,x -o /tmp/x.threadmap", 2,
                "'x' is not a block number"},
        BadCall{"record transpose.naive --device opencl:0:0 --set width=64 --set height=64 --blocks 999 "
                "-o /tmp/x.threadmap",
                2, "block 999 is outside the grid of 16 blocks"},
        BadCall{"record transpose.naive --device opencl:0:0 --set width=64 --set height=64 --capacity 5 "
                "-o /tmp/x.threadmap",
                2, "trace buffer overflow: room for 5 access records"},
        BadCall{"record transpose.naive --device opencl:0:0", 2, "--output"},
        BadCall{"show /nonexistent/file.threadmap", 2, "cannot open"},
        BadCall{"show /etc/hostname", 2, "not a ThreadMap session file"},
        // A parameter varied twice, or varied and set, would mislabel the rows.
        BadCall{"sweep transpose.shared --device nope --vary width=64,128 --vary width=32", 2,
                "--vary width is given twice"},
        BadCall{"sweep transpose.shared --device nope --vary tile=8,16 --set tile=32", 2,
                "--set tile=32 and --vary tile name the same parameter"},
        // A timeout that is not a finite number would disable the watchdog.
        BadCall{"run transpose.naive --device nope --timeout nan", 2, "--timeout: nan is not a finite number"},
        BadCall{"counters transpose.naive --device nope --timeout inf", 2, "--timeout: inf is not a finite number"},
        BadCall{"record transpose.naive --device nope --timeout -1 -o /tmp/x.threadmap", 2,
                "--timeout: -1 is out of range: give a value from 0.1 to 3600"},
        BadCall{"check smem-conflict-free x.cl --device nope --timeout NaN", 2,
                "--timeout: NaN is not a finite number"}));

TEST(Cli, RunJsonReportsVerifiedTimings) {
  REQUIRE_OPENCL();
  const Outcome o =
      cli("run transpose.shared --device opencl:0:0 --set width=1000 --set height=777 "
          "--set pad=1 --reps 3 --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["kernel"], "transpose.shared");
  EXPECT_EQ(j["device"]["spec"], "opencl:0:0");
  EXPECT_EQ(j["parameters"]["width"], 1000);
  EXPECT_EQ(j["parameters"]["pad"], 1);
  EXPECT_EQ(j["parameters"]["type"], "int");
  EXPECT_TRUE(j["verification"]["verified"].get<bool>());
  EXPECT_EQ(j["timing"]["kernel_ms"]["samples"], 3);
  EXPECT_LE(j["timing"]["kernel_ms"]["min"].get<double>(), j["timing"]["kernel_ms"]["median"].get<double>());
  EXPECT_LE(j["timing"]["kernel_ms"]["median"].get<double>(), j["timing"]["kernel_ms"]["max"].get<double>());
  EXPECT_GT(j["timing"]["end_to_end_ms"]["median"].get<double>(), 0.0);
  EXPECT_EQ(j["ideal_bytes"], 2 * 1000 * 777 * 4);
  EXPECT_GT(j["bandwidth_gbps"].get<double>(), 0.0);
}

TEST(Cli, SweepGivesOneRowPerValue) {
  REQUIRE_OPENCL();
  const Outcome o =
      cli("sweep transpose.coalesced --device opencl:0:0 --set width=300 --set height=200 "
          "--vary tile=8,16,32 --vary pad=0,1 --reps 2 --format csv");
  ASSERT_EQ(o.code, 0) << o.err;
  std::stringstream ss(o.out);
  std::string line;
  std::getline(ss, line);
  EXPECT_EQ(line.rfind("tile,pad,result,median ms", 0), 0u) << line;
  int rows = 0;
  while (std::getline(ss, line)) {
    ++rows;
    EXPECT_NE(line.find(",verified,"), std::string::npos) << line;
  }
  EXPECT_EQ(rows, 6);
}

TEST(Cli, UnavailableShuffleReductionSaysWhy) {
  REQUIRE_OPENCL();
  bool shuffles = false;
  for (const auto& b : threadmap::list_backends())
    if (b.backend == "opencl" && b.available) shuffles = b.devices.front().has_subgroup_shuffle;
  if (shuffles) GTEST_SKIP() << "this OpenCL device offers sub-group shuffles";
  const Outcome o = cli("run reduce.warp_shuffle --device opencl:0:0 --set n=1000");
  EXPECT_EQ(o.code, 4);
  EXPECT_NE(o.err.find("needs sub-group shuffles"), std::string::npos) << o.err;
}

TEST(Cli, BenchTableHasEveryVariantAndTheCeilings) {
  REQUIRE_OPENCL();
  const Outcome o = cli("bench --device opencl:0:0 --size 128 --reps 2 --format csv");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("device copy,"), std::string::npos);
  // Every kernel written in OpenCL C; no other (matadd.cols_simd is OpenMP alone).
  for (const auto& v : threadmap::catalog())
    EXPECT_EQ(o.out.find("\n" + v.id + ",") != std::string::npos, v.written_in(threadmap::Dialect::OpenCL)) << v.id;
  EXPECT_NE(o.out.find("transpose.copy,width=128 height=128 tile=64 strips=4 type=int,verified,"), std::string::npos);
}

TEST(Cli, RecordWritesASessionThatShowReads) {
  REQUIRE_OPENCL();
  const std::string file = ::testing::TempDir() + "threadmap_record_" + std::to_string(getpid()) + ".threadmap";
  const Outcome rec = cli("record smem.setRowReadCol --device opencl:0:0 --set blocks=3 --reps 2 -o " + file);
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("Traced 3 of 3 blocks"), std::string::npos) << rec.out;
  EXPECT_NE(rec.out.find("32.00"), std::string::npos) << "the column read: 32 wavefronts per request\n" << rec.out;
  const Outcome shown = cli("show " + file + " --format json");
  ASSERT_EQ(shown.code, 0) << shown.err;
  const auto j = nlohmann::json::parse(shown.out);
  EXPECT_EQ(j["kernel_id"], "smem.setRowReadCol");
  EXPECT_EQ(j["traced_blocks"], 3);
  EXPECT_EQ(j["totals"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 3 * 32 * 32);
  EXPECT_EQ(j["totals"]["smsp__inst_executed_op_shared_ld.sum"], 3 * 32);
  EXPECT_EQ(j["run"]["status"], "ok");
  std::remove(file.c_str());
}

// Every session keeps the text it compiled: a catalog kernel's built-in file
// as it was; `keep-source` gives an older file (without it) the same text back.
TEST(Cli, ACatalogSessionKeepsTheTextItCompiled) {
  REQUIRE_OPENCL();
  const std::string file = ::testing::TempDir() + "threadmap_kept_" + std::to_string(getpid()) + ".threadmap";
  const Outcome rec = cli("record smem.setRowReadCol --device opencl:0:0 --set blocks=2 --reps 1 -o " + file);
  ASSERT_EQ(rec.code, 0) << rec.err;
  threadmap::Session s = threadmap::load_session(file);
  EXPECT_EQ(s.kernel_file, "smem.cl");
  EXPECT_EQ(s.kernel_text, threadmap::embedded_source("smem.cl"));
  EXPECT_TRUE(s.source_text.empty()) << "not a learner's";
  const Outcome shown = cli("show " + file + " --format json");
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_EQ(nlohmann::json::parse(shown.out)["kernel_source"]["name"], "smem.cl");

  s.kernel_file.clear();
  s.kernel_text.clear();
  threadmap::save_session(s, file);
  const Outcome kept = cli("keep-source " + file);
  ASSERT_EQ(kept.code, 0) << kept.err;
  EXPECT_NE(kept.out.find("keeps the text of smem.cl"), std::string::npos) << kept.out;
  EXPECT_EQ(threadmap::load_session(file).kernel_text, threadmap::embedded_source("smem.cl"));
  const Outcome missing = cli("keep-source " + file + ".absent");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos) << missing.err;
  std::remove(file.c_str());
}

TEST(Cli, CountersTotalTheWholeGrid) {
  REQUIRE_OPENCL();
  const Outcome o =
      cli("counters transpose.naive --device opencl:0:0 --set width=64 --set height=64 "
          "--set tile=32 --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_TRUE(j["whole_grid"].get<bool>());
  // 64 x 64 ints, a warp per 32 rows: each load request touches 32 rows, one sector each.
  EXPECT_EQ(j["totals"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 64 * 64 / 32);
  EXPECT_EQ(j["totals"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 64 * 64);
  EXPECT_EQ(j["totals"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], 64 * 64 / 8);
  EXPECT_NE(j["model"]["source"].get<std::string>().find("warp width"), std::string::npos);
}

// Counted in batches of blocks, each a traced run of the whole grid, a grid
// prints what one traced run of every block prints, and says how it was
// counted. The per-block list, written a block at a time, reads as the rest.
TEST(Cli, CountersInBatchesPrintWhatOneTracedRunPrints) {
  REQUIRE_OPENCL();
  const std::string base =
      "counters transpose.shared --device opencl:0:0 --set width=128 --set height=96 --set tile=16";
  const Outcome whole = cli(base + " --format json --batch-records 0");
  if (whole.err.find("needs libclang") != std::string::npos) GTEST_SKIP() << whole.err;
  const Outcome batched = cli(base + " --format json --batch-records 3000");
  ASSERT_EQ(whole.code, 0) << whole.err;
  ASSERT_EQ(batched.code, 0) << batched.err;
  auto w = nlohmann::json::parse(whole.out);
  auto b = nlohmann::json::parse(batched.out);
  EXPECT_EQ(w.dump(2) + "\n", whole.out);
  EXPECT_EQ(b.dump(2) + "\n", batched.out);
  EXPECT_FALSE(w.contains("batches"));
  ASSERT_TRUE(b.contains("batches")) << b.dump();
  // 48 blocks of 1024 records: a first batch of one (the first guess is 16
  // records a thread), then two a batch.
  EXPECT_EQ(b["batches"]["count"], 25) << b["batches"].dump();
  EXPECT_EQ(b["batches"]["largest_records"], 2048);
  EXPECT_EQ(b["blocks"].size(), 48u);
  b.erase("batches");
  EXPECT_EQ(b, w);

  const Outcome text = cli(base + " --batch-records 3000");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("Traced 48 of 48 blocks: 49152 accesses in 1536 warp-level requests"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("Traced in 25 batches"), std::string::npos) << text.out;

  const Outcome small = cli(base + " --batch-records 100");
  EXPECT_EQ(small.code, 2);
  EXPECT_NE(small.err.find("block 0 alone makes more than a batch's 100 access records; give a batch more"),
            std::string::npos)
      << small.err;
}

}  // namespace

namespace {

// Exercises: one per lesson at least, each in three languages.
TEST(Exercises, OnePerLessonInEveryLanguage) {
  const Outcome o = cli("exercises --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto list = nlohmann::json::parse(o.out);
  ASSERT_GE(list.size(), 5u);
  std::set<std::string> lessons;
  for (const auto& e : list) {
    lessons.insert(e["lesson"]["file"].get<std::string>());
    EXPECT_NE(threadmap::find_variant(e["kernel"].get<std::string>()), nullptr) << e["id"];
    EXPECT_EQ(e["languages"].size(), 3u) << e["id"];
    EXPECT_FALSE(e["start"].get<std::string>().empty()) << e["id"];
    EXPECT_FALSE(e["goal"].empty()) << e["id"];
  }
  EXPECT_EQ(lessons.size(), 5u) << "the five lessons";
  const auto pt = nlohmann::json::parse(cli("exercises --format json --lang pt_BR").out);
  EXPECT_NE(pt[0]["title"], list[0]["title"]) << "translated";
}

// Grading on the CPU: each exercise's solution meets its goal and its
// starting kernel does not; a typo is not compiled, an endless loop is
// stopped, and neither stops the others.
TEST(Exercises, CheckGradesSolutionsStartsTyposAndLoops) {
  REQUIRE_OPENCL();
  const auto list = nlohmann::json::parse(cli("exercises --format json").out);
  const std::string dir = std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/";
  for (const auto& e : list) {
    const std::string id = e["id"];
    const Outcome o = cli("check " + id + " " + dir + id + ".solution.cl " + dir + id +
                          ".start.cl --device opencl:0:0 --format json");
    EXPECT_EQ(o.code, 1) << id << ": the start does not meet the goal\n" << o.out << o.err;
    const auto rows = nlohmann::json::parse(o.out)["submissions"];
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(rows[0]["goal_met"].get<bool>()) << id << " solution: " << rows[0].dump();
    EXPECT_FALSE(rows[1]["goal_met"].get<bool>()) << id << " start: " << rows[1].dump();
  }
  const std::string solution = dir + "smem-conflict-free.solution.cl";
  EXPECT_EQ(cli("check smem-conflict-free " + solution + " --device opencl:0:0").code, 0);

  const std::string typo = learner_file("typo_check.cl", kColumnRead, "  undeclared_name = 1;\n");
  const std::string loop = learner_file("loop_check.cl", kColumnRead, "  while (idx < 100000u) { out[0] = 1; }\n");
  const Outcome o = cli("check smem-conflict-free " + typo + " " + loop + " " + solution +
                        " --device opencl:0:0 --timeout 3 --format csv");
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("not compiled: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("typo_check.cl:7"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("timed out"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("goal met"), std::string::npos) << "the one after the loop was graded: " << o.out;
  EXPECT_EQ(cli("check no-such-exercise " + solution).code, 2);
}

// Known cheats (issue "Why it failed", item 4), kept so they stay caught:
// each graded as not met, with the reason a learner reads. A direct write
// with no tile, a naive transpose, thread 0 adding alone or from global
// memory fail the goal's structural terms; a kernel fitted to the one block size,
// or to the default seed's inputs, fails verification at another size or seed, and the report names
// the size and the seed.
struct Cheat {
  std::string exercise, file, status, says;
};

TEST(Exercises, CheckGradesKnownCheatsAsNotMet) {
  REQUIRE_OPENCL();
  const std::string dir = std::string(THREADMAP_SOURCE_DIR) + "/tests/data/cheats/";
  const std::vector<Cheat> cheats{
      {"smem-conflict-free", "smem-conflict-free.direct-write.cl", "goal not met",
       "stored fewer times into shared memory"},
      {"smem-conflict-free", "smem-conflict-free.one-size.cl", "not verified", "at block_x=16 block_y=16 blocks=3"},
      {"transpose-pad", "transpose-pad.no-tile.cl", "goal not met", "through the tile in shared memory"},
      {"transpose-pad", "transpose-pad.default-seed.cl", "not verified", "(seed 7)"},
      {"reduce-tree", "reduce-tree.one-thread.cl", "goal not met", "as one thread adding the values alone"},
      {"reduce-tree", "reduce-tree.no-local.cl", "goal not met", "fewer shared loads per group"},
      // Issue "Grades a class can trust": each met the goal before.
      {"transpose-pad", "transpose-pad.round-trip.cl", "goal not met", "read a word another thread stored"},
      {"smem-conflict-free", "smem-conflict-free.round-trip.cl", "goal not met", "read a word another thread stored"},
      {"matadd-coalesced", "matadd-coalesced.one-item.cl", "goal not met", "fewer than 16 lanes a request"},
      {"matadd-coalesced", "matadd-coalesced.lane-zero.cl", "goal not met", "fewer than 16 lanes a request"},
      // GCC's OpenMP mapping by hand: 32 lanes a request, all on one word.
      {"matadd-coalesced", "matadd-coalesced.same-word.cl", "goal not met", "fewer than 2 sectors a request"},
      {"transpose-coalesced-read", "transpose-coalesced-read.lane-zero.cl", "goal not met",
       "fewer than 16 lanes a request"},
      {"reduce-tree", "reduce-tree.dummy-loads.cl", "goal not met", "fewer than 16 lanes a request"},
      {"reduce-tree", "reduce-tree.early-return.cl", "goal not met", "the trace shows a problem: data race"},
      {"reduce-tree", "reduce-tree.divergent-barrier.cl", "crashed",
       "has a barrier at line 18 that not every work-item of the group may reach"},
      // vload2/vstore2 were not traced: the start, read two at a time, met the goal.
      {"matadd-coalesced", "matadd-coalesced.vload2.cl", "goal not met", "global_ld_excess_sectors <= 0"}};
  for (const Cheat& c : cheats) {
    const Outcome o = cli("check " + c.exercise + " " + dir + c.file + " --device opencl:0:0 --seed 7 --format json");
    EXPECT_EQ(o.code, 1) << c.file << "\n" << o.out << o.err;
    const auto report = nlohmann::json::parse(o.out);
    EXPECT_EQ(report["seed"], 7u);
    const auto row = report["submissions"][0];
    EXPECT_FALSE(row["goal_met"].get<bool>()) << c.file << ": " << row.dump();
    EXPECT_EQ(row["status"], c.status) << c.file << ": " << row.dump();
    EXPECT_NE(row.value("error", std::string()).find(c.says), std::string::npos) << c.file << ": " << row.dump();
  }
  // The default-seed cheat does meet the goal on the inputs it was fitted
  // to: the fresh seed, not the terms, is what finds it.
  const Outcome fitted = cli("check transpose-pad " + dir +
                             "transpose-pad.default-seed.cl --device opencl:0:0 --seed 20261122 --format json");
  EXPECT_EQ(fitted.code, 0) << fitted.out << fitted.err;
}

// The pack's naive multiply reading A through vload2, untouched otherwise:
// its loads were not traced, so it met matmul-tile's bound on global loads.
// Traced, it makes as many global loads as a naive multiply does, and no
// shared ones. A builtin the hooks cannot record is refused by the traced
// build, naming its line.
TEST(Exercises, VectorLoadsAreTracedAndUntracedFormsRefused) {
  REQUIRE_OPENCL();
  const std::string dir = std::string(THREADMAP_SOURCE_DIR) + "/tests/data/cheats/";
  const Outcome o = cli("check matmul-tile " + dir + "matmul-tile.vload2.cl --pack matmul --device opencl:0:0 --seed 7 --format json");
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  const auto row = nlohmann::json::parse(o.out)["submissions"][0];
  EXPECT_EQ(row["status"], "goal not met") << row.dump();
  EXPECT_EQ(row["counters"]["shared_ld_requests"], 0) << row.dump();
  // 128 x 128 x 128: each of the 512 warps loads A 64 times (vload2) and B 128 times.
  EXPECT_EQ(row["counters"]["global_ld_requests"], 512 * (64 + 128)) << row.dump();

  const std::string half = learner_file("half_check.cl", kColumnRead, "  vstore_half(1.0f, 0, (__global half*)out);\n");
  const Outcome refused = cli("record smem.setRowReadCol --source " + half + " --device opencl:0:0 -o " +
                              ::testing::TempDir() + std::to_string(getpid()) + "_half.threadmap");
  EXPECT_NE(refused.code, 0) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("half_check.cl:7: error: vstore_half is not traced"), std::string::npos) << refused.err;
}

// A learner's run that crashes the CPU device, whose traced run crashes too
// (a barrier in divergent code on PoCL): --format json still prints the
// crash report docs/cli.md promises, naming the barrier's line.
TEST(Exercises, ADivergentBarrierCrashIsNamed) {
  REQUIRE_OPENCL();
  const std::string file = std::string(THREADMAP_SOURCE_DIR) + "/tests/data/cheats/reduce-tree.divergent-barrier.cl";
  const Outcome o = cli("run reduce.interleaved --source " + file + " --device opencl:0:0 --format json --timeout 20");
  EXPECT_EQ(o.code, 5) << o.out << o.err;
  const auto report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o.out << o.err;
  EXPECT_TRUE(report["crashed"].get<bool>()) << report.dump();
  EXPECT_NE(report["problems"].value("error", std::string()).find("a barrier at line 18 that not every work-item"),
            std::string::npos)
      << report.dump();
}

// Without --seed each grading draws its own seed and prints it; the solution
// is verified at every size the exercise lists.
TEST(Exercises, CheckDrawsAFreshSeedAndVerifiesEverySize) {
  REQUIRE_OPENCL();
  const std::string solution = std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/transpose-pad.solution.cl";
  const auto first =
      nlohmann::json::parse(cli("check transpose-pad " + solution + " --device opencl:0:0 --format json").out);
  const auto second =
      nlohmann::json::parse(cli("check transpose-pad " + solution + " --device opencl:0:0 --format json").out);
  EXPECT_NE(first["seed"], second["seed"]);
  const auto sizes = first["submissions"][0]["sizes"];
  ASSERT_EQ(sizes.size(), 3u) << first.dump();
  for (const auto& size : sizes) EXPECT_TRUE(size["verified"].get<bool>()) << size.dump();
  EXPECT_EQ(sizes[0]["set"], "height=70 pad=0 tile=32 width=33");
  const Outcome text = cli("check transpose-pad " + solution + " --device opencl:0:0 --seed 42");
  EXPECT_NE(text.out.find("Verified with seed 42 (--seed 42 repeats it)"), std::string::npos) << text.out;
}

// Every exercise in both dialects: the JSON lists each dialect's start by
// name (the OpenCL C one is also `start`, as before), the text says which.
TEST(Exercises, ListsTheStartInBothDialects) {
  const Outcome o = cli("exercises --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string dir = std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/";
  for (const auto& e : nlohmann::json::parse(o.out)) {
    const std::string id = e["id"];
    EXPECT_EQ(e["dialects"], nlohmann::json({"cuda", "opencl"})) << id;
    EXPECT_EQ(e["start_files"]["cuda"], id + ".start.cu") << id;
    EXPECT_EQ(e["start_files"]["opencl"], id + ".start.cl") << id;
    EXPECT_EQ(e["starts"]["opencl"], e["start"]) << id;
    for (const std::string dialect : {"cuda", "opencl"}) {
      std::ifstream in(dir + e["start_files"][dialect].get<std::string>());
      const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_FALSE(file.empty()) << id << " " << dialect;
      EXPECT_EQ(e["starts"][dialect], file) << id << ": the embedded " << dialect << " start is the file";
    }
  }
  const Outcome text = cli("exercises");
  EXPECT_NE(text.out.find("starts in CUDA (transpose-pad.start.cu), OpenCL C (transpose-pad.start.cl)"),
            std::string::npos)
      << text.out;
}

// With --device auto each file goes to a device of its dialect. Where there
// is no CUDA device, a .cu file is one row saying so (the .cl beside it is
// graded on OpenCL); a --device that does not exist is still exit 2.
TEST(Exercises, CheckSaysACudaFileNeedsACudaDevice) {
  if (has_cuda_device()) GTEST_SKIP() << "a CUDA device is present: the .cu file is graded on it";
  REQUIRE_OPENCL();
  const std::string dir = std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/";
  const Outcome o = cli("check smem-conflict-free " + dir + "smem-conflict-free.solution.cu " + dir +
                        "smem-conflict-free.solution.cl --format json");
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  const auto j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << o.out << o.err;
  const auto rows = j["submissions"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["status"], "no device") << rows[0].dump();
  EXPECT_FALSE(rows[0]["goal_met"].get<bool>());
  EXPECT_NE(rows[0]["error"].get<std::string>().find(
                "smem-conflict-free.solution.cu is CUDA and there is no CUDA device here: grade it on a machine "
                "with an NVIDIA GPU, or submit the exercise's OpenCL C version (.cl)"),
            std::string::npos)
      << rows[0].dump();
  EXPECT_TRUE(rows[1]["goal_met"].get<bool>()) << rows[1].dump();
  EXPECT_EQ(rows[1]["device_spec"].get<std::string>().rfind("opencl:", 0), 0u) << rows[1].dump();
  const Outcome text = cli("check smem-conflict-free " + dir + "smem-conflict-free.solution.cu");
  EXPECT_EQ(text.code, 1);
  EXPECT_NE(text.out.find("no device: smem-conflict-free.solution.cu is CUDA"), std::string::npos) << text.out;
  EXPECT_EQ(cli("check smem-conflict-free " + dir + "smem-conflict-free.solution.cu --device cuda:0").code, 2);
  EXPECT_EQ(cli("check smem-conflict-free " + dir + "smem-conflict-free.solution.cl --device opencl:9:9").code, 2);
}

// On a GPU: every exercise's .cu solution meets its goal and its .cu start
// does not, graded with --device auto on the first CUDA device (traced by
// the PTX instrumenter, clock pass included), with a fresh seed and every
// verify_at size; a .cl file in the same grading goes to OpenCL where there
// is an OpenCL device. Without a GPU, exercise_cuda_tests compiles them.
TEST(Exercises, CheckGradesCudaSolutionsAndStarts) {
  if (!has_cuda_device())
    GTEST_SKIP() << "no CUDA device here: the .cu solutions and starts are graded on a GPU "
                    "(ExerciseCuda.EveryStartAndSolutionCompilesAndInstrumentsForCompute90 "
                    "compiles them without one)";
  const auto list = nlohmann::json::parse(cli("exercises --format json").out);
  const std::string dir = std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/";
  for (const auto& e : list) {
    const std::string id = e["id"];
    const Outcome o = cli("check " + id + " " + dir + id + ".solution.cu " + dir + id + ".start.cu " + dir + id +
                          ".solution.cl --format json");
    EXPECT_EQ(o.code, 1) << id << ": the start does not meet the goal\n" << o.out << o.err;
    const auto j = nlohmann::json::parse(o.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << o.out << o.err;
    const auto rows = j["submissions"];
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_TRUE(rows[0]["goal_met"].get<bool>()) << id << " .cu solution: " << rows[0].dump();
    EXPECT_FALSE(rows[1]["goal_met"].get<bool>()) << id << " .cu start: " << rows[1].dump();
    EXPECT_TRUE(rows[1]["compiled"].get<bool>()) << id << " .cu start: " << rows[1].dump();
    for (int r : {0, 1}) EXPECT_EQ(rows[r].value("device_spec", std::string()).rfind("cuda:", 0), 0u) << rows[r].dump();
    // The solution verified at every other size too (a start that fails at the traced size goes no further).
    EXPECT_EQ(rows[0]["sizes"].size(), e["verify_at"].size()) << rows[0].dump();
    for (const auto& size : rows[0]["sizes"]) EXPECT_TRUE(size["verified"].get<bool>()) << rows[0].dump();
    if (has_opencl_device()) {
      EXPECT_EQ(rows[2].value("device_spec", std::string()).rfind("opencl:", 0), 0u) << rows[2].dump();
      // Tracing OpenCL needs libclang on the grading machine; without it the row says what to install.
      if (rows[2].value("error", std::string()).find("libclang") == std::string::npos)
        EXPECT_TRUE(rows[2]["goal_met"].get<bool>()) << id << " .cl solution: " << rows[2].dump();
    } else {
      EXPECT_EQ(rows[2]["status"], "no device") << rows[2].dump();
    }
  }
}

// The CUDA twins of the cheats above, graded on a GPU: each not met, with its
// reason (a divergent barrier, which a GPU survives, is a problem its trace
// shows), while the solutions stay met (the test above).
TEST(Exercises, CheckGradesCudaCheatsAsNotMet) {
  if (!has_cuda_device()) GTEST_SKIP() << "no CUDA device here: the .cu cheats are graded on a GPU";
  const std::string dir = std::string(THREADMAP_SOURCE_DIR) + "/tests/data/cheats/";
  const std::vector<Cheat> cheats{
      {"transpose-pad", "transpose-pad.round-trip.cu", "goal not met", "read a word another thread stored"},
      {"smem-conflict-free", "smem-conflict-free.round-trip.cu", "goal not met", "read a word another thread stored"},
      {"matadd-coalesced", "matadd-coalesced.one-item.cu", "goal not met", "fewer than 16 lanes a request"},
      {"matadd-coalesced", "matadd-coalesced.lane-zero.cu", "goal not met", "fewer than 16 lanes a request"},
      {"matadd-coalesced", "matadd-coalesced.same-word.cu", "goal not met", "fewer than 2 sectors a request"},
      {"transpose-coalesced-read", "transpose-coalesced-read.lane-zero.cu", "goal not met",
       "fewer than 16 lanes a request"},
      {"reduce-tree", "reduce-tree.dummy-loads.cu", "goal not met", "fewer than 16 lanes a request"},
      {"reduce-tree", "reduce-tree.early-return.cu", "goal not met", "the trace shows a problem: "},
      {"reduce-tree", "reduce-tree.divergent-barrier.cu", "goal not met",
       "the trace shows a problem: barrier in divergent code"}};
  for (const Cheat& c : cheats) {
    const Outcome o = cli("check " + c.exercise + " " + dir + c.file + " --device cuda:0 --seed 7 --format json");
    EXPECT_EQ(o.code, 1) << c.file << "\n" << o.out << o.err;
    const auto report = nlohmann::json::parse(o.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << c.file << "\n" << o.out << o.err;
    const auto row = report["submissions"][0];
    EXPECT_EQ(row["status"], c.status) << c.file << ": " << row.dump();
    bool said = false;  // among the reasons: a problem may follow a failed term
    for (const auto& reason : row.value("reasons", nlohmann::json::array()))
      said = said || reason.get<std::string>().find(c.says) != std::string::npos;
    EXPECT_TRUE(said) << c.file << ": " << row.dump();
  }
  // An asynchronous copy into shared memory moves data the trace would miss:
  // the traced build is refused, naming the line.
  const std::string async_copy = ::testing::TempDir() + std::to_string(getpid()) + "_async_copy.cu";
  std::ofstream(async_copy) << (
      "template <typename ELEM, int BLOCK_X, int BLOCK_Y> __global__ void setRowReadCol(ELEM* out_all) {\n"
      "  ELEM* out = out_all + static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y;\n"
      "  __shared__ ELEM tile[BLOCK_Y][BLOCK_X + 1];\n"
      "  const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;\n"
      "  out[idx] = idx;\n"
      "  const unsigned int to = static_cast<unsigned int>(__cvta_generic_to_shared(&tile[threadIdx.y][threadIdx.x]));\n"
      "  asm volatile(\"cp.async.ca.shared.global [%0], [%1], 4;\" :: \"r\"(to), \"l\"(out + idx));\n"
      "  asm volatile(\"cp.async.wait_all;\");\n"
      "  __syncthreads();\n"
      "  out[idx] = tile[threadIdx.x][threadIdx.y];\n"
      "}\n");
  const Outcome refused = cli("record smem.setRowReadCol --source " + async_copy + " --device cuda:0 -o " +
                              ::testing::TempDir() + std::to_string(getpid()) + "_async.threadmap");
  EXPECT_EQ(refused.code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("_async_copy.cu(7): error: cp.async"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("is not traced"), std::string::npos) << refused.err;

  const Outcome m = cli("check matmul-tile " + dir + "matmul-tile.float2.cu --pack " + std::string(THREADMAP_SOURCE_DIR) + "/resources/packs/matmul --device cuda:0 --seed 7 --format json");
  const auto row = nlohmann::json::parse(m.out)["submissions"][0];
  EXPECT_EQ(row["status"], "goal not met") << row.dump();
  EXPECT_EQ(row["counters"]["shared_ld_requests"], 0) << row.dump();
}

}  // namespace

namespace {

// Hostile and clumsy use (issue 25): text that is not UTF-8, values that are
// not numbers, caches that are cold, files that are not kernels.

std::string temp_path(const std::string& name) { return ::testing::TempDir() + std::to_string(getpid()) + "_" + name; }

std::string copy_of(const std::string& from, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  std::ofstream(to, std::ios::binary) << in.rdbuf();
  return to;
}

const std::string kExercises = std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/";
const std::string kSolution = kExercises + "smem-conflict-free.solution.cl";

// A file named in Latin-1 (jo\xe3o.cl) must not cost the class its grades.
TEST(Hostile, CheckJsonSurvivesALatin1FileName) {
  REQUIRE_OPENCL();
  const std::string file = copy_of(kSolution, temp_path("jo\xe3o.cl"));
  const Outcome o = cli("check smem-conflict-free " + file + " " + kSolution + " --device opencl:0:0 --format json");
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  const auto j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "not JSON: " << o.out << o.err;
  ASSERT_EQ(j["submissions"].size(), 2u);
  EXPECT_NE(j["submissions"][0]["file"].get<std::string>().find("jo\xef\xbf\xbdo.cl"), std::string::npos)
      << "the Latin-1 byte as U+FFFD";
  for (const auto& row : j["submissions"]) EXPECT_TRUE(row["goal_met"].get<bool>()) << row.dump();
  std::remove(file.c_str());
}

// File names a #line directive cannot carry as they are (a newline, a quote,
// a backslash): a correct submission so named is graded met, not "not
// compiled: invalid filename for #line directive", and a broken one's
// message names its line in the file, the characters shown as '_'.
TEST(Hostile, CheckGradesSubmissionsWhoseNamesHoldNewlinesAndQuotes) {
  REQUIRE_OPENCL();
  const std::string newline = copy_of(kSolution, temp_path("line\nbreak.cl"));
  const std::string quoted = copy_of(kSolution, temp_path("q\"uo\\te.cl"));
  const std::string broken = temp_path("bro\nken.cl");
  std::ofstream(broken) << "__kernel void setRowReadCol(__global ELEM* out_all) {\n  out_all[0] = nowhere;\n}\n";
  const Outcome o = cli("check smem-conflict-free '" + newline + "' '" + quoted + "' '" + broken +
                        "' --device opencl:0:0 --format json");
  const auto j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "not JSON: " << o.out << o.err;
  ASSERT_EQ(j["submissions"].size(), 3u) << o.out;
  EXPECT_TRUE(j["submissions"][0]["goal_met"].get<bool>()) << j["submissions"][0].dump();
  EXPECT_TRUE(j["submissions"][1]["goal_met"].get<bool>()) << j["submissions"][1].dump();
  const std::string status = j["submissions"][2].dump();
  EXPECT_NE(status.find("bro_ken.cl:2:"), std::string::npos) << status;
  EXPECT_NE(status.find("nowhere"), std::string::npos) << status;
  EXPECT_EQ(o.err.find("warning"), std::string::npos) << "compiler chatter on stderr: " << o.err;
  for (const std::string& f : {newline, quoted, broken}) std::remove(f.c_str());
}

// A session recorded from a kernel with Latin-1 comments shows as JSON.
TEST(Hostile, ShowJsonSurvivesALatin1Source) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("latin1.cl", kColumnRead, "  // r\xe9sum\xe9 of the tile\n");
  const std::string session = temp_path("latin1.threadmap");
  const Outcome rec =
      cli("record smem.setRowReadCol --device opencl:0:0 --set blocks=2 --reps 1 --source " + file + " -o " + session);
  if (rec.err.find("needs libclang") != std::string::npos) GTEST_SKIP() << rec.err;
  ASSERT_EQ(rec.code, 0) << rec.out << rec.err;
  const Outcome shown = cli("show " + session + " --format json");
  EXPECT_EQ(shown.code, 0) << shown.err;
  const auto j = nlohmann::json::parse(shown.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "not JSON: " << shown.out << shown.err;
  EXPECT_NE(j["source"]["text"].get<std::string>().find("r\xef\xbf\xbdsum\xef\xbf\xbd"), std::string::npos);
  std::remove(session.c_str());
}

}  // namespace

namespace {

// Runs `args` with every compile cache (ThreadMap's CUDA one, PoCL's) in a
// new, empty folder, removed after.
Outcome cli_with_cold_caches(const std::string& args) {
  const std::string cache = temp_path("cold_cache");
  std::filesystem::remove_all(cache);
  std::filesystem::create_directories(cache);
  const std::string pocl = cache + "/pocl";
  setenv("THREADMAP_CACHE_DIR", cache.c_str(), 1);
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  setenv("POCL_CACHE_DIR", pocl.c_str(), 1);
  const Outcome o = cli(args);
  for (const char* name : {"THREADMAP_CACHE_DIR", "XDG_CACHE_HOME", "POCL_CACHE_DIR"}) unsetenv(name);
  std::filesystem::remove_all(cache);
  return o;
}

// The exercise's solution with `kernels` more kernels after it that are
// built and never launched: its compile grows, its run does not.
std::string slow_to_compile_solution(int kernels) {
  const std::string path = temp_path("slow_to_compile.cl");
  std::ifstream solution(kSolution);
  std::ofstream out(path);
  out << solution.rdbuf() << '\n';
  for (int k = 0; k < kernels; ++k)
    out << "__kernel void unused" << k << "(__global float* a, int n) {\n"
        << "  for (int i = 0; i < n; ++i) a[get_global_id(0) * " << k + 1 << " % n] += sin(i * " << k
        << ".5f) * cos(a[i]);\n}\n";
  return path;
}

// Compiling is not the learner's run. With cold caches, a submission whose
// compile alone takes longer than --timeout (about 3.5 s here, where its
// runs take 0.3 s, PoCL's code generation at each first launch included)
// is still graded, not "timed out". The margins hold on a loaded machine:
// load only lengthens the compile further past the limit.
TEST(Hostile, CheckDoesNotCountACompileAgainstTheTimeout) {
  REQUIRE_OPENCL();
  const std::string file = slow_to_compile_solution(500);
  const Outcome o =
      cli_with_cold_caches("check smem-conflict-free " + file + " --device opencl:0:0 --timeout 2 --format json");
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  const auto j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << o.out << o.err;
  EXPECT_EQ(j["submissions"][0]["status"], "goal met") << j.dump();
  std::remove(file.c_str());
}

// A submission that compiled and then ran past --timeout says it compiled.
TEST(Hostile, CheckSaysATimedOutSubmissionCompiled) {
  REQUIRE_OPENCL();
  const std::string loop = learner_file("loop_compiled.cl", kColumnRead, "  while (idx < 100000u) { out[0] = 1; }\n");
  const Outcome o = cli("check smem-conflict-free " + loop + " --device opencl:0:0 --timeout 1 --format json");
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  const auto j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << o.out << o.err;
  const auto& row = j["submissions"][0];
  EXPECT_EQ(row["status"], "timed out") << row.dump();
  EXPECT_TRUE(row["compiled"].get<bool>()) << row.dump();
  EXPECT_NE(row["error"].get<std::string>().find("did not finish within 1 s"), std::string::npos) << row.dump();
}

// bench --size allows up to 32768, yet above 23170 smem.setRowReadColRect's
// grid is past its range: that variant gets an invalid row saying why, and
// bench goes on with the others instead of failing as a whole. Checked where
// every variant at that size is refused before anything is allocated (one
// of its buffers is more than the device's largest allocation).
TEST(Hostile, BenchSizeOverOneVariantsRangeIsThatVariantsRow) {
  REQUIRE_OPENCL();
  constexpr std::uint64_t kSize = 23171;
  for (const auto& b : threadmap::list_backends())
    if (b.backend == "opencl" && b.available && b.devices.front().max_allocation_bytes >= kSize * kSize * 4)
      GTEST_SKIP() << "this device would run every kernel at 23171 x 23171";
  const Outcome o = cli("bench --size 23171 --device opencl:0:0 --reps 1 --warmup 0 --format json");
  EXPECT_EQ(o.code, 2) << "a variant could not run: " << o.err;
  const auto j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << o.out << o.err;
  ASSERT_EQ(j["results"].size(), threadmap::catalog().size()) << "a row for every variant";
  for (const auto& r : j["results"]) {
    if (r["kernel"] != "smem.setRowReadColRect") continue;
    EXPECT_EQ(r["status"], "invalid") << r.dump();
    EXPECT_EQ(r["parameters"]["blocks"], 1048623) << r.dump();
    EXPECT_NE(r["error"].get<std::string>().find("blocks=1048623 is out of range: blocks must be 1 to 1048576"),
              std::string::npos)
        << r.dump();
  }
}

// A learner's file whose kernel has another name: a message naming the
// catalog's kernel and its parameters, exit 2, not a raw OpenCL error.
TEST(Hostile, SourceWithoutTheKernelsNameSaysWhichNameItNeeds) {
  REQUIRE_OPENCL();
  const std::string file = temp_path("renamed.cl");
  std::ofstream(file) << "__kernel void mine(__global ELEM* out_all) { out_all[get_global_id(0)] = 0; }\n";
  for (const char* command : {"run", "counters"}) {
    const Outcome o =
        cli(std::string(command) + " smem.setRowReadCol --device opencl:0:0 --set blocks=2 --source " + file);
    if (o.err.find("needs libclang") != std::string::npos) continue;
    EXPECT_EQ(o.code, 2) << command << ": " << o.err;
    EXPECT_NE(o.err.find("renamed.cl has no kernel named setRowReadCol (the catalog's kernel is "
                         "setRowReadCol(__global ELEM* out_all))"),
              std::string::npos)
        << command << ": " << o.err;
  }
}

// --source names a folder, a file that is not text, or one that cannot be
// read: each says which.
TEST(Hostile, SourceThatIsNoTextFileSaysWhatItIs) {
  const std::string folder = temp_path("folder.cl");
  std::filesystem::create_directories(folder);
  Outcome o = cli("run smem.setRowReadCol --device opencl:0:0 --source " + folder);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("folder.cl is a folder, not a file"), std::string::npos) << o.err;

  const std::string binary = temp_path("binary.cl");
  std::ofstream(binary, std::ios::binary) << std::string(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0",
      10);
  o = cli("run smem.setRowReadCol --device opencl:0:0 --source " + binary);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("binary.cl is not a text file: it holds a NUL byte at offset 7"), std::string::npos) << o.err;

  if (geteuid() == 0) return;  // root reads every file
  const std::string locked = copy_of(kSolution, temp_path("locked.cl"));
  std::filesystem::permissions(locked, std::filesystem::perms::none);
  o = cli("run smem.setRowReadCol --device opencl:0:0 --source " + locked);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("cannot read " + locked + " (Permission denied)"), std::string::npos) << o.err;
}

// A FIFO named as a kernel blocked the command in open (600 s at 0 % CPU
// before grading anything); a link out of the submission's folder sent
// another file's text to the compiler. Both are refused at once, naming
// what they are, and check grades the files beside them.
TEST(Hostile, AFifoOrALinkOutOfItsFolderIsRefusedAtOnce) {
  REQUIRE_OPENCL();
  const std::string folder = temp_path("fifo_folder");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string fifo = folder + "/pipe.cl";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string outside = temp_path("outside.cl");
  copy_of(kSolution, outside);
  const std::string link = folder + "/link.cl";
  std::filesystem::create_symlink(outside, link);
  const std::string good = copy_of(kSolution, folder + "/good.cl");
  const auto started = std::chrono::steady_clock::now();
  const Outcome run = cli("run smem.setRowReadCol --device opencl:0:0 --source " + fifo);
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_NE(run.err.find("pipe.cl is a FIFO (named pipe), not a file to read"), std::string::npos) << run.err;
  const Outcome o = cli("check smem-conflict-free " + good + " " + fifo + " " + link + " " + good +
                        " --device opencl:0:0 --format json");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 120);
  const auto rows = nlohmann::json::parse(o.out)["submissions"];
  ASSERT_EQ(rows.size(), 4u) << o.out << o.err;
  EXPECT_EQ(rows[0]["status"], "goal met") << rows[0].dump();
  EXPECT_EQ(rows[1]["status"], "unreadable") << rows[1].dump();
  EXPECT_NE(rows[1].value("error", std::string()).find("is a FIFO (named pipe)"), std::string::npos) << rows[1].dump();
  EXPECT_EQ(rows[2]["status"], "unreadable") << rows[2].dump();
  EXPECT_NE(rows[2].value("error", std::string()).find("outside the folder " + folder), std::string::npos)
      << rows[2].dump();
  EXPECT_EQ(rows[3]["status"], "goal met") << rows[3].dump();
  // record and keep-source read their files the same way.
  const Outcome record = cli("record smem.setRowReadCol --device opencl:0:0 --source " + fifo + " -o " +
                             temp_path("fifo.threadmap"));
  EXPECT_EQ(record.code, 2) << record.err;
  const Outcome keep = cli("keep-source " + fifo);
  EXPECT_EQ(keep.code, 2) << keep.err;
  EXPECT_NE(keep.err.find("is a FIFO (named pipe)"), std::string::npos) << keep.err;
  std::filesystem::remove_all(folder);
}

// Parameters inside their ranges that a CPU device cannot hold: 8 GiB a
// buffer grew the process to 24 GB before the kernel's OOM killer ended it
// (and another process). The run is refused before anything is allocated,
// naming the sizes: the host's memory, or the largest allocation.
TEST(Hostile, ARunLargerThanTheHostsMemoryIsRefusedBeforeItAllocates) {
  REQUIRE_OPENCL();
  const auto started = std::chrono::steady_clock::now();
  const Outcome o =
      cli("run transpose.naive --device opencl:0:0 --set width=32768 --set height=32768 --set type=double");
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_TRUE(o.err.find("of host memory (16.0 GiB of buffers") != std::string::npos ||
              o.err.find("exceeds the largest allocation") != std::string::npos)
      << o.err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 30);
}

// A shared session or a submission's name must not clear the screen or
// retitle the window: show and check print control characters as \x1b.
TEST(Hostile, TextOutputShowsControlCharactersInsteadOfObeyingThem) {
  REQUIRE_OPENCL();
  const std::string file = learner_file("esc\x1b[2J.cl", kColumnRead, "  // \x1b]0;owned\x07\x1b[2J a comment\r\n");
  const std::string session = temp_path("esc.threadmap");
  const Outcome rec = cli("record smem.setRowReadCol --device opencl:0:0 --set blocks=2 --reps 1 --source '" + file +
                          "' -o " + session);
  if (rec.err.find("needs libclang") != std::string::npos) GTEST_SKIP() << rec.err;
  ASSERT_EQ(rec.code, 0) << rec.out << rec.err;
  auto raw_controls = [](const std::string& text) {
    return text.find('\x1b') != std::string::npos || text.find('\x07') != std::string::npos;
  };
  EXPECT_FALSE(raw_controls(rec.out)) << rec.out;
  const Outcome shown = cli("show " + session);
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_FALSE(raw_controls(shown.out)) << shown.out;
  EXPECT_NE(shown.out.find("Source: " + std::to_string(getpid()) + "_esc\\x1b[2J.cl (run and traced"),
            std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("   7    // \\x1b]0;owned\\x07\\x1b[2J a comment\n   8  "), std::string::npos)
      << "the line's own CR dropped, its newline kept: " << shown.out;

  const Outcome graded = cli("check smem-conflict-free '" + file + "' --device opencl:0:0");
  EXPECT_FALSE(raw_controls(graded.out)) << graded.out;
  EXPECT_NE(graded.out.find("_esc\\x1b[2J.cl"), std::string::npos) << graded.out;
  std::remove(session.c_str());
}

// A --device that does not exist is one message and exit 2, not a failed
// row per learner.
TEST(Hostile, CheckRefusesABadDeviceBeforeGrading) {
  const Outcome o = cli("check smem-conflict-free " + kSolution + " " + kSolution + " --device gpu0");
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_EQ(o.out, "") << "no file graded";
  EXPECT_NE(o.err.find("unknown device 'gpu0'"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("unknown device", o.err.find("unknown device") + 1), std::string::npos)
      << "one message: " << o.err;
}

}  // namespace

namespace {

bool is_character_device(const std::string& path) {
  return std::filesystem::is_character_file(std::filesystem::symlink_status(path));
}

// `record -o` names a file to write: never a device, a FIFO or a link (as
// root, the old save renamed a regular file over /dev/null), and never the
// learner's own kernel; refused before anything runs.
TEST(Hostile, RecordOutputIsNeverADeviceALinkOrTheInput) {
  const auto started = std::chrono::steady_clock::now();
  const Outcome null = cli("record transpose.shared --device opencl:0:0 -o /dev/null");
  EXPECT_EQ(null.code, 2) << null.err;
  EXPECT_NE(null.err.find("/dev/null is a character device"), std::string::npos) << null.err;
  EXPECT_TRUE(is_character_device("/dev/null"));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5)) << "refused before any run";

  const std::filesystem::path dir = temp_path("private");
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Outcome piped = cli("record transpose.shared --device opencl:0:0 -o " + fifo);
  EXPECT_EQ(piped.code, 2);
  EXPECT_NE(piped.err.find("is a FIFO"), std::string::npos) << piped.err;
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  const std::string link = (dir / "t.threadmap").string();
  std::filesystem::create_symlink("/dev/null", link);
  const Outcome linked = cli("record transpose.shared --device opencl:0:0 -o " + link);
  EXPECT_EQ(linked.code, 2);
  EXPECT_NE(linked.err.find("is a symbolic link"), std::string::npos) << linked.err;
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_TRUE(is_character_device("/dev/null"));

  const std::string kernel = learner_file("mine.cl", kColumnRead);
  const std::uintmax_t size = std::filesystem::file_size(kernel);
  const Outcome over = cli("record smem.setRowReadCol --device opencl:0:0 --source " + kernel + " -o " + kernel);
  EXPECT_EQ(over.code, 2);
  EXPECT_NE(over.err.find("is the input"), std::string::npos) << over.err;
  EXPECT_EQ(std::filesystem::file_size(kernel), size);
  std::filesystem::remove_all(dir);
  std::remove(kernel.c_str());
}

}  // namespace

namespace {

// A GPU shared by a class: twenty runs started at once on one device each
// time their work alone. The sections their reports give (the host's
// monotonic clock) are pairwise disjoint, every run is answered and
// verified, and each run that waited said so on stderr and in its report.
TEST(SharedDevice, TwentyConcurrentRunsTimeOneAtATime) {
  REQUIRE_OPENCL();
  constexpr int kRuns = 20;
  const std::string locks = temp_path("shared_device_locks");
  std::filesystem::remove_all(locks);
  std::filesystem::create_directories(locks);
  setenv("THREADMAP_LOCK_DIR", locks.c_str(), 1);
  std::vector<FILE*> pipes;
  for (int i = 0; i < kRuns; ++i) {
    const std::string command = std::string(THREADMAP_CLI) +
                                " run smem.setRowReadCol --device opencl:0:0 --reps 5 --format json 2>" + locks +
                                "/stderr_" + std::to_string(i);
    pipes.push_back(popen(command.c_str(), "r"));
    ASSERT_NE(pipes.back(), nullptr);
  }
  unsetenv("THREADMAP_LOCK_DIR");
  struct Section {
    std::int64_t start, end;
    double waited_ms;
    int run;
  };
  std::vector<Section> sections;
  int waited = 0;
  for (int i = 0; i < kRuns; ++i) {
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipes[i])) > 0;) out.append(buffer, n);
    const int status = pclose(pipes[i]);
    std::ifstream err_file(locks + "/stderr_" + std::to_string(i));
    const std::string err((std::istreambuf_iterator<char>(err_file)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "run " << i << ": " << err;
    const auto j = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "run " << i << ": " << out << err;
    EXPECT_TRUE(j["verification"]["verified"].get<bool>()) << j.dump();
    const auto& lock = j["timing"]["device_lock"];
    EXPECT_TRUE(lock["exclusive"].get<bool>()) << lock.dump();
    sections.push_back(
        {lock["start_ns"].get<std::int64_t>(), lock["end_ns"].get<std::int64_t>(), lock["waited_ms"].get<double>(), i});
    if (lock["runs_ahead"].get<int>() > 0) {
      ++waited;
      EXPECT_NE(err.find("waiting for the GPU: "), std::string::npos) << err;
    }
  }
  std::filesystem::remove_all(locks);
  std::sort(sections.begin(), sections.end(), [](const Section& a, const Section& b) { return a.start < b.start; });
  for (std::size_t k = 1; k < sections.size(); ++k)
    EXPECT_GE(sections[k].start, sections[k - 1].end)
        << "run " << sections[k].run << " timed while run " << sections[k - 1].run << " did";
  EXPECT_GT(waited, 0) << "twenty runs at once, and none waited for another";
}

// A run on a CPU device while other processes keep every core busy: the
// lock was its own, but its times are not the device's alone, and the report
// says so (JSON, the text's timing line, a sweep row's note).
TEST(SharedDevice, ARunOnABusyMachineIsFlagged) {
  REQUIRE_OPENCL();
  const threadmap::CpuHogs hogs;
  const Outcome json_run = cli("run smem.setRowReadCol --device opencl:0:0 --reps 20 --format json");
  ASSERT_EQ(json_run.code, 0) << json_run.err;
  const auto j = nlohmann::json::parse(json_run.out);
  if (j["device"]["platform"].get<std::string>().find("Portable Computing Language") == std::string::npos)
    GTEST_SKIP() << "opencl:0:0 is " << j["device"]["name"] << ", not PoCL's CPU device: a GPU's run is not flagged";
  const auto& lock = j["timing"]["device_lock"];
  EXPECT_TRUE(lock["exclusive"].get<bool>()) << lock.dump();
  EXPECT_TRUE(lock["busy"].get<bool>()) << lock.dump();
  EXPECT_GE(lock["others_cores"].get<double>(), 0.1 * lock["cores"].get<double>()) << lock.dump();
  EXPECT_NE(lock["note"].get<std::string>().find("the times may be slower than on a quiet machine"),
            std::string::npos)
      << lock.dump();
  const Outcome text = cli("run smem.setRowReadCol --device opencl:0:0 --reps 20");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("  timing: timed while other processes kept "), std::string::npos) << text.out;
  const Outcome sweep =
      cli("sweep smem.setRowReadCol --device opencl:0:0 --reps 20 --vary blocks=512,1024 --format csv");
  ASSERT_EQ(sweep.code, 0) << sweep.err;
  EXPECT_NE(sweep.out.find("busy machine (others "), std::string::npos) << sweep.out;
}

}  // namespace
