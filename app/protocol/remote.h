#pragma once
// A worker on another machine, reached through OpenSSH: the local program
// starts `ssh [USER@]HOST threadmap-cli serve` (the user's ssh config, keys
// and agent; ThreadMap has no network protocol or crypto of its own) and
// speaks this protocol over ssh's stdin and stdout. What the CLI
// (app/cli/remote.h) and the GUI's WorkerClient share: the target's syntax,
// the ssh command line, and what to say when it fails.
#include <string>
#include <vector>

namespace threadmap::protocol {

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

// The one line a user reads when the remote worker could not be reached or
// ended: ssh's own last line (a refused key, an unknown host, a missing
// threadmap-cli on the server) and what to do about it.
std::string remote_failure_text(const std::string& host, const std::string& ssh_stderr, int exit_status);
// The line for a connection lost after the worker answered the handshake:
// dropped (ssh's 255) or the worker ended, never "could not connect".
std::string lost_connection_text(const std::string& host, const std::string& ssh_stderr, int exit_status);

}  // namespace threadmap::protocol
