#pragma once
// The CLI's subcommands. Each returns the process exit code.
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <map>

#include <nlohmann/json.hpp>

#include "app/protocol/replies.h"
#include "app/protocol/requests.h"
#include "kernels/pack/catalog.h"
#include "kernels/engine/devices.h"
#include "kernels/core/report.h"
#include "kernels/engine/runner.h"
#include "kernels/engine/record.h"
#include "kernels/analysis/exercises.h"
#include "kernels/analysis/problems.h"

namespace threadmap::cli {

// Exit codes (documented in docs/cli.md and `threadmap-cli --help`).
enum ExitCode : int {
  kExitOk = 0,             // every run verified
  kExitNotVerified = 1,    // a run completed but its output did not match the CPU reference
  kExitInvalid = 2,        // bad usage, parameter, kernel id, device spec or launch configuration
  kExitDeviceFailure = 3,  // the backend or device failed (build error, launch error, lost device)
  kExitUnavailable = 4,    // the variant cannot run on this device (no shuffles, no double)
  kExitStopped = 5,        // a --source run ran past --timeout or crashed, and was stopped
};

struct RunArgs {
  std::string device = "auto";
  std::vector<std::string> sets;  // NAME=VALUE
  int reps = 20;
  int warmup = 2;
  std::string format = "text";
  std::uint64_t seed = 20261122;
  std::string source;             // --source FILE: a learner's version of the kernel
  double timeout = 10;            // --timeout SECONDS for a --source run
  std::string problems = "auto";  // run --problems: on, off, auto (with --source)
};

// trace_sets: NAME=VALUE for the traced run only, over args.sets.
int record_command(const std::string& kernel, const RunArgs& args, const std::string& blocks, std::uint64_t capacity,
                   const std::string& output, const std::vector<std::string>& trace_sets = {});
// `batch_records`: none, batches sized to memory; 0, every block in one
// traced run; N, batches of at most N access records.
int counters_command(const std::string& kernel, const RunArgs& args, const std::string& blocks,
                     std::optional<std::uint64_t> batch_records = std::nullopt);
int show_command(const std::string& file, const std::string& format);
// Keeps in each session file the built-in kernel text its trace was recorded
// from (keep_kernel_text): for files older than sessions keeping it.
int keep_source_command(const std::vector<std::string>& files);
// dialect: "cuda", "opencl", or empty for the first device's.
int source_command(const std::string& kernel, const std::string& dialect);
// The exercises (kernels/analysis/exercises.h), in a language where translated.
int exercises_command(const std::string& format, const std::string& language);
// Grades each FILE against an exercise's goal, each in a process of its own:
// compiled, verified, the goal's counters, goal met, median time, GB/s. Exit
// 0 only when every file met the goal.
// Each is verified with one seed (chosen_seed, else a fresh random one) at the
// exercise's size and at its verify_at sizes.
int check_command(const std::string& exercise, const std::vector<std::string>& files, const std::string& device,
                  const std::string& format, double timeout, int reps,
                  std::optional<std::uint64_t> chosen_seed = std::nullopt);
// One exercise text graded in this process on `device_spec`: traced (every
// block) at the exercise's size for the goal's counters, verified at its
// other sizes, then timed `reps` times; all with `seed`. Its row, but for the
// file's name. `check` runs it in a process per file; `pack check` grades a
// pack's starts and solutions with it.
// A submission run once at each of the exercise's other sizes (verify_at),
// with the grading's seed: a kernel fitted to the one size or to the inputs
// it is traced on fails there. `check` and the worker's exercise recordings
// (RecordRequest::exercise) run it; grade_exercise reads it.
std::vector<SizeCheck> verify_sizes(const Exercise& e, const Variant& v, Device& device, const std::string& text,
                                    const std::string& name, std::uint64_t seed);
protocol::CheckRow grade(const Exercise& e, const std::string& text, const std::string& name,
                         const std::string& device_spec, int reps, std::uint64_t seed);
// architectures: "sm_75,sm_86" (no GPU needed), or empty for the devices present.
int doctor_command(const std::string& architectures, const std::string& format);

// A learner's file, read whole. InvalidRequest naming the file when it is a
// folder, cannot be read, is empty, or is not text (holds a NUL byte).
// A kernel's text is at most this long (a learner's file, a submission).
inline constexpr std::uint64_t kMaxKernelTextBytes = std::uint64_t{4} << 20;
std::string read_text_file(const std::string& file);
// --source FILE: its text and file name (empty without one); InvalidRequest
// as read_text_file's.
std::pair<std::string, std::string> read_source_file(const RunArgs& args);
// A --source run's device work goes to a child process (sandbox.h), stopped
// after args.timeout; without --source, body() runs here.
int maybe_isolated(const RunArgs& args, const std::function<int()>& body);

// Every backend and device, as `devices` prints them (text or json).
int print_devices(const std::vector<BackendReport>& backends, const std::string& format);

// Shared by the subcommands.
// The problems a trace of `traced_blocks` blocks shows (kernels/analysis/problems.h),
// one a line, or "none".
void print_problems(const analysis::ProblemList& problems, std::size_t traced_blocks, std::ostream& os);
void error(const std::string& message);  // "threadmap-cli: error: ..." on stderr
// "threadmap-cli: waiting for the GPU: N runs ahead" on stderr, and the
// sandbox's watchdog told (RunOptions::on_wait).
WaitNotice wait_notice();
// Where wait_notice() says its lines: stderr, or (empty sink) stderr again;
// a worker sends them as progress replies.
void set_wait_sink(std::function<void(const std::string&)> sink);
// A learner's run stopped past its --timeout by a remote worker, which said
// so and ended itself (kExitStopped, as a local child stopped).
class RunStopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs a command's body, turning what it throws into a message and an exit
// code: 2 a bad request (InvalidRequest, SessionError, OutputError), 3 a
// device failure (DeviceError, ReportError, malformed JSON), 4 unavailable,
// 5 a learner's kernel stopped past its timeout (RunStopped).
int guarded(const std::function<int()>& body);
// The exit code a run's status stands for (kExitOk for a run that completed).
int exit_code_for(RunStatus status);
const Variant& variant_or_throw(const std::string& id);
std::vector<std::pair<std::string, std::string>> parse_assignments(const std::vector<std::string>& sets);

int devices_command(const std::string& format);
int list_command(const std::string& format);
int run_command(const std::string& kernel, const RunArgs& args);
int sweep_command(const std::string& kernel, const RunArgs& args, const std::vector<std::string>& vary);

// --- What a command shares with its --remote form (remote_commands.h).

// The exit code a run's report stands for.
int exit_code_for(const RunReport& r);

// run --problems: whether a traced run follows the timed one (on; auto with --source).
bool problems_wanted(const RunArgs& args);
// That traced run (the first blocks and the last) and the problems its trace
// shows, or why it failed.
// Where a learner's OpenCL C text has a barrier not every work-item may
// reach (opencl/cl_instrument.h), as a sentence; empty where it has none or
// is not OpenCL C. What a crashed or hung run on a CPU device is told.
std::string divergent_barrier_note(const Variant& v, const Params& params, const std::string& text,
                                   const std::string& name);
analysis::ProblemsScan scan_problems(Device& device, const Variant& v, const Params& params, const RunOptions& options);
// run's output (text, csv or json) from its report and the problems scan
// where one was made; `host` names a remote worker in the text's heading. A
// run that did not complete is said on stderr. Returns the exit code.
int print_run(const RunReport& r, const std::optional<analysis::ProblemsScan>& problems, const std::string& format,
              const std::string& host = "");

// A sweep's points, checked before any run: --set and --vary read, the
// cartesian product of the axes, in the order they run.
struct SweepPlan {
  const Variant* variant = nullptr;
  std::vector<std::pair<std::string, std::string>> base;  // --set
  std::vector<SweepAxis> axes;                            // --vary
  std::vector<std::vector<std::pair<std::string, std::string>>> points;
};
SweepPlan plan_sweep(const std::string& kernel, const std::vector<std::string>& sets,
                     const std::vector<std::string>& vary);
// The sweep's rows (text, csv or json); `host` names a remote worker in the
// text's heading. Returns the exit code of the worst row.
int print_sweep(const SweepPlan& plan, const DeviceInfo& device, const std::vector<RunReport>& results,
                const std::string& format, const std::string& host = "");

// "[3/10] what" on stderr, once a command has taken more than a second.
class StepProgress {
 public:
  explicit StepProgress(std::size_t total) : total_(total) {}
  ~StepProgress();
  StepProgress(const StepProgress&) = delete;
  StepProgress& operator=(const StepProgress&) = delete;
  void step(std::size_t done, const std::string& what);

 private:
  using Clock = std::chrono::steady_clock;
  std::size_t total_;
  Clock::time_point start_ = Clock::now();
  bool shown_ = false;
};
// The error a run's status stands for (InvalidRequest, Unavailable, DeviceError).
[[noreturn]] void throw_run_error(RunStatus status, const std::string& message);

// counters: `v` traced on `device` and its memory counters totalled, as the
// command prints them (text and json). Throws the engine's errors.
protocol::CountersResult count_memory(Device& device, const Variant& v, const Params& params, TraceOptions options);
int print_counters_result(const protocol::CountersResult& counters, const std::string& format);

// doctor: the report as --format json prints it, and either form of it printed.
protocol::DoctorResult doctor_report(const std::string& architectures);
int print_doctor(const protocol::DoctorResult& report, const std::string& format);

// check: the submissions graded, each in a process of its own, on the
// machine that runs this (the worker's, with --remote). Throws for an unknown
// exercise or a device that cannot be opened.
protocol::CheckResult grade_submissions(const protocol::CheckRequest& request);
// The submitted files read on this side: the readable ones to grade, a row
// for each other by its place among the files.
struct ReadSubmissions {
  std::vector<protocol::Submission> readable;
  std::map<std::size_t, protocol::CheckRow> unreadable;
  // Every file's row, in the order given: `graded` are the readable ones'.
  std::vector<protocol::CheckRow> rows(const std::vector<protocol::CheckRow>& graded) const;
};
ReadSubmissions read_submissions(const std::vector<std::string>& files);
int print_check(const std::string& exercise, const std::vector<protocol::CheckRow>& rows, std::uint64_t seed,
                const std::string& format);

// A sweep's progress: the point about to run, by its values.
class SweepProgress : StepProgress {
 public:
  explicit SweepProgress(const SweepPlan& plan) : StepProgress(plan.points.size()), plan_(plan) {}
  void starting(std::size_t point);

 private:
  const SweepPlan& plan_;
};
int bench_command(const RunArgs& args, std::int64_t size);
// bench: what the command measures, as a worker sends it too. `step(done,
// what)` comes before each measurement (catalog().size() + 1 of them).
// Throws InvalidRequest for a --set no kernel has, or a size out of range.
protocol::BenchRequest bench_request(const RunArgs& args, std::int64_t size);
protocol::BenchResult measure_bench(Device& device, const protocol::BenchRequest& request, WaitNotice on_wait,
                                    const std::function<void(std::size_t, const std::string&)>& step = {});
// Its table (text or csv) or json; `host` names a remote worker in the text's
// heading. Returns the exit code of the worst row (unavailable ones aside).
int print_bench(const protocol::BenchResult& bench, const std::string& format, const std::string& host = "");

}  // namespace threadmap::cli
