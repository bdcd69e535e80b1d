// `threadmap-cli --remote` through a real OpenSSH server on 127.0.0.1 (a
// throwaway host key and client key, tests/remote/start_sshd.sh): the
// recording is written on this side, and a missing worker, a refused key, a
// connection lost mid-request and a worker of another protocol each end in
// one clear line. Skipped, saying why, where there is no sshd.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

struct Ran {
  int code = -1;
  std::string out, err;
};

Ran shell(const std::string& command) {
  const std::string err_file = ::testing::TempDir() + "remote_stderr_" + std::to_string(getpid());
  Ran r;
  FILE* pipe = popen((command + " 2>" + err_file).c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  std::stringstream ss;
  ss << err.rdbuf();
  r.err = ss.str();
  return r;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// One sshd for the whole suite.
class RemoteCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = ::testing::TempDir() + "threadmap_sshd_" + std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    const Ran started = shell("bash " + std::string(THREADMAP_SOURCE_DIR) + "/tests/remote/start_sshd.sh " + dir_);
    if (started.code != 0) {
      skip_ = "no OpenSSH server to test against (Debian: openssh-server): " + started.err;
      return;
    }
    port_ = read_all(dir_ + "/port");
    ssh_ = read_all(dir_ + "/ssh_command");
  }
  static void TearDownTestSuite() {
    const std::string pid = read_all(dir_ + "/sshd.pid");
    if (!pid.empty()) {
      // sshd deletes its pid file as it ends: wait for it to be gone before
      // the folder is removed, or the two race over the same file.
      const pid_t sshd = std::stoi(pid);
      kill(sshd, SIGTERM);
      for (int i = 0; i < 200 && kill(sshd, 0) == 0; ++i) usleep(10000);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
  }

  // threadmap-cli --remote 127.0.0.1:PORT ARGS, the server running `remote`.
  static Ran remote_cli(const std::string& args, const std::string& remote = std::string(THREADMAP_CLI) + " serve",
                        const std::string& ssh = ssh_) {
    return shell("THREADMAP_SSH='" + ssh + "' THREADMAP_REMOTE_COMMAND='" + remote + "' " + THREADMAP_CLI +
                 " --remote 127.0.0.1:" + port_ + " " + args);
  }

  static Ran local_cli(const std::string& args) { return shell(std::string(THREADMAP_CLI) + " " + args); }

  static inline std::string dir_, port_, ssh_, skip_;
};

TEST_F(RemoteCli, RecordWritesTheSessionOnThisSide) {
  const std::string out = dir_ + "/local.threadmap";
  const Ran r = remote_cli("record transpose.shared --device opencl:0:0 -o " + out);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("recorded transpose.shared on 127.0.0.1 into " + out), std::string::npos) << r.out;
  const Ran shown = shell(std::string(THREADMAP_CLI) + " show " + out);
  EXPECT_EQ(shown.code, 0) << shown.err;
  EXPECT_NE(shown.out.find("transpose.shared recorded"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("Traced"), std::string::npos) << shown.out;
  // The worker's copy was only a means of sending it: none is left in its temp folder.
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
    EXPECT_EQ(entry.path().filename().string().find(".threadmap-tmp"), std::string::npos) << entry.path();
}

TEST_F(RemoteCli, RunAndDevicesAnswerFromTheServer) {
  const Ran devices = remote_cli("devices --format json");
  ASSERT_EQ(devices.code, 0) << devices.err;
  EXPECT_NE(devices.out.find("\"opencl:0:0\""), std::string::npos) << devices.out;
  const Ran run = remote_cli("run smem.setRowReadColPad --device opencl:0:0 --reps 3 --format json");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("\"verified\": true"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"device_lock\""), std::string::npos) << run.out;
}

TEST_F(RemoteCli, AServerWithoutThreadmapIsOneClearLine) {
  const Ran r = remote_cli("devices", "no-such-threadmap-cli serve");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("install ThreadMap on 127.0.0.1"), std::string::npos) << r.err;
}

TEST_F(RemoteCli, ARefusedKeyIsOneClearLine) {
  const std::string stranger = dir_ + "/stranger_key";
  ASSERT_EQ(shell("ssh-keygen -q -t ed25519 -N '' -f " + stranger).code, 0);
  std::string ssh = ssh_;
  ssh.replace(ssh.find(dir_ + "/client_key"), (dir_ + "/client_key").size(), stranger);
  const Ran r = remote_cli("devices", std::string(THREADMAP_CLI) + " serve", ssh);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("refused the key"), std::string::npos) << r.err;
}

// A learner's endless loop on the server: the worker stops it past
// --timeout (compiling not counted), says so and ends itself, as a local run
// is stopped (exit 5); the device's lock goes with it, so the next run
// starts at once. Before, the client never returned and the orphaned worker
// spun on, holding the lock.
TEST_F(RemoteCli, ALoopingKernelIsStoppedOnTheServerAndTheNextRunStartsAtOnce) {
  const std::string loop = dir_ + "/loop.cl";
  std::ofstream(loop) << "__kernel void setRowReadCol(__global ELEM* out_all) {\n"
                         "  unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
                         "  while (idx < 100000u) { out_all[0] = 1; }\n"
                         "}\n";
  const auto started = std::chrono::steady_clock::now();
  const Ran r = remote_cli("run smem.setRowReadCol --device opencl:0:0 --source " + loop + " --timeout 3");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.code, 5) << r.out << r.err;
  EXPECT_NE(r.err.find("ran past its 3 s (--timeout) and was stopped"), std::string::npos) << r.err;
  EXPECT_LT(took, 3 + 20) << "the timeout, the compile and the connection";
  const Ran next = remote_cli("run smem.setRowReadCol --device opencl:0:0 --reps 2");
  EXPECT_EQ(next.code, 0) << next.out << next.err;
  EXPECT_EQ(next.err.find("waiting for the GPU"), std::string::npos) << next.err;
}

// The server's processes, by the path of the copy of threadmap-cli they run.
int processes_running(const std::string& path) {
  const Ran ps = shell("pgrep -f -c '^" + path + " serve'");
  return ps.out.empty() ? 0 : std::stoi(ps.out);
}

// threadmap-cli --remote ARGS... started in a process of its own, the
// server running `copy` (a copy of threadmap-cli whose path names its
// processes); its pid.
pid_t start_client(const std::string& ssh, const std::string& port, const std::string& copy,
                   std::vector<std::string> args) {
  const pid_t client = fork();
  if (client != 0) return client;
  setenv("THREADMAP_SSH", ssh.c_str(), 1);
  setenv("THREADMAP_REMOTE_COMMAND", (copy + " serve").c_str(), 1);
  args.insert(args.begin(), {THREADMAP_CLI, "--remote", "127.0.0.1:" + port});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(THREADMAP_CLI, argv.data());
  _exit(127);
}

// The pid of the server's worker running `copy`, once it runs; empty after `tries`.
std::string worker_of(const std::string& copy, int tries, useconds_t pause) {
  std::string worker;
  for (int i = 0; i < tries && worker.empty(); ++i) {
    worker = shell("pgrep -f '^" + copy + " serve'").out;
    if (worker.empty()) usleep(pause);
  }
  return worker.substr(0, worker.find('\n'));
}

// Whether every worker running `copy` ended within 10 s.
bool workers_end(const std::string& copy) {
  for (int i = 0; i < 100; ++i) {
    if (processes_running(copy) == 0) return true;
    usleep(100000);
  }
  return false;
}

// A client recording transpose.shared at 1024 x 1024 with every block traced
// (a 90 MB session) through a copy of threadmap-cli of its own (named by
// `tag`, so its worker is told apart), and that worker's pid.
struct LargeRecord {
  std::string copy;
  pid_t client = -1;
  std::string worker;
};
LargeRecord start_large_record(const std::string& dir, const std::string& ssh, const std::string& port,
                               const std::string& tag) {
  LargeRecord r;
  r.copy = dir + "/threadmap-cli-" + tag + "-" + std::to_string(getpid());
  std::filesystem::copy_file(THREADMAP_CLI, r.copy, std::filesystem::copy_options::overwrite_existing);
  r.client = start_client(ssh, port, r.copy,
                          {"record", "transpose.shared", "--device", "opencl:0:0", "--set", "width=1024", "--set",
                           "height=1024", "--blocks", "all", "-o", dir + "/" + tag + ".threadmap"});
  if (r.client >= 0) r.worker = worker_of(r.copy, 400, 50000);
  return r;
}

// A client killed mid-request (a window closed, a terminal shut): the
// worker sees its replies' reader gone and ends within a moment, stopping
// the looping kernel and leaving no process and no file on the server.
TEST_F(RemoteCli, AKilledClientLeavesNoWorkerBehind) {
  const std::string copy = dir_ + "/threadmap-cli-" + std::to_string(getpid());
  std::filesystem::copy_file(THREADMAP_CLI, copy, std::filesystem::copy_options::overwrite_existing);
  const std::string loop = dir_ + "/loop_forever.cl";
  std::ofstream(loop) << "__kernel void setRowReadCol(__global ELEM* out_all) {\n"
                         "  unsigned int idx = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
                         "  while (idx < 100000u) { out_all[0] = 1; }\n"
                         "}\n";
  const pid_t client = start_client(ssh_, port_, copy,
                                    {"record", "smem.setRowReadCol", "--device", "opencl:0:0", "--source", loop,
                                     "--timeout", "600", "-o", dir_ + "/never.threadmap"});
  ASSERT_GE(client, 0);
  const std::string worker = worker_of(copy, 200, 100000);  // the server's pid, which names its files
  ASSERT_FALSE(worker.empty()) << "the worker never started on the server";
  sleep(2);  // compiling, then looping
  kill(client, SIGKILL);
  waitpid(client, nullptr, 0);
  EXPECT_TRUE(workers_end(copy)) << "the worker outlived its client by 10 s";
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
    EXPECT_EQ(entry.path().filename().string().find("-" + worker + "-"), std::string::npos) << entry.path();
  std::filesystem::remove(copy);
}

// A record interrupted while its 90 MB session streams back (SIGTERM, as a
// closed terminal sends): the worker ends and removes the session it wrote
// in its temp folder; before, the whole file was left there.
TEST_F(RemoteCli, AnInterruptedRecordLeavesNoSessionOnTheServer) {
  const auto [copy, client, worker] = start_large_record(dir_, ssh_, port_, "rec");
  ASSERT_GE(client, 0);
  ASSERT_FALSE(worker.empty()) << "the worker never started on the server";
  const auto written = [&] {  // the worker's session file, once it is in its temp folder
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
      if (entry.path().filename().string().find("transpose.shared-") == 0 &&
          entry.path().filename().string().find("-" + worker + "-") != std::string::npos)
        return true;
    return false;
  };
  bool seen = false;
  for (int i = 0; i < 1000 && !seen; ++i) {
    seen = written();
    if (!seen) usleep(20000);
  }
  ASSERT_TRUE(seen) << "the worker wrote no session";
  kill(client, SIGTERM);
  waitpid(client, nullptr, 0);
  EXPECT_TRUE(workers_end(copy)) << "the worker outlived its client by 10 s";
  EXPECT_FALSE(written()) << "the session was left in the server's temp folder";
  std::filesystem::remove(copy);
}

// The same, the client killed while the worker still writes the session
// (its temporary file, ".transpose.shared-....PID.RANDOM.threadmap-tmp"):
// the worker removes the half-written file as it ends. Where the write is too
// quick to be caught, the test is skipped, saying so.
TEST_F(RemoteCli, AClientKilledWhileTheSessionIsWrittenLeavesNoTemporaryFile) {
  const auto [copy, client, worker] = start_large_record(dir_, ssh_, port_, "tmp");
  ASSERT_GE(client, 0);
  ASSERT_FALSE(worker.empty()) << "the worker never started on the server";
  const auto left = [&] {  // the worker's files in its temp folder, written or being written
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::temp_directory_path())) {
      const std::string name = entry.path().filename().string();
      if (name.find("transpose.shared-") <= 1 && name.find("-" + worker + "-") != std::string::npos)
        names.push_back(name);
    }
    return names;
  };
  std::vector<std::string> seen;
  for (int i = 0; i < 6000 && seen.empty(); ++i) {
    seen = left();
    if (seen.empty()) usleep(5000);
  }
  ASSERT_FALSE(seen.empty()) << "the worker wrote no session";
  kill(client, SIGTERM);
  waitpid(client, nullptr, 0);
  EXPECT_TRUE(workers_end(copy)) << "the worker outlived its client by 10 s";
  if (seen.front().front() != '.') {
    std::filesystem::remove(copy);
    GTEST_SKIP() << "the session was written before its temporary file was seen: " << seen.front();
  }
  const std::vector<std::string> after = left();
  EXPECT_TRUE(after.empty()) << "left in the server's temp folder: " << after.front() << " (seen: " << seen.front()
                             << ")";
  std::filesystem::remove(copy);
}

// Twenty learners at once through one OpenSSH server with its default
// MaxStartups (10:30:100): sshd drops some of the connections before the key
// exchange ("kex_exchange_identification: Connection closed"); the client
// tries those again after a pause, so all twenty complete, each verified,
// and their timed sections on the one device never overlap.
TEST_F(RemoteCli, TwentyLearnersAtOnceAllComplete) {
  constexpr int kLearners = 20;
  std::vector<FILE*> pipes;
  for (int i = 0; i < kLearners; ++i) {
    // Twenty workers compiling at once on a CI machine's two cores can keep
    // the last connections' key exchange waiting well past the default 30 s.
    const std::string command = "THREADMAP_HANDSHAKE_TIMEOUT=180 THREADMAP_SSH='" + ssh_ +
                                "' THREADMAP_REMOTE_COMMAND='" + THREADMAP_CLI + " serve' " + THREADMAP_CLI +
                                " --remote 127.0.0.1:" + port_ +
                                " run smem.setRowReadCol --device opencl:0:0 --reps 2 --format json 2>" + dir_ +
                                "/learner_" + std::to_string(i);
    pipes.push_back(popen(command.c_str(), "r"));
    ASSERT_NE(pipes.back(), nullptr);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> sections;
  int busy = 0;
  for (int i = 0; i < kLearners; ++i) {
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipes[i])) > 0;) out.append(buffer, n);
    const int status = pclose(pipes[i]);
    const std::string err = read_all(dir_ + "/learner_" + std::to_string(i));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "learner " << i << ": " << err;
    const json j = json::parse(out, nullptr, false);
    if (j.is_discarded()) {
      ADD_FAILURE() << "learner " << i << ": " << out << err;
      continue;
    }
    EXPECT_TRUE(j["verification"]["verified"].get<bool>()) << j.dump();
    const json& lock = j["timing"]["device_lock"];
    sections.emplace_back(lock["start_ns"].get<std::int64_t>(), lock["end_ns"].get<std::int64_t>());
    if (lock["busy"].get<bool>()) {
      ++busy;
      EXPECT_NE(lock["note"].get<std::string>().find("timed while other processes kept"), std::string::npos)
          << lock.dump();
    }
  }
  // While one learner times, the others compile and verify on the same cores:
  // how many runs say so depends on the machine (SharedDevice.ARunOnABusy-
  // MachineIsFlagged holds the flag to a measured load).
  std::printf("%d of %d learners' timed runs flagged their busy machine\n", busy, kLearners);
  std::sort(sections.begin(), sections.end());
  for (std::size_t k = 1; k < sections.size(); ++k)
    EXPECT_GE(sections[k].first, sections[k - 1].second) << "two timed sections overlap";
}

// A server that never answers (sleep) and one that prints what is no reply
// (yes): the client gives up after a bounded wait, saying which.
TEST_F(RemoteCli, ASilentOrGarbledServerEndsTheClientSayingWhich) {
  const auto started = std::chrono::steady_clock::now();
  const Ran silent = shell("THREADMAP_HANDSHAKE_TIMEOUT=2 THREADMAP_SSH='" + ssh_ +
                           "' THREADMAP_REMOTE_COMMAND='sleep 60' " + THREADMAP_CLI + " --remote 127.0.0.1:" + port_ +
                           " devices");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(silent.code, 3) << silent.out << silent.err;
  EXPECT_NE(silent.err.find("did not answer the handshake within 2 s"), std::string::npos) << silent.err;
  EXPECT_LT(took, 15);
  const Ran garbled = remote_cli("devices", "yes");
  EXPECT_EQ(garbled.code, 3) << garbled.out << garbled.err;
  EXPECT_NE(garbled.err.find("sent 100 lines in a row that are not ThreadMap replies, the first: 'y'"),
            std::string::npos)
      << garbled.err;
}

// The worker answers the handshake, then its connection is gone.
TEST_F(RemoteCli, AConnectionLostMidRequestIsOneClearLine) {
  const Ran r =
      remote_cli("run smem.setRowReadCol --device opencl:0:0", "head -n 1 | " + std::string(THREADMAP_CLI) + " serve");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("the GPU server 127.0.0.1 did not answer"), std::string::npos) << r.err;
}

// A connection dropped in the middle of a sweep: the server's ssh session
// is killed a second after the second of six points left the worker. The two finished rows are
// printed, and the line says the connection was lost, not that ssh could not
// connect (a refused connection still says that: ARefusedKeyIsOneClearLine).
TEST_F(RemoteCli, ASweepWhoseConnectionDropsKeepsItsFinishedPoints) {
  const std::string dropper = dir_ + "/drop_after_two_points.sh";
  std::ofstream(dropper)
      << "#!/bin/sh\n"
         "# the ssh session process: the nearest ancestor called sshd\n"
         "session=$PPID\n"
         "while [ \"$session\" -gt 1 ]; do\n"
         "  case $(cat /proc/$session/comm) in sshd*) break;; esac\n"
         "  session=$(cut -d' ' -f4 /proc/$session/stat)\n"
         "done\n"
      << THREADMAP_CLI
      << " serve | while IFS= read -r line; do\n"
         "  printf '%s\\n' \"$line\"\n"
         "  case $line in *'\"done\":2,'*) sleep 1; [ \"$session\" -gt 1 ] && kill -9 $session;; esac\n"
         "done\n";
  std::filesystem::permissions(dropper, std::filesystem::perms::owner_all);
  const std::string args =
      "sweep transpose.naive --vary width=64,128,192,256,320,384 --set height=64 --reps 2 --device opencl:0:0";
  const Ran r = remote_cli(args + " --format csv", "sh " + dropper);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("the connection was lost in the middle of a request"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("it had connected, so nothing needs setting up"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("could not connect"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the 2 of 6 points that finished before are printed: sweep again for the rest"),
            std::string::npos)
      << r.err;
  std::istringstream rows(r.out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(rows, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << r.out;  // the header and the two finished points
  EXPECT_EQ(lines[1].rfind("64,verified,", 0), 0u) << r.out;
  EXPECT_EQ(lines[2].rfind("128,verified,", 0), 0u) << r.out;
}

TEST_F(RemoteCli, AWorkerOfAnotherProtocolIsRefusedSayingWhatToUpgrade) {
  const std::string old_worker = dir_ + "/old_worker_reply";
  std::ofstream(old_worker) << R"({"id":1,"type":"result","result":{"pong":true,"version":"0.0.9"}})" << '\n';
  const Ran r = remote_cli("devices", "read line; cat " + old_worker);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("speaks no protocol version"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("threadmap-cli 0.0.9"), std::string::npos) << r.err;
}

// Each newly remote command against the same command run here: the same
// output, but for what names the server, and the same exit code.

TEST_F(RemoteCli, SweepRowsAreTheLocalSweepsRows) {
  const std::string args =
      "sweep transpose.naive --vary tile=8,16 --set width=64 --set height=64 --reps 2 "
      "--device opencl:0:0";
  const Ran remote = remote_cli(args + " --format json");
  const Ran here = local_cli(args + " --format json");
  ASSERT_EQ(remote.code, 0) << remote.err;
  ASSERT_EQ(here.code, 0) << here.err;
  const json r = json::parse(remote.out), l = json::parse(here.out);
  EXPECT_EQ(r["kernel"], l["kernel"]);
  EXPECT_EQ(r["device"]["spec"], "opencl:0:0");
  ASSERT_EQ(r["results"].size(), 2u) << remote.out;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r["results"][i]["parameters"], l["results"][i]["parameters"]);
    EXPECT_EQ(r["results"][i]["status"], "ok");
    EXPECT_EQ(r["results"][i]["verification"], l["results"][i]["verification"]);
  }
  const Ran text = remote_cli(args);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("(opencl:0:0, 127.0.0.1)\ntile    result"), std::string::npos) << text.out;
}

// The run's text with its measured numbers (times, GB/s, timed samples) put as "#".
// Also without what says the machine was busy while one of the two timed
// (the `timing:` line, a row's "busy machine" note): the other run may not be.
std::string without_timings(const std::string& text) {
  std::string out = std::regex_replace(text, std::regex("  timing: timed while other processes kept [^\\n]*\\n"), "");
  out = std::regex_replace(out, std::regex("(; )?busy machine \\(others [0-9.]+ of [0-9]+ cores\\)"), "");
  return std::regex_replace(std::regex_replace(out, std::regex("[0-9]+\\.[0-9]+"), "#"), std::regex("[0-9]+ runs\\)"),
                            "# runs)");
}

TEST_F(RemoteCli, RunPrintsWhatTheLocalRunPrints) {
  const std::string args =
      "run transpose.shared --set width=64 --set height=64 --reps 2 --problems on "
      "--device opencl:0:0";
  const Ran remote = remote_cli(args);
  const Ran here = local_cli(args);
  ASSERT_EQ(remote.code, 0) << remote.err;
  ASSERT_EQ(here.code, 0) << here.err;
  // The same lines, but for the server named in the heading and the timings.
  std::string expected = here.out;
  expected.replace(expected.find("(opencl:0:0)"), 12, "(opencl:0:0, 127.0.0.1)");
  EXPECT_EQ(without_timings(remote.out), without_timings(expected));
  EXPECT_NE(remote.out.find("  verified: 4096 values"), std::string::npos) << remote.out;
  EXPECT_NE(remote.out.find("  kernel      median "), std::string::npos) << remote.out;
  EXPECT_NE(remote.out.find("  Problems found in the trace: none in the "), std::string::npos) << remote.out;

  const Ran remote_json = remote_cli(args + " --format json");
  const Ran here_json = local_cli(args + " --format json");
  ASSERT_EQ(remote_json.code, 0) << remote_json.err;
  const json r = json::parse(remote_json.out), l = json::parse(here_json.out);
  for (const char* key : {"kernel", "status", "device", "parameters", "verification", "ideal_bytes", "problems"})
    EXPECT_EQ(r.value(key, json()), l.value(key, json())) << key;
  ASSERT_TRUE(r.contains("problems")) << remote_json.out;

  const Ran remote_csv = remote_cli(args + " --format csv");
  const Ran here_csv = local_cli(args + " --format csv");
  EXPECT_EQ(without_timings(remote_csv.out), without_timings(here_csv.out));
  EXPECT_EQ(remote_csv.out.rfind("kernel,device,width,height,tile,pad,type,result", 0), 0u) << remote_csv.out;
}

// A learner's kernel without its barrier: the same races as a run here shows.
TEST_F(RemoteCli, RunShowsTheProblemsOfALearnersKernel) {
  const std::string args = "run smem.setRowReadCol --source " + std::string(THREADMAP_SOURCE_DIR) +
                           "/tests/data/problems/smem.setRowReadCol.no-barrier.cl --set blocks=2 --reps 2 "
                           "--device opencl:0:0";
  const Ran remote = remote_cli(args);
  const Ran here = local_cli(args);
  // Which values the race spoils differs run to run; the problems do not.
  auto problem_lines = [](const std::string& out) { return out.substr(out.find("  Problems found in the trace")); };
  ASSERT_NE(remote.out.find("  Problems found in the trace (3):"), std::string::npos) << remote.out << remote.err;
  EXPECT_EQ(problem_lines(remote.out), problem_lines(here.out)) << remote.err << here.err;
  EXPECT_NE(remote.out.find("    data race (read-after-write) on shared offset 4"), std::string::npos) << remote.out;
  EXPECT_NE(remote.out.find("at line 7, thread 32 (0,1) reads it at line 8"), std::string::npos) << remote.out;
  EXPECT_EQ(remote.code, here.code) << "remote:\n" << remote.out << remote.err << "here:\n" << here.out << here.err;

  const Ran remote_json = remote_cli(args + " --format json");
  const Ran here_json = local_cli(args + " --format json");
  const json r = json::parse(remote_json.out), l = json::parse(here_json.out);
  // Where in the trace the racing accesses stand ("records") follows the
  // order PoCL ran the work-items in, which may differ between two runs
  // (3, 97 against 3, 98 was seen); what the problems say may not.
  const auto without_positions = [](json problems) {
    for (json& p : problems["list"]) p.erase("records");
    return problems;
  };
  EXPECT_EQ(without_positions(r["problems"]), without_positions(l["problems"])) << remote_json.out << here_json.out;
  ASSERT_EQ(r["problems"]["list"].size(), 3u) << remote_json.out;
  EXPECT_EQ(r["problems"]["list"][0]["lines"], json::array({7, 8}));
  // --problems off: no traced run, no problems, as here.
  const Ran off = remote_cli(args + " --problems off --format json");
  EXPECT_FALSE(json::parse(off.out).contains("problems")) << off.out;
}

// bench against bench here: the same rows in the same order, each with its
// parameters and result, the same heading but for the server named.
TEST_F(RemoteCli, BenchIsTheLocalBench) {
  const std::string args = "bench --size 64 --reps 1 --warmup 0 --device opencl:0:0";
  const Ran remote = remote_cli(args + " --format json");
  const Ran here = local_cli(args + " --format json");
  ASSERT_EQ(remote.code, here.code) << remote.err << here.err;
  const json r = json::parse(remote.out), l = json::parse(here.out);
  EXPECT_EQ(r["device"], l["device"]);
  EXPECT_EQ(r["device_copy"]["bytes"], l["device_copy"]["bytes"]);
  EXPECT_EQ(r["peers"], l["peers"]);
  ASSERT_EQ(r["results"].size(), l["results"].size());
  ASSERT_GT(r["results"].size(), 10u) << remote.out;
  for (std::size_t i = 0; i < r["results"].size(); ++i) {
    for (const char* key : {"kernel", "status", "parameters", "ideal_bytes", "error"})
      EXPECT_EQ(r["results"][i].value(key, json()), l["results"][i].value(key, json())) << i << " " << key;
    EXPECT_EQ(r["results"][i].contains("percent_of_device_copy"), l["results"][i].contains("percent_of_device_copy"))
        << i;
  }

  const Ran text = remote_cli(args);
  const Ran text_here = local_cli(args);
  ASSERT_EQ(text.code, text_here.code) << text.err;
  EXPECT_NE(text.out.find(", 127.0.0.1)\nmedian of 1 timed runs after 0 warm-up runs"), std::string::npos) << text.out;
  // Line by line the same, but for the server named, the numbers (each run's
  // own) and the columns' widths, which follow the numbers.
  // Column widths follow the widest measured figure: spaces and the rule's
  // dashes are compared as runs.
  auto shape = [](const std::string& out) {
    return std::regex_replace(std::regex_replace(without_timings(out), std::regex(" +"), " "), std::regex("-+"), "-");
  };
  std::string expected = text_here.out;
  const std::size_t heading_end = expected.find(")\nmedian of");
  ASSERT_NE(heading_end, std::string::npos) << expected;
  expected.insert(heading_end, ", 127.0.0.1");
  EXPECT_EQ(shape(text.out), shape(expected));
  EXPECT_NE(text.out.find("transpose.copy "), std::string::npos) << text.out;
}

TEST_F(RemoteCli, CountersAreTheLocalCounters) {
  const std::string args = "counters transpose.naive --set width=64 --set height=64 --device opencl:0:0";
  for (const std::string format : {"text", "json"}) {
    const Ran remote = remote_cli(args + " --format " + format);
    const Ran here = local_cli(args + " --format " + format);
    ASSERT_EQ(remote.code, 0) << remote.err;
    if (format == "text") {
      EXPECT_EQ(remote.out, here.out);
      continue;
    }
    // Everything but how long the batches took, which no two runs share.
    json there = json::parse(remote.out), local = json::parse(here.out);
    for (json* j : {&there, &local}) {
      ASSERT_TRUE(j->contains("batches")) << remote.out;
      (*j)["batches"].erase("record_ms");
      (*j)["batches"].erase("phases_ms");
    }
    EXPECT_EQ(there, local);
  }
  // A kernel the catalog lacks is said as the local command says it.
  const Ran unknown = remote_cli("counters transpose.nope --device opencl:0:0");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.err, local_cli("counters transpose.nope --device opencl:0:0").err);
}

// The submission is read on this side; the server never sees its path.
TEST_F(RemoteCli, CheckGradesASubmissionAsTheLocalCheckDoes) {
  const std::string exercises = std::string(THREADMAP_SOURCE_DIR) + "/resources/exercises/";
  const std::string mine = dir_ + "/mine.cl";
  std::filesystem::copy_file(exercises + "smem-conflict-free.start.cl", mine,
                             std::filesystem::copy_options::overwrite_existing);
  const std::string solution = exercises + "smem-conflict-free.solution.cl";
  const std::string args = "check smem-conflict-free " + solution + " " + mine + " " + dir_ +
                           "/missing.cl --device opencl:0:0 --seed 9 --reps 2 --format json";
  const Ran remote = remote_cli(args);
  const Ran here = local_cli(args);
  EXPECT_EQ(remote.code, 1) << remote.err;
  EXPECT_EQ(here.code, 1) << here.err;
  const json r = json::parse(remote.out), l = json::parse(here.out);
  EXPECT_EQ(r["seed"], 9);
  ASSERT_EQ(r["submissions"].size(), 3u) << remote.out;
  for (std::size_t i = 0; i < 3; ++i)
    for (const char* key : {"file", "status", "compiled", "verified", "goal_met", "counters"})
      EXPECT_EQ(r["submissions"][i].value(key, json()), l["submissions"][i].value(key, json())) << i << " " << key;
  EXPECT_EQ(r["submissions"][0]["status"], "goal met");
  EXPECT_EQ(r["submissions"][1]["status"], "goal not met");
  EXPECT_EQ(r["submissions"][2]["status"], "unreadable");
  // A device the server lacks: one error, as here.
  const Ran bad = remote_cli("check smem-conflict-free " + solution + " --device gpu0");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, local_cli("check smem-conflict-free " + solution + " --device gpu0").err);
}

TEST_F(RemoteCli, DoctorDiagnosesTheServer) {
  const Ran json_report = remote_cli("doctor --format json");
  ASSERT_EQ(json_report.code, 0) << json_report.err;
  const json report = json::parse(json_report.out);
  EXPECT_TRUE(report["ok"].get<bool>());
  ASSERT_FALSE(report["targets"].empty());
  const Ran text = remote_cli("doctor");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("On 127.0.0.1:\nBackends and devices\n", 0), 0u) << text.out;
  // The same lines as here, but for the heading and the time taken.
  const Ran here = local_cli("doctor");
  auto body = [](const std::string& out) {
    return out.substr(out.find("Backends"), out.rfind(" (") - out.find("Backends"));
  };
  EXPECT_EQ(body(text.out), body(here.out));
}

// A worker from before an op answers "unknown op": one line, upgrade the server.
// A reply the client cannot read (a field of the wrong type) is one line
// naming the server and the field, exit 3, not an abort.
TEST_F(RemoteCli, AMalformedReplyIsOneLineNotACrash) {
  const std::string bad_worker = dir_ + "/bad_worker.sh";
  std::ofstream(bad_worker)
      << "read line; echo '{\"id\":1,\"type\":\"result\",\"result\":{\"pong\":true,\"version\":\"0.1.0\",\"protocol\":1}}'\n"
      << "read line; echo '{\"id\":2,\"type\":\"result\",\"result\":{\"ok\":true,\"targets\":[{\"kernels\":[{\"compiled\":\"yes\"}]}]}}'\n"
      << "read line\n";
  const Ran r = remote_cli("doctor", "sh " + bad_worker);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("the worker on 127.0.0.1 sent a reply this threadmap-cli cannot read: a doctor target's kernel: "
                       "\"compiled\" must be true or false"),
            std::string::npos)
      << r.err;
}

TEST_F(RemoteCli, AnOlderWorkerWithoutTheOpSaysToUpgradeTheServer) {
  const std::string old_worker = dir_ + "/old_worker.sh";
  std::ofstream(old_worker)
      << "read line; echo '{\"id\":1,\"type\":\"result\",\"result\":{\"pong\":true,\"version\":\"0.9.0\",\"protocol\":1}}'\n"
      << "read line; echo '{\"id\":2,\"type\":\"error\",\"status\":\"bad-request\",\"error\":\"unknown op '\\''doctor'\\''; ops: ping\"}'\n"
      << "read line\n";
  const Ran r = remote_cli("doctor", "sh " + old_worker);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(
      r.err.find(
          "the worker on 127.0.0.1 (threadmap-cli 0.9.0) has no \"doctor\" request: upgrade threadmap-cli on 127.0.0.1"),
      std::string::npos)
      << r.err;
  std::ofstream(old_worker)
      << "read line; echo '{\"id\":1,\"type\":\"result\",\"result\":{\"pong\":true,\"version\":\"0.9.0\",\"protocol\":1}}'\n"
      << "read line; echo '{\"id\":2,\"type\":\"error\",\"status\":\"bad-request\",\"error\":\"unknown op '\\''bench'\\''; ops: ping\"}'\n"
      << "read line\n";
  const Ran bench = remote_cli("bench --size 64", "sh " + old_worker);
  EXPECT_EQ(bench.code, 2) << bench.out << bench.err;
  EXPECT_NE(
      bench.err.find(
          "the worker on 127.0.0.1 (threadmap-cli 0.9.0) has no \"bench\" request: upgrade threadmap-cli on 127.0.0.1"),
      std::string::npos)
      << bench.err;
}

}  // namespace
