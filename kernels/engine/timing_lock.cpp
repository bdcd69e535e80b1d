#include "kernels/engine/timing_lock.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace threadmap {

namespace {

// FNV-1a: the same name in every build and every process, unlike std::hash.
std::uint64_t stable_hash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string identity(const DeviceInfo& d) {
  if (!d.uuid.empty()) return d.backend + "\n" + d.uuid;
  return d.backend + "\n" + d.platform + "\n" + d.name + "\n" + d.vendor + "\n" + d.version;
}

std::string lock_folder() {
  const char* folder = std::getenv("THREADMAP_LOCK_DIR");
  return folder && *folder ? folder : "/tmp";
}

// Opens the lock file, creating it where it is missing, without following a
// symlink, blocking on a FIFO or truncating anything. Read-only is enough for
// flock, so a file another user created is shared as it is. -1 and `why` when
// it cannot.
int open_lock_file(const std::string& path, std::string& why) {
  constexpr int kFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  for (int attempt = 0; attempt < 3; ++attempt) {
    int fd = open(path.c_str(), kFlags);
    if (fd < 0 && errno == ENOENT) {
      fd = open(path.c_str(), kFlags | O_CREAT | O_EXCL, 0644);
      if (fd < 0 && errno == EEXIST) continue;  // another process made it first
      if (fd >= 0) fchmod(fd, 0644);            // readable by every user, whatever the umask
    }
    if (fd < 0) {
      why = path + ": " + std::strerror(errno);
      return -1;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      why = path + " is not a regular file";
      return -1;
    }
    return fd;
  }
  why = path + " kept appearing and vanishing";
  return -1;
}

// The flock holders and waiters of the file open as `fd`, from /proc/locks
// (one line each: "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE ...", a waiter's
// with "->" before FLOCK).
int lock_users(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return 0;
  char id[64];
  std::snprintf(id, sizeof id, "%02x:%02x:%lu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  int users = 0;
  for (std::string line; std::getline(locks, line);) {
    std::istringstream fields(line);
    std::string field;
    bool flock_line = false;
    while (fields >> field) {
      if (field == "FLOCK") flock_line = true;
      if (flock_line && field == id) {
        ++users;
        break;
      }
    }
  }
  return users;
}

// The CPU time, in seconds, of every other process on the machine, from
// /proc/PID/stat: utime and stime (fields 14 and 15, its threads' exact run
// time, given in ticks) and cutime and cstime (16 and 17, its children that
// ended and were waited for: a compiler another worker ran), by process (the
// pid and its start time, field 22, so a reused pid is another process).
// Tick-sampled machine-wide counts (/proc/stat) overcount a run of short
// kernels by a tenth of a core and more, so the others are counted one by one.
OthersCpu others_cpu_seconds() {
  OthersCpu seconds;
  const long ticks = sysconf(_SC_CLK_TCK);
  const int self = getpid();
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc", error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int pid = std::atoi(name.c_str());
    if (pid == self) continue;
    std::ifstream stat(it->path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;  // ended meanwhile
    const std::size_t close = line.rfind(')');  // the command name may hold spaces and parentheses
    if (close == std::string::npos || close + 2 > line.size()) continue;
    std::istringstream fields(line.substr(close + 2));
    std::string field;
    for (int k = 3; k <= 13 && fields >> field; ++k) {
    }
    unsigned long long utime = 0, stime = 0, cutime = 0, cstime = 0, started = 0;
    if (!(fields >> utime >> stime >> cutime >> cstime)) continue;
    for (int k = 18; k <= 21 && fields >> field; ++k) {
    }
    if (!(fields >> started)) continue;
    seconds[{pid, started}] = static_cast<double>(utime + stime + cutime + cstime) / static_cast<double>(ticks);
  }
  return seconds;
}

// What the others used between two counts: each process's growth; one that
// began meanwhile counts whole, one that ended is lost (but for what its
// parent waited for).
double others_used(const OthersCpu& before, const OthersCpu& after) {
  double used = 0;
  for (const auto& [process, now] : after) {
    const auto it = before.find(process);
    used += std::max(0.0, now - (it == before.end() ? 0.0 : it->second));
  }
  return used;
}

// The cores this process may run on (its affinity: a cpuset or a
// container's share), else every online core.
int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 0;
}

std::string one_decimal(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", x);
  return text;
}

std::string runs_ahead_text(int runs) {
  if (runs <= 0) return "waiting for the GPU: another ThreadMap run is timing on it";
  return "waiting for the GPU: " + std::to_string(runs) + (runs == 1 ? " run" : " runs") + " ahead";
}

}  // namespace

std::int64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

void judge_machine_load(ExclusiveSection& section, bool device_on_host, double others_s) {
  const double wall_s = static_cast<double>(section.end_ns - section.start_ns) / 1e9;
  if (wall_s <= 0 || section.cores <= 0) return;
  section.others_cores = std::clamp(others_s / wall_s, 0.0, static_cast<double>(section.cores));
  // /proc/PID/stat counts in ticks (10 ms), one rounding per process: less
  // than two ticks a core is no measure; a tenth of the cores slows a CPU
  // device's kernel, which uses them all, by about a tenth.
  const double cores = section.cores;
  section.busy = device_on_host && others_s >= 0.02 * cores && section.others_cores >= 0.1 * cores;
  if (!section.busy) return;
  const std::string line = "timed while other processes kept " + one_decimal(section.others_cores) + " of the machine's " +
                           std::to_string(section.cores) + " cores busy: the times may be slower than on a quiet machine";
  section.note = section.note.empty() ? line : section.note + "; " + line;
}

std::string timing_lock_path(const DeviceInfo& device) {
  char name[64];
  std::snprintf(name, sizeof name, "/threadmap-device-%016llx.lock",
                static_cast<unsigned long long>(stable_hash(identity(device))));
  return lock_folder() + name;
}

TimingLock::TimingLock(const DeviceInfo& device, const WaitNotice& on_wait) : device_on_host_(device.memory_is_host) {
  const std::int64_t asked = monotonic_ns();
  std::string why;
  fd_ = open_lock_file(timing_lock_path(device), why);
  if (fd_ < 0) {
    section_.note = "timed without the device lock (" + why + "): another ThreadMap process may have run meanwhile";
    start_section();
    return;
  }
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    section_.runs_ahead = lock_users(fd_);
    if (on_wait) on_wait(runs_ahead_text(section_.runs_ahead));
    while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  section_.exclusive = true;
  start_section();
  section_.waited_ms = static_cast<double>(section_.start_ns - asked) / 1e6;
}

void TimingLock::start_section() {
  section_.start_ns = monotonic_ns();
  // Only a CPU device's kernel shares the cores with the others; a GPU's
  // run is spared the count (about 30 us a process: a server of a thousand
  // processes would add some 60 ms to every run).
  if (device_on_host_) others_at_start_ = others_cpu_seconds();
}

ExclusiveSection TimingLock::release() {
  if (section_.end_ns == 0) {
    section_.end_ns = monotonic_ns();
    section_.cores = usable_cores();
    if (!others_at_start_.empty())
      judge_machine_load(section_, device_on_host_, others_used(others_at_start_, others_cpu_seconds()));
  }
  if (fd_ >= 0) {
    flock(fd_, LOCK_UN);
    close(fd_);
    fd_ = -1;
  }
  return section_;
}

TimingLock::~TimingLock() { release(); }

}  // namespace threadmap
