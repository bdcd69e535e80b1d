#pragma once
// A device shared by a class gives honest timings: the timed work on a device
// (uploads, the checked run, warm-up, the timed samples, a device copy's
// samples) holds an exclusive lock shared by every ThreadMap process on the
// machine, so no timing is taken while another ThreadMap process runs its
// timed work on the same device. Compiling and tracing do not take it.
//
// The lock is an flock(2) on a file named by the device's identity (its UUID
// where the device reports one, else its platform, name, vendor and version),
// in /tmp or $THREADMAP_LOCK_DIR. The kernel releases it when the process
// ends, however it ends, so a killed run never leaves the device locked.
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <string>

#include "kernels/core/device.h"
#include "kernels/core/run.h"

namespace threadmap {


// Other processes' CPU seconds, by (pid, start time).
using OthersCpu = std::map<std::pair<int, unsigned long long>, double>;

class TimingLock {
 public:
  // Blocks until this process holds the device's lock. A lock file that
  // cannot be opened (a read-only folder, a symlink planted at its name)
  // does not stop the run: the section says it was not exclusive, and why.
  TimingLock(const DeviceInfo& device, const WaitNotice& on_wait);
  ~TimingLock();
  TimingLock(const TimingLock&) = delete;
  TimingLock& operator=(const TimingLock&) = delete;

  // Lets the lock go (once) and returns the section, its end time set.
  ExclusiveSection release();

 private:
  void start_section();

  int fd_ = -1;
  bool device_on_host_ = false;
  OthersCpu others_at_start_;  // other processes' CPU seconds when the section began
  ExclusiveSection section_;
};

// The lock file of `device`: <folder>/threadmap-device-<16 hex digits>.lock.
std::string timing_lock_path(const DeviceInfo& device);

// Sets `others_cores`, `busy` and its note from the CPU time other processes
// used during the section (`others_s`, seconds), its length and `cores`.
void judge_machine_load(ExclusiveSection& section, bool device_on_host, double others_s);

// The host's monotonic clock in nanoseconds (ExclusiveSection's clock).
std::int64_t monotonic_ns();

}  // namespace threadmap
