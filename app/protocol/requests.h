#pragma once
// The worker's requests (docs/cli.md, "serve"): one type per op, and their
// JSON both ways. The GUI builds these and the worker reads them; neither
// names a field of the wire itself.
//
//   {"id": 7, "op": "run", "kernel": "transpose.shared", "device": "opencl:0:0",
//    "params": {"tile": "16"}, "reps": 10, "warmup": 1}   <->   RunRequest
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/protocol/wire.h"
#include "kernels/core/params.h"
#include "kernels/core/run.h"

namespace threadmap::protocol {

// A learner's version of the kernel: its text, and a file name whose
// extension is the device's dialect (.cl, .cu).
struct LearnerSource {
  std::string text;
  std::string name = "learner.cl";
  // Seconds its kernels may run (compiling and waiting for the GPU not
  // counted), as run --timeout: past them the worker answers "stopped" and
  // ends itself, so a looping kernel never holds the device. 0: no limit.
  double timeout = 0;
};

// What run, sweep and record share: which kernel, where, with what, how often.
struct KernelRun {
  std::string kernel;
  std::string device = "auto";
  std::map<std::string, std::string> params;  // NAME -> VALUE, as --set takes them
  int reps = RunOptions{}.repetitions;
  int warmup = RunOptions{}.warmup;
  std::optional<std::uint64_t> seed;    // none: the engine's
  std::optional<LearnerSource> source;  // none: the catalog's kernel
};

// The blocks a recording traces: `all`, the `ids` listed (x + gridX * y), or
// (neither) the few that show the pattern.
struct TracedBlocks {
  bool all = false;
  std::vector<std::uint32_t> ids;
};

// The client's protocol version travels too, so the worker can refuse a
// client of another one (none: a client older than versions, served as ever).
struct PingRequest {
  std::optional<int> protocol = kVersion;
};
struct DevicesRequest {};
struct ListRequest {};
struct RunRequest : KernelRun {
  RunRequest() = default;
  explicit RunRequest(KernelRun run) : KernelRun(std::move(run)) {}
  bool device_copy = false;  // also measure a device copy of half the ideal bytes
  // `run --problems`: after the timed run, a traced one (the first blocks and
  // the last) and the problems its trace shows; the result is a ScannedRun.
  bool problems = false;
};
struct CopyRequest {
  std::string device = "auto";
  std::uint64_t bytes = 0;
  int reps = RunOptions{}.repetitions;
  int warmup = RunOptions{}.warmup;
};
struct SweepRequest : KernelRun {
  SweepRequest() = default;
  explicit SweepRequest(KernelRun run) : KernelRun(std::move(run)) {}
  std::vector<SweepAxis> vary;  // the cartesian product of these
};
struct RecordRequest : KernelRun {
  RecordRequest() = default;
  explicit RecordRequest(KernelRun run) : KernelRun(std::move(run)) {}
  TracedBlocks blocks;
  std::optional<std::string> folder;  // none: the system temp folder
  bool scratch = false;               // read once and thrown away: not flushed to disk
  // The session's bytes come back in progress lines (SessionChunk) and no
  // file is kept on the worker's machine: a worker reached through ssh.
  bool stream = false;
  // A learner's answer to this exercise (the id): once the recording
  // verified, the source runs once at each of the exercise's other sizes
  // (RecordResult::sizes), as `check` runs it, so the Exercise tab grades
  // with the same runs (grade_exercise).
  std::optional<std::string> exercise;
};
struct CancelRequest {
  RequestId target;  // a queued or running request's id
};
struct QuitRequest {};
// `threadmap-cli counters`: the blocks traced (blocks.all, the CLI's default)
// and their memory counters totalled. reps and warmup are not used.
struct CountersRequest : KernelRun {
  CountersRequest() = default;
  explicit CountersRequest(KernelRun run) : KernelRun(std::move(run)) {}
  TracedBlocks blocks{true, {}};
};
// A learner's submission as the grader named it (the path given to `check`,
// read on the client's side) and its text. The name's extension is the dialect.
struct Submission {
  std::string file;
  std::string text;
};
// `threadmap-cli check`: the submissions graded against an exercise's goal,
// each in a process of its own stopped after `timeout` seconds.
struct CheckRequest {
  std::string exercise;
  std::string device = "auto";
  std::vector<Submission> submissions;
  double timeout = 10;
  int reps = 5;
  std::optional<std::uint64_t> seed;  // none: a fresh one, said in the result
};
// `threadmap-cli doctor`: what compiles where, on the worker's machine.
struct DoctorRequest {
  std::string architectures;  // "sm_75,sm_86", or empty for the devices present
};
// `threadmap-cli bench`: every catalog kernel run at one size (0: the
// catalog's defaults), `params` given to each kernel that has the parameter,
// beside a device-to-device copy (and, on CUDA, cuBLAS and CUB).
struct BenchRequest {
  std::string device = "auto";
  std::int64_t size = 0;
  std::map<std::string, std::string> params;  // NAME -> VALUE, as bench --set takes them
  int reps = RunOptions{}.repetitions;
  int warmup = RunOptions{}.warmup;
  std::optional<std::uint64_t> seed;  // none: the engine's
};

// A pack (docs/packs.md) whose variants join the worker's catalog for as long
// as it runs: the manifest's text and each kernel file it names, by the name
// it gives, so a worker on another machine needs none of the pack's files.
// `folder` names the pack in messages and kernel file names (the client's).
struct PackRequest {
  std::string folder;
  std::string manifest;
  std::map<std::string, std::string> files;
};

using Request =
    std::variant<PingRequest, DevicesRequest, ListRequest, RunRequest, CopyRequest, SweepRequest, RecordRequest,
                 CancelRequest, QuitRequest, CountersRequest, CheckRequest, DoctorRequest, BenchRequest, PackRequest>;

std::string_view op_name(const Request& request);
std::string op_names();  // "ping, devices, ...", for messages and help
// The seconds a request's learner kernel may run (its source's timeout), or 0.
double source_timeout(const Request& request);

// A request line's id: null where it has none (id_problem says whether it
// is one a reply can carry).
RequestId id_of(const nlohmann::json& line);
// The request's line as JSON, with its id.
nlohmann::json to_json(const Request& request, const RequestId& id);
// A request line's object (its "id" already accepted) as its Request.
// Throws ProtocolError naming the field that is missing or of the wrong type,
// or the op that does not exist; whether a kernel or device exists is the
// worker's to check.
Request parse_request(const nlohmann::json& line);
// What the worker says of a record's "folder" that is not an existing folder.
std::string folder_problem(const nlohmann::json& folder);

}  // namespace threadmap::protocol
