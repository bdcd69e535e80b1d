#include "app/cli/pack_commands.h"

#include <sys/mman.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "app/cli/sandbox.h"
#include "app/cli/table.h"
#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/engine/devices.h"
#include "kernels/core/error.h"
#include "kernels/core/output_file.h"
#include "kernels/pack/pack_template.h"
#include "kernels/pack/pack_variants.h"
#include "kernels/engine/runner.h"

namespace threadmap::cli {

namespace {

// "auto" is the first OpenCL device (every pack has OpenCL kernels or CUDA
// ones; cuda:N picks a CUDA device for the CUDA ones).
std::string pack_device(const std::string& spec) {
  if (spec != "auto") return spec;
  for (const BackendReport& b : list_backends())
    if (b.backend == "opencl" && b.available && !b.devices.empty()) return b.devices.front().spec;
  throw InvalidRequest(
      "no OpenCL device for `--device auto` (`threadmap-cli devices` says why a backend is "
      "missing); name a CUDA device with --device cuda:N, or compile with --arch");
}

std::string describe(const Verification& v) {
  if (v.verified) return "verified (" + std::to_string(v.checked) + " elements)";
  std::string s =
      "NOT verified: " + std::to_string(v.mismatches) + " of " + std::to_string(v.checked) + " elements differ";
  if (!v.first.empty())
    s += ", first at " + v.first.front().where + ": expected " + v.first.front().expected + ", got " +
         v.first.front().actual;
  if (v.checked == 0) s = v.method;
  return s;
}

// The check points of a family: its defaults, then its own.
std::vector<pack::CheckPoint> check_points(const pack::FamilySpec& family) {
  std::vector<pack::CheckPoint> points{{"defaults", {}, family.place}};
  points.insert(points.end(), family.checks.begin(), family.checks.end());
  return points;
}

// Every build of `launches` (timed, traced, clock pass) for each target:
// "ok", or the first failure.
std::string compile_all(const std::vector<LaunchCmd>& launches,
                        const std::vector<std::pair<std::string, std::string>>& targets, int& compiled,
                        int& failures) {
  for (const Build& b : builds_of(launches))
    for (const auto& [name, target] : targets) {
      try {
        compile_cuda_kernel(b.launch, target);
        ++compiled;
      } catch (const std::exception& e) {
        ++failures;
        return std::string("does not compile for ") + name + (b.pass ? " (traced)" : "") + ": " + e.what();
      }
    }
  return "ok";
}

void report(const std::string& what, const std::string& outcome) {
  std::cout << "  " << (outcome == "ok" ? "ok    " : "FAIL  ") << printable(what) << ": "
            << (outcome == "ok" ? "compiled" : printable(outcome, Newlines::Keep)) << "\n";
}

// pack check --arch: every CUDA kernel compiled, as a device of each
// architecture would compile it, at every check point, and each exercise's
// CUDA start and solution at its sizes.
int compile_for_architectures(const pack::PackManifest& manifest, const std::string& architectures) {
  std::vector<std::pair<std::string, std::string>> targets;  // (as named, NVRTC's target)
  std::stringstream list(architectures);
  for (std::string arch; std::getline(list, arch, ',');)
    if (!arch.empty()) targets.emplace_back(arch, cuda_target_for(arch));  // InvalidRequest for a bad name
  if (targets.empty()) throw InvalidRequest("--arch: name one architecture at least, e.g. --arch sm_90");
  DeviceInfo cuda;
  cuda.backend = "cuda";
  cuda.dialect = Dialect::Cuda;
  int compiled = 0, failures = 0;
  std::cout << "pack " << printable(manifest.name) << ": compiling its CUDA kernels for " << architectures << "\n";
  for (const pack::FamilySpec& family : manifest.families) {
    if (!family.kernels.count(Dialect::Cuda)) {
      std::cout << "  --    " << printable(family.id) << ": no CUDA kernel file (opencl only)\n";
      continue;
    }
    for (const pack::VariantSpec& spec : family.variants) {
      const Variant& v = *find_variant(family.id + "." + spec.id);
      if (!v.written_in(Dialect::Cuda)) continue;  // an OpenMP loop alone: no CUDA kernel to compile
      std::vector<LaunchCmd> launches;
      for (const pack::CheckPoint& point : check_points(family)) {
        Workload w = v.build(v, make_params(v.params, point.for_parameters(v.params), v.id), 1);
        use_pack_text(w, v, cuda);
        launches.insert(launches.end(), w.launches.begin(), w.launches.end());
        launches.insert(launches.end(), w.reference.launches.begin(), w.reference.launches.end());
      }
      report(v.id, compile_all(launches, targets, compiled, failures));
    }
  }
  // Each exercise's CUDA start and solution, in its variant's place, at
  // each size it is graded at.
  for (const Exercise& e : pack_exercises(manifest)) {
    if (!e.starts.count(Dialect::Cuda)) continue;
    const Variant& v = *find_variant(e.kernel_id);
    std::vector<std::map<std::string, std::string>> sizes{{}};
    sizes.insert(sizes.end(), e.verify_at.begin(), e.verify_at.end());
    for (const ExerciseFile* file : {&e.starts.at(Dialect::Cuda), &e.solutions.at(Dialect::Cuda)}) {
      std::vector<LaunchCmd> launches;
      std::string refused;  // a size the variant does not take
      for (const auto& over : sizes) {
        const auto sets = exercise_sets(e, over);
        try {
          Workload w = v.build(v, make_params(v.params, sets, v.id), 1);
          use_pack_text(w, v, cuda);
          use_source(w, v, file->text, file->name);
          for (const LaunchCmd& l : w.launches)
            if (l.kernel == v.kernel) launches.push_back(l);
        } catch (const InvalidRequest& x) {
          refused = x.what();
          break;
        }
      }
      if (!refused.empty()) ++failures;
      report("exercise " + e.id + "  " + file->name,
             refused.empty() ? compile_all(launches, targets, compiled, failures) : refused);
    }
  }
  std::cout << "pack check --arch: " << (failures ? "FAILED, " : "passed, ") << compiled
            << (compiled == 1 ? " build" : " builds") << "\n";
  return failures ? kExitNotVerified : kExitOk;
}

// Each exercise in the device's dialect graded as `check` grades it: the
// solution must meet the goal and the start must not. The failures.
int check_exercises(const pack::PackManifest& manifest, const DeviceInfo& device, int& runs) {
  const Dialect dialect = device.dialect;
  int failures = 0;
  const std::vector<Exercise> exercises = pack_exercises(manifest);
  try {
    if (!manifest.built_in) check_new_exercises(exercises);  // the built-in ones are the program's already
  } catch (const InvalidRequest& e) {
    std::cout << "  FAIL  " << printable(e.what()) << "\n";
    ++failures;
  }
  for (const Exercise& e : exercises) {
    if (!e.starts.count(dialect)) {
      std::cout << "  -     exercise " << printable(e.id) << ": no " << dialect_title(dialect) << " start\n";
      continue;
    }
    for (const bool solution : {true, false}) {
      const ExerciseFile& file = solution ? e.solutions.at(dialect) : e.starts.at(dialect);
      protocol::CheckRow row;
      try {
        row = grade(e, file.text, file.name, device.spec, 1, 1);
      } catch (const std::exception& x) {  // a size the variant refuses, a device that fails
        row.status = "failed";
        row.error = x.what();
      }
      ++runs;
      // A solution meets the goal; a start compiles and does not.
      const bool good = solution ? row.goal_met : row.compiled && !row.goal_met;
      failures += good ? 0 : 1;
      std::cout << "  " << (good ? "ok    " : "FAIL  ") << "exercise " << printable(e.id) << "  "
                << printable(file.name) << ": " << row.status << (row.error ? ": " + printable(*row.error) : "")
                << (good       ? ""
                    : solution ? " (a solution must meet the goal)"
                               : " (a start must compile and not meet the goal)")
                << "\n";
    }
  }
  return failures;
}

// The reference variant writes every element of its outputs: one it leaves
// as the buffer held it (arguments in another order than the kernel's, a
// grid too small) would be compared with the same untouched element of every
// variant, and all would verify. 1 when it does not.
int check_written(Device& device, const Variant& v, const Params& params, const pack::VariantSpec& spec,
                  const std::string& label) {
  if (!spec.reference) return 0;
  std::optional<std::string> unwritten;
  try {
    unwritten = unwritten_output(device, v, params, 1);
  } catch (const std::exception& e) {
    unwritten = e.what();
  }
  if (!unwritten) return 0;
  std::cout << "  FAIL  " << printable(v.id) << "  " << printable(label) << ": the reference variant's " << printable(*unwritten)
            << " (are the family's arguments in the kernel's order, and does the grid cover every element?)\n";
  return 1;
}

// A variant that is not known_wrong shows no problem in its traced run (a
// race, an out-of-bounds access, a divergent barrier): a __local buffer too
// small verifies on many devices and still writes past its end. 1 when it
// shows one.
int check_trace_problems(Device& device, const Variant& v, const Params& params, const RunOptions& options,
                         const std::string& label) {
  const analysis::ProblemsScan scan = scan_problems(device, v, params, options);
  if (scan.error) {
    std::cout << "  FAIL  " << printable(v.id) << "  " << printable(label) << ": its traced run failed: "
              << printable(*scan.error) << "\n";
    return 1;
  }
  if (scan.problems.list.empty()) return 0;
  for (const analysis::ProblemReport& p : scan.problems.list)
    std::cout << "  FAIL  " << printable(v.id) << "  " << printable(label) << ": its trace shows a problem: "
              << printable(p.message) << "\n";
  return 1;
}

// A whole pack check's time: every variant at every point, its traced runs
// and the exercises (the built-in lessons take about a minute on a 2-core
// PoCL); past it the check is stopped as a hang.
constexpr Limits kPackCheckLimits{600, 600};

// What the checking child runs now, where its parent can read it after a
// crash: a page shared across the fork.
class RunningNow {
 public:
  RunningNow()
      : page_(static_cast<char*>(::mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0))) {
    if (page_ == MAP_FAILED) page_ = nullptr;
    set("opening the device");
  }
  ~RunningNow() {
    if (page_) ::munmap(page_, kSize);
  }
  RunningNow(const RunningNow&) = delete;
  RunningNow& operator=(const RunningNow&) = delete;
  void set(const std::string& what) {
    if (page_) std::snprintf(page_, kSize, "%s", what.c_str());
  }
  std::string text() const { return page_ ? std::string(page_) : std::string("a run"); }

 private:
  static constexpr std::size_t kSize = 4096;
  char* page_;
};

// Every variant at its defaults and check points, then the exercises: the
// failures counted, printed a line each.
int check_pack(const pack::PackManifest& manifest, const std::string& device_spec, RunningNow& now) {
  auto device = watch_phases(open_device(pack_device(device_spec)));
  std::size_t variant_count = 0;
  for (const auto& f : manifest.families) variant_count += f.variants.size();
  std::cout << "pack " << printable(manifest.name) << ": " << manifest.families.size()
            << (manifest.families.size() == 1 ? " family, " : " families, ") << variant_count
            << (variant_count == 1 ? " variant" : " variants") << ", on " << printable(device->info().name) << " ("
            << device->info().spec << ")\n";

  RunOptions options;
  options.warmup = 0;
  options.repetitions = 1;
  options.end_to_end_repetitions = 1;
  options.min_sample_ms = 0;
  int runs = 0, failures = 0;
  bool device_failed = false;
  for (const pack::FamilySpec& family : manifest.families) {
    const std::vector<pack::CheckPoint> points = check_points(family);
    for (const pack::VariantSpec& spec : family.variants) {
      const Variant& v = *find_variant(family.id + "." + spec.id);
      if (!v.written_in(device->info().dialect)) {  // another device's variant: not this check's
        std::cout << "  -     " << printable(v.id) << ": not written in "
                  << dialect_title(device->info().dialect) << "\n";
        continue;
      }
      bool failed_somewhere = false, verified_somewhere = false, traced_somewhere = false;
      for (const pack::CheckPoint& point : points) {
        const auto assignments = point.for_parameters(v.params);
        const Params params = make_params(v.params, assignments, v.id);
        std::string label = point.name;
        for (const auto& [name, value] : assignments) label += " " + name + "=" + value;
        now.set(std::string(spec.reference ? "the reference variant " : "") + v.id + " at " + label);
        const RunResult r = run_variant(*device, v, params, options);
        ++runs;
        if (r.status == RunStatus::Unavailable && spec.needs_subgroup_shuffle) {
          // A feature the variant says it needs, which this device lacks: not the pack's fault.
          std::cout << "  -     " << printable(v.id) << ": " << printable(r.error) << "\n";
          break;
        }
        std::string outcome;
        bool good = false;
        bool stop = false;
        if (r.status != RunStatus::Ok) {
          outcome = std::string(status_name(r.status)) + ": " + r.error;
          device_failed = device_failed || r.status == RunStatus::DeviceFailure;
          // A kernel that does not compile fails the same way everywhere.
          stop = r.error.find("does not compile") != std::string::npos;
        } else {
          outcome = describe(r.verification);
          good = r.verification.verified || spec.known_wrong;
          failed_somewhere = failed_somewhere || !r.verification.verified;
          verified_somewhere = verified_somewhere || r.verification.verified;
        }
        if (!good) ++failures;
        std::cout << "  " << (good ? "ok    " : "FAIL  ") << printable(v.id) << "  " << printable(label) << ": "
                  << printable(outcome, Newlines::Keep) << "\n";
        if (stop) break;
        if (r.status != RunStatus::Ok) continue;
        failures += check_written(*device, v, params, spec, label);
        if (!traced_somewhere && !spec.known_wrong) {
          traced_somewhere = true;
          now.set("the traced run of " + v.id + " at " + label);
          failures += check_trace_problems(*device, v, params, options, label);
        }
      }
      if (spec.known_wrong && !failed_somewhere && verified_somewhere) {
        ++failures;
        std::cout << "  FAIL  " << printable(v.id)
                  << ": marked known_wrong, but it verified at every check point; add a check "
                     "point where it fails\n";
      } else if (spec.known_wrong && failed_somewhere) {
        std::cout << "  ok    " << printable(v.id) << ": known_wrong, and it fails verification, as it must\n";
      }
    }
  }
  now.set("grading the exercises");
  if (!device_failed) failures += check_exercises(manifest, device->info(), runs);
  std::cout << "pack check: " << (failures ? "FAILED (" + std::to_string(failures) + " failed), " : "passed, ")
            << runs << (runs == 1 ? " run" : " runs") << "\n";
  if (device_failed) return kExitDeviceFailure;
  return failures ? kExitNotVerified : kExitOk;
}

}  // namespace

int pack_check_command(const std::string& folder, const std::string& device_spec, const std::string& architectures) {
  return guarded([&]() -> int {
    // The built-in lessons are checked by name, their variants already the catalog's.
    const pack::PackManifest& built_in = pack::built_in_manifest();
    std::error_code ec;
    const bool is_built_in = folder == built_in.name && !std::filesystem::is_directory(folder, ec);
    std::optional<pack::PackManifest> loaded;
    if (!is_built_in) loaded = pack::load_pack(pack::pack_folder(folder));
    const pack::PackManifest& manifest = is_built_in ? built_in : *loaded;
    if (!is_built_in) add_variants(pack::pack_variants(manifest));
    if (!architectures.empty()) return compile_for_architectures(manifest, architectures);
    // The pack's kernels are untrusted as a learner's are: on a CPU device an
    // access past a buffer (arguments out of the kernel's order, a buffer too
    // small) crashes the process that runs it. The checks run in a child, and
    // a crash or a hang is one more failure that names what was running.
    RunningNow now;
    const Isolated child = run_isolated(kPackCheckLimits, "pack check of " + folder, [&] {
      std::cout << std::unitbuf;  // every line out before a crash
      return guarded([&] { return check_pack(manifest, device_spec, now); });
    });
    if (child.ending == Ending::Exited) return child.code;
    std::cout << "  FAIL  " << printable(now.text()) << ": " << printable(child.message)
              << (child.ending == Ending::Crashed
                      ? " (on a CPU device, usually a read or write outside a buffer: are the family's arguments in "
                        "the kernel's order, and its buffers as large as the kernel indexes them?)"
                      : " (an endless loop, or a barrier some threads never reach)")
              << "\npack check: FAILED, stopped at " << printable(now.text()) << "\n";
    return kExitNotVerified;
  });
}

int pack_new_command(const std::string& folder) {
  return guarded([&]() -> int {
    pack::write_pack_template(folder, "scale");
    std::cout << "Wrote " << folder << "/pack.toml, scale.cl and scale.cu.\n"
              << "Check it:  threadmap-cli pack check " << folder << "\n"
              << "Run it:    threadmap-cli run scale.grid_stride --pack " << folder << "\n";
    return kExitOk;
  });
}

}  // namespace threadmap::cli
