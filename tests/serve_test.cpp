// `threadmap-cli serve` through the real binary on pipes: replies carry the
// request's id, errors are replies and the worker goes on, a sweep reports
// progress and stops between points on "cancel", a recording is a session file.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "kernels/session.h"
#include "tests/test_devices.h"

namespace {

using nlohmann::json;

// The worker as a child process: requests to its stdin, reply lines from its stdout.
class Worker {
 public:
  Worker() {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      execl(THREADMAP_CLI, THREADMAP_CLI, "serve", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = fdopen(to_child[1], "w");
    out_ = fdopen(from_child[0], "r");
  }
  ~Worker() {
    if (in_) fclose(in_);
    if (out_) fclose(out_);
    if (pid_ > 0) {
      int status = 0;
      waitpid(pid_, &status, 0);
    }
  }
  // One request per line: newlines inside the text (raw literals) become spaces.
  void send(std::string line) {
    std::replace(line.begin(), line.end(), '\n', ' ');
    fputs((line + "\n").c_str(), in_);
    fflush(in_);
  }
  // The next reply line as JSON; null at end of output.
  json next() {
    std::string line;
    for (int c; (c = fgetc(out_)) != EOF && c != '\n';) line += static_cast<char>(c);
    if (line.empty()) return json();
    return json::parse(line);
  }
  // Closes stdin and returns the exit code.
  int finish() {
    fclose(in_);
    in_ = nullptr;
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

// Skips with the reason when no OpenCL device is there (e.g. no ICD installed).
#define REQUIRE_OPENCL()                                                     \
  if (const auto probe = threadmap::testing::first_device("opencl"); !probe.device) \
  GTEST_SKIP() << probe.skip_reason

TEST(Serve, PingListDevicesQuit) {
  Worker w;
  w.send(R"({"id": 1, "op": "ping"})");
  json r = w.next();
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(r["type"], "result");
  EXPECT_EQ(r["result"]["pong"], true);
  w.send(R"({"id": "list-1", "op": "list"})");
  r = w.next();
  EXPECT_EQ(r["id"], "list-1");
  ASSERT_TRUE(r["result"].is_array());
  EXPECT_FALSE(r["result"].empty());
  EXPECT_EQ(r["result"][0]["id"], "transpose.copy");
  w.send(R"({"id": 3, "op": "devices"})");
  r = w.next();
  EXPECT_EQ(r["id"], 3);
  bool opencl_listed = false;
  for (const json& b : r["result"]) opencl_listed |= b["backend"] == "opencl";
  EXPECT_TRUE(opencl_listed);
  w.send(R"({"id": 4, "op": "quit"})");
  EXPECT_EQ(w.next()["result"]["bye"], true);
  EXPECT_EQ(w.finish(), 0);
}

TEST(Serve, RunOnOpenclKeepsTheDeviceWarm) {
  REQUIRE_OPENCL();
  Worker w;
  const std::string run =
      R"("op": "run", "kernel": "transpose.shared", "device": "opencl:0:0",
          "params": {"width": 256, "height": 200, "tile": 8, "type": "float"}, "reps": 3, "warmup": 1)";
  w.send("{\"id\": 7, " + run + ", \"device_copy\": true}");
  json r = w.next();
  ASSERT_EQ(r["id"], 7);
  ASSERT_EQ(r["type"], "result") << r.dump();
  const json& report = r["result"];
  EXPECT_EQ(report["status"], "ok");
  EXPECT_EQ(report["kernel"], "transpose.shared");
  EXPECT_EQ(report["parameters"]["tile"], 8);
  EXPECT_EQ(report["parameters"]["type"], "float");
  EXPECT_TRUE(report["verification"]["verified"]);
  EXPECT_EQ(report["verification"]["checked"], 256 * 200);
  EXPECT_EQ(report["timing"]["kernel_ms"]["samples"], 3);
  EXPECT_GT(report["bandwidth_gbps"].get<double>(), 0);
  EXPECT_GT(report["device_copy"]["bandwidth_gbps"].get<double>(), 0);
  EXPECT_EQ(report["device_copy"]["bytes"], 256 * 200 * 4);
  w.send("{\"id\": 8, " + run + "}");
  EXPECT_EQ(w.next()["result"]["status"], "ok");
  w.send(R"({"id": 9, "op": "copy", "device": "opencl:0:0", "bytes": 65536, "reps": 2})");
  r = w.next();
  EXPECT_EQ(r["id"], 9);
  EXPECT_GT(r["result"]["bandwidth_gbps"].get<double>(), 0);
  EXPECT_EQ(w.finish(), 0);
}

// A learner's kernel in the run request: compiled for the device, verified
// against the catalog's reference; a compile error is the run's message.
TEST(Serve, RunsALearnersKernel) {
  REQUIRE_OPENCL();
  Worker w;
  const auto source = [](const std::string& extra) {
    return "__kernel void setRowReadCol(__global ELEM* out_all) {\n"
           "  __global ELEM* out = out_all + get_group_id(0) * get_local_size(0) * get_local_size(1);\n"
           "  __local ELEM tile[BLOCK_Y][BLOCK_X + 1];\n"
           "  const unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);\n" +
           extra +
           "  tile[get_local_id(1)][get_local_id(0)] = idx;\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  out[idx] = tile[get_local_id(0)][get_local_id(1)];\n"
           "}\n";
  };
  const json run = {{"op", "run"}, {"kernel", "smem.setRowReadCol"}, {"device", "opencl:0:0"},
                    {"params", {{"blocks", 8}}}, {"reps", 2}, {"source_name", "mine.cl"}};
  json request = run;
  request["id"] = 1;
  request["source"] = source("");
  w.send(request.dump());
  json r = w.next();
  ASSERT_EQ(r["type"], "result") << r.dump();
  EXPECT_EQ(r["result"]["status"], "ok") << r.dump();
  EXPECT_TRUE(r["result"]["verification"]["verified"]);
  request["id"] = 2;
  request["source"] = source("  undeclared_name = 1;\n");  // line 5
  w.send(request.dump());
  r = w.next();
  EXPECT_EQ(r["result"]["status"], "invalid") << r.dump();
  EXPECT_NE(r["result"]["error"].get<std::string>().find("mine.cl:5:"), std::string::npos) << r.dump();
  json record = run;
  record["op"] = "record";
  record["id"] = 3;
  record["source"] = source("");
  record["folder"] = ::testing::TempDir();
  w.send(record.dump());
  r = w.next();
  if (r["type"] == "error" && r.dump().find("needs libclang") != std::string::npos) GTEST_SKIP() << r.dump();
  ASSERT_EQ(r["type"], "result") << r.dump();
  EXPECT_TRUE(r["result"]["verified"].get<bool>()) << r.dump();
  const threadmap::Session s = threadmap::load_session(r["result"]["session"].get<std::string>());
  EXPECT_EQ(s.source_name, "mine.cl");
  EXPECT_NE(s.source_text.find("BLOCK_X + 1"), std::string::npos);
  w.send(R"({"id": 4, "op": "ping"})");
  EXPECT_EQ(w.next()["result"]["pong"], true);
  EXPECT_EQ(w.finish(), 0);
}

TEST(Serve, ErrorsAreRepliesAndTheWorkerGoesOn) {
  Worker w;
  w.send("this is not json {");
  json r = w.next();
  EXPECT_EQ(r["type"], "error");
  EXPECT_TRUE(r["id"].is_null());
  EXPECT_EQ(r["status"], "bad-request");
  EXPECT_NE(r["error"].get<std::string>().find("bad JSON"), std::string::npos);

  w.send(R"({"id": 2, "op": "run", "kernel": "transpose.nope"})");
  r = w.next();
  EXPECT_EQ(r["id"], 2);
  EXPECT_EQ(r["type"], "error");
  EXPECT_EQ(r["status"], "invalid");
  EXPECT_NE(r["error"].get<std::string>().find("unknown kernel 'transpose.nope'"), std::string::npos);

  w.send(R"({"id": 3, "op": "run", "kernel": "transpose.shared", "params": {"tile": 12}})");
  r = w.next();
  EXPECT_EQ(r["id"], 3);
  EXPECT_EQ(r["status"], "invalid");
  EXPECT_NE(r["error"].get<std::string>().find("tile=12"), std::string::npos);

  w.send(R"({"id": 4, "op": "run", "kernel": "transpose.shared", "device": "opencl:9:9"})");
  r = w.next();
  EXPECT_EQ(r["id"], 4);
  EXPECT_EQ(r["type"], "error");

  w.send(R"({"id": 5, "op": "fly"})");
  r = w.next();
  EXPECT_EQ(r["id"], 5);
  EXPECT_NE(r["error"].get<std::string>().find("unknown op 'fly'"), std::string::npos);

  w.send(R"({"id": 6, "op": "run", "kernel": "transpose.naive", "reps": 0})");
  r = w.next();
  EXPECT_EQ(r["id"], 6);
  EXPECT_NE(r["error"].get<std::string>().find("reps"), std::string::npos);

  w.send(R"({"id": 7, "op": "ping"})");
  EXPECT_EQ(w.next()["result"]["pong"], true);
  EXPECT_EQ(w.finish(), 0);
}

TEST(Serve, SweepReportsProgressAndStopsOnCancel) {
  REQUIRE_OPENCL();
  Worker w;
  // Four points to completion: a progress line each, then the result.
  w.send(R"({"id": 1, "op": "sweep", "kernel": "transpose.naive",
             "params": {"width": 128, "height": 128}, "vary": {"tile": [4, 8, 16, 32]}, "reps": 2})");
  for (int i = 1; i <= 4; ++i) {
    const json p = w.next();
    ASSERT_EQ(p["id"], 1);
    ASSERT_EQ(p["type"], "progress") << p.dump();
    EXPECT_EQ(p["done"], i);
    EXPECT_EQ(p["total"], 4);
    EXPECT_EQ(p["result"]["status"], "ok");
  }
  json r = w.next();
  EXPECT_EQ(r["type"], "result");
  EXPECT_EQ(r["result"]["results"].size(), 4u);
  EXPECT_EQ(r["result"]["cancelled"], false);

  // Many points; cancel after the first progress line.
  json widths = json::array();
  for (int width = 128; width < 128 + 200; ++width) widths.push_back(width);
  w.send(json{{"id", 2}, {"op", "sweep"}, {"kernel", "transpose.naive"},
              {"params", {{"height", 128}}}, {"vary", {{"width", widths}}}, {"reps", 2}}
             .dump());
  EXPECT_EQ(w.next()["type"], "progress");
  w.send(R"({"id": 3, "op": "cancel", "target": 2})");
  for (r = w.next(); r["type"] == "progress"; r = w.next()) ASSERT_EQ(r["id"], 2);
  EXPECT_EQ(r["id"], 2);
  EXPECT_EQ(r["result"]["cancelled"], true);
  EXPECT_LT(r["result"]["results"].size(), 200u);
  EXPECT_EQ(r["result"]["total"], 200);
  r = w.next();
  EXPECT_EQ(r["id"], 3);
  EXPECT_EQ(r["result"]["cancelled"], 2);
  EXPECT_EQ(w.finish(), 0);
}

TEST(Serve, RecordWritesASessionWithTheTrace) {
  REQUIRE_OPENCL();
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("serve_record_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  Worker w;
  w.send(json{{"id", "rec-1"}, {"op", "record"}, {"kernel", "transpose.shared"},
              {"device", "opencl:0:0"}, {"params", {{"width", 64}, {"height", 48}, {"tile", 8}}},
              {"blocks", {0, 1, 8}}, {"reps", 2}, {"folder", folder.string()}}
             .dump());
  json r = w.next();
  ASSERT_EQ(r["id"], "rec-1");
  ASSERT_EQ(r["type"], "result") << r.dump();
  const std::string path = r["result"]["session"];
  EXPECT_EQ(std::filesystem::path(path).parent_path(), folder);
  EXPECT_EQ(r["result"]["verified"], true);
  EXPECT_EQ(r["result"]["bytes"], std::filesystem::file_size(path));

  const threadmap::Session s = threadmap::load_session(path);
  EXPECT_EQ(s.kernel_id, "transpose.shared");
  EXPECT_EQ(s.params.at("tile"), "8");
  EXPECT_EQ(s.params.at("width"), "64");
  EXPECT_EQ(s.device["spec"], "opencl:0:0");
  EXPECT_EQ(s.run["status"], "ok");
  // The ceiling a chart of the recording draws, measured beside the run.
  EXPECT_EQ(s.run["device_copy"]["bytes"], s.run["ideal_bytes"].get<std::uint64_t>() / 2);
  EXPECT_GT(s.run["device_copy"]["bandwidth_gbps"].get<double>(), 0.0);
  EXPECT_EQ(s.run["timing"]["kernel_ms"]["samples"], 2);
  ASSERT_TRUE(s.trace.has_value());
  EXPECT_EQ(s.trace->traced_blocks, (std::vector<std::uint32_t>{0, 1, 8}));
  EXPECT_FALSE(s.trace->accesses.empty());
  for (const threadmap::Access& a : s.trace->accesses) {
    EXPECT_TRUE(a.block == 0 || a.block == 1 || a.block == 8);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(s.trace_verification["verified"], true);

  // Without "folder" the file goes to the system temp folder; a second
  // recording never overwrites the first.
  w.send(R"({"id": 2, "op": "record", "kernel": "reduce.sequential", "device": "opencl:0:0",
             "params": {"n": 4096}, "reps": 1})");
  r = w.next();
  ASSERT_EQ(r["type"], "result") << r.dump();
  const std::string second = r["result"]["session"];
  EXPECT_NE(second, path);
  EXPECT_EQ(std::filesystem::path(second).parent_path(), std::filesystem::temp_directory_path());
  EXPECT_FALSE(threadmap::load_session(second).trace->accesses.empty());
  std::filesystem::remove(second);

  // A scratch recording (the GUI's temporary folder) is written whole and
  // renamed into place like any other, only not flushed to disk first.
  w.send(json{{"id", "scratch"}, {"op", "record"}, {"kernel", "reduce.sequential"}, {"device", "opencl:0:0"},
              {"params", {{"n", 4096}}}, {"reps", 1}, {"folder", folder.string()}, {"scratch", true}}
             .dump());
  r = w.next();
  ASSERT_EQ(r["type"], "result") << r.dump();
  const std::string scratch = r["result"]["session"];
  EXPECT_EQ(r["result"]["bytes"], std::filesystem::file_size(scratch));
  EXPECT_FALSE(threadmap::load_session(scratch).trace->accesses.empty());
  std::filesystem::remove(scratch);
  w.send(R"({"id": "scratch-2", "op": "record", "kernel": "reduce.sequential", "scratch": "yes"})");
  r = w.next();
  EXPECT_EQ(r["status"], "bad-request");
  EXPECT_NE(r["error"].get<std::string>().find("scratch"), std::string::npos);

  // Bad block lists and folders are error replies; the worker goes on.
  w.send(R"({"id": 3, "op": "record", "kernel": "transpose.naive", "blocks": [-1]})");
  r = w.next();
  EXPECT_EQ(r["status"], "invalid");
  EXPECT_NE(r["error"].get<std::string>().find("-1"), std::string::npos);
  w.send(R"({"id": 4, "op": "record", "kernel": "transpose.naive", "folder": "/no/such/folder"})");
  r = w.next();
  EXPECT_EQ(r["status"], "invalid");
  EXPECT_NE(r["error"].get<std::string>().find("/no/such/folder"), std::string::npos);
  EXPECT_EQ(w.finish(), 0);
  std::filesystem::remove_all(folder);
}

}  // namespace
