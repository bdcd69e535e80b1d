#pragma once
// Learner code is untrusted: a kernel from --source may loop forever, read
// or write out of bounds, trap, or never finish compiling. Its device work
// runs in a child process that the CLI can kill; nothing it does reaches the
// parent beyond its output, its exit code and the phase it is in.
#include <functional>
#include <memory>
#include <string>

#include "kernels/core/device.h"
#include "kernels/engine/timing_lock.h"

namespace threadmap::cli {

// What a child may take. Building its kernels (and what precedes its first
// launch: opening the device, instrumenting the source) is timed against
// compile_s, never against run_s, so a cold compile cache does not eat into
// --timeout; running them is timed against run_s. Both are totals over the
// child's life.
struct Limits {
  double run_s = 10;
  double compile_s = 60;
};
// --timeout's run limit, with the compile limit that goes with it: 60 s, or
// the run limit where that is longer.
Limits limits_for(double timeout_s);

enum class Ending { Exited, TimedOut, CompileTimedOut, Crashed };
struct Isolated {
  int code = 0;  // the child's exit code; kExitStopped when stopped or crashed
  Ending ending = Ending::Exited;
  bool compiled = false;  // it got as far as launching a kernel
  std::string message;    // what happened, when it did not exit on its own
};

// Runs body in a forked child, whose output is the program's. A child past
// a limit is killed; one that dies from a signal is reported; both print a
// line saying what happened (naming `what`).
Isolated run_isolated(const Limits& limits, const std::string& what, const std::function<int()>& body);

// In a child of run_isolated: `device`, telling the watchdog when it builds
// kernels (prepare) and when it runs them (execute, copy). Elsewhere: `device`.
std::unique_ptr<Device> watch_phases(std::unique_ptr<Device> device);
// A worker's watchdog of its own (serve.cpp): from now on watch_phases wraps
// this process's devices too, and run_seconds() is how long they have spent
// running kernels (and the host work between launches) since the process
// started; building kernels and waiting for the timing lock do not count.
void watch_phases_in_process();
double run_seconds();

// In a child of run_isolated: `notice`, first telling the watchdog that the
// child waits for the device's timing lock, which counts against neither
// limit (the next launch ends the wait). Elsewhere: `notice`, called as it is.
WaitNotice watch_waits(WaitNotice notice);

}  // namespace threadmap::cli
