#include "app/cli/remote.h"

#include "app/protocol/wire.h"

#include <fcntl.h>
#include <poll.h>
#include <utility>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "kernels/core/error.h"

namespace threadmap::cli {

namespace {

constexpr std::size_t kKeptStderr = 4096;

}  // namespace

LineProcess::LineProcess(const std::vector<std::string>& argv) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
    throw DeviceError(std::string("could not start ") + argv[0] + ": " + std::strerror(errno));
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw DeviceError(std::string("could not start ") + argv[0] + ": " + std::strerror(errno));
  if (pid_ == 0) {
    // ssh ends with this process, however it ends (killed, crashed): its
    // connection closes, and the worker on the server, its client gone,
    // stops what it runs. Without this an orphaned ssh kept a looping
    // worker, and the device's lock, alive.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);  // it ended before the line above
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
    if (pending_.size() > 2 * protocol::kMaxLineBytes) return std::exchange(pending_, std::string());
    if (out_ < 0) return std::nullopt;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
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

}  // namespace threadmap::cli
