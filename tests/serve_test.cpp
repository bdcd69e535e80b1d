// `threadmap-cli serve` through the real binary on pipes: replies carry the
// request's id, errors are replies and the worker goes on, a sweep reports
// progress and stops between points on "cancel", a recording is a session file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/serve.h"
#include "app/protocol/replies.h"
#include "app/protocol/requests.h"
#include "kernels/core/session.h"
#include "tests/test_devices.h"

namespace {

using nlohmann::json;

// The worker as a child process: requests to its stdin, reply lines from its stdout.
class Worker {
 public:
  Worker() {
    ::signal(SIGPIPE, SIG_IGN);  // a worker that died fails the test, not the test binary
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      // A device lock of this worker's own: the suite's other processes time
      // on the same CPU device meanwhile, and their waits are not these tests'.
      const std::string locks = ::testing::TempDir() + "threadmap_serve_locks_" + std::to_string(getppid());
      mkdir(locks.c_str(), 0700);
      setenv("THREADMAP_LOCK_DIR", locks.c_str(), 1);
      execl(THREADMAP_CLI, THREADMAP_CLI, "serve", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = fdopen(to_child[1], "w");
    out_ = from_child[0];
  }
  ~Worker() {
    if (in_) fclose(in_);
    if (out_ >= 0) close(out_);
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
  // The bytes as they are, then a newline: invalid UTF-8, NUL, embedded newlines.
  void send_raw(const std::string& bytes) {
    fwrite(bytes.data(), 1, bytes.size(), in_);
    fputc('\n', in_);
    fflush(in_);
  }
  // The next reply line as JSON; null at end of output, or (a failure) when no
  // reply comes within `seconds` or the reply is not valid JSON.
  json next(int seconds = 60) {
    std::string line;
    for (std::size_t newline; (newline = pending_.find('\n')) == std::string::npos;) {
      pollfd ready{out_, POLLIN, 0};
      if (poll(&ready, 1, seconds * 1000) <= 0) {
        ADD_FAILURE() << "no reply within " << seconds << " s";
        return json();
      }
      char chunk[65536];
      const ssize_t n = read(out_, chunk, sizeof chunk);
      if (n <= 0) {  // end of output: what is left, if anything
        line.swap(pending_);
        return line.empty() ? json() : parse_reply(line);
      }
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
    const std::size_t newline = pending_.find('\n');
    line = pending_.substr(0, newline);
    pending_.erase(0, newline + 1);
    if (line.empty()) return json();
    return parse_reply(line);
  }
  pid_t pid() const { return pid_; }
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
  static json parse_reply(const std::string& line) {
    json reply = json::parse(line, nullptr, false);
    if (reply.is_discarded()) {
      ADD_FAILURE() << "the reply is not valid JSON (UTF-8): " << line.substr(0, 300);
      return json();
    }
    return reply;
  }

  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  int out_ = -1;
  std::string pending_;
};

// Skips with the reason when no OpenCL device is there (e.g. no ICD installed).
#define REQUIRE_OPENCL() \
  if (const auto probe = threadmap::testing::first_device("opencl"); !probe.device) GTEST_SKIP() << probe.skip_reason

// Both sides check the version: a client that says it speaks another
// protocol is told what to install; one that says nothing is served.
TEST(Serve, AClientOfAnotherProtocolIsToldWhatToInstall) {
  Worker w;
  w.send(R"({"id": 1, "op": "ping", "protocol": 999})");
  json r = w.next();
  EXPECT_EQ(r["type"], "error") << r.dump();
  EXPECT_NE(r["error"].get<std::string>().find("the client speaks protocol 999: install the same ThreadMap version"),
            std::string::npos)
      << r.dump();
  w.send(R"({"id": 2, "op": "ping"})");
  EXPECT_EQ(w.next()["result"]["pong"], true);
}

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

// The client's side of the protocol (app/protocol) against the real worker:
// typed requests written as the GUI writes them, every reply read back as
// the type its request asks for.
class TypedWorker {
 public:
  // The final reply to `request`, read as its result; progress lines are kept.
  threadmap::protocol::Result ask(const threadmap::protocol::Request& request) {
    namespace protocol = threadmap::protocol;
    const int id = ++sent_;
    worker_.send(protocol::encode_line(protocol::to_json(request, id)));
    for (;;) {
      const std::optional<protocol::ReplyLine> line = protocol::read_reply_line(worker_.next().dump());
      if (!line) throw std::runtime_error("no reply line");
      EXPECT_EQ(line->id, id);
      if (line->kind == protocol::ReplyKind::Progress) {
        progress.push_back(protocol::read_progress(line->body));
        continue;
      }
      if (line->kind == protocol::ReplyKind::Error)
        throw std::runtime_error(line->error.status + ": " + line->error.message);
      return protocol::read_result(request, line->body);
    }
  }
  int finish() { return worker_.finish(); }
  std::vector<threadmap::protocol::Progress> progress;

 private:
  Worker worker_;
  int sent_ = 0;
};

TEST(Serve, ThePingReplySaysTheProtocolVersion) {
  namespace protocol = threadmap::protocol;
  TypedWorker w;
  const auto ping = std::get<protocol::PingResult>(w.ask(protocol::PingRequest{}));
  EXPECT_EQ(ping.protocol, protocol::kVersion);
  EXPECT_EQ(protocol::version_problem(ping), "");
  EXPECT_FALSE(ping.version.empty());
  EXPECT_NO_THROW(std::get<protocol::QuitResult>(w.ask(protocol::QuitRequest{})));
  EXPECT_EQ(w.finish(), 0);
}

TEST(Serve, TypedRequestsGetTypedReplies) {
  REQUIRE_OPENCL();
  namespace protocol = threadmap::protocol;
  TypedWorker w;
  const auto backends = std::get<protocol::DevicesResult>(w.ask(protocol::DevicesRequest{}));
  EXPECT_TRUE(std::any_of(backends.begin(), backends.end(), [](const threadmap::BackendReport& b) {
    return b.backend == "opencl" && b.available && !b.devices.empty();
  }));
  protocol::RunRequest run;
  run.kernel = "transpose.shared";
  run.device = "opencl:0:0";
  run.params = {{"width", "64"}, {"height", "48"}, {"tile", "8"}};
  run.reps = 2;
  run.warmup = 0;
  run.device_copy = true;
  const auto report = std::get<threadmap::RunReport>(w.ask(run));
  EXPECT_TRUE(report.ok()) << report.error;
  EXPECT_TRUE(report.verified());
  EXPECT_EQ(std::get<std::int64_t>(report.parameters.at("tile")), 8);
  EXPECT_EQ(report.device.spec, "opencl:0:0");
  ASSERT_TRUE(report.timing && report.device_copy);
  EXPECT_EQ(report.timing->kernel_ms.samples, 2);
  EXPECT_EQ(report.device_copy->bytes, report.ideal_bytes / 2);
  protocol::CopyRequest copy;
  copy.device = "opencl:0:0";
  copy.bytes = 65536;
  copy.reps = 2;
  EXPECT_GT(std::get<threadmap::CopyReport>(w.ask(copy)).bandwidth_gbps, 0);
  protocol::SweepRequest sweep(run);
  sweep.vary = {{"tile", {"4", "8"}}};
  const auto swept = std::get<protocol::SweepResult>(w.ask(sweep));
  EXPECT_EQ(swept.total, 2u);
  EXPECT_EQ(swept.results.size(), 2u);
  EXPECT_FALSE(swept.cancelled);
  ASSERT_EQ(w.progress.size(), 2u);
  EXPECT_EQ(std::get<protocol::SweepPoint>(w.progress[1]).done, 2u);
  const auto cancel = std::get<protocol::CancelResult>(w.ask(protocol::CancelRequest{"nothing"}));
  EXPECT_EQ(cancel.target, "nothing");
  EXPECT_FALSE(cancel.found);
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
  const json run = {
      {"op", "run"}, {"kernel", "smem.setRowReadCol"}, {"device", "opencl:0:0"}, {"params", {{"blocks", 8}}},
      {"reps", 2},   {"source_name", "mine.cl"}};
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

// A pack travels in its request (a worker through ssh has none of its files):
// its kernels then run verified and record like the catalog's; a mistake in
// its manifest is one reply naming pack.toml:LINE:COL, and the worker goes on.
TEST(Serve, APackSentInTheRequestRunsAndRecords) {
  REQUIRE_OPENCL();
  const auto read = [](const std::string& name) {
    std::ifstream in(std::string(THREADMAP_SOURCE_DIR) + "/tests/data/packs/rowsum/" + name);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  Worker w;
  // A folder no one has: only the texts sent are read.
  json pack = {{"id", 1},
               {"op", "pack"},
               {"folder", "/nowhere/rowsum"},
               {"manifest", read("pack.toml")},
               {"files", {{"rowsum.cl", read("rowsum.cl")}}}};
  w.send(pack.dump());
  json r = w.next();
  ASSERT_EQ(r["type"], "result") << r.dump();
  EXPECT_EQ(r["result"]["pack"], "rowsum");
  EXPECT_EQ(r["result"]["variants"], json({"rowsum.serial", "rowsum.tree", "rowsum.off_by_one"}));
  const json params = {{"width", 100}, {"height", 5}, {"wg", 32}};
  w.send(json({{"id", 2},
               {"op", "run"},
               {"kernel", "rowsum.tree"},
               {"device", "opencl:0:0"},
               {"params", params},
               {"reps", 1}})
             .dump());
  r = w.next();
  EXPECT_EQ(r["result"]["status"], "ok") << r.dump();
  EXPECT_TRUE(r["result"]["verification"]["verified"]) << r.dump();
  w.send(json({{"id", 3},
               {"op", "record"},
               {"kernel", "rowsum.tree"},
               {"device", "opencl:0:0"},
               {"params", params},
               {"reps", 1},
               {"folder", ::testing::TempDir()}})
             .dump());
  r = w.next();
  if (r["type"] == "error" && r.dump().find("needs libclang") != std::string::npos) GTEST_SKIP() << r.dump();
  ASSERT_EQ(r["type"], "result") << r.dump();
  EXPECT_TRUE(r["result"]["verified"].get<bool>()) << r.dump();
  const threadmap::Session s = threadmap::load_session(r["result"]["session"].get<std::string>());
  EXPECT_EQ(s.kernel_file, "/nowhere/rowsum/rowsum.cl");
  EXPECT_EQ(s.kernel_text, read("rowsum.cl"));
  EXPECT_TRUE(s.source_text.empty()) << "the pack's own kernel, not a learner's";

  pack["id"] = 4;
  pack["folder"] = "/nowhere/other";
  pack["manifest"] = "[pack]\nname = \"other\"\n[[family]]\nid = \"other\"\nopencl = \"missing.cl\"\n";
  w.send(pack.dump());
  r = w.next();
  EXPECT_EQ(r["type"], "error") << r.dump();
  EXPECT_NE(r["error"].get<std::string>().find("/nowhere/other/pack.toml:5:"), std::string::npos) << r.dump();
  w.send(R"({"id": 5, "op": "ping"})");
  EXPECT_EQ(w.next()["result"]["pong"], true);
  EXPECT_EQ(w.finish(), 0);
}

// The same pack sent again with its files edited (the window's Reload
// packs): the worker's variants take the new text; a variant removed and
// another renamed are read as well (before, such a pack was refused until
// a restart), and the renamed one runs.
TEST(Serve, APackSentAgainReplacesItsTexts) {
  REQUIRE_OPENCL();
  const auto read = [](const std::string& name) {
    std::ifstream in(std::string(THREADMAP_SOURCE_DIR) + "/tests/data/packs/rowsum/" + name);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  Worker w;
  json pack = {{"id", 1},
               {"op", "pack"},
               {"folder", "/nowhere/rowsum"},
               {"manifest", read("pack.toml")},
               {"files", {{"rowsum.cl", read("rowsum.cl")}}}};
  w.send(pack.dump());
  ASSERT_EQ(w.next()["type"], "result");
  const std::string edited = read("rowsum.cl") + "\n// edited\n";
  pack["id"] = 2;
  pack["files"]["rowsum.cl"] = edited;
  w.send(pack.dump());
  json r = w.next();
  ASSERT_EQ(r["type"], "result") << r.dump();
  w.send(json({{"id", 3},
               {"op", "record"},
               {"kernel", "rowsum.tree"},
               {"device", "opencl:0:0"},
               {"params", {{"width", 100}, {"height", 5}, {"wg", 32}}},
               {"reps", 1},
               {"folder", ::testing::TempDir()}})
             .dump());
  r = w.next();
  if (r["type"] == "error" && r.dump().find("needs libclang") != std::string::npos) GTEST_SKIP() << r.dump();
  ASSERT_EQ(r["type"], "result") << r.dump();
  EXPECT_EQ(threadmap::load_session(r["result"]["session"].get<std::string>()).kernel_text, edited);

  std::string fewer = read("pack.toml");
  const std::size_t wrong = fewer.find("  [[family.variant]]\n  id = \"off_by_one\"");
  ASSERT_NE(wrong, std::string::npos);
  fewer.erase(wrong, fewer.find("  [[family.check]]") - wrong);
  const std::size_t tree = fewer.find("id = \"tree\"");
  ASSERT_NE(tree, std::string::npos);
  fewer.replace(tree, std::string("id = \"tree\"").size(), "id = \"tree_renamed\"");
  pack["id"] = 4;
  pack["manifest"] = fewer;
  w.send(pack.dump());
  r = w.next();
  ASSERT_EQ(r["type"], "result") << r.dump();
  w.send(json({{"id", 5}, {"op", "list"}}).dump());
  const std::string listed = w.next().dump();
  EXPECT_EQ(listed.find("rowsum.off_by_one"), std::string::npos) << listed;
  EXPECT_EQ(listed.find("\"rowsum.tree\""), std::string::npos) << listed;
  EXPECT_NE(listed.find("rowsum.tree_renamed"), std::string::npos) << listed;
  w.send(json({{"id", 6},
               {"op", "run"},
               {"kernel", "rowsum.tree_renamed"},
               {"device", "opencl:0:0"},
               {"params", {{"width", 100}, {"height", 5}, {"wg", 32}}},
               {"reps", 1}})
             .dump());
  r = w.next();
  ASSERT_EQ(r["type"], "result") << r.dump();
  EXPECT_EQ(r["result"]["status"], "ok") << r.dump();
  EXPECT_EQ(w.finish(), 0);
}

// An exercise's answer names an exercise the worker knows: another is
// refused before any run, its name cut to an excerpt; a name that is no
// text is a bad request.
TEST(Serve, ARecordForAnUnknownExerciseIsRefused) {
  Worker w;
  w.send(json({{"id", 1}, {"op", "record"}, {"kernel", "smem.setRowReadCol"}, {"exercise", std::string(3000, 'a')}})
             .dump());
  json r = w.next();
  EXPECT_EQ(r["status"], "invalid") << r.dump();
  EXPECT_NE(r["error"].get<std::string>().find("there is no exercise 'aaa"), std::string::npos) << r.dump();
  EXPECT_LT(r["error"].get<std::string>().size(), 400u) << r.dump();
  w.send(json({{"id", 2}, {"op", "record"}, {"kernel", "smem.setRowReadCol"}, {"exercise", 5}}).dump());
  r = w.next();
  EXPECT_EQ(r["status"], "bad-request") << r.dump();
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
  w.send(json{
      {"id", 2},
      {"op", "sweep"},
      {"kernel", "transpose.naive"},
      {"params", {{"height", 128}}},
      {"vary", {{"width", widths}}},
      {"reps",
       2}}.dump());
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
  w.send(json{{"id", "rec-1"},
              {"op", "record"},
              {"kernel", "transpose.shared"},
              {"device", "opencl:0:0"},
              {"params", {{"width", 64}, {"height", 48}, {"tile", 8}}},
              {"blocks", {0, 1, 8}},
              {"reps", 2},
              {"folder", folder.string()}}
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
  w.send(json{
      {"id", "scratch"},
      {"op", "record"},
      {"kernel", "reduce.sequential"},
      {"device", "opencl:0:0"},
      {"params", {{"n", 4096}}},
      {"reps", 1},
      {"folder", folder.string()},
      {"scratch",
       true}}.dump());
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

// --- Hostile input: every line gets exactly one final reply and the worker goes on.

// An "error" reply to `id` whose message contains `needle`.
void expect_error(const json& r, const json& id, const std::string& needle, const std::string& sent) {
  if (!r.is_object()) {
    ADD_FAILURE() << "no reply to " << sent.substr(0, 200) << ": the worker died";
    return;
  }
  EXPECT_EQ(r["type"], json("error")) << "sent " << sent.substr(0, 200) << "\nreply " << r.dump();
  EXPECT_EQ(r["id"], id) << "sent " << sent.substr(0, 200) << "\nreply " << r.dump();
  EXPECT_NE(r.value("error", "").find(needle), std::string::npos)
      << "the error should name " << needle << "; sent " << sent.substr(0, 200) << "\nreply " << r.dump();
}

void expect_pong(Worker& w, const json& id) {
  w.send(json{{"id", id}, {"op", "ping"}}.dump());
  json r = w.next();
  EXPECT_EQ(r["id"], id) << r.dump();
  EXPECT_EQ(r["result"]["pong"], true) << "the worker should go on; got " << r.dump();
}

// `"depth"` arrays around 1: {"x": [[...[1]...]]} is nested depth + 1 levels.
std::string nested(std::size_t depth) { return std::string(depth, '[') + "1" + std::string(depth, ']'); }

// The worker's peak resident memory (VmHWM) in bytes.
std::size_t peak_memory(pid_t pid) {
  FILE* status = fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
  if (!status) return 0;
  char line[256];
  std::size_t kib = 0;
  while (fgets(line, sizeof line, status))
    if (std::sscanf(line, "VmHWM: %zu kB", &kib) == 1) break;
  fclose(status);
  return kib * 1024;
}

// A field of the wrong type, anywhere, is an error reply that names the
// field; none of these needs a device (they are refused before one is opened).
TEST(Serve, FieldsOfTheWrongTypeAreErrorsNamingTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"id":1,"op":7})", "op"},
      {R"({"id":2,"op":null})", "op"},
      {R"({"id":3,"op":["ping"]})", "op"},
      {R"({"id":4,"op":"run","kernel":5})", "kernel"},
      {R"({"id":5,"op":"run","kernel":"transpose.naive","device":5})", "device"},
      {R"({"id":6,"op":"run","kernel":"transpose.naive","params":"x"})", "params"},
      {R"({"id":7,"op":"run","kernel":"transpose.naive","params":[1]})", "params"},
      {R"({"id":8,"op":"run","kernel":"transpose.naive","reps":"3"})", "reps"},
      {R"({"id":9,"op":"run","kernel":"transpose.naive","warmup":[2]})", "warmup"},
      {R"({"id":10,"op":"run","kernel":"transpose.naive","seed":"x"})", "seed"},
      {R"({"id":11,"op":"run","kernel":"transpose.naive","seed":-1})", "seed"},
      {R"({"id":12,"op":"run","kernel":"transpose.naive","source":"k","source_name":5})", "source_name"},
      {R"({"id":13,"op":"run","kernel":"transpose.naive","source":5})", "source"},
      {R"({"id":14,"op":"run","kernel":"transpose.naive","device_copy":"yes"})", "device_copy"},
      {R"({"id":15,"op":"copy","bytes":"1"})", "bytes"},
      {R"({"id":16,"op":"sweep","kernel":"transpose.naive","vary":[1]})", "vary"},
      {R"({"id":17,"op":"sweep","kernel":"transpose.naive","vary":{"tile":[[1]]}})", "tile"},
      {R"({"id":18,"op":"record","kernel":"transpose.naive","blocks":"x"})", "blocks"},
      {R"({"id":19,"op":"record","kernel":"transpose.naive","blocks":[1.5]})", "blocks"},
      {R"({"id":20,"op":"record","kernel":"transpose.naive","folder":5})", "folder"},
      {R"({"id":21,"op":"record","kernel":"transpose.naive","scratch":1})", "scratch"},
      {R"({"id":22,"op":"cancel","target":[1]})", "target"},
      {R"({"id":23,"op":"cancel"})", "target"},
      {R"({"id":24,"op":"run","kernel":"transpose.naive","params":{"tile":{"a":1}}})", "tile"},
  };
  Worker w;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& [line, field] = cases[i];
    w.send(line);
    const json r = w.next();
    ASSERT_FALSE(r.is_null()) << "no reply to " << line << ": the worker died";
    expect_error(r, static_cast<int>(i + 1), field, line);
  }
  expect_pong(w, "after");
  EXPECT_EQ(w.finish(), 0);
}

// Invalid UTF-8 is a bad request (nlohmann's parser refuses it), and the
// reply, which quotes the bytes in its message, is still valid UTF-8 JSON.
TEST(Serve, InvalidUtf8IsAnErrorReplyNotADeath) {
  static constexpr char kNulLine[] = "{\"id\":5,\"op\":\"ping\"\0}";
  const std::vector<std::string> lines = {
      "{\"id\":1,\"op\":\"\xff\"}",                         // a byte never in UTF-8
      "\xff\xfe{}",                                         // outside any string
      "{\"id\":\"\xc3\x28\",\"op\":\"ping\"}",              // a broken two-byte sequence
      "{\"id\":3,\"op\":\"ping\",\"x\":\"\xed\xa0\x80\"}",  // an encoded surrogate
      "{\"id\":4,\"op\":\"ping\",\"x\":\"\xc0\xaf\"}",      // an overlong '/'
      std::string(kNulLine, sizeof kNulLine - 1),           // a NUL byte
  };
  Worker w;
  for (const std::string& line : lines) {
    w.send_raw(line);
    const json r = w.next();
    ASSERT_FALSE(r.is_null()) << "no valid reply: the worker died";
    expect_error(r, json(), "bad JSON", line);
    EXPECT_EQ(r["status"], "bad-request");
  }
  // Valid UTF-8 beyond ASCII is served and echoed as it came.
  expect_pong(w, "caf\xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ(w.finish(), 0);
}

// An id is a number, a string of at most 256 bytes, or null (or absent);
// anything else is refused with "id": null in the reply.
TEST(Serve, AnIdIsANumberAShortStringOrNull) {
  Worker w;
  for (const std::string& bad_id :
       {std::string("[1]"), std::string(R"({"a":1})"), std::string("true"), "\"" + std::string(257, 'a') + "\""}) {
    const std::string line = "{\"id\":" + bad_id + ",\"op\":\"ping\"}";
    w.send(line);
    const json r = w.next();
    expect_error(r, json(), "\"id\" must be a number, a string of at most 256 bytes, or null", line);
    EXPECT_EQ(r["status"], "bad-request");
  }
  expect_pong(w, std::string(256, 'a'));
  expect_pong(w, 1.5);
  expect_pong(w, -3);
  expect_pong(w, json());
  w.send(R"({"op":"ping"})");
  EXPECT_TRUE(w.next()["id"].is_null());
  EXPECT_EQ(w.finish(), 0);
}

// Nesting is bounded while parsing (64 levels): 100 000 levels are refused
// early instead of overflowing the stack; 64 levels are still served.
TEST(Serve, DeepNestingIsRefusedBeforeItOverflowsTheStack) {
  Worker w;
  const std::string deep_id = "{\"id\":" + nested(100000) + ",\"op\":\"ping\"}";
  w.send(deep_id);
  expect_error(w.next(), json(), "nested deeper than 64 levels", deep_id);
  expect_pong(w, 1);
  // The request object is level 1: 63 arrays inside it reach level 64.
  w.send("{\"id\":2,\"op\":\"ping\",\"x\":" + nested(63) + "}");
  EXPECT_EQ(w.next()["result"]["pong"], true);
  const std::string too_deep = "{\"id\":3,\"op\":\"ping\",\"x\":" + nested(64) + "}";
  w.send(too_deep);
  expect_error(w.next(), json(), "nested deeper than 64 levels", too_deep);
  EXPECT_EQ(w.finish(), 0);
}

// A line over 16 MiB is read and thrown away in pieces, never held whole, and
// answered with an error naming the limit; a learner's 15 MiB kernel still fits.
TEST(Serve, AnOverlongLineIsDiscardedNotBuffered) {
  Worker w;
  const std::size_t huge = 64u << 20;
  std::string line = "{\"id\":1,\"op\":\"run\",\"source\":\"";
  line.append(huge, 'x');
  line += "\"}";
  w.send(line);
  expect_error(w.next(), json(), "longer than 16 MiB", "a 64 MiB line");
  expect_pong(w, 2);
  EXPECT_LT(peak_memory(w.pid()), 56u << 20) << "the worker held the overlong line in memory";
  line = "{\"id\":3,\"op\":\"run\",\"kernel\":\"transpose.nope\",\"source\":\"" + std::string(15u << 20, 'x') + "\"}";
  w.send(line);
  expect_error(w.next(), 3, "unknown kernel 'transpose.nope'", "a 15 MiB request");
  EXPECT_EQ(w.finish(), 0);
}

TEST(Serve, AnEmptyLineGetsOneErrorReply) {
  Worker w;
  w.send("");
  w.send_raw(" \t\r");
  w.send(R"({"id":3,"op":"ping"})");  // sent first: a missing reply shows as the pong too early
  expect_error(w.next(), json(), "empty line", "an empty line");
  expect_error(w.next(10), json(), "empty line", "a line of white space");
  json r = w.next(10);
  EXPECT_EQ(r["id"], 3) << r.dump();
  EXPECT_EQ(r["result"]["pong"], true) << r.dump();
  EXPECT_EQ(w.finish(), 0);
}

// A cancel for an id nothing uses finds nothing and leaves the id usable.
TEST(Serve, CancelOfAnUnusedIdDoesNotPoisonIt) {
  Worker w;
  w.send(R"({"id":"c1","op":"cancel","target":"later"})");
  json r = w.next();
  EXPECT_EQ(r["id"], "c1");
  EXPECT_EQ(r["result"]["cancelled"], "later");
  EXPECT_EQ(r["result"]["found"], false) << r.dump();
  expect_pong(w, "later");
  w.send(R"({"id":"c2","op":"cancel","target":"c2"})");  // itself: not queued before it
  EXPECT_EQ(w.next()["result"]["found"], false);
  expect_pong(w, "c2");
  EXPECT_EQ(w.finish(), 0);
}

// A cancel reaches a request queued behind a running sweep; once that
// request has ended, its id serves again.
TEST(Serve, CancelStopsAQueuedRequestAndItsMarkClears) {
  REQUIRE_OPENCL();
  Worker w;
  json widths = json::array();
  for (int width = 128; width < 128 + 200; ++width) widths.push_back(width);
  w.send(json{
      {"id", 1},
      {"op", "sweep"},
      {"kernel", "transpose.naive"},
      {"params", {{"height", 128}}},
      {"vary", {{"width", widths}}},
      {"reps",
       2}}.dump());
  ASSERT_EQ(w.next()["type"], "progress");
  w.send(R"({"id":"q","op":"ping"})");
  w.send(R"({"id":"c1","op":"cancel","target":"q"})");
  w.send(R"({"id":"c2","op":"cancel","target":1})");
  json r;
  for (r = w.next(); r["type"] == "progress"; r = w.next()) ASSERT_EQ(r["id"], 1);
  EXPECT_EQ(r["result"]["cancelled"], true) << r.dump();
  r = w.next();
  EXPECT_EQ(r["id"], "q");
  EXPECT_EQ(r["status"], "cancelled") << r.dump();
  r = w.next();
  EXPECT_EQ(r["id"], "c1");
  EXPECT_EQ(r["result"]["found"], true) << r.dump();
  r = w.next();
  EXPECT_EQ(r["id"], "c2");
  EXPECT_EQ(r["result"]["found"], true) << r.dump();
  expect_pong(w, "q");
  expect_pong(w, 1);
  EXPECT_EQ(w.finish(), 0);
}

// The lines of the issue, one after another: one final reply each, in order,
// then the pong.
std::vector<std::pair<std::string, json>> hostile_lines() {
  std::string big = "{\"id\":\"big\",\"op\":\"run\",\"source\":\"";
  big.append(20'000'000, 'x');
  big += "\"}";
  return {
      {R"({"id":1,"op":7})", 1},
      {R"({"id":2,"op":null})", 2},
      {"{\"id\":3,\"op\":\"\xff\"}", json()},
      {"\xc3\x28", json()},
      {"{\"id\":" + nested(100000) + ",\"op\":\"ping\"}", json()},
      {"", json()},
      {"   ", json()},
      {"[]", json()},
      {"\"x\"", json()},
      {"{}", json()},
      {"null", json()},
      {R"({"op":"run","params":[1]})", json()},
      {R"({"op":"sweep","vary":{"tile":[[1]]}})", json()},
      {R"({"id":4,"op":"sweep","kernel":"transpose.naive","vary":{"tile":[[1]]}})", 4},
      {R"({"op":"record","blocks":"x"})", json()},
      {R"({"id":5,"op":"record","kernel":"transpose.naive","blocks":"x"})", 5},
      {big, json()},
      {R"({"id":[1],"op":"ping"})", json()},
      {R"({"id":6,"op":"cancel","target":"never-used"})", 6},
      {R"({"id":"never-used","op":"run","kernel":"nope"})", "never-used"},
      {R"({"id":7,"op":"quit","x":)", json()},
      {"{\"id\":8,\"op\":\"ping\"}{\"id\":9}", json()},
  };
}

TEST(Serve, EveryHostileLineGetsExactlyOneReplyInOrder) {
  const auto lines = hostile_lines();
  Worker w;
  for (const auto& [line, id] : lines) w.send_raw(line);
  w.send(R"({"id":"last","op":"ping"})");
  for (const auto& [line, id] : lines) {
    const json r = w.next();
    ASSERT_FALSE(r.is_null()) << "no reply to " << line.substr(0, 80) << ": the worker died";
    EXPECT_TRUE(r["type"] == "error" || r["type"] == "result") << r.dump();
    EXPECT_EQ(r["id"], id) << "replies out of order at " << line.substr(0, 80) << "\nreply " << r.dump();
  }
  const json last = w.next();
  EXPECT_EQ(last["id"], "last") << last.dump();
  EXPECT_EQ(last["result"]["pong"], true) << last.dump();
  EXPECT_EQ(w.finish(), 0);
}

// What a libFuzzer target does: serve_command() in this process, again and
// again, on bytes in memory, with no OpenCL device (an empty vendors folder).
// Run in a fresh child process (a death test) so that no earlier test has
// opened OpenCL before the empty vendors folder is set.
int serve_in_process_without_devices() {
  const std::filesystem::path empty =
      std::filesystem::temp_directory_path() / ("serve_no_vendors_" + std::to_string(::getpid()));
  std::filesystem::create_directories(empty);
  ::setenv("OCL_ICD_VENDORS", empty.c_str(), 1);
  const auto threads = [] {
    return std::distance(std::filesystem::directory_iterator("/proc/self/task"), std::filesystem::directory_iterator());
  };
  const auto threads_before = threads();
  std::string input;
  std::size_t requests = 0;
  for (const auto& [line, id] : hostile_lines()) {
    input += line + "\n";
    ++requests;
  }
  input += R"({"id":"run","op":"run","kernel":"transpose.naive"})"
           "\n"
           R"({"id":"devices","op":"devices"})"
           "\n"
           R"({"id":"last","op":"ping"})"
           "\n";
  requests += 3;
  for (int round = 0; round < 3; ++round) {
    std::istringstream in(round == 2 ? input + "{\"op\":\"quit\"}\nnot read\n" : input);
    std::ostringstream out;
    if (threadmap::cli::serve_command(in, out) != 0) return 1;
    std::istringstream replies(out.str());
    std::size_t count = 0;
    json reply;
    for (std::string line; std::getline(replies, line); ++count) {
      reply = json::parse(line, nullptr, false);
      if (reply.is_discarded()) return 2;
    }
    if (count != requests + (round == 2 ? 1 : 0)) return 3;
    if (round < 2 && reply["id"] != "last") return 4;
  }
  std::filesystem::remove_all(empty);
  return threads() == threads_before ? 0 : 5;
}

TEST(ServeInProcess, RunsRepeatedlyOnMemoryWithNoDeviceAndLeavesNoThreads) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(serve_in_process_without_devices()), ::testing::ExitedWithCode(0), "")
      << "1: serve_command failed, 2: a reply was not JSON, 3: not one reply per line, "
         "4: the last reply was not the pong, 5: threads were left running";
}

}  // namespace

namespace {

// check grades in forked processes: a worker whose reader thread waits on
// stdin grades (the fork takes no lock that thread holds), and one that has
// opened a device refuses, saying why, and goes on.
TEST(Serve, CheckGradesInAFreshWorkerAndIsRefusedAfterADevice) {
  REQUIRE_OPENCL();
  std::ifstream in(std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/smem-conflict-free.solution.cl");
  std::stringstream text;
  text << in.rdbuf();
  const json check = {{"id", 1},
                      {"op", "check"},
                      {"exercise", "smem-conflict-free"},
                      {"device", "opencl:0:0"},
                      {"seed", 9},
                      {"reps", 2},
                      {"submissions", {{{"file", "mine/solution.cl"}, {"text", text.str()}}}}};
  Worker fresh;
  fresh.send(check.dump());
  json reply = fresh.next(120);
  while (reply.value("type", "") == "progress") reply = fresh.next(120);
  ASSERT_EQ(reply.value("type", ""), "result") << reply.dump();
  EXPECT_EQ(reply["result"]["seed"], 9);
  ASSERT_EQ(reply["result"]["submissions"].size(), 1u);
  EXPECT_EQ(reply["result"]["submissions"][0]["file"], "mine/solution.cl");
  EXPECT_EQ(reply["result"]["submissions"][0]["status"], "goal met") << reply.dump();

  Worker used;
  used.send(R"({"id": 1, "op": "devices"})");
  EXPECT_EQ(used.next().value("type", ""), "result");
  used.send(check.dump());
  const json refused = used.next();
  EXPECT_EQ(refused.value("status", ""), "invalid") << refused.dump();
  EXPECT_NE(refused.value("error", "").find("send it to a fresh worker"), std::string::npos) << refused.dump();
  used.send(R"({"id": 2, "op": "ping"})");
  EXPECT_EQ(used.next().value("type", ""), "result");
}

}  // namespace
