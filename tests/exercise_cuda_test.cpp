// Every exercise's CUDA start and solution compiled here, with no GPU, as a
// CUDA device would build them for `check`: the learner's text in the catalog
// kernel's place (use_source), the catalog's name expression at the
// exercise's size and at each of its verify_at sizes, by NVRTC for
// compute_90 (the timed build); then the PTX instrumenter's access pass and
// clock pass on that build (the traced builds), each assembled by ptxas for
// sm_90. A .cu file that loses the catalog kernel's name, parameters or
// template values fails here. Grading them (goal met, not met) needs a GPU:
// Exercises.CheckGradesCudaSolutionsAndStarts (tests/cli_test.cpp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "kernels/pack/catalog.h"
#include "kernels/engine/cuda/cuda_kernels.h"
#include "kernels/ptx/ptx_instrument.h"
#include "kernels/core/error.h"
#include "kernels/core/params.h"
#include "kernels/engine/runner.h"
#include "kernels/analysis/exercises.h"

namespace threadmap {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTarget = "compute_90";

// ptxas's messages for `ptx` assembled for sm_90; empty when it assembled.
std::string assembly_errors(const std::string& ptx, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "threadmap-exercise-cuda-test";
  fs::create_directories(dir);
  const fs::path file = dir / (name + ".ptx");
  std::ofstream(file) << ptx;
  const std::string command = std::string(THREADMAP_PTXAS) + " -arch=sm_90 -o " + (dir / (name + ".cubin")).string() +
                              " " + file.string() + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "could not run " + command;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  return pclose(pipe) == 0 ? std::string() : command + "\n" + output;
}

// The exercise's parameters with `over` laid on them.
std::vector<std::pair<std::string, std::string>> sets_with(const Exercise& e,
                                                           const std::map<std::string, std::string>& over) {
  std::map<std::string, std::string> all = e.sets;
  for (const auto& [name, value] : over) all[name] = value;
  return {all.begin(), all.end()};
}

TEST(ExerciseCuda, EveryStartAndSolutionCompilesAndInstrumentsForCompute90) {
  const cuda::Nvrtc& nvrtc = cuda::Nvrtc::get();
  if (!nvrtc.available()) GTEST_SKIP() << "NVRTC is not available here: " << nvrtc.error();
  const bool assemble = fs::exists(THREADMAP_PTXAS);
  int compiled = 0;
  for (const Exercise& e : exercises()) {
    const Variant* v = find_variant(e.kernel_id);
    ASSERT_NE(v, nullptr) << e.id;
    ASSERT_TRUE(e.starts.count(threadmap::Dialect::Cuda) && e.solutions.count(threadmap::Dialect::Cuda)) << e.id << ": no CUDA start or solution";
    std::vector<std::map<std::string, std::string>> sizes{{}};
    sizes.insert(sizes.end(), e.verify_at.begin(), e.verify_at.end());
    for (const ExerciseFile* file : {&e.starts.at(threadmap::Dialect::Cuda), &e.solutions.at(threadmap::Dialect::Cuda)}) {
      std::set<std::string> seen;  // one compile per instantiation
      for (const auto& over : sizes) {
        Workload w = v->build(*v, make_params(v->params, sets_with(e, over), v->id), 1);
        use_source(w, *v, file->text, file->name);
        for (const LaunchCmd& launch : w.launches) {
          if (launch.kernel != v->kernel) continue;
          const auto* spec = cuda_kernels::find_kernel(launch.program.source, launch.kernel);
          ASSERT_NE(spec, nullptr) << file->name << ": " << launch.kernel;
          const std::string expression = cuda_kernels::name_expression(*spec, launch.program);
          if (!seen.insert(expression).second) continue;
          const std::string label = file->name + " as " + expression;
          cuda::CompileResult timed;
          try {
            timed = nvrtc.compile(cuda_kernels::compile_request(spec->source, {expression}, kTarget, &launch.program));
          } catch (const cuda::CompileError& x) {
            ADD_FAILURE() << label << " does not compile: " << x.what() << "\n" << x.log();
            continue;
          }
          ++compiled;
          ASSERT_EQ(timed.kernels.size(), 1u) << label;
          EXPECT_TRUE(timed.ptx) << label << ": PTX for " << kTarget;
          for (const cuda::Pass pass : {cuda::Pass::Access, cuda::Pass::Clock}) {
            const std::string pass_name = pass == cuda::Pass::Access ? "access" : "clock";
            const cuda::InstrumentedPtx traced = cuda::instrument_compiled(timed, nvrtc, pass);
            ASSERT_EQ(traced.entries.size(), 1u) << label << ", " << pass_name << " pass";
            if (pass == cuda::Pass::Access)
              EXPECT_GT(traced.entries[0].recorded_count(), 0) << label << ": no access recorded";
            if (!assemble) continue;
            const std::string errors =
                assembly_errors(traced.ptx, e.id + "_" + std::to_string(compiled) + "_" + pass_name);
            EXPECT_TRUE(errors.empty()) << label << ", " << pass_name << " pass:\n" << errors;
          }
        }
      }
      EXPECT_FALSE(seen.empty()) << file->name << ": no launch of " << v->kernel;
    }
  }
  EXPECT_GE(compiled, 10) << "every exercise's start and solution, at least once each";
  if (!assemble)
    GTEST_SKIP() << "ptxas not found at " << THREADMAP_PTXAS << ": compiled and instrumented, not assembled";
}

// A kernel named by its whole path (a pack's, a learner's) is compiled into
// the cache folder, never beside its file.
TEST(CudaCompiler, CacheEntriesStayInTheCacheFolder) {
  const cuda::Nvrtc& nvrtc = cuda::Nvrtc::get();
  if (!nvrtc.available()) GTEST_SKIP() << "NVRTC is not available";
  const fs::path work = fs::temp_directory_path() / ("threadmap-cache-test-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work / "cache");
  fs::create_directories(work / "pack");
  setenv("THREADMAP_CACHE_DIR", (work / "cache").c_str(), 1);
  cuda::CompileRequest request;
  request.file_name = (work / "pack" / "mine.cu").string();
  request.text = "extern \"C\" __global__ void k(int* p) { p[threadIdx.x] = 1; }\n";
  request.name_expressions = {"k"};
  request.target = kTarget;
  nvrtc.compile(request);
  unsetenv("THREADMAP_CACHE_DIR");
  EXPECT_TRUE(fs::is_empty(work / "pack")) << "a cache entry beside the kernel's file";
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(work / "cache"))
    entries += e.path().filename().string().starts_with("mine-");
  EXPECT_EQ(entries, 1u);
  fs::remove_all(work);
}

}  // namespace
}  // namespace threadmap
