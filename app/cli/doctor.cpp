// threadmap-cli doctor: what a lecturer runs before class. Every backend and
// device with its driver, the OpenCL ICDs, NVRTC, and whether every catalog
// kernel compiles, timed, traced and (CUDA) in its clock pass, for each device present or for each GPU
// architecture named (--arch: no GPU needed).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/engine/devices.h"
#include "kernels/core/error.h"
#include "kernels/core/params.h"
#include "kernels/core/report.h"

namespace threadmap::cli {

namespace {

namespace fs = std::filesystem;

// One kernel to compile: a catalog variant's launch at its defaults, timed,
// traced (the access pass) or, for CUDA, its clock pass.
struct Job {
  std::string variant;
  std::string kernel;
  int pass = 0;  // 0: timed; kAccessPass; kClockPass
  LaunchCmd launch;
  Availability availability = Availability::Always;
  std::vector<Dialect> dialects;  // Variant::dialects: the languages its kernel is written in
};

// Whether a job's kernel is written in `dialect` (else it is no build for
// a target of that dialect).
bool written_in(const Job& job, Dialect dialect) {
  return job.dialects.empty() || std::find(job.dialects.begin(), job.dialects.end(), dialect) != job.dialects.end();
}

const char* build_name(int pass) {
  return pass == kAccessPass ? "traced" : pass == kClockPass ? "clock pass" : "timed";
}

struct Outcome {
  bool ok = false;
  bool unavailable = false;  // the variant cannot run on this device (not a failure)
  bool other_dialect = false;  // its kernel is not written in the target's dialect: not a build there
  bool cached = false;
  double ms = 0;
  std::string error;  // one line
};

// Where a check compiles: an architecture (CUDA, no device) or a device present.
struct Target {
  std::string name;               // "sm_86", "cuda:0", "opencl:0:0"
  std::string backend;            // "cuda", "opencl" or "openmp"
  Dialect dialect = Dialect::Cuda;  // what its compiler takes
  std::string detail;             // "cubin for sm_86", "PTX for compute_120 (the driver finishes it)"
  std::string cuda_target;        // sm_XY / compute_XY
  std::string problem;            // set when nothing can be compiled for it
  std::vector<Outcome> outcomes;  // one per job
};

std::vector<Job> catalog_jobs() {
  std::vector<Job> jobs;
  for (const Variant& v : catalog()) {
    const Params params = make_params(v.params, {}, v.id);
    const Workload work = v.build(v, params, 1);
    for (Build& b : builds_of(work.launches))
      jobs.push_back({v.id, b.launch.kernel, b.pass, std::move(b.launch), v.availability, v.dialects});
  }
  return jobs;
}

// The compiler's message on one line: its first error, else its first line.
std::string one_line(const std::string& message) {
  std::istringstream in(message);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos) {
      if (line != first && first.find(':') != std::string::npos && first.size() < 120) return first + " " + line;
      return line;
    }
  }
  return first;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : text + ",") {
    if (c == ',' || c == ' ') {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  return parts;
}

std::string cuda_detail(const std::string& asked, const std::string& target) {
  if (target.starts_with("sm_")) return "cubin for " + target;
  return "PTX for " + target +
         (asked == target ? "" : " (NVRTC does not know " + asked + "; the driver compiles the PTX for it)");
}

struct Icd {
  std::string file;
  std::string library;
};

std::vector<Icd> opencl_icds() {
  std::vector<Icd> icds;
  const char* dir_env = std::getenv("OCL_ICD_VENDORS");
  const fs::path dir = dir_env && *dir_env ? fs::path(dir_env) : fs::path("/etc/OpenCL/vendors");
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".icd") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::string library;
    std::getline(in, library);
    icds.push_back({f.string(), library});
  }
  return icds;
}

// Runs fn(i) for every i, on as many threads as the machine has cores.
template <class Fn>
void parallel_for(std::size_t count, Fn fn) {
  const unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 8u));
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < count; i = next++) fn(i);
    });
  for (std::thread& t : pool) t.join();
}

Outcome compile_cuda(const Job& job, const std::string& target) {
  Outcome o;
  try {
    const CudaCompileCheck c = compile_cuda_kernel(job.launch, target);
    o.ok = true;
    o.cached = c.from_cache;
    o.ms = c.compile_ms;
  } catch (const std::exception& e) {
    o.error = one_line(e.what());
  }
  return o;
}

// An OpenCL or OpenMP device: each job prepared on it (compiled, or taken
// from the compiled cache).
void check_on_device(Target& t, const std::vector<Job>& jobs) {
  std::unique_ptr<Device> device;
  try {
    device = open_device(t.name);
  } catch (const std::exception& e) {
    t.problem = e.what();
    return;
  }
  // One device, one context: its builds run one after another.
  for (const Job& job : jobs) {
    Outcome o;
    if (!written_in(job, t.dialect)) {
      o.other_dialect = true;
      t.outcomes.push_back(std::move(o));
      continue;
    }
    if (job.pass == kClockPass) {
      o.unavailable = true;
      o.error = "its recordings keep the order of barrier arrivals, not clocks: no clock pass";
      t.outcomes.push_back(std::move(o));
      continue;
    }
    if (job.availability == Availability::NeedsSubgroupShuffle && !device->info().has_subgroup_shuffle) {
      o.unavailable = true;
      o.error = "needs sub-group shuffles: " + device->info().subgroup_note;
      t.outcomes.push_back(std::move(o));
      continue;
    }
    const auto started = std::chrono::steady_clock::now();
    try {
      device->prepare(job.launch);
      o.ok = true;
    } catch (const Unavailable& e) {  // a build this device cannot make (OpenMP's host fallback: no trace)
      o.unavailable = true;
      o.error = one_line(e.what());
    } catch (const std::exception& e) {
      o.error = one_line(e.what());
    }
    o.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    t.outcomes.push_back(std::move(o));
  }
}

// One target's kernels as the report lists them.
protocol::DoctorTarget doctor_target(const Target& t, const std::vector<Job>& jobs) {
  protocol::DoctorTarget target{t.name, t.backend, t.detail, t.cuda_target, t.problem, 0, {}};
  for (std::size_t i = 0; i < t.outcomes.size(); ++i) {
    const Outcome& o = t.outcomes[i];
    if (o.other_dialect) continue;
    target.compiled += o.ok;
    target.kernels.push_back(
        {jobs[i].variant, jobs[i].kernel, build_name(jobs[i].pass), o.ok, o.unavailable, o.cached, o.ms, o.error});
  }
  return target;
}

std::string icd_folder() {
  const char* dir = std::getenv("OCL_ICD_VENDORS");
  return dir ? dir : "/etc/OpenCL/vendors";
}

// --- The text report (made here or by a worker).

void print_backends(const protocol::DoctorResult& report) {
  std::cout << "Backends and devices\n";
  for (const BackendReport& b : report.backends) {
    if (!b.available) {
      std::cout << "  " << b.backend << ": unavailable: " << printable(b.reason) << "\n";
      continue;
    }
    for (const DeviceInfo& d : b.devices)
      std::cout << "  " << d.spec << "  " << printable(d.name) << " (" << printable(d.platform) << "; "
                << printable(d.version) << ")\n";
  }
}

void print_icds(const protocol::DoctorResult& report) {
  std::cout << "OpenCL ICDs (" << printable(report.opencl_icd_folder) << ")\n";
  if (report.opencl_icds.empty())
    std::cout << "  none registered: install an OpenCL driver (pocl-opencl-icd runs on the CPU)\n";
  for (const protocol::DoctorIcd& icd : report.opencl_icds)
    std::cout << "  " << printable(icd.file) << " -> " << printable(icd.library) << "\n";
}

void print_nvrtc(const protocol::DoctorNvrtc& nvrtc) {
  std::cout << "NVRTC (CUDA kernels are compiled at run time)\n";
  if (!nvrtc.available) {
    std::cout << "  unavailable: " << printable(nvrtc.reason) << "\n";
    return;
  }
  std::cout << "  NVRTC " << printable(nvrtc.version) << ", architectures";
  for (int a : nvrtc.architectures) std::cout << " sm_" << a;
  std::cout << "\n  cache: " << printable(nvrtc.cache_dir) << "\n";
}

// "  opencl:0:0 (detail): 40 of 40 compiled", what is unavailable there, and
// its failures added to `failures`.
void print_target(const protocol::DoctorTarget& t, std::vector<std::string>& failures) {
  std::cout << "  " << printable(t.name);
  if (!t.detail.empty()) std::cout << " (" << printable(t.detail) << ")";
  if (!t.problem.empty()) {
    std::cout << ": cannot compile: " << printable(t.problem) << "\n";
    failures.push_back(t.name + ": " + t.problem);
    return;
  }
  int compiled = 0, cached = 0, builds = 0;
  std::set<std::string> unavailable;
  for (const protocol::DoctorKernel& k : t.kernels) {
    if (k.unavailable && k.build == build_name(kClockPass)) continue;  // OpenCL: none to build
    ++builds;
    compiled += k.compiled;
    cached += k.cached;
    if (k.unavailable) unavailable.insert(k.variant + " (" + k.error + ")");
    else if (!k.compiled)
      failures.push_back(t.name + " " + k.variant + " " + k.kernel + " (" + k.build + "): " + k.error);
  }
  std::cout << ": " << compiled << " of " << builds << " compiled";
  if (cached) std::cout << " (" << cached << " from the cache)";
  std::cout << "\n";
  for (const std::string& u : unavailable) std::cout << "    unavailable here: " << printable(u) << "\n";
}

}  // namespace

protocol::DoctorResult doctor_report(const std::string& architectures) {
  const auto backends = list_backends();
  const CudaCompilerReport nvrtc = cuda_compiler_report();
  const std::vector<Icd> icds = opencl_icds();
  const std::vector<Job> jobs = catalog_jobs();

  std::vector<Target> targets;
  if (!architectures.empty()) {
    const std::vector<std::string> names = split_list(architectures);
    if (names.empty()) throw InvalidRequest("--arch names no architecture");
    for (const std::string& name : names) {
      Target t;
      t.name = name;
      t.backend = "cuda";
      t.dialect = Dialect::Cuda;
      if (!nvrtc.available) {
        t.problem = nvrtc.reason;
      } else {
        t.cuda_target = cuda_target_for(name);  // InvalidRequest for a bad name: exit 2
        t.detail = cuda_detail(name, t.cuda_target);
      }
      targets.push_back(std::move(t));
    }
  } else {
    for (const BackendReport& b : backends)
      for (const DeviceInfo& d : b.devices) {
        Target t;
        t.name = d.spec;
        t.backend = b.backend;
        t.dialect = d.dialect;
        t.detail = d.name;
        if (b.backend == "cuda") {
          const std::string arch = cuda_architecture_of(d);
          try {
            if (!nvrtc.available) throw std::runtime_error(nvrtc.reason);
            t.cuda_target = cuda_target_for(arch);
            t.detail += ", " + cuda_detail(arch, t.cuda_target);
          } catch (const std::exception& e) {
            t.problem = e.what();
          }
        }
        targets.push_back(std::move(t));
      }
  }

  const auto started = std::chrono::steady_clock::now();
  // CUDA targets: every (target, job) pair over the cores; NVRTC is thread-safe.
  std::vector<std::pair<std::size_t, std::size_t>> cuda_work;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    if (targets[t].backend != "cuda" || !targets[t].problem.empty()) continue;
    targets[t].outcomes.resize(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) cuda_work.emplace_back(t, j);
  }
  parallel_for(cuda_work.size(), [&](std::size_t i) {
    const auto [t, j] = cuda_work[i];
    if (!written_in(jobs[j], Dialect::Cuda)) {
      targets[t].outcomes[j].other_dialect = true;
      return;
    }
    targets[t].outcomes[j] = compile_cuda(jobs[j], targets[t].cuda_target);
  });
  for (Target& t : targets)
    if (t.backend != "cuda") check_on_device(t, jobs);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  bool all_ok = !targets.empty();
  for (const Target& t : targets) {
    if (!t.problem.empty()) all_ok = false;
    for (const Outcome& o : t.outcomes) all_ok = all_ok && (o.ok || o.unavailable || o.other_dialect);
  }

  protocol::DoctorResult report;
  report.backends = backends;
  report.opencl_icd_folder = icd_folder();
  for (const Icd& icd : icds) report.opencl_icds.push_back({icd.file, icd.library});
  report.nvrtc = {nvrtc.available, nvrtc.version, nvrtc.architectures, nvrtc.reason, nvrtc.cache_dir};
  for (const Target& t : targets) report.targets.push_back(doctor_target(t, jobs));
  report.jobs = jobs.size();
  report.seconds = seconds;
  report.ok = all_ok;
  return report;
}

int print_doctor(const protocol::DoctorResult& report, const std::string& format) {
  const int code = report.ok ? kExitOk : kExitDeviceFailure;
  if (format == "json") {
    std::cout << json_text(protocol::doctor_json(report)) << '\n';
    return code;
  }
  print_backends(report);
  print_icds(report);
  print_nvrtc(report.nvrtc);
  std::cout << "Catalog kernels compiled, timed, traced and in the clock pass (" << report.jobs
            << " builds each; OpenCL has no clock pass)\n";
  if (report.targets.empty())
    std::cout << "  no device to compile for: name architectures with --arch sm_75,sm_86,...\n";
  std::vector<std::string> failures;
  for (const protocol::DoctorTarget& t : report.targets) print_target(t, failures);
  for (const std::string& f : failures) std::cout << "FAILED " << printable(f) << "\n";
  std::cout << (code == kExitOk ? "everything asked for compiles" : "not everything compiles") << " ("
            << static_cast<int>(report.seconds * 10 + 0.5) / 10.0 << " s)\n";
  return code;
}

int doctor_command(const std::string& architectures, const std::string& format) {
  return print_doctor(doctor_report(architectures), format);
}

}  // namespace threadmap::cli
