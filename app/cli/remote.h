#pragma once
// A worker on another machine, reached through OpenSSH: the local program
// starts `ssh [USER@]HOST threadmap-cli serve` (the user's ssh config, keys
// and agent; ThreadMap has no network protocol or crypto of its own) and
// speaks the worker protocol (docs/cli.md, "serve") over ssh's stdin and
// stdout.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace threadmap::cli {

// --remote [USER@]HOST[:PORT]; an IPv6 address in brackets: [::1]:2222.
struct RemoteTarget {
  std::string host;  // with USER@ when given
  std::string port;  // empty: ssh's own (its config, else 22)
};
// InvalidRequest naming what is wrong (an empty host, a port that is no number).
RemoteTarget parse_remote_target(const std::string& text);

// The ssh command line: `ssh_command` (--ssh-command, else $THREADMAP_SSH,
// else "ssh"), split as a shell splits words (quotes kept, nothing run or
// expanded), then -p PORT, the host, and the remote command
// ($THREADMAP_REMOTE_COMMAND, else "threadmap-cli serve"). InvalidRequest for
// a command line that cannot be split.
std::vector<std::string> ssh_argv(const RemoteTarget& target, const std::string& ssh_command);

// A child process whose stdin takes request lines and whose stdout gives
// reply lines; its stderr is kept (the last lines), to say why it ended.
class LineProcess {
 public:
  // DeviceError naming argv[0] when it cannot be started.
  explicit LineProcess(const std::vector<std::string>& argv);
  ~LineProcess();
  LineProcess(const LineProcess&) = delete;
  LineProcess& operator=(const LineProcess&) = delete;

  // False when the process no longer reads (it ended).
  bool write_line(const std::string& line);
  // The next line of its stdout, without the newline; nullopt when it ended,
  // or when `timeout` passed with no line.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);
  // What it wrote on stderr, its last 4 KiB.
  std::string error_text();
  // Closes its stdin and waits for it (at most `grace`, then kills it);
  // its exit status as waitpid gives it.
  int finish(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

 private:
  void drain_stderr();
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string pending_;  // stdout read past the last whole line
  std::string stderr_;
  bool ended_ = false;
  int status_ = 0;
};

// The one line a user reads when the remote worker could not be reached or
// ended: ssh's own last line (a refused key, an unknown host, a missing
// threadmap-cli on the server) and what to do about it.
std::string remote_failure_text(const std::string& host, const std::string& ssh_stderr, int exit_status);

// Base64 (RFC 4648, with padding): recordings travel inside JSON replies.
std::string base64_encode(const std::string& bytes);
// nullopt for text that is not base64.
std::optional<std::string> base64_decode(const std::string& text);

}  // namespace threadmap::cli
