// threadmap-cli: the catalog's kernels on any CUDA or OpenCL device, verified
// and timed, from a shell. Links only the Qt-free engine.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdint>
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/remote_commands.h"
#include "app/cli/pack_commands.h"
#include "app/cli/serve.h"
#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/pack/pack_variants.h"
#include "kernels/core/trace.h"

namespace {

constexpr const char* kExitCodes =
    "Exit codes: 0 every run verified; 1 a run's output did not match the CPU reference; "
    "2 bad usage, parameter, kernel id, device or launch configuration; 3 the backend or device "
    "failed; 4 the kernel is unavailable on the device; 5 a --source run ran past --timeout or "
    "crashed and was stopped.";

// A range for an option that takes a double. Unlike CLI::Range it refuses NaN
// (which every comparison lets through) and the infinities by name.
CLI::Validator finite_range(double min, double max) {
  std::ostringstream range;
  range << min << " to " << max;
  const std::string limits = range.str();
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value)) return text + " is not a number";
        if (!std::isfinite(value)) return text + " is not a finite number: give a value from " + limits;
        if (value < min || value > max) return text + " is out of range: give a value from " + limits;
        return {};
      },
      "FLOAT in " + limits, "finite_range");
}

// A whole number from `min` to `max`: "x" and "-1" are refused by name
// (CLI11 read "-1" into an unsigned seed as 2^64 - 1, and said "Value x not
// in range" of a word).
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  const std::string limits = std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
          return "'" + text + "' is not a whole number: give one from " + limits;
        std::uint64_t value = 0;
        if (!CLI::detail::lexical_cast(text, value) || value < min || value > max)
          return text + " is out of range: give a whole number from " + limits;
        return {};
      },
      "INT in " + limits, "whole_number");
}

void add_run_options(CLI::App* cmd, threadmap::cli::RunArgs& args, bool with_formats = true) {
  cmd->add_option("--device", args.device, "auto (first CUDA device, else first OpenCL device), opencl:P:D or cuda:N")
      ->capture_default_str();
  cmd->add_option("--reps", args.reps, "timed repetitions (median, min and max are reported)")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  cmd->add_option("--warmup", args.warmup, "untimed runs before timing")
      ->check(whole_number(0, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", args.seed, "seed of the random inputs")
      ->check(whole_number(0, UINT64_MAX))
      ->capture_default_str();
  if (with_formats)
    cmd->add_option("--format", args.format, "text, json or csv")
        ->check(CLI::IsMember({"text", "json", "csv"}))
        ->capture_default_str();
}

// A learner's kernel in place of the catalog's.
void add_source_options(CLI::App* cmd, threadmap::cli::RunArgs& args) {
  cmd->add_option("--source", args.source,
                  "FILE: your version of the kernel, in the device's dialect (.cl for OpenCL, .cu "
                  "for CUDA), with the catalog kernel's name, parameters and compile-time "
                  "constants; compiled for the device, verified and timed like the catalog's. "
                  "`threadmap-cli source KERNEL_ID` prints the catalog's version to start from");
  cmd->add_option("--timeout", args.timeout,
                  "seconds a --source run may take before it is stopped (it runs in a process "
                  "of its own)")
      ->check(finite_range(0.1, 3600.0))
      ->capture_default_str();
}

// A pack's variants join the catalog for this command (docs/packs.md).
void add_pack_option(CLI::App* cmd, std::vector<std::string>& packs) {
  cmd->add_option("--pack", packs, "DIR: a pack folder (with pack.toml) whose kernels join the catalog (repeatable)");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace threadmap::cli;
  CLI::App app{"ThreadMap: teaching kernels run, verified and timed on CUDA and OpenCL devices", "threadmap-cli"};
  app.footer(kExitCodes);
  app.set_version_flag("--version", std::string("threadmap-cli ") + THREADMAP_VERSION);
  app.require_subcommand(1);

  // A GPU server reached through ssh runs the device commands (app/protocol/remote.h).
  RemoteArgs remote;
  app.add_option("--remote", remote.target,
                 "[USER@]HOST[:PORT]: run devices, run, sweep, bench, record, counters, check and doctor on that GPU "
                 "server's threadmap-cli, through ssh (your ssh config, keys and agent); a recording is written "
                 "here, check's files are read here; list, exercises, show and source run here");
  app.add_option("--ssh-command", remote.ssh_command,
                 "the ssh command line for --remote (default: $THREADMAP_SSH, else ssh), e.g. \"ssh -F lab.conf\"");

  std::string format = "text";
  auto* devices = app.add_subcommand("devices", "every backend and device, or why a backend is missing");
  devices->add_option("--format", format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();

  auto* list = app.add_subcommand("list", "the kernel catalog with parameters and lessons");
  list->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();

  RunArgs args;
  std::string kernel;
  auto* run = app.add_subcommand("run", "run one kernel: verify against the CPU reference, then time");
  run->add_option("KERNEL_ID", kernel, "catalog id, e.g. transpose.naive")->required();
  run->add_option("--set", args.sets, "parameter NAME=VALUE (repeatable), e.g. --set tile=32");
  add_run_options(run, args);
  add_source_options(run, args);
  run->add_option("--problems", args.problems,
                  "after the timed run, trace a few blocks (the first ones and the last) and print the problems "
                  "the trace shows: races, uninitialised shared reads, accesses in no buffer, divergent barriers; "
                  "auto (the default): with --source only")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  run->footer(kExitCodes);

  std::vector<std::string> vary;
  auto* sweep = app.add_subcommand("sweep", "run one kernel over parameter values, one row each");
  sweep->add_option("KERNEL_ID", kernel, "catalog id")->required();
  sweep->add_option("--vary", vary, "NAME=V1,V2,... (repeatable; several axes run their cartesian product)")
      ->required();
  sweep->add_option("--set", args.sets, "fixed parameter NAME=VALUE (repeatable)");
  add_run_options(sweep, args);
  add_source_options(sweep, args);
  sweep->footer(kExitCodes);

  std::int64_t size = 0;
  auto* bench =
      app.add_subcommand("bench", "every kernel at its defaults: GB/s and % of the copy kernel and device copy");
  bench
      ->add_option("--size", size,
                   "N: N x N matrices, N*N elements to sum (0: the catalog's defaults). A variant "
                   "that cannot run at N (a parameter N takes past its range, such as "
                   "smem.setRowReadColRect's blocks above N = 23170, or more memory than the device "
                   "has) gets an invalid row saying why, and the others run")
      ->check(CLI::Range(0, 32768))
      ->capture_default_str();
  bench->add_option("--set", args.sets, "NAME=VALUE for every kernel that has the parameter, e.g. --set type=float");
  add_run_options(bench, args);
  bench->footer(kExitCodes);

  std::string blocks = "";
  std::string output;
  std::uint64_t capacity = 0;
  auto* record =
      app.add_subcommand("record", "run one kernel timed, then traced: save device, timings, trace and analysis");
  record->add_option("KERNEL_ID", kernel, "catalog id")->required();
  record->add_option("--set", args.sets, "parameter NAME=VALUE (repeatable)");
  record->add_option("--blocks", blocks,
                     "blocks to trace: all, or numbers like 0,1,64 (block (x, y) is x + gridX * y); "
                     "default: the first two blocks of the first two grid rows");
  record->add_option("--capacity", capacity,
                     "access records the trace buffer holds (0: counted first, sized exactly); "
                     "fewer than the kernel makes is reported as an overflow")
      ->check(whole_number(0, UINT64_MAX));
  std::vector<std::string> trace_sets;
  record->add_option("--trace-set", trace_sets,
                     "NAME=VALUE for the traced run only (repeatable), e.g. a smaller size than "
                     "the timed run's, so the trace stays small");
  record->add_option("-o,--output", output, "session file to write")->required();
  add_run_options(record, args, false);
  add_source_options(record, args);
  record->footer(kExitCodes);

  auto* counters = app.add_subcommand(
      "counters", "trace every block and total the memory counters, named as Nsight Compute names them");
  counters->add_option("KERNEL_ID", kernel, "catalog id")->required();
  counters->add_option("--set", args.sets, "parameter NAME=VALUE (repeatable)");
  counters->add_option("--blocks", blocks, "blocks to trace (default all)");
  std::uint64_t batch_records = 0;
  counters
      ->add_option("--batch-records", batch_records,
                   "at most N access records traced and analysed at once: the blocks are traced in "
                   "batches, each batch a run of the whole grid, so memory stays bounded at any size "
                   "(default: as many as fit in 672 MiB beside the kernel's buffers on OpenCL, in 672 MiB "
                   "on CUDA, 1 Mi to 16 Mi); "
                   "0: every block in one traced run")
      ->check(CLI::Range(std::uint64_t{0}, threadmap::kMaxTraceRecords));
  counters->add_option("--device", args.device, "auto, opencl:P:D or cuda:N")->capture_default_str();
  counters->add_option("--format", args.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_source_options(counters, args);
  counters->footer(kExitCodes);

  std::string file;
  auto* show = app.add_subcommand("show", "summarise a session file");
  show->add_option("FILE", file, "session file")->required();
  show->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();

  std::vector<std::string> kept_files;
  auto* keep_source =
      app.add_subcommand("keep-source",
                         "keep in older session files the kernel text their trace was recorded from (this "
                         "program's built-in file, checked line by line against the trace), so later edits of "
                         "the file change nothing they show");
  keep_source->add_option("FILE", kept_files, "session files, rewritten in place")->required();

  std::string dialect;
  auto* source = app.add_subcommand(
      "source", "a kernel's source as you read and edit it (the code that is timed and traced): a start for --source");
  source->add_option("KERNEL_ID", kernel, "catalog id")->required();
  source->add_option("--dialect", dialect, "cuda, opencl or openmp (default: cuda when a CUDA device is present, else opencl)")
      ->check(CLI::IsMember({"cuda", "opencl", "openmp"}));

  std::string architectures;
  auto* doctor = app.add_subcommand("doctor",
                                    "backends, devices, drivers, OpenCL ICDs, and whether every catalog kernel "
                                    "compiles (timed and traced) for each device or each architecture named");
  doctor->add_option("--arch", architectures,
                     "GPU architectures to compile the CUDA kernels for, no GPU needed, e.g. "
                     "sm_75,sm_86,sm_90 (default: the devices present)");
  doctor->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  doctor->footer(
      "Exit codes: 0 everything asked for compiles; 2 bad usage or architecture name; "
      "3 something does not compile, or there is nothing to compile for.");

  std::string language = "en";
  auto* list_exercises = app.add_subcommand(
      "exercises", "the exercises: a starting kernel, its lesson, hints, and a goal in measured numbers");
  list_exercises->add_option("--format", format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  list_exercises->add_option("--lang", language, "en, pt_BR or es (titles, tasks and hints)")
      ->check(CLI::IsMember({"en", "pt_BR", "es"}))
      ->capture_default_str();

  std::string exercise;
  std::vector<std::string> submissions;
  auto* check =
      app.add_subcommand("check", "grade learners' kernels against an exercise's goal, each in a process of its own");
  check->add_option("EXERCISE", exercise, "exercise id (`threadmap-cli exercises`)")->required();
  check->add_option("FILE", submissions, "submitted kernels: .cl (OpenCL C) or .cu (CUDA)")->required();
  check
      ->add_option("--device", args.device,
                   "auto (each .cu file on the first CUDA device, each .cl file on the first OpenCL device), "
                   "opencl:P:D or cuda:N")
      ->capture_default_str();
  check->add_option("--format", format, "text, json or csv")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  check->add_option("--timeout", args.timeout, "seconds one submission may take before it is stopped")
      ->check(finite_range(0.1, 3600.0))
      ->capture_default_str();
  check->add_option("--reps", args.reps, "timed repetitions per submission")->check(whole_number(1, 1000));
  check->add_option("--seed", args.seed,
                    "seed of the random inputs (default: a fresh one per grading, printed in the report)");
  check->footer(
      "Exit codes: 0 every file met the goal; 1 some did not (not compiled, not verified, "
      "goal not met, timed out, crashed, or no device of its dialect); 2 bad usage, exercise id or "
      "--device.");

  std::vector<std::string> packs;
  for (CLI::App* cmd : {list, run, sweep, bench, record, counters, source, list_exercises, check}) add_pack_option(cmd, packs);

  std::string pack_folder;
  auto* pack = app.add_subcommand("pack", "kernel packs: folders of kernels, lessons and a manifest (docs/packs.md)");
  pack->require_subcommand(1);
  auto* pack_check =
      pack->add_subcommand("check",
                           "validate a pack's manifest, compile every variant, run its check points verified, and "
                           "require its known-wrong kernels to fail");
  pack_check->add_option("DIR", pack_folder, "the pack's folder, a bundled pack's name, or `lessons` (the built-in lessons)")->required();
  std::string pack_arch;
  auto* pack_device =
      pack_check->add_option("--device", args.device, "auto (the first OpenCL device), opencl:P:D or cuda:N")
          ->capture_default_str();
  pack_check
      ->add_option("--arch", pack_arch,
                   "compile every CUDA kernel of the pack (timed, traced, clock pass) for these GPU "
                   "architectures, no GPU needed: sm_75,sm_90")
      ->excludes(pack_device);
  pack_check->footer(
      "Exit codes: 0 every check passed; 1 a variant did not verify, or a known-wrong one "
      "did; 2 a mistake in the manifest, bad usage or device; 3 the device failed.");
  auto* pack_new = pack->add_subcommand("new", "write a working one-kernel pack to start from");
  pack_new->add_option("NAME", pack_folder, "the new folder; its name is the pack's")->required();

  auto* serve = add_serve_subcommand(app);

  // A first word that is no command and no option: named, with the commands
  // (CLI11 said "A subcommand is required").
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* command : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + command->get_name();
      known = known || command->get_name() == argv[1];
    }
    if (!known) {
      error(std::string("unknown subcommand '") + argv[1] + "'; the subcommands are " + names +
            " (threadmap-cli --help says what each does)");
      return kExitInvalid;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitInvalid;
  }

  if (!remote.target.empty() && (*serve || *pack || !packs.empty())) {
    error("--remote runs devices, run, sweep, bench, record, counters, check and doctor on the server; " +
          std::string(!packs.empty() ? "--pack (the pack's folder is on this machine)"
                                     : app.get_subcommands().front()->get_name()) +
          " runs here, without --remote");
    return kExitInvalid;
  }
  if (*serve) return serve_command(std::cin, std::cout, STDOUT_FILENO);
  if (*pack_check) return pack_check_command(pack_folder, args.device, pack_arch);
  if (*pack_new) return pack_new_command(pack_folder);
  if (!packs.empty())
    if (const int code = guarded([&] {
          for (const threadmap::pack::PackManifest& m : threadmap::pack::add_packs(packs))
            threadmap::add_exercises(m.name, threadmap::pack_exercises(m));
          return kExitOk;
        });
        code != kExitOk)
      return code;
  const std::optional<std::uint64_t> check_seed = check->count("--seed") ? std::optional(args.seed) : std::nullopt;
  const int check_reps = check->count("--reps") ? args.reps : 5;
  if (!remote.target.empty()) {
    if (*devices) return remote_devices_command(remote, format);
    if (*run) return remote_run_command(remote, kernel, args);
    if (*sweep) return remote_sweep_command(remote, kernel, args, vary);
    if (*record) return remote_record_command(remote, kernel, args, blocks, output);
    if (*counters) return remote_counters_command(remote, kernel, args, blocks.empty() ? "all" : blocks);
    if (*check)
      return remote_check_command(remote, exercise, submissions, args.device, format, args.timeout, check_reps,
                                  check_seed);
    if (*doctor) return remote_doctor_command(remote, architectures, format);
    if (*bench) return remote_bench_command(remote, args, size);
    // list, exercises, show and source need no device: they run here.
    if (*source && dialect.empty())
      std::cerr << "threadmap-cli: source runs here and picks its dialect by this machine's devices; "
                   "--dialect cuda gives the CUDA version for the server's GPUs\n";
  }
  // A kernel compiled rather than loaded from the cache is worth a line: the
  // first use of each takes a moment (never counted in a timing).
  threadmap::set_cuda_compile_notice(
      [](const std::string& message) { std::cerr << "threadmap-cli: " << message << "\n"; });
  if (*source) return source_command(kernel, dialect);
  if (*list_exercises) return exercises_command(format, language);
  if (*check) return check_command(exercise, submissions, args.device, format, args.timeout, check_reps, check_seed);
  if (*doctor) return guarded([&] { return doctor_command(architectures, format); });
  if (*devices) return devices_command(format);
  if (*record) return record_command(kernel, args, blocks, capacity, output, trace_sets);
  if (*counters)
    return counters_command(kernel, args, blocks.empty() ? "all" : blocks,
                            counters->count("--batch-records") ? std::optional(batch_records) : std::nullopt);
  if (*show) return show_command(file, format);
  if (*keep_source) return keep_source_command(kept_files);
  if (*list) return list_command(format);
  if (*run) return run_command(kernel, args);
  if (*sweep) return sweep_command(kernel, args, vary);
  return bench_command(args, size);
}
