#include "app/cli/serve.h"
#include "kernels/engine/cuda/cuda_backend.h"

#include <CLI/CLI.hpp>

#include <malloc.h>
#include <poll.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/sandbox.h"
#include "app/cli/session_builder.h"
#include "app/protocol/replies.h"
#include "app/protocol/requests.h"
#include "app/protocol/wire.h"
#include "kernels/pack/catalog.h"
#include "kernels/engine/devices.h"
#include "kernels/core/error.h"
#include "kernels/core/output_file.h"
#include "kernels/pack/manifest.h"
#include "kernels/pack/pack_variants.h"
#include "kernels/core/report.h"
#include "kernels/engine/runner.h"
#include "kernels/core/session.h"
#include "kernels/engine/record.h"
#include "kernels/analysis/analysis.h"

namespace threadmap::cli {

namespace {

using nlohmann::json;
namespace protocol = threadmap::protocol;
using protocol::ErrorReply;
using protocol::ProtocolError;
using protocol::RequestId;

constexpr std::size_t kReadChunk = std::size_t{64} << 10;  // a line is read in pieces this big

// One line from stdin: a request to serve, or the error reply it gets.
struct Incoming {
  RequestId id;                              // the reply's id: null when the line has none that can be used
  std::optional<protocol::Request> request;  // the line as a request, unless a problem says otherwise
  ErrorReply problem;         // the line has no usable id (status empty: none); answered, never cancelled
  ErrorReply refusal;         // the request cannot be served as sent (a field, an op); its id can be cancelled
  std::uint64_t seq = 0;      // its place in the input, when it has an id a cancel can name
  bool cancel_found = false;  // a cancel: whether its target was queued or running when it was read
  bool end_of_input = false;

  template <typename T>
  bool is() const {
    return request && std::holds_alternative<T>(*request);
  }
};

// --- Reading lines: bounded in length, never held whole when too long.

enum class LineRead { Line, TooLong, End };

class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in), chunk_(kReadChunk) {}

  // The next line, without its '\n', into `line`. A line over kMaxLineBytes
  // is read to its end a chunk at a time and thrown away: TooLong.
  LineRead next(std::string& line) {
    line.clear();
    bool too_long = false;
    bool read_any = false;
    for (;;) {
      in_.getline(chunk_.data(), static_cast<std::streamsize>(chunk_.size()));
      const auto count = static_cast<std::size_t>(in_.gcount());
      read_any = read_any || count > 0;
      if (in_.bad() || (in_.eof() && !read_any)) return LineRead::End;
      const bool chunk_full = in_.fail() && !in_.eof();  // no '\n' yet: the line goes on
      const bool has_newline = !in_.fail() && !in_.eof();
      const std::size_t stored = has_newline ? count - 1 : count;
      if (!too_long && line.size() + stored > protocol::kMaxLineBytes) {
        too_long = true;
        std::string().swap(line);
      }
      if (!too_long) line.append(chunk_.data(), stored);
      if (!chunk_full) return too_long ? LineRead::TooLong : LineRead::Line;
      in_.clear();
    }
  }

 private:
  std::istream& in_;
  std::vector<char> chunk_;
};

// A line as a request: a JSON object with a usable "id" (else a problem),
// whose fields make a protocol::Request (else a refusal).
Incoming parse_request(const std::string& line) {
  Incoming item;
  try {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      throw ProtocolError(protocol::kBadRequest,
                          "empty line: a request is a JSON object on one line, e.g. " +
                              protocol::encode_line(protocol::to_json(protocol::PingRequest{}, 1)));
    json request = protocol::parse_line(line);
    if (!request.is_object())
      throw ProtocolError(
          protocol::kBadRequest,
          "a request is a JSON object, e.g. " + protocol::encode_line(protocol::to_json(protocol::PingRequest{}, 1)));
    RequestId id = protocol::id_of(request);
    if (const std::string problem = protocol::id_problem(id); !problem.empty())
      throw ProtocolError(protocol::kBadRequest, problem);
    item.id = std::move(id);
    try {
      item.request = protocol::parse_request(request);
    } catch (const ProtocolError& e) {
      item.refusal = {e.status(), e.what()};
    }
  } catch (const ProtocolError& e) {
    item.problem = {e.status(), e.what()};
  } catch (const std::exception& e) {  // e.g. out of memory: still this line's one reply
    item.problem = {protocol::kBadRequest, protocol::excerpt(e.what())};
  }
  return item;
}

Incoming too_long_line() {
  Incoming item;
  item.problem = {protocol::kBadRequest, "the line is longer than " + std::to_string(protocol::kMaxLineBytes >> 20) +
                                             " MiB (" + std::to_string(protocol::kMaxLineBytes) +
                                             " bytes), the limit of a request; it was read and thrown away"};
  return item;
}

// Lines are read on their own thread so that a "cancel" reaches a queued
// request or a running sweep: the reader marks the target, the worker checks
// before it starts a request and a sweep between points. A mark covers the
// requests with that id queued or running when the cancel was read, and goes
// when the last of them has ended.
class Inbox {
 public:
  void push(Incoming item) {
    {
      std::lock_guard lock(mutex_);
      if (item.problem.status.empty() && !item.id.is_null()) {
        Pending& pending = pending_[item.id.dump()];
        item.seq = ++pushed_;
        pending.last = item.seq;
        ++pending.open;
      }
      queue_.push_back(std::move(item));
    }
    ready_.notify_one();
  }
  Incoming pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return !queue_.empty(); });
    Incoming item = std::move(queue_.front());
    queue_.pop_front();
    return item;
  }
  // Returns whether a request with this id is queued or running.
  bool cancel(const RequestId& target) {
    std::lock_guard lock(mutex_);
    const auto it = pending_.find(target.dump());
    if (it == pending_.end()) return false;
    it->second.cancelled_through = it->second.last;
    return true;
  }
  bool is_cancelled(const Incoming& item) const {
    if (item.seq == 0) return false;
    std::lock_guard lock(mutex_);
    const auto it = pending_.find(item.id.dump());
    return it != pending_.end() && item.seq <= it->second.cancelled_through;
  }
  // After the item's final reply.
  void finished(const Incoming& item) {
    if (item.seq == 0) return;
    std::lock_guard lock(mutex_);
    const auto it = pending_.find(item.id.dump());
    if (it != pending_.end() && --it->second.open == 0) pending_.erase(it);
  }

 private:
  // The requests with one id that are queued or running.
  struct Pending {
    std::uint64_t last = 0;               // the latest one's seq
    std::size_t open = 0;                 // how many
    std::uint64_t cancelled_through = 0;  // those with seq up to this are cancelled
  };

  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Incoming> queue_;
  std::map<std::string, Pending> pending_;  // by the id's JSON text
  std::uint64_t pushed_ = 0;
};

// Every line becomes one item, until "quit" or the end of input; then the end.
void read_requests(std::istream& in, Inbox& inbox) {
  LineReader reader(in);
  std::string line;
  for (LineRead read; (read = reader.next(line)) != LineRead::End;) {
    Incoming item = read == LineRead::TooLong ? too_long_line() : parse_request(line);
    if (item.is<protocol::CancelRequest>())
      item.cancel_found = inbox.cancel(std::get<protocol::CancelRequest>(*item.request).target);
    const bool quit = item.is<protocol::QuitRequest>();
    inbox.push(std::move(item));
    if (quit) break;
  }
  Incoming end;
  end.end_of_input = true;
  inbox.push(std::move(end));
}

// The worker's own watchdog, on a thread of its own. The worker ends itself
// when its client is gone (the output it answers on closed: an ssh connection
// dropped, a window closed) and when a learner's kernel runs past its
// request's source_timeout (the request answered "stopped" first). Ending is
// the one way to stop a kernel looping on a device, and it releases the
// device's timing lock (an flock) for the next run at once.
class WorkerWatchdog {
 public:
  using Stop = std::function<void(const RequestId&, double timeout)>;
  // `output`: the descriptor replies go to, watched for its reader going
  // away (-1: none to watch); `stop` answers the request and ends the
  // process, `gone` ends it (both leave no file of the worker's behind).
  WorkerWatchdog(int output, Stop stop, std::function<void()> gone)
      : output_(output), stop_(std::move(stop)), gone_(std::move(gone)), thread_([this] { loop(); }) {}
  ~WorkerWatchdog() {
    {
      std::lock_guard lock(mutex_);
      quit_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  WorkerWatchdog(const WorkerWatchdog&) = delete;
  WorkerWatchdog& operator=(const WorkerWatchdog&) = delete;

  // A request starts: its learner kernel may run `timeout` seconds (0: no limit).
  void begin(const RequestId& id, double timeout) {
    std::lock_guard lock(mutex_);
    id_ = id;
    timeout_ = timeout;
    started_ = run_seconds();
  }
  void end() {
    std::lock_guard lock(mutex_);
    timeout_ = 0;
  }

 private:
  static bool reader_gone(int fd) {
    pollfd p{fd, 0, 0};
    return ::poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP | POLLNVAL));
  }

  void loop() {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return quit_; })) {
      if (output_ >= 0 && reader_gone(output_)) gone_();
      if (timeout_ > 0 && run_seconds() - started_ > timeout_) stop_(id_, timeout_);
    }
  }

  int output_;
  Stop stop_;
  std::function<void()> gone_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool quit_ = false;
  RequestId id_;
  double timeout_ = 0;
  double started_ = 0;
  std::thread thread_;  // last: it starts once the rest is set
};

class Worker {
 public:
  Worker(std::ostream& out, const Inbox& inbox) : out_(out), inbox_(inbox) {}

  // A learner's kernel ran past its timeout: its request's one reply, then
  // the process ends (on the watchdog's thread; a reply being written is
  // finished first).
  [[noreturn]] void stop(const RequestId& id, double timeout) {
    std::ostringstream seconds;
    seconds << timeout;
    {
      std::lock_guard lock(write_mutex_);
      out_ << protocol::encode_line(protocol::error_line(
                  id, {protocol::kStopped,
                       "the learner's kernel ran past its " + seconds.str() +
                           " s (--timeout) and was stopped: an endless loop in the kernel or a barrier some threads "
                           "never reach (compiling is timed apart, and not counted); the worker ended to stop it "
                           "and free the device"}))
           << '\n'
           << std::flush;
    }
    std::cerr << "threadmap-cli serve: a learner's kernel ran past its " << seconds.str()
              << " s: the worker ends, stopping it\n";
    end_now();
  }

  // The client is gone: nobody reads the replies, so what runs is stopped.
  [[noreturn]] void gone() {
    std::cerr << "threadmap-cli serve: the client is gone (its end of the replies closed): the worker ends, "
                 "stopping what it ran\n";
    end_now();
  }

  void watch(WorkerWatchdog* watchdog) { watchdog_ = watchdog; }

 private:
  // Ends the process at once (a kernel looping on a device stops only so),
  // removing the files it was writing for a client first.
  [[noreturn]] void end_now() {
    remove_temporaries_now();  // first: a session half written when the client went can no longer be renamed in
    {
      std::lock_guard lock(scratch_mutex_);
      std::error_code ignored;
      for (const std::filesystem::path& file : scratch_) std::filesystem::remove(file, ignored);
    }
    std::_Exit(kExitStopped);
  }
  void keep_scratch(const std::filesystem::path& file, bool keep) {
    std::lock_guard lock(scratch_mutex_);
    if (keep) scratch_.insert(file);
    else scratch_.erase(file);
  }

 public:

  ~Worker() { set_cuda_compile_notice({}); }  // it names this worker

  // Writes the item's one final reply (after any progress replies), whatever
  // happens. Returns false when the worker should stop.
  bool serve(const Incoming& item) {
    try {
      if (!item.problem.status.empty()) {
        reply_error(item.id, item.problem);
        return true;
      }
      const bool never_cancelled = item.is<protocol::CancelRequest>() || item.is<protocol::QuitRequest>();
      if (!never_cancelled && inbox_.is_cancelled(item)) {
        reply_error(item.id, {protocol::kCancelled, "cancelled before it started"});
        return true;
      }
      if (!item.refusal.status.empty()) {
        reply_error(item.id, item.refusal);
        return true;
      }
      return dispatch(item);
    } catch (const ProtocolError& e) {
      reply_error(item.id, {e.status(), e.what()});
    } catch (const InvalidRequest& e) {
      reply_error(item.id, {protocol::kInvalid, e.what()});
    } catch (const DeviceError& e) {
      reply_error(item.id, {protocol::kDeviceFailure, e.what()});
    } catch (const Unavailable& e) {
      reply_error(item.id, {protocol::kUnavailable, e.what()});
    } catch (const SessionError& e) {
      reply_error(item.id, {protocol::kInvalid, e.what()});
    } catch (const std::exception& e) {
      reply_error(item.id, {protocol::kBadRequest, e.what()});
    }
    return true;
  }

 private:
  bool dispatch(const Incoming& item) {
    // A kernel compiled on first use takes a moment: the GUI says so meanwhile.
    set_cuda_compile_notice([this, id = item.id](const std::string& message) {
      write(protocol::progress_line(id, protocol::CompileNotice{message}));
    });
    // Another ThreadMap process times on the same device: the client says so.
    wait_notice_ = watch_waits([this, id = item.id](const std::string& message) {
      write(protocol::progress_line(id, protocol::WaitNotice{message}));
    });
    drivers_started_ = drivers_started_ || opens_drivers(*item.request);
    struct Watched {  // the learner's kernel timed from here to the reply
      WorkerWatchdog* watchdog;
      ~Watched() {
        if (watchdog) watchdog->end();
      }
    } watched{watchdog_};
    if (watchdog_) watchdog_->begin(item.id, protocol::source_timeout(*item.request));
    const protocol::Result result =
        std::visit([&](const auto& request) -> protocol::Result { return answer(item, request); }, *item.request);
    write(protocol::result_line(item.id, result));
    return !item.is<protocol::QuitRequest>();
  }

  void reply_error(const RequestId& id, const ErrorReply& e) { write(protocol::error_line(id, e)); }

  // Whether serving `request` starts a device driver in this process.
  static bool opens_drivers(const protocol::Request& request) {
    return !std::holds_alternative<protocol::PingRequest>(request) &&
           !std::holds_alternative<protocol::ListRequest>(request) &&
           !std::holds_alternative<protocol::CancelRequest>(request) &&
           !std::holds_alternative<protocol::QuitRequest>(request) &&
           !std::holds_alternative<protocol::CheckRequest>(request);
  }

  // The one place replies are written (the watchdog's stop aside, which
  // takes the same lock).
  void write(const json& line) {
    std::lock_guard lock(write_mutex_);
    out_ << protocol::encode_line(line) << '\n' << std::flush;
  }

  // --- One answer per request type.

  static protocol::Result answer(const Incoming&, const protocol::PingRequest& ping) {
    // Both sides check: a client of another protocol is told what to install.
    if (ping.protocol && *ping.protocol != protocol::kVersion)
      throw ProtocolError(protocol::kInvalid, "this worker (threadmap-cli " THREADMAP_VERSION ") speaks protocol " +
                                                  std::to_string(protocol::kVersion) +
                                                  " and the client speaks protocol " + std::to_string(*ping.protocol) +
                                                  ": install the same ThreadMap version on both machines");
    return protocol::PingResult{THREADMAP_VERSION, protocol::kVersion};
  }

  static protocol::Result answer(const Incoming&, const protocol::QuitRequest&) { return protocol::QuitResult{}; }

  // A pack's variants join the catalog until the worker ends, read from the
  // request's texts alone (the reader thread never reads the catalog); the
  // same pack sent again (its files edited) replaces them.
  static protocol::Result answer(const Incoming&, const protocol::PackRequest& request) {
    const std::string manifest = (std::filesystem::path(request.folder) / "pack.toml").string();
    const pack::PackManifest m = pack::parse_manifest(request.manifest, manifest, request.folder,
                                                      [&](const std::string& relative) -> std::optional<std::string> {
                                                        const auto file = request.files.find(relative);
                                                        if (file == request.files.end()) return std::nullopt;
                                                        return file->second;
                                                      });
    std::vector<Variant> variants = pack::pack_variants(m);
    std::vector<Exercise> exercises = pack_exercises(m);  // so `check` grades them here too
    check_new_exercises(exercises);
    protocol::PackResult out{m.name, {}};
    for (const Variant& v : variants) out.variants.push_back(v.id);
    update_pack_variants(std::move(variants));
    add_exercises(m.name, std::move(exercises));
    return out;
  }

  static protocol::Result answer(const Incoming&, const protocol::DevicesRequest&) { return list_backends(); }

  static protocol::Result answer(const Incoming&, const protocol::ListRequest&) {
    return protocol::ListResult{catalog()};
  }

  // The reader marked the target when it read the cancel, and noted whether
  // a request with that id was queued or running then.
  static protocol::Result answer(const Incoming& item, const protocol::CancelRequest& cancel) {
    return protocol::CancelResult{cancel.target, item.cancel_found};
  }

  protocol::Result answer(const Incoming&, const protocol::RunRequest& request) {
    const Variant& v = variant_for(request.kernel);
    const Params params = make_params(v.params, assignments(request.params), v.id);
    const RunOptions options = options_for(request);
    Device& device = device_for(request.device);
    const RunResult r = run_variant(device, v, params, options);
    RunReport report = make_report(r, v);
    // The ceiling a chart draws: a device-to-device copy of the same bytes
    // (half the ideal bytes: each byte is read once and written once).
    if (request.device_copy && r.status == RunStatus::Ok) {
      const std::uint64_t bytes = r.ideal_bytes / 2;
      report.device_copy = make_copy_report(measure_device_copy(device, bytes, options), bytes);
    }
    if (!request.problems) return report;
    protocol::ScannedRun scanned{std::move(report), std::nullopt};
    if (r.status == RunStatus::Ok) scanned.problems = scan_problems(device, v, params, options);
    return scanned;
  }

  protocol::Result answer(const Incoming&, const protocol::CopyRequest& request) {
    Device& device = device_for(request.device);
    RunOptions options;
    options.repetitions = request.reps;
    options.warmup = request.warmup;
    options.on_wait = wait_notice_;
    return make_copy_report(measure_device_copy(device, request.bytes, options), request.bytes);
  }

  // The cartesian product of the axes, one progress reply per point, checked
  // against cancel between points.
  protocol::Result answer(const Incoming& item, const protocol::SweepRequest& request) {
    const Variant& v = variant_for(request.kernel);
    const auto base = assignments(request.params);
    make_params(v.params, base, v.id);
    const auto points = sweep_points(v.params, request.vary, v.id);
    const RunOptions options = options_for(request);
    Device& device = device_for(request.device);
    protocol::SweepResult result{v.id, device.info(), {}, points.size(), false};
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (inbox_.is_cancelled(item)) {
        result.cancelled = true;
        break;
      }
      auto assigned = base;
      assigned.insert(assigned.end(), points[i].begin(), points[i].end());
      RunReport report = make_report(run_variant(device, v, make_params(v.params, assigned, v.id), options), v);
      write(protocol::progress_line(item.id, protocol::SweepPoint{i + 1, points.size(), report}));
      result.results.push_back(std::move(report));
    }
    return result;
  }

  // The timed run and the traced run, written as one session file (what
  // `threadmap-cli record` writes); the reply names the file.
  // A learner's kernel ("source") is recorded in the catalog's place, its
  // trace hooks put in by ThreadMap (docs/traces.md), and kept in the session.
  protocol::Result answer(const Incoming& item, const protocol::RecordRequest& request) {
    const Variant& v = variant_for(request.kernel);
    const Params params = make_params(v.params, assignments(request.params), v.id);
    const RunOptions options = options_for(request);
    const TraceOptions trace_options = trace_options_for(request, request.blocks);
    const std::filesystem::path folder = folder_for(request.folder);
    // A scratch file is read once and its folder removed (the GUI's
    // temporary recordings folder): not flushed to disk first.
    const Durability durability = request.scratch ? Durability::Scratch : Durability::Synced;
    // An answer to an exercise this worker does not know is refused before any run.
    const Exercise* exercise = request.exercise ? find_exercise(*request.exercise) : nullptr;
    if (request.exercise && !exercise)
      throw InvalidRequest("there is no exercise '" + protocol::excerpt(*request.exercise) + "'");
    Device& device = device_for(request.device);
    RecordedSession recorded = record_session(device, v, params, options, trace_options);
    if (recorded.status != RunStatus::Ok)
      throw ProtocolError(std::string(status_name(recorded.status)), recorded.error);
    const std::filesystem::path path = session_path(folder, v);
    if (request.stream) keep_scratch(path, true);  // removed once sent, or when the worker ends
    save_recorded_session(recorded, path, request.stream ? Durability::Scratch : durability);
    const std::uint64_t bytes = std::filesystem::file_size(path);
    if (request.stream) stream_file(item.id, path);
    protocol::RecordResult result{request.stream ? path.filename().string() : path.string(),
                                  bytes,
                                  recorded.run.verification.verified && recorded.recording.verification.verified,
                                  recorded.recording.record_ms,
                                  {}};
    for (const auto& [name, ms] : recorded.phases_ms) result.phases_ms.emplace_back(name, ms);
    for (const auto& [name, ms] : recorded.recording.phases_ms)
      result.phases_ms.emplace_back("traced runs: " + name, ms);
    // An exercise's answer runs at its other sizes too, as `check` runs it.
    if (exercise && result.verified)
      result.sizes = verify_sizes(*exercise, v, device, options.source_text, options.source_name, options.seed);
    return result;
  }

  // `threadmap-cli counters`: every traced block's counters, summarised here.
  protocol::Result answer(const Incoming&, const protocol::CountersRequest& request) {
    const Variant& v = variant_for(request.kernel);
    const Params params = make_params(v.params, assignments(request.params), v.id);
    return count_memory(device_for(request.device), v, params, trace_options_for(request, request.blocks));
  }

  // Each submission is graded in a forked process (sandbox.h), which can
  // use a device only when this one has opened none: a driver's threads do
  // not survive a fork. The CLI's --remote check sends it first.
  protocol::Result answer(const Incoming&, const protocol::CheckRequest& request) {
    if (drivers_started_)
      throw ProtocolError(protocol::kInvalid,
                          "check grades in processes of its own, started before this worker "
                          "opens any device: send it to a fresh worker, before other device requests");
    set_wait_sink([this](const std::string& message) { wait_notice_(message); });
    struct Reset {
      ~Reset() { set_wait_sink({}); }
    } reset;
    return grade_submissions(request);
  }

  protocol::Result answer(const Incoming&, const protocol::BenchRequest& request) {
    return measure_bench(device_for(request.device), request, wait_notice_);
  }

  static protocol::Result answer(const Incoming&, const protocol::DoctorRequest& request) {
    return doctor_report(request.architectures);
  }

  // A streamed recording: the file's bytes in progress lines, in order, then
  // the file is removed (it was written to the worker's temp folder only to
  // be sent).
  void stream_file(const RequestId& id, const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::uint64_t total = std::filesystem::file_size(path);
    std::string chunk(protocol::kSessionChunkBytes, '\0');
    std::uint64_t offset = 0;
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
      const auto n = static_cast<std::size_t>(in.gcount());
      {
        std::lock_guard lock(write_mutex_);
        out_ << protocol::chunk_line(id, protocol::SessionChunk{offset, total, chunk.substr(0, n)}) << '\n'
             << std::flush;
      }
      offset += n;
    }
    in.close();
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    keep_scratch(path, false);
    if (offset != total) throw DeviceError("the recording could not be read back to be sent");
  }

  // --- From a request's fields to the engine's values.

  // Opened devices stay open: contexts and compiled programs are reused.
  Device& device_for(const std::string& spec) {
    auto it = devices_.find(spec);
    // Each device tells the watchdog when it builds and when it runs.
    if (it == devices_.end()) it = devices_.emplace(spec, watch_phases(open_device(spec))).first;
    return *it->second;
  }

  static const Variant& variant_for(const std::string& id) {
    if (const Variant* v = find_variant(id)) return *v;
    throw InvalidRequest("unknown kernel '" + protocol::excerpt(id) + "'; the \"" +
                         std::string(protocol::op_name(protocol::ListRequest{})) + "\" request shows the catalog");
  }

  static std::vector<std::pair<std::string, std::string>> assignments(
      const std::map<std::string, std::string>& params) {
    return {params.begin(), params.end()};
  }

  // A learner's version of the kernel travels as its text and a file name
  // whose extension is the device's dialect (.cl, .cu). The worker is the
  // process the GUI kills and restarts when such a kernel hangs or crashes it.
  // The blocks a record or counters request traces, with its seed and text.
  TraceOptions trace_options_for(const protocol::KernelRun& request, const protocol::TracedBlocks& blocks) const {
    const RunOptions run = options_for(request);
    TraceOptions o;
    o.seed = run.seed;
    o.all_blocks = blocks.all;
    o.blocks = blocks.ids;
    o.source_text = run.source_text;
    o.source_name = run.source_name;
    return o;
  }

  RunOptions options_for(const protocol::KernelRun& request) const {
    RunOptions o;
    o.on_wait = wait_notice_;
    o.repetitions = request.reps;
    o.warmup = request.warmup;
    if (request.seed) o.seed = *request.seed;
    if (request.source) {
      o.source_text = request.source->text;
      o.source_name = request.source->name;
    }
    return o;
  }

  // Without a folder: the system temp folder. A name planted there is never
  // followed or written over (OutputFile): such a record fails with a message.
  static std::filesystem::path folder_for(const std::optional<std::string>& folder) {
    if (!folder) return std::filesystem::temp_directory_path();
    std::error_code error;
    if (!std::filesystem::is_directory(*folder, error))
      throw ProtocolError(protocol::kInvalid, protocol::folder_problem(*folder));
    return *folder;
  }

  // A name no other worker or earlier request of this one uses.
  std::filesystem::path session_path(const std::filesystem::path& folder, const Variant& v) {
    std::string stamp = utc_now();
    std::erase(stamp, ':');
    return folder /
           (v.id + "-" + stamp + "-" + std::to_string(::getpid()) + "-" + std::to_string(++recordings_) + ".threadmap");
  }

  std::ostream& out_;
  std::mutex write_mutex_;  // one reply line at a time: the worker's, or the watchdog's stop
  const Inbox& inbox_;
  WorkerWatchdog* watchdog_ = nullptr;
  std::mutex scratch_mutex_;
  std::set<std::filesystem::path> scratch_;  // files written for a client, removed when sent
  std::map<std::string, std::unique_ptr<Device>> devices_;
  WaitNotice wait_notice_;  // the request being served: its "waiting" progress line
  int recordings_ = 0;
  bool drivers_started_ = false;  // a request has opened a device (or listed them) here
};

}  // namespace

CLI::App* add_serve_subcommand(CLI::App& app) {
  auto* serve =
      app.add_subcommand("serve", "worker mode: JSON-line requests on stdin, replies on stdout (docs/cli.md)");
  protocol::RunRequest example;
  example.kernel = "transpose.shared";
  example.params = {{"tile", "32"}};
  serve->footer("One request per line, e.g. " + protocol::encode_line(protocol::to_json(example, 1)) +
                ". Ops: " + protocol::op_names() + ". Protocol " + std::to_string(protocol::kVersion) + ".");
  return serve;
}

int serve_command(std::istream& in, std::ostream& out, int output_fd) {
  // A warm worker keeps the memory it frees: the next recording's buffers
  // (a trace of millions of records is hundreds of MB) reuse pages already
  // mapped instead of faulting in and zeroing fresh ones each request.
  // Large blocks come from the heap, not mmap, and the heap is not trimmed.
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  Inbox inbox;
  Worker worker(out, inbox);
  watch_phases_in_process();
  // A reply written to a client that is gone fails (EPIPE) instead of
  // killing the worker at once: its watchdog then ends it, tidily.
  if (output_fd >= 0) std::signal(SIGPIPE, SIG_IGN);
  WorkerWatchdog watchdog(
      output_fd, [&worker](const RequestId& id, double timeout) { worker.stop(id, timeout); },
      [&worker] { worker.gone(); });
  worker.watch(&watchdog);
  std::thread reader(read_requests, std::ref(in), std::ref(inbox));
  for (bool go_on = true; go_on;) {
    const Incoming item = inbox.pop();
    if (item.end_of_input) break;
    go_on = worker.serve(item);
    inbox.finished(item);
  }
  reader.join();
  return 0;
}

}  // namespace threadmap::cli
