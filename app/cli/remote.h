#pragma once
// The CLI's side of a remote worker (app/protocol/remote.h): the ssh
// process, spoken to in lines.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace threadmap::cli {

// A child process whose stdin takes request lines and whose stdout gives
// reply lines; its stderr is kept (the last lines), to say why it ended.
class LineProcess {
 public:
  // DeviceError naming argv[0] when it cannot be started.
  explicit LineProcess(const std::vector<std::string>& argv);
  ~LineProcess();
  LineProcess(const LineProcess&) = delete;
  LineProcess& operator=(const LineProcess&) = delete;

  // False when the process no longer reads (it ended).
  bool write_line(const std::string& line);
  // The next line of its stdout, without the newline; nullopt when it ended,
  // or when `timeout` passed with no line. Output that runs on past twice a
  // request line's limit with no newline comes back as one line.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);
  // Whether its stdout is still open (read_line's nullopt was a timeout).
  bool output_open() const { return out_ >= 0; }
  // What it wrote on stderr, its last 4 KiB.
  std::string error_text();
  // Closes its stdin and waits for it (at most `grace`, then kills it);
  // its exit status as waitpid gives it.
  int finish(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

 private:
  void drain_stderr();
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string pending_;  // stdout read past the last whole line
  std::string stderr_;
  bool ended_ = false;
  int status_ = 0;
};

}  // namespace threadmap::cli
