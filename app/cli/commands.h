#pragma once
// The CLI's subcommands. Each returns the process exit code.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/devices.h"
#include "kernels/runner.h"

namespace threadmap::cli {

// Exit codes (documented in docs/cli.md and `threadmap-cli --help`).
enum ExitCode : int {
  kExitOk = 0,            // every run verified
  kExitNotVerified = 1,   // a run completed but its output did not match the CPU reference
  kExitInvalid = 2,       // bad usage, parameter, kernel id, device spec or launch configuration
  kExitDeviceFailure = 3, // the backend or device failed (build error, launch error, lost device)
  kExitUnavailable = 4,   // the variant cannot run on this device (no shuffles, no double)
  kExitStopped = 5,       // a --source run ran past --timeout or crashed, and was stopped
};

struct RunArgs {
  std::string device = "auto";
  std::vector<std::string> sets;   // NAME=VALUE
  int reps = 20;
  int warmup = 2;
  std::string format = "text";
  std::uint64_t seed = 20261122;
  std::string source;      // --source FILE: a learner's version of the kernel
  double timeout = 10;     // --timeout SECONDS for a --source run
};

// trace_sets: NAME=VALUE for the traced run only, over args.sets.
int record_command(const std::string& kernel, const RunArgs& args, const std::string& blocks,
                   std::uint64_t capacity, const std::string& output,
                   const std::vector<std::string>& trace_sets = {});
// `batch_records`: none, batches sized to memory; 0, every block in one
// traced run; N, batches of at most N access records.
int counters_command(const std::string& kernel, const RunArgs& args, const std::string& blocks,
                     std::optional<std::uint64_t> batch_records = std::nullopt);
int show_command(const std::string& file, const std::string& format);
// dialect: "cuda", "opencl", or empty for the first device's.
int source_command(const std::string& kernel, const std::string& dialect);
// The exercises (viz/analysis/exercises.h), in a language where translated.
int exercises_command(const std::string& format, const std::string& language);
// Grades each FILE against an exercise's goal, each in a process of its own:
// compiled, verified, the goal's counters, goal met, median time, GB/s. Exit
// 0 only when every file met the goal.
// Each is verified with one seed (chosen_seed, else a fresh random one) at the
// exercise's size and at its verify_at sizes.
int check_command(const std::string& exercise, const std::vector<std::string>& files,
                  const std::string& device, const std::string& format, double timeout, int reps,
                  std::optional<std::uint64_t> chosen_seed = std::nullopt);
// architectures: "sm_75,sm_86" (no GPU needed), or empty for the devices present.
int doctor_command(const std::string& architectures, const std::string& format);

// A learner's file, read whole. InvalidRequest naming the file when it is a
// folder, cannot be read, is empty, or is not text (holds a NUL byte).
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
void error(const std::string& message);  // "threadmap-cli: error: ..." on stderr
// "threadmap-cli: waiting for the GPU: N runs ahead" on stderr, and the
// sandbox's watchdog told (RunOptions::on_wait).
WaitNotice wait_notice();
// Runs a subcommand's body; an engine or session error it throws is printed
// and becomes the exit code its kind stands for (InvalidRequest and
// SessionError 2, DeviceError 3, Unavailable 4).
int guarded(const std::function<int()>& body);
// The exit code a run's status stands for (kExitOk for a run that completed).
int exit_code_for(RunStatus status);
const Variant& variant_or_throw(const std::string& id);
std::vector<std::pair<std::string, std::string>> parse_assignments(
    const std::vector<std::string>& sets);

int devices_command(const std::string& format);
int list_command(const std::string& format);
int run_command(const std::string& kernel, const RunArgs& args);
int sweep_command(const std::string& kernel, const RunArgs& args,
                  const std::vector<std::string>& vary);
int bench_command(const RunArgs& args, std::int64_t size);

}  // namespace threadmap::cli
