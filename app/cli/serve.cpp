#include "app/cli/serve.h"
#include "kernels/cuda/cuda_backend.h"

#include <CLI/CLI.hpp>

#include <malloc.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/session_builder.h"
#include "kernels/bounded_json.h"
#include "kernels/catalog.h"
#include "kernels/devices.h"
#include "kernels/error.h"
#include "kernels/report.h"
#include "kernels/runner.h"
#include "kernels/session.h"
#include "kernels/trace.h"
#include "viz/analysis/analysis.h"

namespace threadmap::cli {

namespace {

using nlohmann::json;

// The limits of one request line (docs/cli.md, "serve"). A learner's kernel
// source travels inside a line, so a line may be long, but not unbounded.
constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;  // 16 MiB
constexpr std::size_t kMaxDepth = 64;                          // nesting of arrays and objects
constexpr std::size_t kMaxIdBytes = 256;                       // a string id
constexpr std::size_t kReadChunk = std::size_t{64} << 10;      // a line is read in pieces this big
constexpr std::size_t kMaxEcho = 200;                          // bytes of the input quoted in a message

// A request that cannot be served as asked; becomes an "error" reply.
struct BadRequest {
  std::string status;  // "bad-request", "invalid", "device-failure"
  std::string message;
};

// One line from stdin: a request to serve, or the error reply it gets.
struct Incoming {
  json request;         // an object whose "id" and "op" are usable, unless `problem` says otherwise
  json id;              // the reply's id: null when the line has none that can be used
  std::string op;
  BadRequest problem;   // status empty: none
  std::uint64_t seq = 0;      // its place in the input, when it has an id a cancel can name
  bool cancel_found = false;  // a cancel: whether its target was queued or running when it was read
  bool end_of_input = false;
};

// At most kMaxEcho bytes of `text`, for quoting what a request sent in a message.
std::string excerpt(const std::string& text) {
  return text.size() <= kMaxEcho ? text : text.substr(0, kMaxEcho) + "...";
}

std::string shown(const json& value) { return excerpt(value.dump()); }

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
      if (!too_long && line.size() + stored > kMaxLineBytes) {
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

// --- Parsing a line: nesting bounded while parsing (DepthBoundedSax), so a deep line stops early.

// The line as JSON, or a BadRequest saying why not (invalid UTF-8 is bad JSON).
json parse_json(const std::string& line) {
  json j;
  DepthBoundedSax sax(j, kMaxDepth);
  bool parsed = false;
  try {
    parsed = json::sax_parse(line, &sax, json::input_format_t::json, true);
  } catch (const json::exception& e) {
    throw BadRequest{"bad-request", "bad JSON: " + excerpt(e.what())};
  }
  if (sax.too_deep())
    throw BadRequest{"bad-request", "bad JSON: nested deeper than " + std::to_string(kMaxDepth) +
                                        " levels, the limit of a request"};
  if (!parsed || sax.is_errored())
    throw BadRequest{"bad-request", "bad JSON: " + excerpt(sax.message())};
  return j;
}

// Why `id` cannot be a request's id, or "" when it can.
std::string id_problem(const json& id) {
  if (id.is_null() || id.is_number() || (id.is_string() && id.get_ref<const std::string&>().size() <= kMaxIdBytes))
    return "";
  return "\"id\" must be a number, a string of at most " + std::to_string(kMaxIdBytes) +
         " bytes, or null; got " + shown(id);
}

// `request[name]` as text, `fallback` when absent; anything else is a bad request naming it.
std::string text_field(const json& request, const char* name, const std::string& fallback) {
  const auto it = request.find(name);
  if (it == request.end()) return fallback;
  if (!it->is_string())
    throw BadRequest{"bad-request", std::string("\"") + name + "\" must be text (a JSON string); got " + shown(*it)};
  return it->get<std::string>();
}

// `request[name]` as true or false, `fallback` when absent.
bool flag_field(const json& request, const char* name, bool fallback) {
  const auto it = request.find(name);
  if (it == request.end()) return fallback;
  if (!it->is_boolean())
    throw BadRequest{"bad-request", std::string("\"") + name + "\" must be true or false; got " + shown(*it)};
  return it->get<bool>();
}

// A line as a request: a JSON object with a usable "id" and a text "op".
Incoming parse_request(const std::string& line) {
  Incoming item;
  try {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      throw BadRequest{"bad-request", "empty line: a request is a JSON object on one line, e.g. "
                                      "{\"id\": 1, \"op\": \"ping\"}"};
    json request = parse_json(line);
    if (!request.is_object())
      throw BadRequest{"bad-request", "a request is a JSON object, e.g. {\"id\": 1, \"op\": \"ping\"}"};
    const json id = request.contains("id") ? request["id"] : json();
    if (const std::string problem = id_problem(id); !problem.empty()) throw BadRequest{"bad-request", problem};
    item.id = id;
    item.op = text_field(request, "op", "");
    item.request = std::move(request);
  } catch (const BadRequest& e) {
    item.problem = e;
  } catch (const std::exception& e) {  // e.g. out of memory: still this line's one reply
    item.problem = {"bad-request", excerpt(e.what())};
  }
  return item;
}

Incoming too_long_line() {
  Incoming item;
  item.problem = {"bad-request", "the line is longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB (" +
                                     std::to_string(kMaxLineBytes) +
                                     " bytes), the limit of a request; it was read and thrown away"};
  return item;
}

// Why `target` cannot name a request to cancel, or "" when it can.
std::string target_problem(const json& request) {
  const auto target = request.find("target");
  if (target != request.end() && !target->is_null() && id_problem(*target).empty()) return "";
  return "cancel needs \"target\": the id (a number or a string of at most " + std::to_string(kMaxIdBytes) +
         " bytes) of a queued or running request" + (target == request.end() ? "" : "; got " + shown(*target));
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
  bool cancel(const json& target) {
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
    const bool usable = item.problem.status.empty();
    if (usable && item.op == "cancel" && target_problem(item.request).empty())
      item.cancel_found = inbox.cancel(item.request["target"]);
    const bool quit = usable && item.op == "quit";
    inbox.push(std::move(item));
    if (quit) break;
  }
  Incoming end;
  end.end_of_input = true;
  inbox.push(std::move(end));
}

class Worker {
 public:
  Worker(std::ostream& out, const Inbox& inbox) : out_(out), inbox_(inbox) {}

  ~Worker() { set_cuda_compile_notice({}); }  // it names this worker

  // Writes the item's one final reply (after any progress replies), whatever
  // happens. Returns false when the worker should stop.
  bool serve(const Incoming& item) {
    try {
      if (!item.problem.status.empty()) {
        reply_error(item.id, item.problem);
        return true;
      }
      if (item.op != "cancel" && item.op != "quit" && inbox_.is_cancelled(item)) {
        reply_error(item.id, {"cancelled", "cancelled before it started"});
        return true;
      }
      return dispatch(item);
    } catch (const BadRequest& e) {
      reply_error(item.id, e);
    } catch (const InvalidRequest& e) {
      reply_error(item.id, {"invalid", e.what()});
    } catch (const DeviceError& e) {
      reply_error(item.id, {"device-failure", e.what()});
    } catch (const SessionError& e) {
      reply_error(item.id, {"invalid", e.what()});
    } catch (const std::exception& e) {
      reply_error(item.id, {"bad-request", e.what()});
    }
    return true;
  }

 private:
  bool dispatch(const Incoming& item) {
    const json& id = item.id;
    const std::string& op = item.op;
    const json& request = item.request;
    // A kernel compiled on first use takes a moment: the GUI says so meanwhile.
    set_cuda_compile_notice([this, id](const std::string& message) {
      write({{"id", id}, {"type", "progress"}, {"compiling", message}});
    });
    if (op == "quit") {
      reply(id, json{{"bye", true}});
      return false;
    }
    if (op == "ping") reply(id, json{{"pong", true}, {"version", THREADMAP_VERSION}});
    else if (op == "devices") reply(id, devices());
    else if (op == "list") reply(id, list());
    else if (op == "run") reply(id, run(request));
    else if (op == "copy") reply(id, copy(request));
    else if (op == "sweep") reply(id, sweep(item));
    else if (op == "record") reply(id, record(request));
    else if (op == "cancel") reply(id, cancel(item));
    else
      throw BadRequest{"bad-request", "unknown op '" + excerpt(op) +
                                          "'; ops: ping, devices, list, run, copy, sweep, "
                                          "record, cancel, quit"};
    return true;
  }

  void reply_error(const json& id, const BadRequest& e) {
    write({{"id", id}, {"type", "error"}, {"status", e.status}, {"error", e.message}});
  }

  void reply(const json& id, json result) {
    write({{"id", id}, {"type", "result"}, {"result", std::move(result)}});
  }

  // The one place replies are written. Bytes that are not UTF-8 (a message
  // quoting a bad request) become U+FFFD instead of an exception.
  void write(const json& line) {
    out_ << line.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
  }

  // The reader marked the target when it read the cancel; "found": whether a
  // request with that id was queued or running then.
  static json cancel(const Incoming& item) {
    if (const std::string problem = target_problem(item.request); !problem.empty())
      throw BadRequest{"bad-request", problem};
    return {{"cancelled", item.request["target"]}, {"found", item.cancel_found}};
  }

  static json devices() {
    json j = json::array();
    for (const BackendReport& b : list_backends()) j.push_back(to_json(b));
    return j;
  }

  // The catalog does not change while the process runs: described once.
  static const json& list() {
    static const json described = [] {
      json j = json::array();
      for (const Variant& v : catalog()) j.push_back(to_json(v));
      return j;
    }();
    return described;
  }

  // Opened devices stay open: contexts and compiled programs are reused.
  Device& device_for(const json& request) {
    const std::string spec = text_field(request, "device", "auto");
    auto it = devices_.find(spec);
    if (it == devices_.end()) it = devices_.emplace(spec, open_device(spec)).first;
    return *it->second;
  }

  static const Variant& variant_for(const json& request) {
    const std::string id = text_field(request, "kernel", "");
    if (const Variant* v = find_variant(id)) return *v;
    throw InvalidRequest("unknown kernel '" + excerpt(id) + "'; the \"list\" request shows the catalog");
  }

  static std::string value_text(const std::string& name, const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
    if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
    throw BadRequest{"invalid", "parameter " + excerpt(name) + "=" + shown(value) +
                                    " must be a whole number or a name (\"float\")"};
  }

  static std::vector<std::pair<std::string, std::string>> assignments(const json& request) {
    std::vector<std::pair<std::string, std::string>> out;
    const json params = request.value("params", json::object());
    if (!params.is_object())
      throw BadRequest{"bad-request", "\"params\" must be an object, e.g. {\"tile\": 32}"};
    for (const auto& [name, value] : params.items()) out.emplace_back(name, value_text(name, value));
    return out;
  }

  static int bounded(const json& request, const char* name, int fallback, int low, int high) {
    const json value = request.value(name, json(fallback));
    if (!value.is_number_integer() || value.get<std::int64_t>() < low ||
        value.get<std::int64_t>() > high)
      throw BadRequest{"invalid", std::string(name) + "=" + shown(value) + " is out of range: " +
                                      name + " must be a whole number from " + std::to_string(low) +
                                      " to " + std::to_string(high)};
    return value.get<int>();
  }

  static RunOptions options_for(const json& request) {
    RunOptions o;
    o.repetitions = bounded(request, "reps", o.repetitions, 1, 100000);
    o.warmup = bounded(request, "warmup", o.warmup, 0, 1000);
    if (const auto seed = request.find("seed"); seed != request.end()) {
      if (!seed->is_number_unsigned())
        throw BadRequest{"invalid", "\"seed\" must be a whole number from 0 to 2^64 - 1; got " + shown(*seed)};
      o.seed = seed->get<std::uint64_t>();
    }
    // A learner's version of the kernel: its text and a file name whose
    // extension is the device's dialect (.cl, .cu). The worker is the process
    // the GUI kills and restarts when such a kernel hangs or crashes it.
    if (request.contains("source")) {
      if (!request["source"].is_string() || request["source"].get<std::string>().empty())
        throw BadRequest{"bad-request", "\"source\" must be the kernel's text"};
      o.source_text = request["source"].get<std::string>();
      o.source_name = text_field(request, "source_name", "learner.cl");
    }
    return o;
  }

  json run(const json& request) {
    const Variant& v = variant_for(request);
    const Params params = make_params(v.params, assignments(request), v.id);
    const RunOptions options = options_for(request);
    const bool device_copy = flag_field(request, "device_copy", false);
    Device& device = device_for(request);
    const RunResult r = run_variant(device, v, params, options);
    json j = to_json(r);
    // The ceiling a chart draws: a device-to-device copy of the same bytes
    // (half the ideal bytes: each byte is read once and written once).
    if (device_copy && r.status == RunStatus::Ok) {
      const std::uint64_t bytes = r.ideal_bytes / 2;
      j["device_copy"] = to_json(measure_device_copy(device, bytes, options), bytes);
    }
    return j;
  }

  json copy(const json& request) {
    const json bytes = request.value("bytes", json());
    if (!bytes.is_number_unsigned() || bytes.get<std::uint64_t>() == 0)
      throw BadRequest{"invalid", "copy needs \"bytes\": a positive whole number"};
    Device& device = device_for(request);
    return to_json(measure_device_copy(device, bytes.get<std::uint64_t>(), options_for(request)),
                   bytes.get<std::uint64_t>());
  }

  // "vary": {"tile": [8, 16, 32], "pad": [0, 1]}: the cartesian product, one
  // progress reply per point, checked against cancel between points.
  json sweep(const Incoming& item) {
    const json& id = item.id;
    const json& request = item.request;
    const Variant& v = variant_for(request);
    const auto base = assignments(request);
    make_params(v.params, base, v.id);
    const json vary = request.value("vary", json::object());
    if (!vary.is_object() || vary.empty())
      throw BadRequest{"bad-request", "sweep needs \"vary\": {\"NAME\": [V1, V2, ...]}"};
    std::vector<SweepAxis> axes;
    for (const auto& [name, values] : vary.items()) {
      if (!values.is_array() || values.empty())
        throw BadRequest{"bad-request", "vary." + excerpt(name) + " must be a non-empty array"};
      SweepAxis axis{name, {}};
      for (const json& value : values) axis.values.push_back(value_text(name, value));
      axes.push_back(std::move(axis));
    }
    const auto points = sweep_points(v.params, axes, v.id);
    const RunOptions options = options_for(request);
    Device& device = device_for(request);
    json results = json::array();
    bool cancelled = false;
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (inbox_.is_cancelled(item)) {
        cancelled = true;
        break;
      }
      auto assigned = base;
      assigned.insert(assigned.end(), points[i].begin(), points[i].end());
      const RunResult r = run_variant(device, v, make_params(v.params, assigned, v.id), options);
      json report = to_json(r);
      write({{"id", id}, {"type", "progress"}, {"done", i + 1}, {"total", points.size()},
             {"result", report}});
      results.push_back(std::move(report));
    }
    return {{"kernel", v.id}, {"device", to_json(device.info())}, {"results", results},
            {"cancelled", cancelled}, {"total", points.size()}};
  }

  // "blocks": "all", [0, 1, 64] (linear ids: x + gridX * y), or absent for
  // the few blocks that show the pattern.
  static TraceOptions trace_options_for(const json& request, std::uint64_t seed) {
    TraceOptions o;
    o.seed = seed;
    const json blocks = request.value("blocks", json());
    if (blocks == "all") {
      o.all_blocks = true;
    } else if (blocks.is_array()) {
      for (const json& b : blocks) {
        if (!b.is_number_unsigned() || b.get<std::uint64_t>() > 0xffffffffULL)
          throw BadRequest{"invalid", "blocks: " + shown(b) +
                                          " is not a block number; give \"all\" or numbers "
                                          "like [0, 1, 64] (block (x, y) is x + gridX * y)"};
        o.blocks.push_back(b.get<std::uint32_t>());
      }
    } else if (!blocks.is_null()) {
      throw BadRequest{"bad-request", "\"blocks\" must be \"all\" or an array of block numbers"};
    }
    return o;
  }

  // Without "folder": the system temp folder. A name planted there is never
  // followed or written over (OutputFile): such a record fails with a message.
  static std::filesystem::path folder_for(const json& request) {
    const json folder = request.value("folder", json());
    if (folder.is_null()) return std::filesystem::temp_directory_path();
    std::error_code error;
    if (!folder.is_string() || !std::filesystem::is_directory(folder.get<std::string>(), error))
      throw BadRequest{"invalid", "folder " + shown(folder) + " is not an existing folder"};
    return folder.get<std::string>();
  }

  // A name no other worker or earlier request of this one uses.
  std::filesystem::path session_path(const std::filesystem::path& folder, const Variant& v) {
    std::string stamp = utc_now();
    std::erase(stamp, ':');
    return folder / (v.id + "-" + stamp + "-" + std::to_string(::getpid()) + "-" +
                     std::to_string(++recordings_) + ".threadmap");
  }

  static void require_ok(RunStatus status, const std::string& error) {
    if (status == RunStatus::Ok) return;
    throw BadRequest{status == RunStatus::Invalid       ? "invalid"
                     : status == RunStatus::Unavailable ? "unavailable"
                                                        : "device-failure",
                     error};
  }

  // The timed run and the traced run, written as one session file (what
  // `threadmap-cli record` writes); the reply names the file.
  // A learner's kernel ("source") is recorded in the catalog's place, its
  // trace hooks put in by ThreadMap (docs/traces.md), and kept in the session.
  json record(const json& request) {
    const Variant& v = variant_for(request);
    const Params params = make_params(v.params, assignments(request), v.id);
    const RunOptions options = options_for(request);
    TraceOptions trace_options = trace_options_for(request, options.seed);
    trace_options.source_text = options.source_text;
    trace_options.source_name = options.source_name;
    const std::filesystem::path folder = folder_for(request);
    // "scratch": the file is read once and its folder removed (the GUI's
    // temporary recordings folder): not flushed to disk first.
    const Durability durability =
        flag_field(request, "scratch", false) ? Durability::Scratch : Durability::Synced;
    Device& device = device_for(request);
    RecordedSession recorded = record_session(device, v, params, options, trace_options);
    require_ok(recorded.status, recorded.error);
    const std::filesystem::path path = session_path(folder, v);
    save_recorded_session(recorded, path, durability);
    json phases = json::array();
    for (const auto& [name, ms] : recorded.phases_ms) phases.push_back({name, ms});
    for (const auto& [name, ms] : recorded.recording.phases_ms) phases.push_back({"traced runs: " + name, ms});
    return {{"session", path.string()},
            {"bytes", std::filesystem::file_size(path)},
            {"verified", recorded.run.verification.verified &&
                             recorded.recording.verification.verified},
            {"record_ms", recorded.recording.record_ms},
            {"phases_ms", phases}};
  }

  std::ostream& out_;
  const Inbox& inbox_;
  std::map<std::string, std::unique_ptr<Device>> devices_;
  int recordings_ = 0;
};

}  // namespace

CLI::App* add_serve_subcommand(CLI::App& app) {
  auto* serve = app.add_subcommand(
      "serve", "worker mode: JSON-line requests on stdin, replies on stdout (docs/cli.md)");
  serve->footer(
      "One request per line, e.g. {\"id\":1,\"op\":\"run\",\"kernel\":\"transpose.shared\","
      "\"params\":{\"tile\":32}}. Ops: ping, devices, list, run, copy, sweep, record, cancel, quit.");
  return serve;
}

int serve_command(std::istream& in, std::ostream& out) {
  // A warm worker keeps the memory it frees: the next recording's buffers
  // (a trace of millions of records is hundreds of MB) reuse pages already
  // mapped instead of faulting in and zeroing fresh ones each request.
  // Large blocks come from the heap, not mmap, and the heap is not trimmed.
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  Inbox inbox;
  Worker worker(out, inbox);
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
