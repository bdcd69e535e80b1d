#include "kernels/core/output_file.h"

#include "kernels/core/input_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <mutex>
#include <streambuf>

namespace threadmap {

namespace fs = std::filesystem;

namespace {

std::string errno_text(int e) { return std::strerror(e); }

// ---- Temporary files removed on SIGINT, SIGTERM and SIGHUP ----------------
// Fixed slots: a path is written before its slot turns live, and the handler
// reads live slots with async-signal-safe calls only (unlink, sigaction, raise).
constexpr int kSlots = 1024;  // a PNG sequence's frames wait together (at most 1000)
enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];

// What each signal did before: after removing the files the handler puts it
// back and raises the signal again, so the process ends as it would have
// (or a handler installed earlier, LLVM's in an OpenCL driver, runs next).
constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[kSignals.size()];

void unlink_live_slots() noexcept {
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kLive) ::unlink(s.path);
}

extern "C" void remove_temporaries_then_raise(int sig) {
  unlink_live_slots();
  for (std::size_t i = 0; i < kSignals.size(); ++i)
    if (kSignals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
  ::raise(sig);
}

// A signal the program ignores (nohup) stays ignored.
void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
      if (::sigaction(kSignals[i], nullptr, &g_previous[i]) != 0) continue;
      if (!(g_previous[i].sa_flags & SA_SIGINFO) && g_previous[i].sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = remove_temporaries_then_raise;
      sigemptyset(&action.sa_mask);
      ::sigaction(kSignals[i], &action, nullptr);
    }
  });
}

int register_temporary(const fs::path& path) {
  const std::string& text = path.native();
  if (text.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, text.c_str(), text.size() + 1);
    g_slots[i].state.store(kLive, std::memory_order_release);
    return i;
  }
  return -1;  // more than kSlots files open at once: a stale one is removed by a later save
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_slots[slot].state.store(kFree, std::memory_order_release);
}

// ---- Names ---------------------------------------------------------------
// ".NAME.PID.RANDOM.threadmap-tmp": hidden, unpredictable, and naming the
// process that made it, so a later save can tell a stale one.
fs::path temporary_name(const fs::path& target) {
  std::string name = target.filename().string().substr(0, 160);
  std::array<unsigned char, 8> random{};
  if (::getrandom(random.data(), random.size(), 0) != static_cast<ssize_t>(random.size()))
    throw OutputError("cannot write " + target.string() + ": no random numbers for a temporary name");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string tag;
  for (unsigned char b : random) tag += {kHex[b >> 4], kHex[b & 15]};
  return "." + name + "." + std::to_string(::getpid()) + "." + tag + std::string(kTemporarySuffix);
}

// The PID in a temporary file's name, or 0.
pid_t pid_in(std::string_view name) {
  name.remove_suffix(kTemporarySuffix.size());
  const auto random_dot = name.rfind('.');
  if (random_dot == std::string_view::npos) return 0;
  name = name.substr(0, random_dot);
  const auto pid_dot = name.rfind('.');
  if (pid_dot == std::string_view::npos) return 0;
  pid_t pid = 0;
  for (char c : name.substr(pid_dot + 1)) {
    if (c < '0' || c > '9' || pid > 4194304) return 0;
    pid = pid * 10 + (c - '0');
  }
  return pid;
}

// Temporary files in `folder` left by processes that no longer run (killed
// by a signal no handler sees): regular files of this user only.
void remove_stale_temporaries(const fs::path& folder) {
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return;
  const int dir_fd = ::dirfd(dir);
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name.size() <= kTemporarySuffix.size() || !name.ends_with(kTemporarySuffix)) continue;
    const pid_t pid = pid_in(name);
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // it runs, or is not ours to ask
    struct stat st {};
    if (::fstatat(dir_fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(st.st_mode) && st.st_uid == ::geteuid()) ::unlinkat(dir_fd, entry->d_name, 0);
  }
  ::closedir(dir);
}

fs::path folder_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : fs::path("."); }

}  // namespace

std::string output_problem(const fs::path& target, std::span<const fs::path> inputs) {
  if (target.empty()) return "no output file named";
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) return "cannot write " + target.string() + ": " + errno_text(errno);
    struct stat folder {};
    if (::stat(folder_of(target).c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode))
      return "cannot write " + target.string() + ": the folder " + folder_of(target).string() + " does not exist";
  }
  // A folder this process cannot write into is said before any work (the
  // temporary file would fail only after the device opened and compiled).
  if (::access(folder_of(target).c_str(), W_OK | X_OK) != 0)
    return "cannot write " + target.string() + ": the folder " + folder_of(target).string() + " is not writable (" +
           errno_text(errno) + ")";
  if (::lstat(target.c_str(), &st) != 0) return {};
  if (!S_ISREG(st.st_mode))
    return target.string() + " is " + file_kind(st.st_mode) +
           ": ThreadMap writes only regular files and never replaces anything else";
  for (const fs::path& input : inputs) {
    struct stat in {};
    if (::stat(input.c_str(), &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
      return target.string() + " is the input " + input.string() +
             ": writing it would destroy it; name another output file";
  }
  return {};
}

// A stream buffer over a descriptor that counts what it writes and stops at
// a limit; the first failure's errno is kept (EFBIG for the limit).
class OutputFile::Buffer : public std::streambuf {
 public:
  Buffer(int fd, std::uint64_t max_bytes) : fd_(fd), max_bytes_(max_bytes) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }
  std::uint64_t limit() const { return max_bytes_; }
  std::uint64_t written() const { return written_ + static_cast<std::uint64_t>(pptr() - pbase()); }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < epptr() - pptr()) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    return drain() && put(s, static_cast<std::uint64_t>(n)) ? n : 0;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const bool ok = put(pbase(), static_cast<std::uint64_t>(pptr() - pbase()));
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return ok;
  }
  bool put(const char* data, std::uint64_t n) {
    if (error_) return false;
    if (n > max_bytes_ - written_) {
      error_ = EFBIG;
      return false;
    }
    while (n > 0) {
      const ssize_t done = ::write(fd_, data, n);
      if (done < 0 && errno == EINTR) continue;
      if (done <= 0) {
        error_ = done < 0 ? errno : EIO;
        return false;
      }
      data += done, n -= static_cast<std::uint64_t>(done), written_ += static_cast<std::uint64_t>(done);
    }
    return true;
  }

  int fd_;
  std::uint64_t max_bytes_;
  std::uint64_t written_ = 0;
  int error_ = 0;
  std::array<char, 1 << 16> buffer_;
};

OutputFile::OutputFile(fs::path target, Durability durability, std::span<const fs::path> inputs,
                       std::uint64_t max_bytes)
    : target_(std::move(target)), durability_(durability), inputs_(inputs.begin(), inputs.end()) {
  if (const std::string problem = output_problem(target_, inputs); !problem.empty()) throw OutputError(problem);
  install_handlers_once();
  remove_stale_temporaries(folder_of(target_));
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temp_ = folder_of(target_) / temporary_name(target_);
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt == 8)) {
      const int e = errno;
      temp_.clear();
      throw OutputError("cannot write " + target_.string() + ": " + errno_text(e));
    }
  }
  slot_ = register_temporary(temp_);
  // A file written over keeps its permissions.
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) ::fchmod(fd_, st.st_mode & 07777);
  buffer_ = std::make_unique<Buffer>(fd_, max_bytes);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

OutputFile::~OutputFile() { discard(); }

std::ostream& OutputFile::stream() { return *stream_; }

std::string OutputFile::fd_path() const { return "/proc/self/fd/" + std::to_string(fd_); }

std::uint64_t OutputFile::bytes_written() const { return buffer_ ? buffer_->written() : written_; }

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  unregister_temporary(slot_);
  slot_ = -1;
}

void OutputFile::fail(const std::string& what) {
  discard();
  throw OutputError(what);
}

void OutputFile::finish() {
  if (temp_.empty()) throw OutputError(target_.string() + " was already written or abandoned");
  if (fd_ < 0) return;  // finished before
  const std::string cannot = "cannot write " + target_.string() + ": ";
  stream_->flush();
  if (buffer_->error() == EFBIG)
    fail(cannot + "it would be larger than the limit of " + std::to_string(buffer_->limit()) + " bytes");
  if (buffer_->error()) fail(cannot + errno_text(buffer_->error()));
  if (durability_ == Durability::Synced && ::fsync(fd_) != 0) fail(cannot + errno_text(errno));
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) fail(cannot + errno_text(errno));
  written_ = buffer_->written();
  stream_.reset();  // a thousand finished frames keep no 64 KiB buffer each
  buffer_.reset();
}

void OutputFile::commit() {
  finish();
  // The target is checked again: what appeared there meanwhile is not replaced.
  if (const std::string problem = output_problem(target_, inputs_); !problem.empty()) fail(problem);
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    fail("cannot replace " + target_.string() + ": " + errno_text(errno));
  temp_.clear();
  unregister_temporary(slot_);
  slot_ = -1;
  if (durability_ == Durability::Synced) {
    // The rename itself reaches the disk with the folder.
    const int dir = ::open(folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }
}

void remove_temporaries_now() noexcept { unlink_live_slots(); }

void write_file(const fs::path& target, std::string_view bytes, Durability durability,
                std::span<const fs::path> inputs) {
  OutputFile out(target, durability, inputs);
  out.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.commit();
}

}  // namespace threadmap
