// OpenMP target offload, the third dialect: its name and files, the variants
// written in it alone, and the GCC device (engine/openmp): compiled for the
// GPU, run verified (on the GPU where libgomp finds one, else in its host
// fallback, named so), a learner's file compiled in the embedded one's place.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels/analysis/analysis.h"
#include "kernels/core/dialect.h"
#include "kernels/core/error.h"
#include "kernels/engine/devices.h"
#include "kernels/engine/openmp/openmp_backend.h"
#include "kernels/engine/record.h"
#include "kernels/engine/runner.h"
#include "kernels/pack/catalog.h"
#include "kernels/pack/manifest.h"
#include "tests/test_devices.h"

namespace threadmap {
namespace {

TEST(OpenmpDialect, IsNamedByItsKeyAndItsFiles) {
  EXPECT_EQ(dialect_key(Dialect::OpenMP), "openmp");
  EXPECT_EQ(dialect_extension(Dialect::OpenMP), ".c");
  EXPECT_EQ(dialect_from_key("openmp"), Dialect::OpenMP);
  EXPECT_EQ(dialect_of_file("mine.c"), Dialect::OpenMP);
  EXPECT_EQ(dialect_of_file("mine.cl"), Dialect::OpenCL);
  EXPECT_EQ(dialect_of_file("mine.cu"), Dialect::Cuda);
  EXPECT_EQ(dialect_file("matadd", Dialect::OpenMP), "matadd.c");
  EXPECT_NE(dialect_keys_text().find("openmp"), std::string::npos);
}

TEST(OpenmpCatalog, TheSimdFixesAreWrittenInOpenmpAloneAndTheLessonLoopsInAll) {
  for (const char* id : {"matadd.rows", "matadd.cols"}) {
    const Variant* v = find_variant(id);
    ASSERT_NE(v, nullptr) << id;
    for (Dialect d : kDialects) EXPECT_TRUE(v->written_in(d)) << id << " " << dialect_key(d);
  }
  for (const char* id : {"matadd.cols_simd", "matadd.rows_simd"}) {
    const Variant* v = find_variant(id);
    ASSERT_NE(v, nullptr) << id;
    EXPECT_TRUE(v->written_in(Dialect::OpenMP)) << id;
    EXPECT_FALSE(v->written_in(Dialect::Cuda)) << id;
    EXPECT_FALSE(v->written_in(Dialect::OpenCL)) << id;
  }
  const Variant* elements = find_variant("matadd.elements");
  ASSERT_NE(elements, nullptr);
  EXPECT_FALSE(elements->written_in(Dialect::OpenMP));
}

pack::PackManifest read(const std::string& variant_line, bool with_openmp_file) {
  const std::string text = std::string("[pack]\nname = \"p\"\n[[family]]\nid = \"f\"\nopencl = \"f.cl\"\n") +
                           (with_openmp_file ? "openmp = \"f.c\"\n" : "") +
                           "arguments = [\"y\"]\n"
                           "[[family.buffer]]\nname = \"y\"\ntype = \"float\"\ncount = \"64\"\nrole = \"output\"\n"
                           "[[family.launch]]\ngrid = [\"1\"]\nblock = [\"64\"]\n"
                           "[[family.variant]]\nid = \"v\"\nkernel = \"k\"\nreference = true\n" +
                           variant_line + "\n";
  return pack::parse_manifest(text, "pack.toml", "p",
                              [](const std::string&) { return std::optional<std::string>("void k() {}\n"); });
}

std::string manifest_error(const std::string& variant_line, bool with_openmp_file) {
  try {
    read(variant_line, with_openmp_file);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

TEST(OpenmpManifest, AVariantNamesTheFamilysFilesItIsWrittenIn) {
  const pack::PackManifest m = read("dialects = [\"openmp\"]", true);
  ASSERT_EQ(m.families.size(), 1u);
  EXPECT_EQ(m.families[0].kernels.count(Dialect::OpenMP), 1u);
  EXPECT_EQ(m.families[0].variants[0].dialects, std::vector<Dialect>{Dialect::OpenMP});
  EXPECT_NE(manifest_error("dialects = [\"openmp\"]", false).find("the family names no OpenMP C file"),
            std::string::npos)
      << manifest_error("dialects = [\"openmp\"]", false);
  EXPECT_NE(manifest_error("dialects = [\"fortran\"]", true).find("'fortran' is none"), std::string::npos);
  EXPECT_NE(manifest_error("dialects = [\"opencl\", \"opencl\"]", true).find("names opencl twice"),
            std::string::npos);
  EXPECT_NE(manifest_error("dialects = []", true).find("dialects is empty"), std::string::npos);
  EXPECT_NE(manifest_error("dialects = [1]", true).find("not an integer"), std::string::npos)
      << manifest_error("dialects = [1]", true);
}

testing::TestDevice& gcc_device() {
  static testing::TestDevice d = testing::first_device("openmp");
  return d;
}

// A learner's file needs the compiler (a GPU machine may have only the
// runtime, and the catalog's kernels compiled elsewhere in its cache).
#define REQUIRE_OPENMP_COMPILER()                                                 \
  if (!gcc_device().device) GTEST_SKIP() << gcc_device().skip_reason;             \
  if (const std::string why = openmp_compiler_problem(); !why.empty()) GTEST_SKIP() << why

RunResult run(Device& device, const std::string& id, std::vector<std::pair<std::string, std::string>> sets,
              const std::string& source = {}, const std::string& source_name = {}) {
  const Variant& v = *find_variant(id);
  RunOptions o;
  o.warmup = 0;
  o.repetitions = 1;
  o.end_to_end_repetitions = 1;
  o.source_text = source;
  o.source_name = source_name;
  return run_variant(device, v, make_params(v.params, sets, v.id), o);
}

TEST(OpenmpDevice, TheHostFallbackIsNamedSoAndTheGpuIsNamed) {
  if (!gcc_device().device) GTEST_SKIP() << gcc_device().skip_reason;
  const DeviceInfo& d = gcc_device().device->info();
  EXPECT_EQ(d.dialect, Dialect::OpenMP);
  EXPECT_EQ(d.spec, "openmp:gcc");
  if (d.memory_is_host)
    EXPECT_NE(d.name.find("host fallback"), std::string::npos) << d.name;
  else
    EXPECT_NE(d.name.find("GCC OpenMP offload"), std::string::npos) << d.name;
}

TEST(OpenmpDevice, AVariantNotWrittenInOpenmpIsUnavailableThereAndTheFixElsewhere) {
  if (!gcc_device().device) GTEST_SKIP() << gcc_device().skip_reason;
  const RunResult r = run(*gcc_device().device, "matadd.elements", {{"width", "64"}, {"height", "8"}});
  EXPECT_EQ(r.status, RunStatus::Unavailable);
  EXPECT_NE(r.error.find("matadd.elements is written in CUDA, OpenCL C"), std::string::npos) << r.error;
  testing::TestDevice opencl = testing::first_device("opencl");
  if (!opencl.device) GTEST_SKIP() << opencl.skip_reason;
  const RunResult s = run(*opencl.device, "matadd.cols_simd", {{"width", "64"}, {"height", "8"}});
  EXPECT_EQ(s.status, RunStatus::Unavailable);
  EXPECT_NE(s.error.find("is written in OpenMP C"), std::string::npos) << s.error;
}

// The compiled object holds the GPU's image (the region's PTX entry, for
// nvptx), whether or not a GPU is here to run it.
TEST(OpenmpDevice, TheLessonsLoopsAreCompiledForTheGpu) {
  REQUIRE_OPENMP_COMPILER();
  namespace fs = std::filesystem;
  const fs::path cache = fs::temp_directory_path() / ("threadmap-openmp-test-" + std::to_string(getpid()));
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  const std::string kernel = "void matadd_rows(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {\n"
                             "  #pragma omp target teams distribute parallel for map(to:a[:width*height]) "
                             "map(to:b[:width*height]) map(from:res[:width*height])\n"
                             "  for (int i = 0; i < height; i++)\n"
                             "    for (int j = 0; j < width; j++) res[i*width+j] = a[i*width+j] + b[i*width+j];\n"
                             "}\n";
  const RunResult r = run(*gcc_device().device, "matadd.rows", {{"width", "40"}, {"height", "30"}}, kernel, "mine.c");
  if (old) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  EXPECT_TRUE(r.verification.verified);
  int objects = 0;
  bool gpu_image = false;
  for (const auto& e : fs::recursive_directory_iterator(cache)) {
    if (e.path().extension() != ".so") continue;
    ++objects;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    gpu_image = gpu_image || bytes.str().find(".entry matadd_rows$_omp_fn$0") != std::string::npos;
  }
  fs::remove_all(cache);
  EXPECT_EQ(objects, 1);
  EXPECT_TRUE(gpu_image) << "no nvptx entry for the target region in the compiled object "
                            "(is gcc-12-offload-nvptx installed?)";
}

TEST(OpenmpDevice, ALearnersFileThatDoesNotCompileIsNamedWithItsLine) {
  REQUIRE_OPENMP_COMPILER();
  const RunResult r = run(*gcc_device().device, "matadd.cols", {{"width", "16"}, {"height", "16"}},
                          "void matadd_cols(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {\n"
                          "  res[0] = a[0] + b[0] +;\n}\n",
                          "mine.c");
  EXPECT_NE(r.status, RunStatus::Ok);
  EXPECT_NE(r.error.find("mine.c:2:"), std::string::npos) << r.error;
  const RunResult missing =
      run(*gcc_device().device, "matadd.cols", {{"width", "16"}, {"height", "16"}}, "void other(void) {}\n", "mine.c");
  EXPECT_NE(missing.error.find("mine.c has no kernel named matadd_cols"), std::string::npos) << missing.error;
}

TEST(OpenmpDevice, ALearnersWrongLoopFailsVerification) {
  REQUIRE_OPENMP_COMPILER();
  const RunResult r = run(*gcc_device().device, "matadd.cols", {{"width", "32"}, {"height", "8"}},
                          "void matadd_cols(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {\n"
                          "  #pragma omp target teams distribute parallel for map(to:a[:width*height]) "
                          "map(to:b[:width*height]) map(from:res[:width*height])\n"
                          "  for (int j = 0; j < width - 1; j++)\n"
                          "    for (int i = 0; i < height; i++) res[i*width+j] = a[i*width+j] + b[i*width+j];\n"
                          "}\n",
                          "mine.c");
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  EXPECT_FALSE(r.verification.verified);
  EXPECT_EQ(r.verification.mismatches, 8u);  // the last column, never written
}

// The image GCC's runtime is handed when a compiled object is opened passes
// through ThreadMap's own GOMP_offload_register_ver (exported by the
// program): its PTX, the kernel file's first, and the entry of each region.
TEST(OpenmpImage, TheRegisteredImageIsReadAsLibgompGetsIt) {
  if (!gcc_device().device) GTEST_SKIP() << gcc_device().skip_reason;
  const Variant& v = *find_variant("matadd.rows");
  const Workload w = v.build(v, make_params(v.params, {{"width", "16"}, {"height", "16"}}, v.id), 1);
  OffloadImage image;
  try {
    image = openmp_offload_image(w.launches.front());
  } catch (const Unavailable& e) {
    GTEST_SKIP() << e.what();
  }
  // A region of each of matadd.c's four functions.
  EXPECT_EQ(image.entries, (std::vector<std::string>{"matadd_rows$_omp_fn$0", "matadd_cols$_omp_fn$0",
                                                     "matadd_cols_simd$_omp_fn$0", "matadd_rows_simd$_omp_fn$0"}));
  ASSERT_GE(image.ptx.size(), 2u);  // the kernel file's, then libgomp's device code
  EXPECT_NE(image.ptx[0].find(".entry matadd_rows$_omp_fn$0"), std::string::npos);
  EXPECT_NE(image.ptx[0].find(".target sm_80"), std::string::npos);
  EXPECT_NE(image.ptx[0].find("matadd.c"), std::string::npos) << "the source lines name the kernel file";
  // The object still runs after its image was read from a private copy.
  const RunResult r = run(*gcc_device().device, "matadd.rows", {{"width", "16"}, {"height", "16"}});
  EXPECT_EQ(r.status, RunStatus::Ok) << r.error;
}

// In the host fallback no warps run the region: there is nothing of a GPU's
// to record, and the recorder says so.
TEST(OpenmpTrace, TheHostFallbackIsNotTraced) {
  if (!gcc_device().device) GTEST_SKIP() << gcc_device().skip_reason;
  if (!gcc_device().device->info().memory_is_host) GTEST_SKIP() << "a GPU is here: OpenmpTrace.* below trace it";
  const Variant& v = *find_variant("matadd.rows");
  TraceOptions o;
  const Recording r =
      record_trace(*gcc_device().device, v, make_params(v.params, {{"width", "32"}, {"height", "32"}}, v.id), o);
  EXPECT_EQ(r.status, RunStatus::Unavailable);
  EXPECT_NE(r.error.find("records the GPU's warps and lanes"), std::string::npos) << r.error;
  EXPECT_TRUE(r.trace.accesses.empty());
}

// On the GPU: the region traced as libgomp launched it (GCC: teams of 8
// warps of 32 lanes), its accesses at the lesson's line. Without simd the
// 32 lanes of a warp make the same access (the counters, against Nsight
// Compute's, are in docs/openmp.md).
TEST(OpenmpTrace, TheLessonsLoopsAreTracedAsLibgompLaunchedThem) {
  if (!gcc_device().device) GTEST_SKIP() << gcc_device().skip_reason;
  Device& device = *gcc_device().device;
  if (device.info().memory_is_host) GTEST_SKIP() << "no GPU: the host fallback is not traced";
  for (const char* id : {"matadd.rows", "matadd.cols", "matadd.cols_simd", "matadd.rows_simd"}) {
    SCOPED_TRACE(id);
    const Variant& v = *find_variant(id);
    TraceOptions o;
    o.blocks = {0};
    const Recording r = record_trace(device, v, make_params(v.params, {{"width", "64"}, {"height", "64"}}, v.id), o);
    ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
    EXPECT_TRUE(r.verification.verified);
    EXPECT_EQ(r.trace.block[0], 32u);
    EXPECT_EQ(r.trace.block[1], 8u);
    EXPECT_GT(r.trace.grid[0], 1u);
    ASSERT_FALSE(r.trace.accesses.empty());
    // Block 0's accesses alone, each at a line of matadd.c.
    for (const Access& a : r.trace.accesses) {
      EXPECT_EQ(a.block, 0u);
      EXPECT_GT(a.line, 0u);
    }
    EXPECT_EQ(r.trace.source_file, "matadd.c");
    // The grid the trace names is the one libgomp launched for the traced
    // build (fewer teams fit the SMs where it needs more registers): every
    // block started, on a named SM.
    ASSERT_EQ(r.trace.schedule.size(), r.trace.block_count());
    for (const BlockSchedule& b : r.trace.schedule) {
      EXPECT_NE(b.start, UINT64_MAX) << "a block of the trace's grid never ran";
      EXPECT_NE(b.sm, kNoSm);
    }
    // libgomp's own loads (the region's arguments) are counted apart, and
    // its team state in shared memory is no race of the kernel's.
    EXPECT_GT(r.trace.runtime_accesses.ld_requests, 0u);
    const analysis::Analysis a = analysis::analyze(r.trace, analysis::model_for(r.trace));
    EXPECT_TRUE(a.problems.list.empty());
    EXPECT_EQ(a.totals.shared_ld_requests + a.totals.shared_st_requests, 0u);
    // GCC's mapping: the 32 lanes of a warp run every instruction; outside
    // `simd` they run the same iteration, so each request is 32 lanes on one
    // word (one sector); the row loop's inner `simd` hands a row's 64
    // elements to the lanes: 4 sectors a request.
    // The column loop's `simd` shares only the columns an OpenMP thread
    // holds: 64 columns for 396 x 8 threads are one each, run on one lane.
    ASSERT_GT(a.totals.global_ld_requests, 0u);
    const bool one_lane = std::string_view(id) == "matadd.cols_simd";
    EXPECT_EQ(a.totals.global_ld_lanes, (one_lane ? 1 : 32) * a.totals.global_ld_requests);
    const std::uint64_t sectors_per_request = std::string_view(id) == "matadd.rows_simd" ? 4 : 1;
    EXPECT_EQ(a.totals.global_ld_sectors, sectors_per_request * a.totals.global_ld_requests);
  }
}

}  // namespace
}  // namespace threadmap
