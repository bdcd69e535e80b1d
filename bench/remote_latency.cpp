// The slider loop through ssh against the same loop on this machine: a run
// request to its reply, N times, on a warm worker started locally and on one
// started through a real OpenSSH server on 127.0.0.1 (tests/remote/
// start_sshd.sh). Then a large recording streamed back through ssh against
// the link's own throughput (ssh ... head -c BYTES /dev/zero). Prints the
// medians and the rates. Needs openssh-server; `--help` for the options.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/remote.h"
#include "app/protocol/remote.h"
#include "app/protocol/replies.h"
#include "app/protocol/requests.h"

using namespace threadmap;
using Clock = std::chrono::steady_clock;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Sends `request` as `id` and reads lines until its result or error; the
// bytes of the lines read, through `bytes`.
// `first_chunk`: when the first line of a streamed recording came.
bool exchange(cli::LineProcess& worker, const protocol::Request& request, int id, std::uint64_t* bytes = nullptr,
              Clock::time_point* first_chunk = nullptr) {
  if (!worker.write_line(protocol::encode_line(protocol::to_json(request, id)))) return false;
  for (;;) {
    const auto line = worker.read_line(std::chrono::minutes(10));
    if (!line) return false;
    if (bytes) *bytes += line->size();
    if (first_chunk && *first_chunk == Clock::time_point{} && line->find("\"chunk\"") != std::string::npos)
      *first_chunk = Clock::now();
    const auto reply = protocol::read_reply_line(*line);
    if (!reply || reply->id != id) continue;
    if (reply->kind == protocol::ReplyKind::Result) return true;
    if (reply->kind == protocol::ReplyKind::Error) {
      std::fprintf(stderr, "error: %s\n", reply->error.message.c_str());
      return false;
    }
  }
}

std::vector<double> slider_loop(cli::LineProcess& worker, int rounds) {
  protocol::RunRequest run;
  run.kernel = "smem.setRowReadCol";
  run.device = "opencl:0:0";
  run.reps = 3;
  run.warmup = 1;
  exchange(worker, protocol::PingRequest{}, 1);
  exchange(worker, run, 2);  // warm: the device opened, the program built
  std::vector<double> ms;
  for (int i = 0; i < rounds; ++i) {
    const auto start = Clock::now();
    if (!exchange(worker, run, 10 + i)) break;
    ms.push_back(ms_since(start));
  }
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 30;
  std::string record_width = "1024";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--rounds") rounds = std::atoi(argv[i + 1]);
    if (a == "--record-width") record_width = argv[i + 1];
  }
  if (argc > 1 && std::string(argv[1]) == "--help") {
    std::puts("remote_latency [--rounds N] [--record-width W]: the slider loop local vs through ssh to 127.0.0.1");
    return 0;
  }
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("threadmap_bench_sshd_" + std::to_string(getpid()))).string();
  if (std::system(("bash " THREADMAP_SOURCE_DIR "/tests/remote/start_sshd.sh " + dir + " >/dev/null").c_str()) != 0) {
    std::fprintf(stderr, "no sshd: install openssh-server\n");
    return 2;
  }
  const std::string ssh = read_file(dir + "/ssh_command");
  const auto target = protocol::parse_remote_target("127.0.0.1:" + read_file(dir + "/port"));
  setenv("THREADMAP_REMOTE_COMMAND", THREADMAP_CLI " serve", 1);

  cli::LineProcess local({THREADMAP_CLI, "serve"});
  const double local_ms = median(slider_loop(local, rounds));
  cli::LineProcess remote(protocol::ssh_argv(target, ssh));
  const double remote_ms = median(slider_loop(remote, rounds));
  std::printf(
      "slider loop (run smem.setRowReadCol on opencl:0:0, %d rounds): local median %.2f ms, through ssh %.2f ms, "
      "difference %.2f ms\n",
      rounds, local_ms, remote_ms, remote_ms - local_ms);

  // The link: bytes through the same ssh, as fast as it carries them; then
  // a recording streamed back, timed from its first chunk to its result.
  // Three of each, alternating, and their medians: the machine's other work
  // moves either.
  constexpr std::uint64_t kLinkBytes = 100'000'000;
  auto argv_link = protocol::ssh_argv(target, ssh);
  argv_link.back() = "head -c " + std::to_string(kLinkBytes) + " /dev/zero";
  std::string command;
  for (const auto& word : argv_link) command += "'" + word + "' ";
  protocol::RecordRequest record;
  record.kernel = "transpose.shared";
  record.device = "opencl:0:0";
  record.params = {{"width", record_width}, {"height", record_width}};
  record.reps = 1;
  record.warmup = 0;
  record.blocks.all = true;
  record.stream = true;
  std::vector<double> link_rates, file_rates;
  double file_mb = 0;
  for (int round = 0; round < 3; ++round) {
    const auto link_start = Clock::now();
    if (std::system((command + "> /dev/null").c_str()) != 0) std::fprintf(stderr, "the link test failed\n");
    link_rates.push_back(kLinkBytes / 1e6 / (ms_since(link_start) / 1000));
    std::uint64_t line_bytes = 0;
    Clock::time_point first_chunk{};
    if (!exchange(remote, record, 1000 + round, &line_bytes, &first_chunk))
      std::fprintf(stderr, "the recording failed\n");
    file_mb = line_bytes * 0.75 / 1e6;  // base64: 4 characters carry 3 bytes
    file_rates.push_back(file_mb / (ms_since(first_chunk) / 1000));
  }
  std::printf("link (ssh head -c 100 MB /dev/zero): median %.0f MB/s of 3\n", median(link_rates));
  std::printf(
      "recording streamed (transpose.shared %sx%s, all blocks, %.1f MB file): median %.0f MB/s of the file "
      "from its first chunk to its result, %.0f%% of the link\n",
      record_width.c_str(), record_width.c_str(), file_mb, median(file_rates),
      100 * median(file_rates) / median(link_rates));
  std::system(("kill $(cat " + dir + "/sshd.pid) 2>/dev/null").c_str());
  std::error_code ignored;  // sshd removes its pid file as it goes
  std::filesystem::remove_all(dir, ignored);
  return 0;
}
