#pragma once
// Every file ThreadMap writes (sessions, exports, charts, CSV and JSON data,
// the learner's profile, the compile cache) goes through OutputFile: written
// whole or not at all, never through a name someone else planted, never over
// what is not a regular file, never over one of the command's own inputs.
//
//   OutputFile out(path, Durability::Synced, {input});  // refuses a bad target
//   out.stream() << ...;                                // or out.fd(), out.fd_path()
//   out.commit();                                       // flushed, renamed over path
//
// The temporary file is created exclusively (O_EXCL, O_NOFOLLOW) in the
// target's folder under an unpredictable name, so it cannot be a symbolic link
// to something else. Until commit() it is removed when the OutputFile is
// destroyed, when the process gets SIGINT, SIGTERM or SIGHUP, and, should the
// process die by a signal that cannot be caught, by the next save into the
// same folder (a temporary file of a process that no longer runs is stale).
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace threadmap {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Synced (every file a user keeps): flushed to disk before it replaces the
// target, so a crash of the machine leaves the old file or the new one.
// Scratch: a file read once by the process that asked for it, in a folder
// removed when that process ends (the GUI's worker recordings), is not flushed.
enum class Durability { Synced, Scratch };

// Why `target` cannot be written, or empty: it exists and is not a regular
// file (a device, FIFO, socket, folder or symbolic link), it is the same file
// as one of `inputs`, or its folder does not exist.
std::string output_problem(const std::filesystem::path& target, std::span<const std::filesystem::path> inputs = {});

class OutputFile {
 public:
  // Throws OutputError when output_problem(target, inputs) is not empty or
  // the temporary file cannot be created. `max_bytes`: writing more than
  // this fails (the stream goes bad; commit() then throws).
  OutputFile(std::filesystem::path target, Durability durability = Durability::Synced,
             std::span<const std::filesystem::path> inputs = {}, std::uint64_t max_bytes = UINT64_MAX);
  OutputFile(std::filesystem::path target, Durability durability, std::initializer_list<std::filesystem::path> inputs,
             std::uint64_t max_bytes = UINT64_MAX)
      : OutputFile(std::move(target), durability, std::span(inputs.begin(), inputs.size()), max_bytes) {}
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // A buffered stream over the temporary file.
  std::ostream& stream();
  // The temporary file's descriptor, for libraries that take one (giflib).
  // Flush stream() first if both are used.
  int fd() const { return fd_; }
  // A name for the temporary file itself (/proc/self/fd/N), for libraries
  // that only take a file name (libavformat, QCustomPlot's PDF): it reaches
  // the file this OutputFile created, whatever happens to names in the folder.
  std::string fd_path() const;
  std::uint64_t bytes_written() const;
  const std::filesystem::path& target() const { return target_; }

  // Flushes (and, Synced, syncs) the file, checks the target again and
  // renames the file over it. Throws OutputError naming what failed (a full
  // disk, the size limit, a target that changed); the temporary file is gone then.
  void commit();
  // commit()'s first half: the file written, flushed, synced and closed, but
  // not yet renamed (stream() and fd() are done with). Many files can wait
  // like this for a commit() each, all or none: a PNG sequence.
  void finish();

 private:
  class Buffer;
  void discard() noexcept;
  [[noreturn]] void fail(const std::string& what);

  std::filesystem::path target_;
  std::filesystem::path temp_;
  Durability durability_;
  std::vector<std::filesystem::path> inputs_;
  int fd_ = -1;
  int slot_ = -1;  // in the signal handler's list of files to remove
  std::uint64_t written_ = 0;  // once finished, what the buffer had written
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

// Removes every temporary file this process's OutputFiles have not committed
// yet, now: for a process about to end without running destructors
// (_Exit), as the SIGINT/SIGTERM/SIGHUP handler does. Async-signal-safe.
void remove_temporaries_now() noexcept;

// `bytes` into `target` through an OutputFile, committed. Throws OutputError.
void write_file(const std::filesystem::path& target, std::string_view bytes, Durability durability = Durability::Synced,
                std::span<const std::filesystem::path> inputs = {});

// The end of a temporary file's name: ".NAME.PID.RANDOM.threadmap-tmp" in
// the target's folder.
inline constexpr std::string_view kTemporarySuffix = ".threadmap-tmp";

}  // namespace threadmap
