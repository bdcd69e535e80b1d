#include "app/protocol/remote.h"

#include <sys/wait.h>
#include <wordexp.h>

#include <cstdlib>

#include "kernels/core/error.h"

namespace threadmap::protocol {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (const char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::vector<std::string> split_words(const std::string& command) {
  wordexp_t words{};
  // WRDE_NOCMD: a $(...) in the command is an error, never run.
  const int code = wordexp(command.c_str(), &words, WRDE_NOCMD | WRDE_UNDEF);
  if (code != 0) {
    if (code == WRDE_NOSPACE) wordfree(&words);
    throw InvalidRequest("the ssh command \"" + command +
                         "\" cannot be split into words (an unmatched quote, or a $(...) or `...` in it?)");
  }
  std::vector<std::string> argv(words.we_wordv, words.we_wordv + words.we_wordc);
  wordfree(&words);
  if (argv.empty()) throw InvalidRequest("the ssh command is empty");
  return argv;
}

std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n \t");
  if (end == std::string::npos) return {};
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

RemoteTarget parse_remote_target(const std::string& text) {
  RemoteTarget t;
  std::string rest = text;
  std::string user;
  if (const auto at = rest.rfind('@'); at != std::string::npos) {
    user = rest.substr(0, at + 1);
    rest = rest.substr(at + 1);
  }
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string::npos) throw InvalidRequest("--remote " + text + ": an unclosed [ around the address");
    t.host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest.front() != ':')
      throw InvalidRequest("--remote " + text + ": after ] comes :PORT or nothing");
    if (!rest.empty()) t.port = rest.substr(1);
  } else if (const auto colon = rest.find(':'); colon != std::string::npos) {
    t.host = rest.substr(0, colon);
    t.port = rest.substr(colon + 1);
  } else {
    t.host = rest;
  }
  if (t.host.empty()) throw InvalidRequest("--remote " + text + ": no host; give [USER@]HOST[:PORT]");
  if (t.port.empty() && !text.empty() && text.back() == ':')
    throw InvalidRequest("--remote " + text + ": no port after the colon");
  if (t.host.front() == '-') throw InvalidRequest("--remote " + text + ": a host does not begin with -");
  if (!t.port.empty() &&
      (!all_digits(t.port) || t.port.size() > 5 || std::stoi(t.port) < 1 || std::stoi(t.port) > 65535))
    throw InvalidRequest("--remote " + text + ": the port must be a number from 1 to 65535, not " + t.port);
  t.host = user + t.host;
  return t;
}

std::vector<std::string> ssh_argv(const RemoteTarget& target, const std::string& ssh_command) {
  std::string command = ssh_command;
  if (command.empty())
    if (const char* env = std::getenv("THREADMAP_SSH"); env && *env) command = env;
  if (command.empty()) command = "ssh";
  std::vector<std::string> argv = split_words(command);
  if (!target.port.empty()) argv.insert(argv.end(), {"-p", target.port});
  argv.push_back("--");
  argv.push_back(target.host);
  const char* remote = std::getenv("THREADMAP_REMOTE_COMMAND");
  argv.push_back(remote && *remote ? remote : "threadmap-cli serve");
  return argv;
}

std::string remote_failure_text(const std::string& host, const std::string& ssh_stderr, int exit_status) {
  const std::string said = last_line(ssh_stderr);
  const int code = WIFEXITED(exit_status) ? WEXITSTATUS(exit_status) : -1;
  std::string advice;
  if (code == 127 || said.find("not found") != std::string::npos)
    advice = "install ThreadMap on " + host + " (threadmap-cli must be on the PATH of a non-interactive ssh session)";
  else if (said.find("Permission denied") != std::string::npos)
    advice = "the server refused the key: check `ssh " + host + "` works without a password (ssh-copy-id, ssh-agent)";
  else if (said.find("Could not resolve") != std::string::npos ||
           said.find("Connection refused") != std::string::npos || said.find("timed out") != std::string::npos ||
           said.find("No route") != std::string::npos)
    advice = "the server cannot be reached: check the host name, the port and that its ssh server runs";
  else if (said.find("kex_exchange_identification") != std::string::npos)
    advice = "the server closed the connection before the login, as an ssh server busy with many new connections "
             "does (its MaxStartups; tried again a few times): raise MaxStartups in " + host +
             "'s sshd_config (docs/classroom.md)";
  else if (code == 255) advice = "ssh could not connect: try `ssh " + host + "` by hand to see why";
  else advice = "the worker on " + host + " ended";
  return "the GPU server " + host + " did not answer" + (said.empty() ? "" : " (ssh: " + said + ")") + ": " + advice;
}

std::string lost_connection_text(const std::string& host, const std::string& ssh_stderr, int exit_status) {
  const std::string said = last_line(ssh_stderr);
  const std::string ssh = said.empty() ? "" : " (ssh: " + said + ")";
  if (WIFEXITED(exit_status) && WEXITSTATUS(exit_status) == 255)
    return "the GPU server " + host + " did not answer: the connection was lost in the middle of a request" + ssh +
           "; it had connected, so nothing needs setting up: the network or the server dropped it, and the next "
           "command connects again";
  const std::string how = WIFSIGNALED(exit_status) ? "ssh ended by signal " + std::to_string(WTERMSIG(exit_status))
                          : WIFEXITED(exit_status) ? "exit status " + std::to_string(WEXITSTATUS(exit_status))
                                                   : "no exit status";
  return "the GPU server " + host + " did not answer: its worker ended in the middle of a request (" + how + ")" +
         ssh + "; the server's threadmap-cli may have crashed or been stopped, and the next command starts a new one";
}

}  // namespace threadmap::protocol
