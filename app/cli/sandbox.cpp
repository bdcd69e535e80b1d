#include "app/cli/sandbox.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>

#include "app/cli/commands.h"

namespace threadmap::cli {

namespace {

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

}  // namespace

int run_isolated(double timeout_s, const std::string& what, const std::function<int()>& body) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    error(std::string("could not start the process that runs ") + what + ": " +
          std::strerror(errno));
    return kExitDeviceFailure;
  }
  if (child == 0) {
    int code = kExitDeviceFailure;
    try {
      code = body();
    } catch (...) {
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(code);
  }

  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) {
      error(std::string("lost the process that runs ") + what + ": " + std::strerror(errno));
      return kExitDeviceFailure;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      error(what + " did not finish within " + seconds_text(timeout_s) +
            " s (--timeout) and was stopped: an endless loop in the kernel, a barrier some "
            "threads never reach, or a compile that does not end");
      return kExitStopped;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    error(what + " crashed the process that ran it (" + signal_text(WTERMSIG(status)) +
          "): on a CPU device this is usually a read or write outside a buffer");
    return kExitStopped;
  }
  return kExitDeviceFailure;
}

}  // namespace threadmap::cli
