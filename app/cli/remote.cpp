#include "app/cli/remote.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "kernels/error.h"

namespace threadmap::cli {

namespace {

constexpr std::size_t kKeptStderr = 4096;

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
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
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
  if (!t.port.empty() && (!all_digits(t.port) || t.port.size() > 5 || std::stoi(t.port) < 1 || std::stoi(t.port) > 65535))
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

LineProcess::LineProcess(const std::vector<std::string>& argv) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
    throw DeviceError(std::string("could not start ") + argv[0] + ": " + std::strerror(errno));
  pid_ = fork();
  if (pid_ < 0) throw DeviceError(std::string("could not start ") + argv[0] + ": " + std::strerror(errno));
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    const std::string why = std::string(argv[0]) + ": " + std::strerror(errno) + "\n";
    if (write(2, why.data(), why.size()) < 0) {
    }
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  in_ = in[1];
  out_ = out[0];
  err_ = err[0];
  fcntl(err_, F_SETFL, O_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);  // a worker that ended is a false write_line, not a death
}

LineProcess::~LineProcess() { finish(std::chrono::milliseconds(500)); }

bool LineProcess::write_line(const std::string& line) {
  if (in_ < 0) return false;
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(in_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void LineProcess::drain_stderr() {
  if (err_ < 0) return;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(err_, buffer, sizeof buffer);
    if (n > 0) {
      stderr_.append(buffer, static_cast<std::size_t>(n));
      if (stderr_.size() > kKeptStderr) stderr_.erase(0, stderr_.size() - kKeptStderr);
      continue;
    }
    if (n == 0) {
      close(err_);
      err_ = -1;
    }
    return;
  }
}

std::optional<std::string> LineProcess::read_line(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (const auto newline = pending_.find('\n'); newline != std::string::npos) {
      std::string line = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      return line;
    }
    if (out_ < 0) return std::nullopt;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    std::array<pollfd, 2> fds{{{out_, POLLIN, 0}, {err_, POLLIN, 0}}};
    const int ready = poll(fds.data(), err_ >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) return std::nullopt;
    drain_stderr();
    if (ready <= 0 || !(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buffer[65536];
    const ssize_t n = read(out_, buffer, sizeof buffer);
    if (n > 0) {
      pending_.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      close(out_);
      out_ = -1;
    }
  }
}

std::string LineProcess::error_text() {
  drain_stderr();
  return stderr_;
}

int LineProcess::finish(std::chrono::milliseconds grace) {
  if (ended_ || pid_ <= 0) return status_;
  if (in_ >= 0) close(in_);
  in_ = -1;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (;;) {
    drain_stderr();
    const pid_t done = waitpid(pid_, &status_, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status_, 0);
      break;
    }
    usleep(10000);
  }
  drain_stderr();
  for (int* fd : {&out_, &err_})
    if (*fd >= 0) {
      close(*fd);
      *fd = -1;
    }
  ended_ = true;
  return status_;
}

std::string remote_failure_text(const std::string& host, const std::string& ssh_stderr, int exit_status) {
  const std::string said = last_line(ssh_stderr);
  const int code = WIFEXITED(exit_status) ? WEXITSTATUS(exit_status) : -1;
  std::string advice;
  if (code == 127 || said.find("not found") != std::string::npos)
    advice = "install ThreadMap on " + host + " (threadmap-cli must be on the PATH of a non-interactive ssh session)";
  else if (said.find("Permission denied") != std::string::npos)
    advice = "the server refused the key: check `ssh " + host + "` works without a password (ssh-copy-id, ssh-agent)";
  else if (said.find("Could not resolve") != std::string::npos || said.find("Connection refused") != std::string::npos ||
           said.find("timed out") != std::string::npos || said.find("No route") != std::string::npos)
    advice = "the server cannot be reached: check the host name, the port and that its ssh server runs";
  else if (code == 255)
    advice = "ssh could not connect: try `ssh " + host + "` by hand to see why";
  else
    advice = "the worker on " + host + " ended";
  return "the GPU server " + host + " did not answer" + (said.empty() ? "" : " (ssh: " + said + ")") + ": " + advice;
}

std::string base64_encode(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (static_cast<unsigned char>(bytes[i]) << 16) |
                            (static_cast<unsigned char>(bytes[i + 1]) << 8) | static_cast<unsigned char>(bytes[i + 2]);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], kAlphabet[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const std::uint32_t v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

std::optional<std::string> base64_decode(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=') : 0;
    if (pad == 1 && text[i + 2] == '=') return std::nullopt;
    std::uint32_t v = 0;
    for (int k = 0; k < 4 - pad; ++k) {
      const int d = value(text[i + k]);
      if (d < 0) return std::nullopt;
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    v <<= 6 * pad;
    out += static_cast<char>(v >> 16);
    if (pad < 2) out += static_cast<char>((v >> 8) & 255);
    if (pad < 1) out += static_cast<char>(v & 255);
  }
  return out;
}

}  // namespace threadmap::cli
