// The PTX instrumenter (kernels/ptx/ptx_instrument.h) on every catalog CUDA
// kernel, compiled here by NVRTC as the timed build (PTX for compute_90): the
// result assembles with ptxas, records exactly the input's ld/st of global,
// shared and generic memory per source line, calls begin once and end before
// every exit, and takes exactly one more parameter. Plus every addressing
// form on a small hand-written kernel, malformed input, and a light fuzz.
#include <gtest/gtest.h>

#include <algorithm>
#include <compare>
#include <iostream>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <tuple>
#include <sstream>

#include "kernels/pack/catalog.h"
#include "kernels/core/trace_format.h"
#include "kernels/engine/cuda/cuda_kernels.h"
#include "kernels/engine/openmp/openmp_backend.h"
#include "kernels/engine/runner.h"
#include "kernels/ptx/ptx_instrument.h"
#include "kernels/ptx/ptx_runtime.h"
#include "kernels/core/error.h"
#include "kernels/core/sources.h"

namespace threadmap {
namespace {

namespace fs = std::filesystem;
using cuda::EntryReport;
using cuda::MemoryInstructions;
using cuda::MemorySpace;
using cuda::PtxError;

constexpr const char* kTarget = "compute_90";

// One catalog kernel instantiation: a variant with one element type and pad.
struct KernelCase {
  std::string label;  // "transpose.coalesced int pad 1"
  std::string source;
  std::string name_expression;
};

std::vector<KernelCase> catalog_cases() {
  std::vector<KernelCase> cases;
  std::set<std::string> seen;
  for (const Variant& v : catalog()) {
    if (!v.written_in(Dialect::Cuda)) continue;
    const ParamSpec* type = v.param("type");
    const ParamSpec* pad = v.param("pad");
    const std::vector<std::string> types = type ? type->choices : std::vector<std::string>{std::string()};
    const std::vector<std::int64_t> pads = pad ? pad->allowed : std::vector<std::int64_t>{-1};
    for (const std::string& t : types) {
      for (std::int64_t p : pads) {
        std::vector<std::pair<std::string, std::string>> assignments;
        if (!t.empty()) assignments.push_back({"type", t});
        if (p >= 0) assignments.push_back({"pad", std::to_string(p)});
        const Workload w = v.build(v, make_params(v.params, assignments, v.id), 1);
        for (const LaunchCmd& launch : w.launches) {
          const auto* spec = cuda_kernels::find_kernel(launch.program.source, launch.kernel);
          if (!spec) continue;
          const std::string e = cuda_kernels::name_expression(*spec, launch.program);
          if (!seen.insert(e).second) continue;
          std::string label =
              v.id + (t.empty() ? "" : " " + t) + (p >= 0 ? " pad " + std::to_string(p) : "") + ": " + e;
          cases.push_back({label, std::string(spec->source), e});
        }
      }
    }
  }
  return cases;
}

// Each source compiled once, with every instantiation the catalog uses.
const cuda::CompileResult& compiled(const std::string& source) {
  static std::map<std::string, cuda::CompileResult> results;
  if (const auto found = results.find(source); found != results.end()) return found->second;
  std::vector<std::string> expressions;
  for (const KernelCase& c : catalog_cases())
    if (c.source == source) expressions.push_back(c.name_expression);
  const auto request = cuda_kernels::compile_request(source, expressions, kTarget);
  return results.emplace(source, cuda::Nvrtc::get().compile(request)).first->second;
}

const std::string& runtime_ptx() {
  static const std::string ptx = cuda::Nvrtc::get().compile(cuda::trace_runtime_request(kTarget)).image;
  return ptx;
}

std::string lowered_name(const cuda::CompileResult& r, const std::string& expression) {
  for (const auto& k : r.kernels)
    if (k.name_expression == expression) return k.lowered_name;
  return {};
}

std::string ptxas_path() {
#ifdef THREADMAP_PTXAS
  if (fs::exists(THREADMAP_PTXAS)) return THREADMAP_PTXAS;
#endif
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && fs::exists(fs::path(dir) / "ptxas")) return (fs::path(dir) / "ptxas").string();
  }
  return {};
}

// Assembles PTX for sm_90; returns ptxas's messages, empty on success.
std::optional<std::string> assemble_errors(const std::string& ptx, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "threadmap-ptx-instrument-test";
  fs::create_directories(dir);
  const fs::path file = dir / (name + ".ptx");
  std::ofstream(file) << ptx;
  const std::string command =
      ptxas_path() + " -arch=sm_90 -o " + (dir / (name + ".cubin")).string() + " " + file.string() + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "could not run " + command;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  if (status == 0) return std::nullopt;
  return command + "\n" + output;
}

// The body of one entry, line by line, as NVRTC formats it (an independent
// reading: regular expressions over lines, not the instrumenter's parser).
std::vector<std::string> entry_lines(const std::string& ptx, const std::string& entry) {
  std::istringstream in(ptx);
  std::vector<std::string> lines;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!inside && line.find(".entry " + entry + "(") != std::string::npos) inside = true;
    if (!inside) continue;
    lines.push_back(line);
    if (line == "}") break;
  }
  return lines;
}

// Per source line: the ld/st of global, shared or generic memory.
std::map<int, int> memory_instructions_per_line(const std::vector<std::string>& body) {
  static const std::regex loc(R"(^\s*\.loc\s+\d+\s+(\d+))");
  static const std::regex memory(R"(^\s*(@!?%\w+\s+)?(ld|st|ldu)((\.[\w:]+)*)\s)");
  std::map<int, int> counts;
  int line = 0;
  for (const std::string& l : body) {
    std::smatch m;
    if (std::regex_search(l, m, loc) && std::stoi(m[1]) > 0) line = std::stoi(m[1]);
    if (!std::regex_search(l, m, memory)) continue;
    const std::string qualifiers = m[3].str() + ".";
    bool skipped = false;
    for (const char* s : {".param", ".local", ".const", ".shared::cluster", ".async", ".bulk"})
      skipped = skipped || qualifiers.find(std::string(s) + ".") != std::string::npos ||
                qualifiers.find(std::string(s) + ":") != std::string::npos;
    if (!skipped) ++counts[line];
  }
  return counts;
}

int count_matching(const std::vector<std::string>& body, const std::regex& pattern) {
  return static_cast<int>(
      std::count_if(body.begin(), body.end(), [&](const std::string& l) { return std::regex_search(l, pattern); }));
}

// The statement before line i, skipping blank lines and the glue's closing brace.
std::string previous_statement(const std::vector<std::string>& body, std::size_t i) {
  while (i > 0) {
    --i;
    const std::string l = body[i];
    if (l.find_first_not_of(" \t") == std::string::npos || l == "\t}") continue;
    return l;
  }
  return {};
}

// What the access pass puts between an access call and the instruction it
// may skip: the call's answer read, the "may it be made" predicate, and
// where the instruction has a guard of its own, the two combined.
bool is_skip_glue(const std::string& l) {
  for (const char* glue : {"ld.param.b32 \t%threadmap_inside", "setp.ne.u32 \t%threadmap_may",
                           "not.pred \t%threadmap_not_guard", "and.pred \t%threadmap_guarded"})
    if (l.find(glue) != std::string::npos) return true;
  return false;
}

// The statement before `i`, past the skip glue; and the instruction's own
// guard, as the glue combined it ("@%p1", "@!%p1" or "").
std::string statement_before_glue(const std::vector<std::string>& body, std::size_t i, std::string* own_guard) {
  static const std::regex combined(R"(and\.pred \t%threadmap_guarded, (%\w+), )");
  static const std::regex negated(R"(not\.pred \t%threadmap_not_guard, (%\w+);)");
  own_guard->clear();
  while (i > 0) {
    std::string l = previous_statement(body, i);
    std::size_t at = i;
    while (at > 0 && body[at - 1] != l) --at;
    i = at - 1;
    std::smatch m;
    if (std::regex_search(l, m, negated)) *own_guard = "@!" + m[1].str();
    else if (std::regex_search(l, m, combined) && m[1] != "%threadmap_not_guard") *own_guard = "@" + m[1].str();
    if (!is_skip_glue(l)) return l;
  }
  return {};
}

std::string file_label(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

bool cuda_ready(std::string& why) {
  if (!cuda::Nvrtc::get().available()) {
    why = cuda::Nvrtc::get().error();
    return false;
  }
  return true;
}

void PrintTo(const KernelCase& c, std::ostream* out) { *out << c.label; }

// Each case's timed build (NVRTC, compiled once per source) and its entry.
class CatalogKernel : public ::testing::TestWithParam<KernelCase> {
 protected:
  void SetUp() override {
    std::string why;
    if (!cuda_ready(why)) GTEST_SKIP() << why;
    timed_ = &compiled(GetParam().source);
    entry_ = lowered_name(*timed_, GetParam().name_expression);
    ASSERT_FALSE(entry_.empty()) << GetParam().label;
  }
  const cuda::CompileResult* timed_ = nullptr;
  std::string entry_;
};

TEST_P(CatalogKernel, InstrumentsEveryMemoryInstructionAndAssembles) {
  const KernelCase& c = GetParam();
  const cuda::CompileResult& timed = *timed_;
  const std::string& entry = entry_;

  const cuda::InstrumentedPtx out = cuda::instrument_ptx(timed.image, {entry}, runtime_ptx());
  ASSERT_EQ(out.entries.size(), 1u);
  const EntryReport& report = out.entries[0];

  // The report against an independent count of the input, per line.
  const std::vector<std::string> input = entry_lines(timed.image, entry);
  const std::map<int, int> expected = memory_instructions_per_line(input);
  std::map<int, int> reported;
  std::map<int, int> machine;
  for (const MemoryInstructions& m : report.recorded) {
    reported[m.line] += m.count * m.merged;
    machine[m.line] += m.count;
  }
  // A folded store is counted at the line of the store it is folded into.
  // Only the tree reductions fold one: `local_mem[lid] = 0;` and the
  // conditional load into it.
  std::map<int, int> expected_after_folds = expected;
  for (const cuda::FoldedStore& f : report.folded) {
    --expected_after_folds[f.folded_line];
    ++expected_after_folds[f.line];
    if (expected_after_folds[f.folded_line] == 0) expected_after_folds.erase(f.folded_line);
    EXPECT_LT(f.line, f.folded_line) << c.label;
  }
  const bool tree_reduction = c.source == "reduce" && c.name_expression.find("warp_shuffle") == std::string::npos;
  EXPECT_EQ(report.folded.size(), tree_reduction ? 1u : 0u) << c.label;
  EXPECT_EQ(reported, expected_after_folds) << c.label;
  EXPECT_GT(report.recorded_count(), 0) << c.label;
  // No catalog kernel moves data in a form the trace misses: the device
  // would refuse its traced build (UnrecordedInstructions::moves_data).
  for (const cuda::UnrecordedInstructions& u : report.unrecorded)
    EXPECT_FALSE(u.moves_data()) << c.label << ": " << u.opcode << " at line " << u.line;
  for (const MemoryInstructions& m : report.recorded) {
    EXPECT_TRUE(m.file.ends_with(c.source + ".cu")) << c.label << ": " << m.file;
    EXPECT_GT(m.line, 0) << c.label;
  }

  // The output: one access call per memory instruction, right before it and
  // with the line the report gives; arrive/release around each barrier.
  const std::vector<std::string> body = entry_lines(out.ptx, entry);
  std::map<int, int> called;
  static const std::regex line_argument(R"(st\.param\.b32\s+\[threadmap_arg4\], (\d+);)");
  static const std::regex access_call(R"(call \(threadmap_result\), threadmap_access, )");
  static const std::regex memory(R"(^\s*(@!?%\w+\s+)?(ld|st)\.(global|shared)[.\w:]*\s)");
  int pending_line = -1;
  std::size_t uncalled_shared_stores = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    std::smatch m;
    if (std::regex_search(body[i], m, line_argument)) pending_line = std::stoi(m[1]);
    if (std::regex_search(body[i], access_call)) ++called[pending_line];
    if (std::regex_search(body[i], m, memory) && body[i].find("[threadmap") == std::string::npos &&
        body[i].find(", %threadmap") == std::string::npos && body[i].find("\t%threadmap") == std::string::npos) {
      // Every memory instruction is made only where its access may be (the
      // skip glue's predicate, which carries its own guard).
      const std::string guard = m[1].str();
      EXPECT_TRUE(guard.starts_with("@%threadmap_may") || guard.starts_with("@%threadmap_guarded"))
          << c.label << ": `" << body[i] << "` is not made under the skip predicate";
      // A merged access is recorded once, before the first of its
      // instructions; a folded store with the store it is folded into.
      std::string own_guard;
      const std::string before = statement_before_glue(body, i, &own_guard);
      const bool called_before =
          before.find("threadmap_access, ") != std::string::npos || std::regex_search(before, memory);
      if (!called_before && m[2] == "st" && m[3] == "shared") {
        ++uncalled_shared_stores;
        continue;
      }
      EXPECT_TRUE(called_before) << c.label << ": no access call before `" << body[i] << "`";
      if (!own_guard.empty() && before.find("threadmap_access, ") != std::string::npos)
        EXPECT_NE(before.find(own_guard + " call (threadmap_result), threadmap_access, "), std::string::npos)
            << c.label << ": the call does not carry the guard of `" << body[i] << "`";
    }
  }
  EXPECT_EQ(called, machine) << c.label;
  EXPECT_EQ(uncalled_shared_stores, report.folded.size()) << c.label;

  static const std::regex barrier(R"(^\s*(@!?%\w+\s+)?(bar|barrier)\.(sync|red)\b)");
  static const std::regex arrive(R"(call \(threadmap_result\), threadmap_arrive, )");
  static const std::regex release(R"(call threadmap_release, )");
  EXPECT_EQ(report.barriers, count_matching(input, barrier)) << c.label;
  EXPECT_EQ(count_matching(body, arrive), report.barriers) << c.label;
  EXPECT_EQ(count_matching(body, release), report.barriers) << c.label;

  // Begin once, before the first label and the first instruction of the
  // kernel's own; end right before every exit.
  static const std::regex begin(R"(call \(threadmap_result\), threadmap_begin, )");
  EXPECT_EQ(count_matching(body, begin), 1) << c.label;
  const auto begin_at =
      std::find_if(body.begin(), body.end(), [](const std::string& l) { return std::regex_search(l, begin); });
  const auto first_label = std::find_if(
      body.begin(), body.end(), [](const std::string& l) { return std::regex_search(l, std::regex(R"(^\$L\w*:)")); });
  const auto first_own = std::find_if(body.begin(), body.end(), [&](const std::string& l) {
    return l.find("ld.param") != std::string::npos && l.find("threadmap") == std::string::npos;
  });
  EXPECT_LT(begin_at, first_label) << c.label;
  EXPECT_LT(begin_at, first_own) << c.label;
  static const std::regex exit(R"(^\s*(@!?%\w+\s+)?(ret|exit);)");
  int exits = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!std::regex_search(body[i], exit)) continue;
    ++exits;
    EXPECT_NE(previous_statement(body, i).find("call threadmap_end, "), std::string::npos)
        << c.label << ": no end call before `" << body[i] << "` (body line " << i << ")";
  }
  EXPECT_EQ(exits, report.exits) << c.label;
  EXPECT_GE(exits, 1) << c.label;

  // Exactly one more parameter, the last, a .u64.
  const cuda::ptx::Module before = cuda::ptx::parse_module(timed.image);
  const cuda::ptx::Module after = cuda::ptx::parse_module(out.ptx);
  const auto* f0 = before.find_function(entry);
  const auto* f1 = after.find_function(entry);
  ASSERT_TRUE(f0 && f1);
  ASSERT_EQ(f1->parameters.size(), f0->parameters.size() + 1) << c.label;
  EXPECT_EQ(f1->parameters.back().type, ".u64");
  EXPECT_EQ(f1->parameters.back().name, cuda::kTraceBufferParameter);
  EXPECT_EQ(after.version, before.version);
  EXPECT_EQ(after.target, before.target);

  if (ptxas_path().empty()) GTEST_SKIP() << "ptxas not found (CUDA Toolkit bin/ or PATH): not assembled";
  const auto errors = assemble_errors(out.ptx, file_label(c.name_expression));
  EXPECT_FALSE(errors) << c.label << "\n" << errors.value_or("");
}

// The clock pass: nothing but clock reads around each barrier, kept in
// registers (the arrival right before it; the barrier in its reduction form,
// whose result gates the release clock), and plain stores at each exit; no
// calls, no atomics, no shared memory of its own.
TEST_P(CatalogKernel, ClockPassReadsTheClockAroundEveryBarrierAndAssembles) {
  const KernelCase& c = GetParam();
  const cuda::CompileResult& timed = *timed_;
  const std::string& entry = entry_;
  const cuda::InstrumentedPtx out = cuda::instrument_ptx(timed.image, {entry}, runtime_ptx(), cuda::Pass::Clock);
  ASSERT_EQ(out.entries.size(), 1u);
  const EntryReport& report = out.entries[0];
  const std::vector<std::string> input = entry_lines(timed.image, entry);
  const std::vector<std::string> body = entry_lines(out.ptx, entry);
  static const std::regex barrier(R"(^\s*(@!?%\w+\s+)?(bar|barrier)\.(sync|red)\b)");
  EXPECT_EQ(report.barriers, count_matching(input, barrier)) << c.label;
  EXPECT_EQ(count_matching(body, std::regex(R"(\bcall\b)")), count_matching(input, std::regex(R"(\bcall\b)")))
      << c.label;
  static const std::regex atomic(R"(^\s*(@!?%\w+\s+)?(atom|red)\.)");
  EXPECT_EQ(count_matching(body, atomic), count_matching(input, atomic)) << c.label;
  EXPECT_EQ(out.ptx.find(".shared .align 4 .b8 threadmap"), std::string::npos) << c.label;
  EXPECT_EQ(out.ptx.find(".func"), timed.image.find(".func")) << c.label << ": no runtime merged";
  EXPECT_EQ(count_matching(body, std::regex(R"(mov\.u64\s+%threadmap_start, %clock64;)")), 1) << c.label;
  EXPECT_EQ(count_matching(body, std::regex(R"(^\s*(@!?%\w+\s+)?(bar|barrier)\.sync)")), 0)
      << c.label << ": every barrier waits on a result";
  int site = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!std::regex_search(body[i], barrier)) continue;
    // Nothing between the arrival's clock read and the barrier, which is
    // the same barrier with a population count for a result.
    EXPECT_NE(previous_statement(body, i).find("mov.u64 \t%threadmap_arrival, %clock64;"), std::string::npos)
        << c.label << ": `" << body[i] << "`";
    EXPECT_NE(body[i].find("bar.red.popc.u32 \t%threadmap_count, 0, %threadmap_true;"), std::string::npos)
        << c.label << ": `" << body[i] << "`";
    // After it: the release clock under a predicate computed from that result.
    ASSERT_LT(i + 3, body.size());
    EXPECT_NE(body[i + 2].find("setp.ne.u32 \t%threadmap_released, %threadmap_count, 0xffffffff;"), std::string::npos)
        << c.label << ": `" << body[i + 2] << "`";
    EXPECT_NE(body[i + 3].find("@%threadmap_released mov.u64 \t%threadmap_release, %clock64;"), std::string::npos)
        << c.label << ": `" << body[i + 3] << "`";
    const std::string n = std::to_string(site++);
    EXPECT_EQ(count_matching(body, std::regex("cvt.u32.u64 \t%threadmap_arrived" + n + ", %threadmap_arrival;")), 1)
        << c.label << ": site " << n;
  }
  static const std::regex exit(R"(^\s*(@!?%\w+\s+)?(ret|exit);)");
  int exits = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!std::regex_search(body[i], exit)) continue;
    ++exits;
    EXPECT_NE(previous_statement(body, i).find("$threadmap_end_"), std::string::npos)
        << c.label << ": no end stores before `" << body[i] << "`";
  }
  EXPECT_EQ(exits, report.exits) << c.label;
  // Each exit: the warp's schedule record and its slot, each marked written,
  // in each of its copies (two where the kernel leaves ids past x unread:
  // one for extents of 1, one that reads them), each ending with the SM.
  const int copies = count_matching(body, std::regex(R"(^\$threadmap_sm_\d+:)"));
  EXPECT_GE(copies, exits) << c.label;
  EXPECT_LE(copies, 2 * exits) << c.label;
  EXPECT_EQ(count_matching(body, std::regex(std::to_string(TM_CLOCK_WRITTEN) + ";")), 2 * copies) << c.label;
  EXPECT_EQ(count_matching(body, std::regex(R"(mov\.u32\s+%threadmap_word, %smid;)")), copies) << c.label;
  // The copy for extents of 1 (from the branch to $threadmap_ids_N to that
  // label) reads no id the kernel does not read itself: at the end of a
  // block such a read is queued with the next block's first reads.
  std::string input_text;
  for (const std::string& line : input) input_text += line + "\n";
  static const std::regex to_general(R"(bra\.uni\s+(\$threadmap_ids_\d+);)");
  std::string general;  // the label that ends the copy being read, or none
  for (const std::string& line : body) {
    std::smatch m;
    if (general.empty() && std::regex_search(line, m, to_general)) {
      general = m[1];
    } else if (!general.empty() && line.starts_with(general + ":")) {
      general.clear();
    } else if (!general.empty()) {
      for (const char* id : {"%tid.y", "%tid.z", "%ctaid.y", "%ctaid.z"})
        EXPECT_FALSE(line.find(std::string(id) + ";") != std::string::npos && input_text.find(id) == std::string::npos)
            << c.label << ": the kernel does not read " << id << ", its exit does: `" << line << "`";
    }
  }
  if (ptxas_path().empty()) GTEST_SKIP() << "ptxas not found (CUDA Toolkit bin/ or PATH): not assembled";
  const auto errors = assemble_errors(out.ptx, file_label(c.name_expression) + "_clock");
  EXPECT_FALSE(errors) << c.label << "\n" << errors.value_or("");
}

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogKernel, ::testing::ValuesIn(catalog_cases()),
                         [](const ::testing::TestParamInfo<KernelCase>& info) {
                           return file_label(info.param.name_expression);
                         });

TEST(PtxInstrument, CoversEveryCatalogCudaKernel) {
  std::set<std::string> kernels;
  for (const KernelCase& c : catalog_cases()) kernels.insert(c.name_expression.substr(0, c.name_expression.find('<')));
  for (const auto& spec : cuda_kernels::all_kernels())
    if (spec.catalog) EXPECT_TRUE(kernels.count(std::string(spec.kernel))) << spec.kernel;
}

// The assembler's own answer: PTX that nvcc made of the catalog's sources,
// assembled by ptxas for sm_90 and disassembled on the GPU machine
// (tests/data/ptx_sass/README.md). Per kernel and line, the machine's memory
// instructions and their widths must be what the report predicts, merges
// included (transpose_coalesced's STS.128 and STS.64, reduce_interleaved's
// LDS.64), except where ptxas does what no reading of the PTX can know.
struct MachineAccess {
  int line;
  MemorySpace space;
  bool store;
  int bytes;
  auto operator<=>(const MachineAccess&) const = default;
};
using MachineCounts = std::map<MachineAccess, int>;

std::map<std::string, MachineCounts> read_sass_summary(const fs::path& path) {
  std::map<std::string, MachineCounts> out;
  std::ifstream in(path);
  std::string function, opcode;
  int line = 0, count = 0;
  while (in >> function >> line >> opcode >> count) {
    const std::string base = opcode.substr(0, opcode.find('.'));
    MachineAccess a{line, MemorySpace::Generic, base.starts_with("ST"), 4};
    if (base == "LDG" || base == "STG") a.space = MemorySpace::Global;
    else if (base == "LDS" || base == "STS") a.space = MemorySpace::Shared;
    else if (base != "LD" && base != "ST") continue;
    std::stringstream parts(opcode);
    for (std::string part; std::getline(parts, part, '.');) {
      if (part == "128") a.bytes = 16;
      if (part == "64") a.bytes = 8;
      if (part == "U16" || part == "S16") a.bytes = 2;
      if (part == "U8" || part == "S8") a.bytes = 1;
    }
    out[function][a] += count;
  }
  return out;
}

MachineCounts predicted(const EntryReport& report) {
  MachineCounts out;
  for (const MemoryInstructions& m : report.recorded) out[{m.line, m.space, m.store, m.bytes}] += m.count;
  return out;
}

// What ptxas does that a reading of the PTX cannot know, by kernel.
enum class Difference {
  Unrolling,  // the same access widths at the same lines, other counts
  StoreLine,  // the same instructions; the store folded at the branch's join
              // (find_folded_stores) carries the line after the join
};
struct KnownDifference {
  std::string_view kernel_prefix;
  std::string_view why;
  Difference difference;
};
constexpr KnownDifference kKnownDifferences[] = {
    {"_Z11matadd_rows", "ptxas unrolls the row loop further (the same accesses per thread)", Difference::Unrolling},
    {"_Z11matadd_cols", "ptxas unrolls the column loop further (the same accesses per thread)", Difference::Unrolling},
    {"matmul_naive", "ptxas unrolls the k loop further (the same accesses per thread)", Difference::Unrolling},
    {"_Z18reduce_interleaved", "the folded `local_mem[lid] = 0` store: ptxas gives it the loop's line",
     Difference::StoreLine},
    {"_Z16reduce_divergent", "the folded `local_mem[lid] = 0` store: ptxas gives it the loop's line",
     Difference::StoreLine},
    {"_Z17reduce_sequential", "the folded `local_mem[lid] = 0` store: ptxas gives it the loop's line",
     Difference::StoreLine},
};

// The counts with every shared store's line taken away.
MachineCounts without_shared_store_lines(const MachineCounts& counts) {
  MachineCounts out;
  for (const auto& [access, n] : counts) {
    MachineAccess a = access;
    if (a.space == MemorySpace::Shared && a.store) a.line = 0;
    out[a] += n;
  }
  return out;
}

TEST(PtxInstrument, PredictsTheAssemblersMemoryInstructions) {
  const fs::path data = THREADMAP_TEST_DATA "/ptx_sass";
  int compared = 0, exact = 0, folded = 0;
  for (const std::string source : {"transpose", "reduce", "smem", "matadd", "matmul"}) {
    std::ifstream in(data / (source + ".ptx"));
    ASSERT_TRUE(in) << data / (source + ".ptx");
    const std::string ptx((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto sass = read_sass_summary(data / (source + ".sass.txt"));
    ASSERT_FALSE(sass.empty()) << source;
    for (const auto& [function, machine] : sass) {
      ++compared;
      const EntryReport report = cuda::memory_instructions(ptx, function);
      const MachineCounts predicted_counts = predicted(report);
      const KnownDifference* known = nullptr;
      for (const KnownDifference& k : kKnownDifferences)
        if (function.starts_with(k.kernel_prefix)) known = &k;
      if (!known) {
        EXPECT_EQ(predicted_counts, machine) << function;
        exact += predicted_counts == machine;
        continue;
      }
      if (known->difference == Difference::StoreLine) {
        // Every load at its line, every store counted as the machine has
        // it, and the fold said where it is: one shared store merged from 2.
        EXPECT_EQ(without_shared_store_lines(predicted_counts), without_shared_store_lines(machine))
            << function << " (" << known->why << ")";
        int folds = 0;
        for (const MemoryInstructions& m : report.recorded)
          if (m.space == MemorySpace::Shared && m.store && m.merged == 2) folds += m.count;
        EXPECT_EQ(folds, 1) << function;
        folded += folds;
        continue;
      }
      std::set<MachineAccess> a, b;
      for (const auto& [k, n] : predicted_counts) a.insert(k);
      for (const auto& [k, n] : machine) b.insert(k);
      EXPECT_EQ(a, b) << function << " (" << known->why << ")";
    }
  }
  EXPECT_EQ(folded, 9);  // three reductions, three element types
  EXPECT_EQ(compared, 105);
  std::cout << exact << " of " << compared << " kernels: exactly the machine's memory instructions\n";
}

// The lesson the issue names: the coalesced transpose's four element stores
// per strip become one 16-byte store at pad 0 (two 8-byte ones at pad 2,
// none at pad 1, where the 260-byte rows break the alignment).
TEST(PtxInstrument, StripTransposesMergeTheirSharedStores) {
  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  const std::string source(embedded_source("transpose.cu"));
  // The line of `text` in the kernel that `kernel` opens.
  const auto line_of = [&](std::string_view text, std::string_view kernel = "transpose_coalesced(") {
    const auto at = source.find(text, source.find(kernel));
    return at == std::string::npos ? -1 : static_cast<int>(std::count(source.begin(), source.begin() + at, '\n')) + 1;
  };
  const int store_line = line_of("tile[ty + k * ROWS][s + c] = strips[k].e[c]");
  ASSERT_GT(store_line, 0);
  const cuda::CompileResult& timed = compiled("transpose");
  struct Expected {
    std::string expression;
    int bytes, merged, count;
  };
  for (const Expected& e : {Expected{"transpose_coalesced<int, 64, 16, 0>", 16, 4, 4},
                            Expected{"transpose_coalesced<float, 64, 16, 0>", 16, 4, 4},
                            Expected{"transpose_coalesced<int, 64, 16, 2>", 8, 2, 8},
                            Expected{"transpose_coalesced<int, 64, 16, 1>", 4, 1, 16},
                            Expected{"transpose_coalesced<double, 64, 16, 0>", 16, 2, 4},
                            Expected{"transpose_coalesced<double, 64, 16, 1>", 8, 1, 8}}) {
    const EntryReport r = cuda::memory_instructions(timed.image, lowered_name(timed, e.expression));
    std::vector<MemoryInstructions> stores;
    for (const MemoryInstructions& m : r.recorded)
      if (m.line == store_line && m.store && m.space == MemorySpace::Shared) stores.push_back(m);
    ASSERT_EQ(stores.size(), 1u) << e.expression;
    EXPECT_EQ(stores[0].bytes, e.bytes) << e.expression;
    EXPECT_EQ(stores[0].merged, e.merged) << e.expression;
    EXPECT_EQ(stores[0].count, e.count) << e.expression;
  }
  // The strips' global loads are 16-byte vectors in the PTX already.
  for (const std::string expression : {"transpose_copy<int, 64, 16>", "transpose_coalesced<float, 64, 16, 1>"}) {
    const int load_line =
        line_of("strips[k] = strip_at(in + row + x);", expression.substr(0, expression.find('<')) + "(");
    ASSERT_GT(load_line, 0) << expression;
    const EntryReport r = cuda::memory_instructions(timed.image, lowered_name(timed, expression));
    const auto strip = std::find_if(r.recorded.begin(), r.recorded.end(), [&](const auto& m) {
      return m.line == load_line && !m.store && m.space == MemorySpace::Global;
    });
    ASSERT_NE(strip, r.recorded.end()) << expression;
    EXPECT_EQ(strip->bytes, 16) << expression;
    EXPECT_EQ(strip->vector_width, 4) << expression;
    EXPECT_EQ(strip->merged, 1) << expression;
  }
}

// Every space and addressing form on a small hand-written kernel: vector,
// predicated (@%p, @!%p), [%rd], [%r+-8], [symbol+imm], generic addresses,
// skipped spaces, atomics, both barrier forms and three exits.
constexpr std::string_view kForms = R"PTX(//
// Every addressing form and space the instrumenter meets.
//

.version 9.0
.target sm_90
.address_size 64

.global .align 8 .b8 counters[64];
.const .align 4 .b8 table[16];

.visible .entry forms(
	.param .u64 forms_param_0,
	.param .u32 forms_param_1
)
.maxntid 256, 1, 1
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<20>;
	.reg .f32 	%f<10>;
	.reg .b64 	%rd<10>;
	.shared .align 16 .b8 tile[256];
	.local .align 4 .b8 scratch[16];

	.loc	1 10 0
	ld.param.u64 	%rd1, [forms_param_0];
	ld.param.u32 	%r1, [forms_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r2, %tid.x;
	setp.lt.u32 	%p1, %r2, %r1;
	mul.wide.u32 	%rd3, %r2, 16;
	add.s64 	%rd4, %rd2, %rd3;
	.loc	1 11 5
	@%p1 ld.global.nc.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd4];
	.loc	1 12 5
	shl.b32 	%r3, %r2, 4;
	mov.u32 	%r4, tile;
	add.s32 	%r5, %r4, %r3;
	st.shared.v4.f32 	[%r5], {%f1, %f2, %f3, %f4};
	.loc	1 13 5
	@!%p1 st.shared.v2.f32 	[%r5+-8], {%f1, %f2};
	st.shared.u32 	[tile+4], %r2;
	ld.shared.u32 	%r6, [tile];
$L__loop:
	.loc	1 14 5
	barrier.sync 	0;
	bar.red.popc.u32 	%r7, 0, %p1;
	.loc	1 15 5
	cvt.u64.u32 	%rd5, %r5;
	cvta.shared.u64 	%rd6, %rd5;
	ld.f32 	%f5, [%rd6+4];
	ld.u32 	%r8, [%rd1];
	ld.global.u32 	%r9, [counters+8];
	.loc	1 16 5
	ld.const.u32 	%r10, [table+4];
	st.local.u32 	[scratch], %r2;
	ld.local.u32 	%r11, [scratch];
	atom.global.add.u32 	%r12, [%rd2], 1;
	red.shared.add.u32 	[%r5], 1;
	.loc	1 17 5
	st.global.u64 	[%rd4+8], %rd3;
	st.global.u8 	[%rd4+3], %r2;
	@%p1 bra 	$L__done;
	.loc	1 18 5
	@%p1 ret;
	setp.eq.u32 	%p2, %r2, 7;
	@%p2 exit;
	add.s32 	%r2, %r2, 1;
	bra.uni 	$L__loop;
$L__done:
	.loc	1 20 1
	ret;

}
	.file	1 "forms.cu"
)PTX";

TEST(PtxInstrument, EveryFormOnAHandWrittenKernel) {
  const EntryReport r = cuda::memory_instructions(kForms, "forms");
  using S = MemorySpace;
  const std::vector<std::tuple<int, S, bool, int, int>> expected{
      // line, space, store, bytes, vector width
      {11, S::Global, false, 16, 4}, {12, S::Shared, true, 16, 4}, {13, S::Shared, false, 4, 1},
      {13, S::Shared, true, 4, 1},   {13, S::Shared, true, 8, 2},  {15, S::Global, false, 4, 1},
      {15, S::Generic, false, 4, 1}, {16, S::Global, true, 4, 1},  {16, S::Shared, true, 4, 1},
      {17, S::Global, true, 1, 1},   {17, S::Global, true, 8, 1}};
  std::vector<std::tuple<int, S, bool, int, int>> got;
  for (const MemoryInstructions& m : r.recorded) {
    got.emplace_back(m.line, m.space, m.store, m.bytes, m.vector_width);
    EXPECT_EQ(m.atomic, m.line == 16) << m.line;  // atom.global and red.shared: read-modify-writes
    EXPECT_EQ(m.file, "forms.cu");
    EXPECT_EQ(m.merged, 1);
    EXPECT_EQ(m.count, m.space == S::Generic ? 2 : 1) << m.line;
  }
  EXPECT_EQ(got, expected);
  std::map<std::string, int> unrecorded;
  for (const auto& u : r.unrecorded) unrecorded[u.category] += u.count;
  EXPECT_EQ(unrecorded, (std::map<std::string, int>{{"const", 1}, {"local", 2}, {"param", 2}}));
  for (const auto& u : r.unrecorded) EXPECT_FALSE(u.moves_data()) << u.opcode;
  // An asynchronous copy and a vector atomic move data the trace misses; a prefetch does not.
  EXPECT_TRUE((cuda::UnrecordedInstructions{"f.cu", 3, "other memory", "cp.async.ca.shared.global", 1}.moves_data()));
  EXPECT_TRUE((cuda::UnrecordedInstructions{"f.cu", 3, "atomic", "atom.global.v2.f32.add", 1}.moves_data()));
  EXPECT_FALSE((cuda::UnrecordedInstructions{"f.cu", 3, "other memory", "prefetch.global.L2", 1}.moves_data()));
  EXPECT_EQ(r.barriers, 2);
  EXPECT_EQ(r.exits, 3);

  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  const cuda::InstrumentedPtx out = cuda::instrument_ptx(kForms, {"forms"}, runtime_ptx());
  // The space each access call passes (trace_runtime.cuh's TM_SPACE_*): a
  // generic access to a named .global variable is global; through a register
  // the runtime decides.
  std::vector<std::pair<std::string, std::string>> spaces;
  static const std::regex call(
      R"(\{ // threadmap: (\S+), line \d+\n(?:[^}]*\n)*?\tst\.param\.b32 \t\[threadmap_arg7\], (\d);)");
  for (std::sregex_iterator i(out.ptx.begin(), out.ptx.end(), call), end; i != end; ++i)
    spaces.emplace_back((*i)[1], (*i)[2]);
  EXPECT_EQ(spaces, (std::vector<std::pair<std::string, std::string>>{{"ld.global.nc.v4.f32", "0"},
                                                                      {"st.shared.v4.f32", "1"},
                                                                      {"st.shared.v2.f32", "1"},
                                                                      {"st.shared.u32", "1"},
                                                                      {"ld.shared.u32", "1"},
                                                                      {"ld.f32", "2"},
                                                                      {"ld.u32", "2"},
                                                                      {"ld.global.u32", "0"},
                                                                      {"atom.global.add.u32", "0"},
                                                                      {"red.shared.add.u32", "1"},
                                                                      {"st.global.u64", "0"},
                                                                      {"st.global.u8", "0"}}));
  // The flags each atomic passes (trace_format.h): a 4-byte store (1 | 2 << 2),
  // a reduction (64: red, and the atom whose %r12 nothing reads), and the
  // operation, an add of the constant 1 (TM_ATOM_ADD_ONE 12 << 8).
  std::map<std::string, std::string> flags;
  static const std::regex flag_call(
      R"(\{ // threadmap: ((?:atom|red)\S+), line \d+\n(?:[^}]*\n)*?\tst\.param\.b32 \t\[threadmap_arg5\], (\d+);)");
  for (std::sregex_iterator i(out.ptx.begin(), out.ptx.end(), flag_call), end; i != end; ++i) flags[(*i)[1]] = (*i)[2];
  EXPECT_EQ(flags,
            (std::map<std::string, std::string>{{"atom.global.add.u32", "3145"}, {"red.shared.add.u32", "3145"}}));
  EXPECT_NE(out.ptx.find("\t@!%p1 call (threadmap_result), threadmap_access, "), std::string::npos);
  EXPECT_NE(out.ptx.find("\t@%p1 call threadmap_end, "), std::string::npos);
  EXPECT_NE(out.ptx.find("\t@%p2 call threadmap_end, "), std::string::npos);
  EXPECT_NE(out.ptx.find("forms_param_1,\n\t.param .u64 threadmap_trace_buffer\n)\n.maxntid"), std::string::npos);
  if (ptxas_path().empty()) GTEST_SKIP() << "ptxas not found: not assembled";
  const auto errors = assemble_errors(out.ptx, "forms");
  EXPECT_FALSE(errors) << *errors;
}

// The forms with its barriers changed: `barriers` more plain ones before line
// 15, and the loop's back branch kept or sent forward (no loop).
std::string forms_with_barriers(int barriers, bool loop) {
  std::string forms(kForms);
  std::string extra;
  for (int i = 0; i < barriers; ++i) extra += i % 3 == 0 ? "\t@%p1 bar.sync \t0;\n" : "\tbar.sync \t0;\n";
  forms.insert(forms.find("\t.loc\t1 15 5"), extra);
  const std::string back = "\tbra.uni \t$L__loop;";
  if (!loop) forms.replace(forms.find(back), back.size(), "\tbra.uni \t$L__done;");
  return forms;
}

// The instrumenter's text out, byte for byte, against tests/data/ptx_golden:
// both passes of the hand-written forms, the clock pass with a guarded
// barrier, and with 20 barrier sites (past TM_CLOCK_PASSES a pass is only
// counted) in a loop and not. The access pass's merged runtime is NVRTC's,
// so it is left out of the comparison. After a deliberate change to the
// glue, write the files again and read their diff before committing:
//   THREADMAP_UPDATE_GOLDEN=1 build/tests/ptx_instrument_tests --gtest_filter='*StoredPtx*'
TEST(PtxInstrument, OutputIsTheStoredPtxByteForByte) {
  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  std::string guarded(kForms);
  guarded.replace(guarded.find("\tbarrier.sync \t0;"), std::string("\tbarrier.sync \t0;").size(),
                  "\t@%p1 barrier.sync \t0;");
  const std::string runtime = cuda::ptx::read_runtime(runtime_ptx()).text;
  struct Case {
    std::string name, ptx;
    cuda::Pass pass;
  };
  for (const Case& c : {Case{"forms.access", std::string(kForms), cuda::Pass::Access},
                        Case{"forms.clock", std::string(kForms), cuda::Pass::Clock},
                        Case{"forms_guarded.clock", guarded, cuda::Pass::Clock},
                        Case{"forms_20_barriers.clock", forms_with_barriers(20, true), cuda::Pass::Clock},
                        Case{"forms_20_barriers_no_loop.clock", forms_with_barriers(20, false), cuda::Pass::Clock}}) {
    std::string out = cuda::instrument_ptx(c.ptx, {"forms"}, runtime_ptx(), c.pass).ptx;
    if (const auto at = out.find(runtime); c.pass == cuda::Pass::Access && at != std::string::npos)
      out.replace(at, runtime.size(), "// (the runtime's functions)\n");
    const fs::path golden = fs::path(THREADMAP_TEST_DATA) / "ptx_golden" / (c.name + ".ptx");
    if (std::getenv("THREADMAP_UPDATE_GOLDEN")) {
      fs::create_directories(golden.parent_path());
      std::ofstream(golden, std::ios::binary) << out;
      continue;
    }
    std::ifstream in(golden, std::ios::binary);
    ASSERT_TRUE(in) << golden << " is missing (THREADMAP_UPDATE_GOLDEN=1 writes it)";
    const std::string stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(out, stored) << c.name << " differs from " << golden;
  }
}

// A message that names what is wrong, never a crash or a silent result.
void expect_error(std::string_view ptx, const std::vector<std::string>& entries, std::string_view runtime,
                  std::string_view message) {
  try {
    cuda::instrument_ptx(ptx, entries, runtime);
    ADD_FAILURE() << "no error; expected one saying: " << message;
  } catch (const PtxError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

// The clock pass on the hand-written forms, with one barrier made guarded:
// its stamps are taken only where the barrier runs (a branch around them
// where the guard is false), guarded exits get guarded end stores, a
// reduction keeps its own result, each barrier site has its registers (the
// loop's sites keep their first pass), and ptxas assembles it.
TEST(PtxInstrument, ClockPassOnGuardedBarriersAndExits) {
  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  std::string forms(kForms);
  const std::string plain = "\tbarrier.sync \t0;";
  const auto at = forms.find(plain);
  ASSERT_NE(at, std::string::npos);
  forms.replace(at, plain.size(), "\t@%p1 barrier.sync \t0;");
  const cuda::InstrumentedPtx out = cuda::instrument_ptx(forms, {"forms"}, runtime_ptx(), cuda::Pass::Clock);
  ASSERT_EQ(out.entries.size(), 1u);
  EXPECT_EQ(out.entries[0].barriers, 2);
  // Arrival and release of the guarded barrier each skip when the guard is false.
  EXPECT_NE(out.ptx.find("@!%p1 bra \t$threadmap_skip_1;"), std::string::npos) << out.ptx;
  EXPECT_NE(out.ptx.find("$threadmap_skip_1:"), std::string::npos);
  EXPECT_NE(out.ptx.find("@!%p1 bra \t$threadmap_skip_2;"), std::string::npos);
  // The guarded barrier in its reduction form, still guarded and not aligned.
  EXPECT_NE(out.ptx.find("@%p1 barrier.red.popc.u32 \t%threadmap_count, 0, %threadmap_true;"), std::string::npos)
      << out.ptx;
  // The kernel's own reduction: its result gates the release.
  EXPECT_NE(out.ptx.find("bar.red.popc.u32 \t%r7, 0, %p1;"), std::string::npos);
  EXPECT_NE(out.ptx.find("setp.ne.u32 \t%threadmap_released, %r7, 0xffffffff;"), std::string::npos);
  // Two sites, each with its registers, its first pass kept.
  EXPECT_NE(out.ptx.find(".reg .b32 \t%threadmap_pass<2>;"), std::string::npos);
  EXPECT_NE(out.ptx.find("setp.eq.u32 \t%threadmap_keep, %threadmap_pass1, " + std::to_string(TM_NO_PASS) + ";"),
            std::string::npos);
  // The guarded exits' end stores are skipped where their guards are false.
  EXPECT_NE(out.ptx.find("@!%p1 bra \t$threadmap_skip_"), std::string::npos);
  EXPECT_NE(out.ptx.find("@!%p2 bra \t$threadmap_skip_"), std::string::npos);
  EXPECT_EQ(out.ptx.find("call threadmap_"), std::string::npos);
  if (ptxas_path().empty()) GTEST_SKIP() << "ptxas not found: not assembled";
  const auto errors = assemble_errors(out.ptx, "forms_clock");
  EXPECT_FALSE(errors) << errors.value_or("");
}

TEST(PtxInstrument, MalformedInputIsAClearError) {
  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  const std::string forms(kForms);
  const std::string& runtime = runtime_ptx();
  expect_error("", {"forms"}, runtime, "not PTX: no .version directive");
  expect_error(forms.substr(0, forms.find("$L__loop:")), {"forms"}, runtime,
               "the PTX ends inside the body of forms (a '{' without its '}': truncated?)");
  expect_error(forms.substr(0, forms.find("[%rd4+8]")), {"forms"}, runtime, "does not end (no ';')");
  expect_error(forms, {"nope"}, runtime, "no kernel (.entry) named nope in the PTX; it has forms");
  const cuda::InstrumentedPtx once = cuda::instrument_ptx(forms, {"forms"}, runtime);
  expect_error(once.ptx, {"forms"}, runtime, "already uses the name prefix threadmap_");
  auto replaced = [&](std::string text, std::string_view from, std::string_view to) {
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  expect_error(replaced(forms, "[%rd4+8]", "[%rd4+%rd3]"), {"forms"}, runtime,
               "PTX line 61: cannot read the address of `st.global.u64 \t[%rd4+%rd3], %rd3;`");
  expect_error(replaced(forms, "[%rd1];", "[%rd9x];"), {"forms"}, runtime,
               "the address register %rd9x is not declared in forms");
  expect_error(replaced(forms, "[counters+8]", "[counter+8]"), {"forms"}, runtime,
               "the address [counter] names no variable declared in the module or in forms");
  expect_error(replaced(forms, ".address_size 64", ".address_size 32"), {"forms"}, runtime,
               "needs .address_size 64; the PTX has 32");
  expect_error(replaced(forms, ".target sm_90", ".target sm_80"), {"forms"}, runtime,
               "the trace runtime was compiled for .target sm_90, the kernel for sm_80");
  expect_error(forms, {"forms"}, replaced(runtime, "threadmap_release(", "threadmap_relax("),
               "the trace runtime's PTX has no function threadmap_release");
  expect_error(forms, {"forms"}, "garbage;", "the trace runtime's PTX: PTX line 1:");
}

// Random truncations and mutations of real PTX: a PtxError or an output,
// never a crash, a hang or another exception.
TEST(PtxInstrument, FuzzedPtxThrowsOrInstruments) {
  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  const cuda::CompileResult& timed = compiled("transpose");
  const std::string real = timed.image.substr(0, timed.image.find('\0'));
  const std::string real_entry = lowered_name(timed, "transpose_coalesced<int, 64, 16, 0>");
  std::mt19937 random(20261123);
  constexpr std::string_view kSignificant = "{}[]()%@.,:;+-\n\t \"/*0123456789$_abcxyz";
  int threw = 0, instrumented = 0;
  for (int round = 0; round < 600; ++round) {
    const bool small = round % 2 == 0;
    std::string text = small ? std::string(kForms) : real;
    const std::string entry = small ? "forms" : real_entry;
    auto at = [&](std::size_t size) { return std::uniform_int_distribution<std::size_t>(0, size)(random); };
    switch (round % 4) {
      case 0: text.resize(at(text.size())); break;
      case 1:
        for (int k = 0; k < 1 + static_cast<int>(at(8)); ++k)
          if (!text.empty()) text[at(text.size() - 1)] = kSignificant[at(kSignificant.size() - 1)];
        break;
      case 2: {
        const std::size_t from = at(text.size());
        text.erase(from, at(200));
        break;
      }
      case 3: {
        const std::size_t from = at(text.size());
        text.insert(from, text.substr(at(text.size()), at(300)));
        break;
      }
    }
    try {
      cuda::memory_instructions(text, entry);
      const auto out = cuda::instrument_ptx(text, {entry}, runtime_ptx());
      EXPECT_FALSE(out.ptx.empty());
      ++instrumented;
    } catch (const PtxError& e) {
      EXPECT_GT(std::string(e.what()).size(), 10u);
      ++threw;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "round " << round << ": not a PtxError: " << e.what();
    }
  }
  std::cout << "fuzz: " << threw << " clear errors, " << instrumented << " instrumented\n";
  EXPECT_GT(threw, 0);
  EXPECT_GT(instrumented, 0);
}

// The wiring's one call: a timed build's CompileResult in, every kernel of it
// instrumented in one module that assembles.
TEST(PtxInstrument, InstrumentsAWholeCompiledBuild) {
  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  const cuda::CompileResult& timed = compiled("smem");
  const cuda::InstrumentedPtx out = cuda::instrument_compiled(timed, cuda::Nvrtc::get());
  ASSERT_EQ(out.entries.size(), timed.kernels.size());
  for (std::size_t i = 0; i < out.entries.size(); ++i) {
    EXPECT_EQ(out.entries[i].entry, timed.kernels[i].lowered_name);
    EXPECT_GT(out.entries[i].recorded_count(), 0) << out.entries[i].entry;
    EXPECT_EQ(out.entries[i].barriers, 1) << out.entries[i].entry;
  }
  cuda::CompileResult cubin = timed;
  cubin.ptx = false;
  cubin.target = "sm_90";
  try {
    cuda::instrument_compiled(cubin, cuda::Nvrtc::get());
    ADD_FAILURE() << "a cubin was accepted";
  } catch (const PtxError& e) {
    EXPECT_STREQ(e.what(),
                 "the instrumenter rewrites PTX; this build is a sm_90 cubin: compile for "
                 "compute_90 instead");
  }
  if (ptxas_path().empty()) GTEST_SKIP() << "ptxas not found: not assembled";
  const auto errors = assemble_errors(out.ptx, "smem_all");
  EXPECT_FALSE(errors) << *errors;
}

}  // namespace
}  // namespace threadmap

// The sizes of the shared arrays the access pass checks shared accesses
// against, read off their declarations; a dynamic one has none.
TEST(PtxParse, VariablesKnowTheirBytes) {
  using threadmap::cuda::ptx::parse_variable;
  EXPECT_EQ(parse_variable(".shared .align 4 .b8 _ZZ4tileE4tile[4096];")->bytes, 4096u);
  EXPECT_EQ(parse_variable(".shared .align 4 .f32 t[32][33];")->bytes, 32u * 33u * 4u);
  EXPECT_EQ(parse_variable(".shared .align 16 .v4 .f32 quad[8];")->bytes, 8u * 16u);
  EXPECT_EQ(parse_variable(".global .align 8 .b8 counters[64];")->bytes, 64u);
  const auto dynamic = parse_variable(".extern .shared .align 16 .b8 dyn[];");
  ASSERT_TRUE(dynamic);
  EXPECT_TRUE(dynamic->external);
  EXPECT_EQ(dynamic->bytes, 0u);
  EXPECT_EQ(parse_variable(".shared .u32 one;")->bytes, 4u);
}

namespace threadmap {
namespace {

// The GPU image GCC makes of an OpenMP kernel file (engine/openmp), as
// libgomp is handed it: each region's entry and the functions GCC outlined
// from the region instrumented for the access pass, the trace buffer's
// address written into the code, and assembled by ptxas (relocatable:
// libgomp's device code is linked in when the image loads).
TEST(OffloadImage, GccsRegionsAreInstrumentedAndAssemble) {
  const Variant& v = *find_variant("matadd.rows");
  const Workload w = v.build(v, make_params(v.params, {{"width", "16"}, {"height", "16"}}, v.id), 1);
  OffloadImage image;
  try {
    image = openmp_offload_image(w.launches.front());
  } catch (const std::exception& e) {
    GTEST_SKIP() << e.what();
  }
  ASSERT_FALSE(image.ptx.empty());
  std::vector<std::string> outlined;
  for (const std::string& f : cuda::function_definitions(image.ptx[0]))
    if (f.starts_with("matadd_rows$_omp_fn$")) outlined.push_back(f);
  EXPECT_EQ(outlined, (std::vector<std::string>{"matadd_rows$_omp_fn$1", "matadd_rows$_omp_fn$0$impl"}));
  static const std::string runtime = cuda::Nvrtc::get().compile(cuda::trace_runtime_request("compute_80")).image;
  const std::uint64_t buffer = 0x7f3a12340000ull;
  const cuda::InstrumentedPtx out =
      cuda::instrument_offload_ptx(image.ptx[0], {"matadd_rows$_omp_fn$0"}, runtime, {buffer, outlined});
  ASSERT_EQ(out.entries.size(), 3u);
  // The row loop's body: two loads and a store of 4 bytes at the line of
  // `res[i*width+j] = a[i*width+j] + b[i*width+j];` in matadd.c, generic
  // addresses (GCC cannot tell they are global).
  const std::string_view text = embedded_source("matadd.c");
  int line = 1;
  for (std::size_t at = 0; at < text.find("res[i*width+j] = a[i*width+j] + b[i*width+j];"); ++at) line += text[at] == '\n';
  int loads = 0, stores = 0;
  for (const cuda::MemoryInstructions& m : out.entries[1].recorded)
    if (m.line == line && m.file == "matadd.c" && m.bytes == 4 && m.space == cuda::MemorySpace::Generic)
      (m.store ? stores : loads) += m.count;
  EXPECT_EQ(loads, 2);
  EXPECT_EQ(stores, 1);
  // Each access call tells the runtime that what lies outside the buffers is
  // libgomp's (a 4-byte load's flags, and a 4-byte store's).
  EXPECT_NE(out.ptx.find(std::to_string(TM_HOOK_RUNTIME_DATA | (2u << TM_F_SIZE_SHIFT))), std::string::npos);
  EXPECT_NE(out.ptx.find(std::to_string(TM_HOOK_RUNTIME_DATA | TM_F_STORE | (2u << TM_F_SIZE_SHIFT))),
            std::string::npos);
  // GCC's shared variables (its team state, the values it broadcasts to a
  // warp's lanes) are libgomp's: no shared window is given to the hook, so
  // every shared access is the runtime's, made and not recorded.
  ASSERT_NE(image.ptx[0].find(".shared"), std::string::npos) << "GCC's image declares shared variables";
  EXPECT_EQ(out.ptx.find("mov.u32 \t%threadmap_shared_at, "), std::string::npos);
  EXPECT_EQ(out.ptx.find(std::string(cuda::kTraceBufferParameter)), std::string::npos) << "no parameter added";
  EXPECT_NE(out.ptx.find(std::to_string(buffer)), std::string::npos) << "the buffer's address in the code";
  EXPECT_EQ(out.ptx.find(".version 7.0"), std::string::npos) << "the module's PTX version raised to the runtime's";
  if (ptxas_path().empty()) GTEST_SKIP() << "ptxas not found: not assembled";
  const fs::path dir = fs::temp_directory_path() / "threadmap-ptx-instrument-test";
  fs::create_directories(dir);
  std::ofstream(dir / "matadd_openmp.ptx") << out.ptx;
  for (const char* arch : {"sm_80", "sm_90"}) {
    const std::string command = ptxas_path() + " -c -arch=" + arch + " -o " + (dir / "matadd_openmp.o").string() +
                                " " + (dir / "matadd_openmp.ptx").string() + " 2>&1";
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char chunk[4096];
    while (const std::size_t n = std::fread(chunk, 1, sizeof chunk, pipe)) output.append(chunk, n);
    EXPECT_EQ(pclose(pipe), 0) << command << "\n" << output.substr(0, 4000);
  }
}

}  // namespace
}  // namespace threadmap
