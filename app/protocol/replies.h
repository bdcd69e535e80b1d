#pragma once
// The worker's replies (docs/cli.md, "serve"): every request gets one final
// line, a "result" or an "error", after any "progress" lines.
//
//   {"id": 7, "type": "progress", "compiling": "compiling ... (first use; ...)"}
//   {"id": 7, "type": "progress", "done": 1, "total": 4, "result": {run report}}
//   {"id": 7, "type": "result", "result": {...}}        the request's Result
//   {"id": 7, "type": "error", "status": "invalid", "error": "tile=12 is not allowed: ..."}
//
// The worker writes them with the *_line functions, the client reads them
// with read_reply_line() and read_result()/read_progress(). Run reports are
// kernels/core/report.h's RunReport.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/protocol/requests.h"
#include "app/protocol/wire.h"
#include "kernels/analysis/exercises.h"
#include "kernels/analysis/problems.h"
#include "kernels/analysis/summary.h"
#include "kernels/pack/catalog.h"
#include "kernels/core/device.h"
#include "kernels/core/peers.h"
#include "kernels/core/report.h"

namespace threadmap::protocol {

// The result of each request type.
struct PingResult {
  std::string version;          // the worker's threadmap-cli version
  std::optional<int> protocol;  // none: a worker older than protocol versions
};
using DevicesResult = std::vector<BackendReport>;
// "list": the catalog as `threadmap-cli list --format json` prints it. A
// client has the catalog built in, so only the worker writes this one.
struct ListResult {
  CatalogView catalog;
};
// "run": the RunReport itself (a ScannedRun with "problems"). "copy": a CopyReport.
struct SweepResult {
  std::string kernel;
  DeviceInfo device;
  std::vector<RunReport> results;  // the points run, in order
  std::size_t total = 0;           // the points asked for
  bool cancelled = false;
};
struct RecordResult {
  std::string session;  // the session file's path (streamed: its name alone; the file is gone)
  std::uint64_t bytes = 0;
  bool verified = false;  // the timed run and the traced run both
  double record_ms = 0;
  std::vector<std::pair<std::string, double>> phases_ms;  // where the time went, in order
  // Asked for an exercise (RecordRequest::exercise): the source run at each
  // of its other sizes; none when the recording did not verify.
  std::optional<std::vector<SizeCheck>> sizes;
};
struct CancelResult {
  RequestId target;
  bool found = false;  // whether a request with that id was queued or running
};
struct QuitResult {};
// "counters": what `threadmap-cli counters` prints, made where the trace is
// (a trace of every block stays on the worker's machine).
struct CountersBatches {  // a grid traced in batches of blocks (kernels/engine/grid_count.h)
  std::uint64_t count = 0;
  std::uint64_t records_per_batch = 0;  // the room each batch had
  std::uint64_t largest_records = 0;    // the most access records one batch held
  std::uint64_t access_runs = 0;
  double record_ms = 0;
  std::map<std::string, double> phases_ms;  // summed over the batches
};
struct CountersSummary {
  std::string kernel_id;
  DeviceInfo device;
  ReportParameters params;
  bool verified = false;  // the traced run's output matched the CPU reference
  analysis::Summary analysis;
  std::optional<CountersBatches> batches;  // none: traced whole
};
// Its JSON: the analysis summary's fields with the kernel, device, params,
// verified and batches; the counters reply's "summary", and what `counters
// --format json` prints. blocks_placeholder: as analysis::to_json(Summary).
nlohmann::json counters_json(const CountersSummary& summary, const char* blocks_placeholder = nullptr);
struct CountersResult {
  CountersSummary summary;
  std::string text;       // the text summary, as `counters` prints it
  bool verified = false;  // the traced run's output matched the CPU reference
};
// "check": the grading's seed and one row per submission, in order.
using CheckSize = SizeCheck;  // the submission run once at another of the exercise's sizes
struct CheckTrace {                        // what the traced run measured, once the submission compiled
  std::map<std::string, double> counters;  // each goal term's metric, measured
  std::vector<std::string> reasons;        // each goal term not met, as a learner reads it
  std::vector<std::string> problems;       // what the trace shows, a line each
};
struct CheckRow {
  std::string file;
  bool compiled = false;
  bool verified = false;
  bool goal_met = false;
  // "goal met", "goal not met", "not verified", "not compiled", "failed",
  // "crashed", "timed out", "no device" or "unreadable".
  std::string status;
  std::optional<std::string> error;   // why the goal was not met, or what went wrong
  std::optional<std::string> device;  // the device's name and spec, once it opened
  std::optional<std::string> device_spec;
  std::optional<CheckTrace> trace;
  std::optional<std::vector<CheckSize>> sizes;  // none: not run at the other sizes
  std::optional<double> median_ms;              // the timed run's, where it ran
  std::optional<double> gbps;
};
struct CheckResult {
  std::uint64_t seed = 0;
  std::vector<CheckRow> submissions;
};
// The check reply's JSON, {seed, submissions}: its "result" body, and what
// `check --format json` prints beside the exercise, its goal and sizes.
nlohmann::json check_json(const CheckResult& result);
// One row's JSON, and a row read back from it (ProtocolError naming a
// malformed field): how a grading process hands its row to the one that
// started it.
nlohmann::json check_row_json(const CheckRow& row);
CheckRow read_check_row(const nlohmann::json& row);
// "doctor": what `threadmap-cli doctor` found, as its --format json prints it.
struct DoctorKernel {  // one build of a catalog kernel for one target
  std::string variant;
  std::string kernel;
  std::string build;  // "timed", "traced" or "clock pass"
  bool compiled = false;
  bool unavailable = false;  // the variant cannot run there (not a failure)
  bool cached = false;
  double compile_ms = 0;
  std::string error;  // one line, where it did not compile
};
struct DoctorTarget {  // an architecture named with --arch, or a device present
  std::string name;    // "sm_86", "cuda:0", "opencl:0:0"
  std::string backend;
  std::string detail;
  std::string cuda_target;  // sm_XY or compute_XY, where NVRTC could compile
  std::string problem;      // why nothing could be compiled there
  std::uint64_t compiled = 0;
  std::vector<DoctorKernel> kernels;
};
struct DoctorIcd {
  std::string file;
  std::string library;
};
struct DoctorNvrtc {
  bool available = false;
  std::string version;
  std::vector<int> architectures;
  std::string reason;
  std::string cache_dir;
};
struct DoctorResult {
  std::vector<BackendReport> backends;
  std::string opencl_icd_folder;
  std::vector<DoctorIcd> opencl_icds;
  DoctorNvrtc nvrtc;
  std::vector<DoctorTarget> targets;
  std::uint64_t jobs = 0;  // builds per target
  double seconds = 0;
  bool ok = false;  // everything asked for compiled
};
// The doctor report's JSON: its "result" body, and `doctor --format json`.
nlohmann::json doctor_json(const DoctorResult& report);
// "run" with "problems": the report and, where the run completed, the
// problems scan beside it (kernels/analysis/problems.h).
struct ScannedRun {
  RunReport report;
  // None: the run did not complete (or an older worker ignored the ask).
  std::optional<analysis::ProblemsScan> problems;
};
// Its JSON, the report's fields with the scan under "problems": its "result"
// body, and what `run --format json` prints.
nlohmann::json scanned_run_json(const ScannedRun& run);
// "bench": the measurements `threadmap-cli bench` prints (its percentages
// are worked out from these where they are printed).
struct BenchResult {
  DeviceInfo device;
  int reps = 0;
  int warmup = 0;
  CopyReport device_copy;              // a device-to-device copy of the copy kernel's bytes
  std::vector<RunReport> results;      // every catalog kernel, in the catalog's order
  std::vector<PeerMeasurement> peers;  // cuBLAS and CUB, on a CUDA device
};

// "pack": the pack's name and the ids of the variants it added.
struct PackResult {
  std::string pack;
  std::vector<std::string> variants;
};

using Result =
    std::variant<PingResult, DevicesResult, ListResult, RunReport, CopyReport, SweepResult, RecordResult, CancelResult,
                 QuitResult, CountersResult, CheckResult, DoctorResult, ScannedRun, BenchResult, PackResult>;

// What a "progress" line says: a kernel compiled on first use, or one point
// of a sweep.
struct CompileNotice {
  std::string message;
};
struct SweepPoint {
  std::size_t done = 0;
  std::size_t total = 0;
  RunReport result;
};
// The timed work waits for another ThreadMap process on the same device
// (kernels/engine/timing_lock.h): "waiting for the GPU: 2 runs ahead".
struct WaitNotice {
  std::string message;
};
// A streamed recording (RecordRequest::stream): `bytes` of the session file
// from `offset`, of `total`. The chunks come in order, before the result.
struct SessionChunk {
  std::uint64_t offset = 0;
  std::uint64_t total = 0;
  std::string bytes;
};
inline constexpr std::size_t kSessionChunkBytes = std::size_t{1} << 20;  // 1 MiB a line (1.4 MiB as base64)
using Progress = std::variant<CompileNotice, SweepPoint, WaitNotice, SessionChunk>;

// An "error" reply's status (wire.h: kBadRequest, ...) and message.
struct ErrorReply {
  std::string status;
  std::string message;
};

// --- The worker's side: each returns one line's object (protocol::encode_line writes it).
nlohmann::json result_line(const RequestId& id, const Result& result);
nlohmann::json progress_line(const RequestId& id, const Progress& progress);
nlohmann::json error_line(const RequestId& id, const ErrorReply& error);
// progress_line(id, chunk) already encoded, written without building its
// JSON: a recording's megabytes of base64 need no escaping, and a JSON
// string of that size costs more to write than the link takes to carry it.
std::string chunk_line(const RequestId& id, const SessionChunk& chunk);

// --- The client's side.
enum class ReplyKind { Progress, Result, Error };

// A reply line's envelope: whose it is, which kind, and its body (the
// "result" of a result, the whole line of a progress) or its error.
struct ReplyLine {
  RequestId id;
  ReplyKind kind = ReplyKind::Error;
  nlohmann::json body;
  ErrorReply error;
};

// Empty for a line that is no reply (not a JSON object with an "id"). A
// "type" other than progress or result reads as an error.
std::optional<ReplyLine> read_reply_line(const std::string& line);
// The result `request` asked for, read from a result reply's body. Throws
// ProtocolError naming what is malformed.
Result read_result(const Request& request, const nlohmann::json& body);
// A progress line's content. Throws ProtocolError naming what is malformed.
Progress read_progress(const nlohmann::json& line);

// An "unknown op" error from a worker older than the op `request` needs:
// one line saying to upgrade threadmap-cli on `host`; empty for any other error.
std::string missing_op_problem(const Request& request, const ErrorReply& error, const std::string& host,
                               const std::string& worker_version);

// Empty when the worker speaks this protocol (its ping result says so),
// else a message saying which versions the two speak and what to do.
std::string version_problem(const PingResult& ping);

}  // namespace threadmap::protocol
