// The pieces of a remote worker (app/cli/remote.h) that need no ssh server:
// the target's syntax, the ssh command line, the child process's lines and
// the base64 that recordings travel in.
#include "app/cli/remote.h"
#include "app/protocol/remote.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "kernels/core/error.h"

namespace threadmap::cli {
namespace {

using protocol::parse_remote_target;
using protocol::remote_failure_text;
using protocol::RemoteTarget;
using protocol::ssh_argv;

TEST(Remote, TargetsParseUserHostAndPort) {
  EXPECT_EQ(parse_remote_target("gpu1").host, "gpu1");
  EXPECT_EQ(parse_remote_target("gpu1").port, "");
  const RemoteTarget t = parse_remote_target("ana@gpu1.lab:2222");
  EXPECT_EQ(t.host, "ana@gpu1.lab");
  EXPECT_EQ(t.port, "2222");
  const RemoteTarget v6 = parse_remote_target("[::1]:2200");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, "2200");
}

TEST(Remote, BadTargetsAreRefusedByName) {
  for (const char* bad : {"", ":22", "gpu1:", "gpu1:http", "gpu1:70000", "-oProxyCommand=x", "[::1", "[::1]22"}) {
    try {
      parse_remote_target(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InvalidRequest& e) {
      EXPECT_NE(std::string(e.what()).find("--remote"), std::string::npos) << e.what();
    }
  }
}

TEST(Remote, SshCommandLineKeepsQuotedWordsAndRunsNothing) {
  unsetenv("THREADMAP_SSH");
  unsetenv("THREADMAP_REMOTE_COMMAND");
  const auto argv = ssh_argv(parse_remote_target("gpu1:2222"), "ssh -F '/tmp/my config' -o BatchMode=yes");
  const std::vector<std::string> expected{"ssh", "-F",   "/tmp/my config",     "-o", "BatchMode=yes", "-p", "2222",
                                          "--",  "gpu1", "threadmap-cli serve"};
  EXPECT_EQ(argv, expected);
  setenv("THREADMAP_SSH", "ssh -i key", 1);
  EXPECT_EQ(ssh_argv(parse_remote_target("gpu1"), "").at(2), "key") << "THREADMAP_SSH replaces ssh";
  unsetenv("THREADMAP_SSH");
  EXPECT_THROW(ssh_argv(parse_remote_target("gpu1"), "ssh $(touch /tmp/threadmap_pwned)"), InvalidRequest);
  EXPECT_THROW(ssh_argv(parse_remote_target("gpu1"), "ssh 'unclosed"), InvalidRequest);
}

TEST(Remote, LineProcessExchangesLinesAndKeepsStderr) {
  LineProcess p({"sh", "-c", "read a; echo \"got $a\"; echo oops >&2; exit 3"});
  ASSERT_TRUE(p.write_line("hello"));
  EXPECT_EQ(p.read_line(std::chrono::seconds(10)), "got hello");
  EXPECT_EQ(p.read_line(std::chrono::seconds(10)), std::nullopt) << "the process ended";
  const int status = p.finish();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3);
  EXPECT_EQ(p.error_text(), "oops\n");
}

TEST(Remote, AMissingProgramEndsWithItsReason) {
  LineProcess p({"/nonexistent/ssh"});
  EXPECT_EQ(p.read_line(std::chrono::seconds(10)), std::nullopt);
  const int status = p.finish();
  EXPECT_EQ(WEXITSTATUS(status), 127);
  EXPECT_NE(p.error_text().find("/nonexistent/ssh"), std::string::npos) << p.error_text();
  const std::string said = remote_failure_text("gpu1", "bash: line 1: threadmap-cli: command not found\n", 127 << 8);
  EXPECT_NE(said.find("install ThreadMap on gpu1"), std::string::npos) << said;
  const std::string refused = remote_failure_text("gpu1", "ana@gpu1: Permission denied (publickey).\n", 255 << 8);
  EXPECT_NE(refused.find("refused the key"), std::string::npos) << refused;
}

}  // namespace
}  // namespace threadmap::cli
