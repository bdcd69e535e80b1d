// `threadmap-cli --remote` through a real OpenSSH server on 127.0.0.1 (a
// throwaway host key and client key, tests/remote/start_sshd.sh): the
// recording is written on this side, and a missing worker, a refused key, a
// connection lost mid-request and a worker of another protocol each end in
// one clear line. Skipped, saying why, where there is no sshd.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

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

// The worker answers the handshake, then its connection is gone.
TEST_F(RemoteCli, AConnectionLostMidRequestIsOneClearLine) {
  const Ran r = remote_cli("run smem.setRowReadCol --device opencl:0:0",
                           "head -n 1 | " + std::string(THREADMAP_CLI) + " serve");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("the GPU server 127.0.0.1 did not answer"), std::string::npos) << r.err;
}

TEST_F(RemoteCli, AWorkerOfAnotherProtocolIsRefusedSayingWhatToUpgrade) {
  const std::string old_worker = dir_ + "/old_worker_reply";
  std::ofstream(old_worker) << R"({"id":1,"type":"result","result":{"pong":true,"version":"0.0.9"}})" << '\n';
  const Ran r = remote_cli("devices", "read line; cat " + old_worker);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("speaks no protocol version"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("threadmap-cli 0.0.9"), std::string::npos) << r.err;
}

}  // namespace
