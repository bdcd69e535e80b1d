#include "app/cli/sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>

#include "app/cli/commands.h"

namespace threadmap::cli {

namespace {

// The child's phases, one byte each on the pipe to the parent.
// Waiting for the device's timing lock (kernels/engine/timing_lock.h) counts
// against neither limit: it is other processes' time.
enum Phase : char { kPreparing = 'p', kRunning = 'r', kWaiting = 'w' };

// In a child of run_isolated: the pipe's end and the phase last reported.
int g_phase_fd = -1;
Phase g_phase = kPreparing;

// In a worker that watches itself (watch_phases_in_process): the
// nanoseconds its devices spent running, and since when they run now (0:
// they do not), read by its watchdog thread.
bool g_in_process = false;
std::atomic<std::int64_t> g_run_ns{0}, g_running_since_ns{0};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void report_phase(Phase phase) {
  if ((g_phase_fd < 0 && !g_in_process) || phase == g_phase) return;
  if (g_in_process) {
    if (phase == kRunning) g_running_since_ns = now_ns();
    else if (const std::int64_t since = g_running_since_ns.exchange(0); since) g_run_ns += now_ns() - since;
  }
  g_phase = phase;
  if (g_phase_fd < 0) return;
  const char byte = phase;
  if (write(g_phase_fd, &byte, 1) != 1) g_phase_fd = -1;  // the parent is gone
}

// A device that reports its phase: building kernels, or running them.
class PhaseReportingDevice : public Device {
 public:
  explicit PhaseReportingDevice(std::unique_ptr<Device> inner) : inner_(std::move(inner)) {}
  const DeviceInfo& info() const override { return inner_->info(); }
  void prepare(const LaunchCmd& launch) override {
    report_phase(kPreparing);
    inner_->prepare(launch);
  }
  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override {
    if (g_phase == kWaiting) report_phase(kPreparing);  // the lock is held: uploads follow
    return inner_->allocate(bytes);
  }
  void write(DeviceBuffer& dst, const void* src, std::size_t bytes) override { inner_->write(dst, src, bytes); }
  void read(const DeviceBuffer& src, void* dst, std::size_t bytes) override { inner_->read(src, dst, bytes); }
  void fill(DeviceBuffer& dst, std::uint8_t value, std::size_t bytes) override { inner_->fill(dst, value, bytes); }
  double copy_timed(const DeviceBuffer& src, DeviceBuffer& dst, std::size_t bytes, int repeat) override {
    report_phase(kRunning);
    return inner_->copy_timed(src, dst, bytes, repeat);
  }
  double execute(const std::vector<LaunchCmd>& launches, const std::vector<DeviceBuffer*>& buffers) override {
    report_phase(kRunning);
    return inner_->execute(launches, buffers);
  }
  void finish() override { inner_->finish(); }
  std::uint64_t device_address(const DeviceBuffer& buffer) override { return inner_->device_address(buffer); }
  std::vector<MergedAccess> merged_accesses(const LaunchCmd& launch) override {
    return inner_->merged_accesses(launch);
  }
  int resident_blocks(const LaunchCmd& launch) override { return inner_->resident_blocks(launch); }

 private:
  std::unique_ptr<Device> inner_;
};

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", s);
  return text;
}

std::string signal_text(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV, a memory access outside what the process owns";
    case SIGBUS: return "SIGBUS, a misaligned or invalid memory access";
    case SIGFPE: return "SIGFPE, an arithmetic fault such as an integer division by zero";
    case SIGILL: return "SIGILL, an illegal instruction";
    case SIGABRT: return "SIGABRT, the process aborted";
    default: return std::string(strsignal(signal));
  }
}

// The parent's account of the child's time, phase by phase.
class Watchdog {
 public:
  explicit Watchdog(const Limits& limits) : limits_(limits), last_(Clock::now()) {}
  // Adds the time since the last call to the phase the child is in.
  void tick() {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    if (phase_ == kRunning) running_s_ += elapsed;
    if (phase_ == kPreparing) preparing_s_ += elapsed;
    last_ = now;
  }
  void on_phase(char byte) {
    phase_ = byte == kRunning ? kRunning : byte == kWaiting ? kWaiting : kPreparing;
    compiled_ = compiled_ || phase_ == kRunning;
  }
  std::optional<Ending> over() const {
    if (running_s_ >= limits_.run_s) return Ending::TimedOut;
    if (preparing_s_ >= limits_.compile_s) return Ending::CompileTimedOut;
    return std::nullopt;
  }
  bool compiled() const { return compiled_; }

 private:
  using Clock = std::chrono::steady_clock;
  Limits limits_;
  Clock::time_point last_;
  Phase phase_ = kPreparing;
  double running_s_ = 0, preparing_s_ = 0;
  bool compiled_ = false;
};

// Reads the phase bytes the child has sent; closes `fd` (sets it to -1) at
// the end of the pipe.
void read_phases(int& fd, Watchdog& watchdog) {
  char bytes[64];
  for (;;) {
    const ssize_t n = read(fd, bytes, sizeof bytes);
    if (n > 0) {
      std::for_each(bytes, bytes + n, [&](char b) { watchdog.on_phase(b); });
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    close(fd);
    fd = -1;
    return;
  }
}

[[noreturn]] void run_child(int phase_fd, const std::function<int()>& body) {
  g_phase_fd = phase_fd;
  int code = kExitDeviceFailure;
  try {
    code = body();
  } catch (...) {
  }
  // The output written so far, once, not once by each process. Only stdout
  // and stderr: flushing every stream would take stdin's lock, which a
  // worker's reader thread holds while it waits for the next request.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(code);
}

Isolated stopped(Ending ending, bool compiled, std::string message) {
  return {kExitStopped, ending, compiled, std::move(message)};
}

Isolated stop_child(pid_t child, Ending ending, const Limits& limits, bool compiled, const std::string& what) {
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  if (ending == Ending::CompileTimedOut) {
    const std::string message = "did not finish compiling within " + seconds_text(limits.compile_s) + " s";
    error(what + " " + message + " and was stopped: the compiler does not end on this kernel");
    return stopped(ending, compiled, message);
  }
  const std::string message = "did not finish within " + seconds_text(limits.run_s) + " s (--timeout)";
  error(what + " " + message +
        " and was stopped: an endless loop in the kernel or a barrier some threads never reach "
        "(compiling is timed apart, and not counted)");
  return stopped(ending, compiled, message);
}

Isolated ended(int status, bool compiled, const std::string& what) {
  if (WIFEXITED(status)) return {WEXITSTATUS(status), Ending::Exited, compiled, {}};
  if (!WIFSIGNALED(status)) return {kExitDeviceFailure, Ending::Exited, compiled, {}};
  const std::string message = "crashed the process that ran it (" + signal_text(WTERMSIG(status)) + ")";
  error(what + " " + message + ": on a CPU device this is usually a read or write outside a buffer");
  return stopped(Ending::Crashed, compiled, message);
}

}  // namespace

Limits limits_for(double timeout_s) { return {timeout_s, std::max(60.0, timeout_s)}; }

std::unique_ptr<Device> watch_phases(std::unique_ptr<Device> device) {
  if (g_phase_fd < 0 && !g_in_process) return device;
  return std::make_unique<PhaseReportingDevice>(std::move(device));
}

void watch_phases_in_process() { g_in_process = true; }

double run_seconds() {
  const std::int64_t since = g_running_since_ns.load();
  return static_cast<double>(g_run_ns.load() + (since ? now_ns() - since : 0)) * 1e-9;
}

WaitNotice watch_waits(WaitNotice notice) {
  return [notice = std::move(notice)](const std::string& line) {
    report_phase(kWaiting);
    if (notice) notice(line);
  };
}

Isolated run_isolated(const Limits& limits, const std::string& what, const std::function<int()>& body) {
  if (!std::isfinite(limits.run_s) || !std::isfinite(limits.compile_s) || limits.run_s <= 0) {
    error("the time limit for " + what + " must be a positive number of seconds, not " + seconds_text(limits.run_s));
    return {kExitInvalid, Ending::Exited, false, {}};
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    error("could not start the process that runs " + what + ": " + std::strerror(errno));
    return {kExitDeviceFailure, Ending::Exited, false, {}};
  }
  // The output written so far, once, not once by each process. Only stdout
  // and stderr: flushing every stream would take stdin's lock, which a
  // worker's reader thread holds while it waits for the next request.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child == 0) {
    // The child's watchdog is its parent: without it, it ends too (a killed
    // `check` leaves no looping grading behind).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(kExitStopped);
    close(pipe_fds[0]);
    run_child(pipe_fds[1], body);
  }
  close(pipe_fds[1]);
  int phases = pipe_fds[0];
  if (child < 0) {
    close(phases);
    error("could not start the process that runs " + what + ": " + std::strerror(errno));
    return {kExitDeviceFailure, Ending::Exited, false, {}};
  }
  fcntl(phases, F_SETFL, O_NONBLOCK);

  Watchdog watchdog(limits);
  int status = 0;
  for (;;) {
    pollfd wait_for{phases, POLLIN, 0};
    poll(&wait_for, 1, 5);  // a closed pipe (-1) is ignored: a 5 ms sleep
    watchdog.tick();
    if (phases >= 0) read_phases(phases, watchdog);
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) {
      if (phases >= 0) close(phases);
      error(std::string("lost the process that runs ") + what + ": " + std::strerror(errno));
      return {kExitDeviceFailure, Ending::Exited, watchdog.compiled(), {}};
    }
    if (const auto ending = watchdog.over()) {
      if (phases >= 0) close(phases);
      return stop_child(child, *ending, limits, watchdog.compiled(), what);
    }
  }
  if (phases >= 0) {
    read_phases(phases, watchdog);
    if (phases >= 0) close(phases);
  }
  return ended(status, watchdog.compiled(), what);
}

}  // namespace threadmap::cli
