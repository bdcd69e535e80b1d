#include "kernels/timing_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

std::string timing_lock_path(const DeviceInfo& device) {
  char name[64];
  std::snprintf(name, sizeof name, "/threadmap-device-%016llx.lock",
                static_cast<unsigned long long>(stable_hash(identity(device))));
  return lock_folder() + name;
}

TimingLock::TimingLock(const DeviceInfo& device, const WaitNotice& on_wait) {
  const std::int64_t asked = monotonic_ns();
  std::string why;
  fd_ = open_lock_file(timing_lock_path(device), why);
  if (fd_ < 0) {
    section_.note = "timed without the device lock (" + why + "): another ThreadMap process may have run meanwhile";
    section_.start_ns = monotonic_ns();
    return;
  }
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    section_.runs_ahead = lock_users(fd_);
    if (on_wait) on_wait(runs_ahead_text(section_.runs_ahead));
    while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  section_.exclusive = true;
  section_.start_ns = monotonic_ns();
  section_.waited_ms = static_cast<double>(section_.start_ns - asked) / 1e6;
}

ExclusiveSection TimingLock::release() {
  if (section_.end_ns == 0) section_.end_ns = monotonic_ns();
  if (fd_ >= 0) {
    flock(fd_, LOCK_UN);
    close(fd_);
    fd_ = -1;
  }
  return section_;
}

TimingLock::~TimingLock() { release(); }

}  // namespace threadmap
