#pragma once
// Processes that keep every core of the machine busy while they live: the
// busy machine a timed run must flag (kernels/engine/timing_lock.h).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

namespace threadmap {

class CpuHogs {
 public:
  CpuHogs() {
    for (long i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); ++i) {
      const pid_t pid = fork();
      if (pid == 0) {
        // Never outlives the test: ends with it, and after two minutes at most.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1) _exit(0);
        alarm(120);
        for (;;) asm volatile("" ::: "memory");  // spins: the compiler may not drop the loop
      }
      if (pid > 0) pids_.push_back(pid);
    }
  }
  ~CpuHogs() {
    for (const pid_t pid : pids_) kill(pid, SIGKILL);
    for (const pid_t pid : pids_) waitpid(pid, nullptr, 0);
  }
  CpuHogs(const CpuHogs&) = delete;
  CpuHogs& operator=(const CpuHogs&) = delete;

 private:
  std::vector<pid_t> pids_;
};

}  // namespace threadmap
