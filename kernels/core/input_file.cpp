#include "kernels/core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "kernels/core/error.h"

namespace threadmap {

namespace {

namespace fs = std::filesystem;

// Whether `inner` is `outer` or lies below it (both canonical).
bool inside(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i)
    if (i == inner.end() || *i != *o) return false;
  return true;
}

// Closes the descriptor however the read ends.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string file_kind(unsigned mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

std::string read_input_file(const fs::path& file, std::uint64_t limit, const fs::path& within) {
  const std::string name = file.string();
  std::error_code ec;
  const fs::path real = fs::canonical(file, ec);
  if (ec) throw InvalidRequest("cannot read " + name + " (" + ec.message() + ")");
  const fs::path folder = within.empty() ? (file.has_parent_path() ? file.parent_path() : fs::path(".")) : within;
  const fs::path real_folder = fs::canonical(folder, ec);
  if (ec || !inside(real, real_folder))
    throw InvalidRequest(name + " leads to " + real.string() + ", outside the folder " + folder.string() +
                         ": ThreadMap reads only files inside the folder they are named from");
  // O_NONBLOCK: opening a FIFO with no writer returns at once (and is refused below).
  Descriptor d{::open(real.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (d.fd < 0) throw InvalidRequest("cannot read " + name + " (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(d.fd, &st) != 0) throw InvalidRequest("cannot read " + name + " (" + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode)) throw InvalidRequest(name + " is " + file_kind(st.st_mode) + ", not a file to read");
  if (static_cast<std::uint64_t>(st.st_size) > limit)
    throw InvalidRequest(name + " is " + std::to_string(st.st_size) + " bytes, over the " + std::to_string(limit) +
                         " bytes ThreadMap reads of such a file");
  ::fcntl(d.fd, F_SETFL, ::fcntl(d.fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(d.fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InvalidRequest("cannot read " + name + " (" + std::strerror(errno) + ")");
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
    if (text.size() > limit)
      throw InvalidRequest(name + " grew past the " + std::to_string(limit) + " bytes ThreadMap reads of such a file");
  }
  return text;
}

}  // namespace threadmap
