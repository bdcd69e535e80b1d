#include "app/cli/remote_commands.h"

#include <sys/wait.h>

#include <cstdlib>
#include <random>
#include <thread>
#include <iostream>
#include <optional>
#include <variant>
#include <sstream>

#include "app/cli/output.h"
#include "app/cli/remote.h"
#include "app/cli/sandbox.h"
#include "app/cli/table.h"
#include "app/protocol/remote.h"
#include "app/protocol/replies.h"
#include "app/protocol/requests.h"
#include "kernels/core/error.h"
#include "kernels/core/output_file.h"
#include "kernels/core/report.h"

namespace threadmap::cli {

namespace {

using Clock = std::chrono::steady_clock;
// How long the worker may go without a line: a traced run of a large grid
// can take minutes, but a silent ssh is a lost connection long before an hour.
constexpr std::chrono::minutes kReplyTimeout{60};
// How long the handshake may take: ssh connecting, the worker starting and
// answering "ping" (THREADMAP_HANDSHAKE_TIMEOUT seconds, else 30).
std::chrono::milliseconds handshake_timeout() {
  if (const char* env = std::getenv("THREADMAP_HANDSHAKE_TIMEOUT"); env && *env) {
    char* end = nullptr;
    const double seconds = std::strtod(env, &end);
    if (end && *end == '\0' && seconds > 0 && seconds <= 3600)
      return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
  }
  return std::chrono::seconds(30);
}
// Connections a busy server drops before the key exchange are tried this
// many times in all (docs/classroom.md: MaxStartups).
constexpr int kConnectAttempts = 6;

// Whether ssh's last words say the server closed the connection before the
// login: a full MaxStartups, not a refused key or an unknown host.
bool dropped_before_login(const std::string& ssh_stderr) {
  return ssh_stderr.find("kex_exchange_identification") != std::string::npos ||
         ssh_stderr.find("Connection reset by peer") != std::string::npos ||
         (ssh_stderr.find("Connection closed by") != std::string::npos &&
          ssh_stderr.find("Permission denied") == std::string::npos);
}

// Lines in a row that are not replies of this protocol before the client
// gives up on the worker (a login banner is a few; `yes` is endless).
constexpr int kMaxStrayLines = 100;

// A worker that stopped a learner's kernel ends itself, and frees the device
// only as its process ends: the client waits for that (the ssh connection
// closing), up to this long, so the next run finds the device free. A loaded
// server took over 2 s to end one whose kernel spun on every core.
constexpr std::chrono::seconds kEndingWorkerWait{15};

// One connection to a remote worker: ssh started, the protocol versions
// checked, then one request at a time.
class RemoteWorker {
 public:
  explicit RemoteWorker(const RemoteArgs& args) : target_(protocol::parse_remote_target(args.target)) {
    // A server busy with many new connections at once (OpenSSH's MaxStartups:
    // 10 unauthenticated, then dropped at random) closes some before the key
    // exchange: those are tried again, a few times, after a growing pause.
    for (int attempt = 1;; ++attempt) {
      ssh_.reset();
      ssh_.emplace(protocol::ssh_argv(target_, args.ssh_command));
      try {
        const auto ping = std::get<protocol::PingResult>(call(protocol::PingRequest{}, {}, handshake_timeout()));
        if (const std::string problem = protocol::version_problem(ping); !problem.empty())
          throw InvalidRequest("on " + target_.host + ", " + problem);
        version_ = ping.version;
        connected_ = true;
        return;
      } catch (const DeviceError&) {
        if (attempt == kConnectAttempts || !dropped_before_login(ssh_->error_text())) throw;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250 << attempt) +
                                  std::chrono::milliseconds(std::random_device{}() % 250));
    }
  }
  ~RemoteWorker() {
    if (worker_ending_) {
      ssh_->finish(kEndingWorkerWait);
      return;
    }
    ssh_->write_line(protocol::encode_line(protocol::to_json(protocol::Request(protocol::QuitRequest{}), next_id_)));
    ssh_->finish();
  }

  const std::string& host() const { return target_.host; }
  const std::string& version() const { return version_; }

  // The request's result; progress lines go to `on_progress`. A worker error
  // reply throws what the local command would have thrown.
  // A request whose learner kernel has a time limit waits that long, its
  // compile allowance and a minute more; others up to kReplyTimeout.
  protocol::Result call(const protocol::Request& request,
                        const std::function<void(const protocol::Progress&)>& on_progress,
                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    const int id = next_id_++;
    if (!ssh_->write_line(protocol::encode_line(protocol::to_json(request, id)))) lost();
    if (!timeout) {
      const double limit = protocol::source_timeout(request);
      const Limits limits = limits_for(limit);
      timeout = limit > 0 ? std::chrono::milliseconds(static_cast<long long>(
                                (limits.run_s + limits.compile_s + 60) * 1000))
                          : std::chrono::duration_cast<std::chrono::milliseconds>(kReplyTimeout);
    }
    try {
      return read_until_final(request, id, on_progress, *timeout);
    } catch (const protocol::ProtocolError& e) {  // a reply this client cannot read: one line, exit 3
      throw DeviceError("the worker on " + host() + " sent a reply this threadmap-cli cannot read: " + e.what());
    }
  }

 private:
  protocol::Result read_until_final(const protocol::Request& request, int id,
                                    const std::function<void(const protocol::Progress&)>& on_progress,
                                    std::chrono::milliseconds timeout) {
    int stray = 0;  // lines in a row that are no reply of this protocol
    std::string first_stray;
    for (;;) {
      const auto line = ssh_->read_line(timeout);
      if (!line) {
        if (!ssh_->output_open()) lost();
        silent(request, timeout);
      }
      const auto reply = protocol::read_reply_line(*line);
      if (!reply) {
        if (stray++ == 0) first_stray = *line;
        if (stray >= kMaxStrayLines) garbled(first_stray);
        continue;
      }
      stray = 0;
      if (reply->id != id) continue;
      if (reply->kind == protocol::ReplyKind::Progress) {
        if (on_progress) on_progress(protocol::read_progress(reply->body));
        continue;
      }
      if (reply->kind == protocol::ReplyKind::Result) return protocol::read_result(request, reply->body);
      if (const std::string older = protocol::missing_op_problem(request, reply->error, host(), version_);
          !older.empty())
        throw InvalidRequest(older);
      throw_error(reply->error);
    }
  }

  // The connection ended. Before the handshake, why ssh could not connect;
  // after it, that a working connection was lost, which is not the same
  // advice (the server answered: nothing there needs setting up).
  [[noreturn]] void lost() {
    const int status = ssh_->finish();
    if (connected_) throw DeviceError(protocol::lost_connection_text(target_.host, ssh_->error_text(), status));
    throw DeviceError(protocol::remote_failure_text(target_.host, ssh_->error_text(), status));
  }

  // The worker said nothing for `timeout`: the connection is ended (the
  // worker, its output gone, ends itself) and the client says which wait.
  [[noreturn]] void silent(const protocol::Request& request, std::chrono::milliseconds timeout) {
    ssh_->finish(std::chrono::milliseconds(500));
    const std::string seconds = std::to_string(timeout.count() / 1000);
    if (std::holds_alternative<protocol::PingRequest>(request))
      throw DeviceError("the worker on " + host() + " did not answer the handshake within " + seconds +
                        " s: is `threadmap-cli serve` what the ssh command starts there, and does it start? "
                        "(THREADMAP_HANDSHAKE_TIMEOUT sets the wait)");
    throw DeviceError("the worker on " + host() + " sent nothing for " + seconds +
                      " s: the connection was ended (the worker, its client gone, ends itself)");
  }

  // Lines that are no replies, kMaxStrayLines in a row: not a ThreadMap worker.
  [[noreturn]] void garbled(const std::string& first) {
    ssh_->finish(std::chrono::milliseconds(500));
    throw DeviceError("the worker on " + host() + " sent " + std::to_string(kMaxStrayLines) +
                      " lines in a row that are not ThreadMap replies, the first: '" +
                      printable(protocol::excerpt(first)) +
                      "': is `threadmap-cli serve` what the ssh command starts there?");
  }

  [[noreturn]] void throw_error(const protocol::ErrorReply& e) {
    if (e.status == protocol::kStopped) {
      worker_ending_ = true;
      throw RunStopped(e.message);
    }
    if (e.status == protocol::kUnavailable) throw Unavailable(e.message);
    if (e.status == protocol::kDeviceFailure) throw DeviceError(e.message);
    throw InvalidRequest(e.message);
  }

  protocol::RemoteTarget target_;
  std::string version_;      // the worker's threadmap-cli version
  bool connected_ = false;  // the handshake was answered
  bool worker_ending_ = false;  // it stopped a learner's kernel: it ends itself
  std::optional<LineProcess> ssh_;
  int next_id_ = 1;
};

// Compiling and waiting for the GPU, said on stderr as a local run says them.
void say_progress(const protocol::Progress& progress) {
  if (const auto* notice = std::get_if<protocol::CompileNotice>(&progress))
    std::cerr << "threadmap-cli: " << printable(notice->message) << '\n';
  if (const auto* wait = std::get_if<protocol::WaitNotice>(&progress))
    std::cerr << "threadmap-cli: " << printable(wait->message) << '\n';
}

// The catalog is the worker's too (the versions match): an unknown kernel is
// said here, in the words the local command uses.
protocol::KernelRun kernel_run(const std::string& kernel, const RunArgs& args) {
  variant_or_throw(kernel);
  protocol::KernelRun run;
  run.kernel = kernel;
  run.device = args.device;
  for (const auto& [name, value] : parse_assignments(args.sets)) run.params[name] = value;
  run.reps = args.reps;
  run.warmup = args.warmup;
  run.seed = args.seed;
  if (!args.source.empty()) {
    const auto [text, name] = read_source_file(args);
    // The worker stops it past --timeout, as a local child is stopped.
    run.source = protocol::LearnerSource{text, name, args.timeout};
  }
  return run;
}

std::vector<std::uint32_t> block_ids(const std::string& blocks) {
  std::vector<std::uint32_t> ids;
  std::stringstream ss(blocks);
  for (std::string item; std::getline(ss, item, ',');) {
    try {
      std::size_t used = 0;
      const unsigned long id = std::stoul(item, &used);
      if (used != item.size() || id > UINT32_MAX) throw std::invalid_argument(item);
      ids.push_back(static_cast<std::uint32_t>(id));
    } catch (const std::exception&) {
      throw InvalidRequest("--blocks " + blocks + ": '" + item + "' is not a block number");
    }
  }
  return ids;
}

// A sweep point arrived: kept, and the next one is running.
std::function<void(const protocol::Progress&)> sweep_progress(SweepProgress& progress,
                                                               std::vector<RunReport>& finished) {
  return [&progress, &finished](const protocol::Progress& p) {
    if (const auto* point = std::get_if<protocol::SweepPoint>(&p)) {
      finished.push_back(point->result);
      progress.starting(point->done);
    } else {
      say_progress(p);
    }
  };
}

}  // namespace

int remote_devices_command(const RemoteArgs& remote, const std::string& format) {
  return guarded([&] {
    RemoteWorker worker(remote);
    const auto backends = std::get<protocol::DevicesResult>(worker.call(protocol::DevicesRequest{}, say_progress));
    if (format != "json") std::cout << "Devices of " << printable(worker.host()) << ":\n";
    return print_devices(backends, format);
  });
}

int remote_run_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args) {
  return guarded([&]() -> int {
    protocol::RunRequest request{kernel_run(kernel, args)};
    request.problems = problems_wanted(args);
    RemoteWorker worker(remote);
    const protocol::Result result = worker.call(request, say_progress);
    if (const auto* report = std::get_if<RunReport>(&result))
      return print_run(*report, std::nullopt, args.format, worker.host());
    const auto& scanned = std::get<protocol::ScannedRun>(result);
    if (scanned.report.ok() && !scanned.problems)
      std::cerr << "threadmap-cli: the worker on " << printable(worker.host()) << " (threadmap-cli "
                << printable(worker.version()) << ") does not look for problems: upgrade threadmap-cli on "
                << printable(worker.host()) << " to this one's version (" THREADMAP_VERSION ")\n";
    return print_run(scanned.report, scanned.problems, args.format, worker.host());
  });
}

int remote_bench_command(const RemoteArgs& remote, const RunArgs& args, std::int64_t size) {
  return guarded([&] {
    const protocol::BenchRequest request = bench_request(args, size);
    RemoteWorker worker(remote);
    const auto bench = std::get<protocol::BenchResult>(worker.call(request, say_progress));
    return print_bench(bench, args.format, worker.host());
  });
}

int remote_sweep_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args,
                         const std::vector<std::string>& vary) {
  return guarded([&] {
    const SweepPlan plan = plan_sweep(kernel, args.sets, vary);
    protocol::SweepRequest request{kernel_run(kernel, args)};
    request.vary = plan.axes;
    RemoteWorker worker(remote);
    SweepProgress progress(plan);
    progress.starting(0);
    std::vector<RunReport> finished;  // the points that came back, kept if the sweep ends early
    // The finished points printed, and the error's line saying so.
    const auto keep_finished = [&](const std::exception& e) {
      print_sweep(plan, finished.front().device, finished, args.format, worker.host());
      return std::string(e.what()) + "; the " + std::to_string(finished.size()) + " of " +
             std::to_string(plan.points.size()) + " points that finished before are printed: sweep again for the rest";
    };
    try {
      const auto swept = std::get<protocol::SweepResult>(worker.call(request, sweep_progress(progress, finished)));
      return print_sweep(plan, swept.device, swept.results, args.format, worker.host());
    } catch (const DeviceError& e) {  // the connection lost
      if (finished.empty()) throw;
      throw DeviceError(keep_finished(e));
    } catch (const RunStopped& e) {  // a learner's kernel stopped past --timeout, the worker with it
      if (finished.empty()) throw;
      throw RunStopped(keep_finished(e));
    }
  });
}

int remote_counters_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args,
                            const std::string& blocks) {
  return guarded([&] {
    protocol::CountersRequest request{kernel_run(kernel, args)};
    request.blocks.all = blocks == "all";
    if (!request.blocks.all) request.blocks.ids = block_ids(blocks);
    RemoteWorker worker(remote);
    return print_counters_result(std::get<protocol::CountersResult>(worker.call(request, say_progress)), args.format);
  });
}

int remote_check_command(const RemoteArgs& remote, const std::string& exercise, const std::vector<std::string>& files,
                         const std::string& device, const std::string& format, double timeout, int reps,
                         std::optional<std::uint64_t> seed) {
  return guarded([&] {
    const ReadSubmissions read = read_submissions(files);
    RemoteWorker worker(remote);
    const protocol::CheckRequest request{exercise, device, read.readable, timeout, reps, seed};
    const auto graded = std::get<protocol::CheckResult>(worker.call(request, say_progress));
    return print_check(exercise, read.rows(graded.submissions), graded.seed, format);
  });
}

int remote_doctor_command(const RemoteArgs& remote, const std::string& architectures, const std::string& format) {
  return guarded([&] {
    RemoteWorker worker(remote);
    const auto doctor =
        std::get<protocol::DoctorResult>(worker.call(protocol::DoctorRequest{architectures}, say_progress));
    if (format != "json") std::cout << "On " << printable(worker.host()) << ":\n";
    return print_doctor(doctor, format);
  });
}

int remote_record_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args,
                          const std::string& blocks, const std::string& output) {
  return guarded([&]() -> int {
    std::vector<std::filesystem::path> inputs;
    if (!args.source.empty()) inputs.emplace_back(args.source);
    if (const std::string problem = output_problem(output, inputs); !problem.empty()) throw InvalidRequest(problem);
    protocol::RecordRequest request{kernel_run(kernel, args)};
    request.blocks.all = blocks == "all";
    if (!blocks.empty() && blocks != "all") request.blocks.ids = block_ids(blocks);
    request.stream = true;
    RemoteWorker worker(remote);
    // The file is written whole or not at all (OutputFile), as it arrives.
    OutputFile file(output, Durability::Synced, inputs);
    std::uint64_t received = 0;
    const auto started = Clock::now();
    auto last_said = started;
    const auto result = std::get<protocol::RecordResult>(worker.call(request, [&](const protocol::Progress& p) {
      const auto* chunk = std::get_if<protocol::SessionChunk>(&p);
      if (!chunk) return say_progress(p);
      if (chunk->offset != received) throw DeviceError("the recording from " + worker.host() + " arrived out of order");
      file.stream().write(chunk->bytes.data(), static_cast<std::streamsize>(chunk->bytes.size()));
      received += chunk->bytes.size();
      if (Clock::now() - last_said > std::chrono::seconds(1)) {
        last_said = Clock::now();
        std::cerr << "threadmap-cli: receiving the recording: " << received / 1000 << " of " << chunk->total / 1000
                  << " kB\n";
      }
    }));
    if (received != result.bytes)
      throw DeviceError("the recording from " + worker.host() + " came incomplete: " + std::to_string(received) +
                        " of " + std::to_string(result.bytes) + " bytes");
    file.commit();
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    std::cout << "recorded " << kernel << " on " << printable(worker.host()) << " into " << printable(output) << " ("
              << received << " bytes, " << fixed(seconds, 1) << " s)" << (result.verified ? "" : ", NOT verified")
              << '\n';
    return result.verified ? kExitOk : kExitNotVerified;
  });
}

}  // namespace threadmap::cli
