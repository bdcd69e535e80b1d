// What a first use of a CUDA kernel costs, and what every later use costs:
// NVRTC compiling a lesson kernel for the device's architecture (an empty
// cache folder each time) against loading the result from the disk cache.
// With a CUDA device, the same through the device (compile or cache, then
// loading the code into the context and reading its attributes: what a run
// does before its first timed launch). Without one, for sm_90 alone.
//
//   compile_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The medians go in docs/benchmarks.md. Compile time never enters a kernel
// timing: runs prepare (compile and load) every kernel before the first event.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/engine/devices.h"

namespace {

namespace fs = std::filesystem;
using namespace threadmap;

// transpose_shared<float, 32, 1>, the lesson's tiled kernel.
LaunchCmd lesson_launch(bool traced) {
  LaunchCmd l;
  l.program = {"transpose", ElementType::Float, {{"TILE", 32}, {"ROWS", 8}, {"PAD", 1}}};
  if (traced) l.program.defines.emplace_back(std::string(kTraceDefine), 1);
  l.kernel = "transpose_shared";
  return l;
}

const fs::path& scratch_root() {
  static const fs::path root = fs::temp_directory_path() / ("threadmap_compile_bench_" + std::to_string(getpid()));
  return root;
}

void use_cache(const fs::path& dir) { setenv("THREADMAP_CACHE_DIR", dir.c_str(), 1); }

// A folder no earlier iteration wrote to: every compile is a first use.
void use_empty_cache() {
  static std::atomic<int> n{0};
  const fs::path dir = scratch_root() / ("empty" + std::to_string(n++));
  use_cache(dir);
}

std::string device_target() {
  for (const BackendReport& b : list_backends())
    if (b.backend == "cuda" && b.available)
      if (const std::string arch = cuda_architecture_of(b.devices.front()); !arch.empty()) return cuda_target_for(arch);
  return {};
}

bool has_cuda_device() { return !device_target().empty(); }

void BM_NvrtcFirstUse(benchmark::State& state, bool traced) {
  const CudaCompilerReport nvrtc = cuda_compiler_report();
  if (!nvrtc.available) return state.SkipWithError(nvrtc.reason.c_str());
  const std::string target = has_cuda_device() ? device_target() : cuda_target_for("sm_90");
  for (auto _ : state) {
    state.PauseTiming();
    use_empty_cache();
    state.ResumeTiming();
    const CudaCompileCheck c = compile_cuda_kernel(lesson_launch(traced), target);
    if (c.from_cache) return state.SkipWithError("a fresh cache folder was not empty");
  }
  state.SetLabel(target);
}

void BM_NvrtcCached(benchmark::State& state, bool traced) {
  const CudaCompilerReport nvrtc = cuda_compiler_report();
  if (!nvrtc.available) return state.SkipWithError(nvrtc.reason.c_str());
  const std::string target = has_cuda_device() ? device_target() : cuda_target_for("sm_90");
  use_cache(scratch_root() / "warm");
  compile_cuda_kernel(lesson_launch(traced), target);
  for (auto _ : state) {
    const CudaCompileCheck c = compile_cuda_kernel(lesson_launch(traced), target);
    if (!c.from_cache) return state.SkipWithError("the cache did not answer");
  }
  state.SetLabel(target);
}

// Through the device: a fresh Device each iteration (its own table of loaded
// kernels), prepare() compiling or loading, then loading into the context.
void BM_DevicePrepare(benchmark::State& state, bool cold) {
  if (!has_cuda_device()) return state.SkipWithError("no CUDA device");
  use_cache(scratch_root() / "device");
  if (!cold) open_device("cuda:0")->prepare(lesson_launch(false));
  for (auto _ : state) {
    state.PauseTiming();
    if (cold) use_empty_cache();
    auto device = open_device("cuda:0");
    state.ResumeTiming();
    device->prepare(lesson_launch(false));
  }
  state.SetLabel(device_target());
}

BENCHMARK_CAPTURE(BM_NvrtcFirstUse, timed, false)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_CAPTURE(BM_NvrtcFirstUse, traced, true)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_CAPTURE(BM_NvrtcCached, timed, false)->Unit(benchmark::kMillisecond)->Iterations(50);
BENCHMARK_CAPTURE(BM_NvrtcCached, traced, true)->Unit(benchmark::kMillisecond)->Iterations(50);
BENCHMARK_CAPTURE(BM_DevicePrepare, first_use, true)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_CAPTURE(BM_DevicePrepare, cached, false)->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  fs::remove_all(scratch_root(), ec);
  return 0;
}
