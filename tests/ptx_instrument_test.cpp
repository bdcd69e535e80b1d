// The PTX instrumenter (kernels/cuda/ptx_instrument.h) on every catalog CUDA
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
#include <sstream>

#include "kernels/catalog.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/ptx_instrument.h"
#include "kernels/error.h"
#include "kernels/sources.h"

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
    const ParamSpec* type = v.param("type");
    const ParamSpec* pad = v.param("pad");
    const std::vector<std::string> types =
        type ? type->choices : std::vector<std::string>{std::string()};
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
          std::string label = v.id + (t.empty() ? "" : " " + t) +
                              (p >= 0 ? " pad " + std::to_string(p) : "") + ": " + e;
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
  const auto request = cuda_kernels::compile_request(source, false, expressions, kTarget);
  return results.emplace(source, cuda::Nvrtc::get().compile(request)).first->second;
}

const std::string& runtime_ptx() {
  static const std::string ptx =
      cuda::Nvrtc::get().compile(cuda::trace_runtime_request(kTarget)).image;
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
  const std::string command = ptxas_path() + " -arch=sm_90 -o " + (dir / (name + ".cubin")).string() +
                              " " + file.string() + " 2>&1";
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
  return static_cast<int>(std::count_if(body.begin(), body.end(), [&](const std::string& l) {
    return std::regex_search(l, pattern);
  }));
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

class CatalogKernel : public ::testing::TestWithParam<KernelCase> {};

TEST_P(CatalogKernel, InstrumentsEveryMemoryInstructionAndAssembles) {
  std::string why;
  if (!cuda_ready(why)) GTEST_SKIP() << why;
  const KernelCase& c = GetParam();
  const cuda::CompileResult& timed = compiled(c.source);
  const std::string entry = lowered_name(timed, c.name_expression);
  ASSERT_FALSE(entry.empty()) << c.label;

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
  EXPECT_EQ(reported, expected) << c.label;
  EXPECT_GT(report.recorded_count(), 0) << c.label;
  for (const MemoryInstructions& m : report.recorded) {
    EXPECT_TRUE(m.file.ends_with(c.source + ".cu")) << c.label << ": " << m.file;
    EXPECT_GT(m.line, 0) << c.label;
  }

  // The output: one access call per memory instruction, right before it and
  // with the line the report gives; arrive/release around each barrier.
  const std::vector<std::string> body = entry_lines(out.ptx, entry);
  std::map<int, int> called;
  static const std::regex line_argument(R"(st\.param\.b32\s+\[threadmap_arg4\], (\d+);)");
  static const std::regex access_call(R"(call threadmap_access, )");
  static const std::regex memory(R"(^\s*(@!?%\w+\s+)?(ld|st)\.(global|shared)[.\w:]*\s)");
  int pending_line = -1;
  for (std::size_t i = 0; i < body.size(); ++i) {
    std::smatch m;
    if (std::regex_search(body[i], m, line_argument)) pending_line = std::stoi(m[1]);
    if (std::regex_search(body[i], access_call)) ++called[pending_line];
    if (std::regex_search(body[i], m, memory) && body[i].find("threadmap") == std::string::npos) {
      // A merged access is recorded once, before the first of its instructions.
      const std::string before = previous_statement(body, i);
      EXPECT_TRUE(before.find("call threadmap_access, ") != std::string::npos ||
                  std::regex_search(before, memory))
          << c.label << ": no access call before `" << body[i] << "`";
      const std::string guard = m[1].str();
      if (!guard.empty())
        EXPECT_NE(before.find(guard + "call threadmap_access, "), std::string::npos)
            << c.label << ": the call does not carry the guard of `" << body[i] << "`";
    }
  }
  EXPECT_EQ(called, machine) << c.label;

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
  const auto begin_at = std::find_if(body.begin(), body.end(),
                                     [](const std::string& l) { return std::regex_search(l, begin); });
  const auto first_label = std::find_if(body.begin(), body.end(), [](const std::string& l) {
    return std::regex_search(l, std::regex(R"(^\$L\w*:)"));
  });
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

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogKernel, ::testing::ValuesIn(catalog_cases()),
                         [](const ::testing::TestParamInfo<KernelCase>& info) {
                           return file_label(info.param.name_expression);
                         });

TEST(PtxInstrument, CoversEveryCatalogCudaKernel) {
  std::set<std::string> kernels;
  for (const KernelCase& c : catalog_cases())
    kernels.insert(c.name_expression.substr(0, c.name_expression.find('<')));
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
  for (const MemoryInstructions& m : report.recorded)
    out[{m.line, m.space, m.store, m.bytes}] += m.count;
  return out;
}

// What ptxas does that a reading of the PTX cannot know, by kernel.
struct KnownDifference {
  std::string_view kernel_prefix;
  std::string_view why;
  bool widths_agree;  // the same access widths at the same lines, other counts
};
constexpr KnownDifference kKnownDifferences[] = {
    {"_Z11matadd_rows", "ptxas unrolls the row loop further (the same accesses per thread)", true},
    {"_Z11matadd_cols", "ptxas unrolls the column loop further (the same accesses per thread)", true},
    {"_Z18reduce_interleaved", "ptxas merges `local_mem[lid] = 0` and the conditional store", false},
    {"_Z16reduce_divergent", "ptxas merges `local_mem[lid] = 0` and the conditional store", false},
    {"_Z17reduce_sequential", "ptxas merges `local_mem[lid] = 0` and the conditional store", false},
    {"_Z19reduce_warp_shuffle", "ptxas merges `local_mem[lid] = 0` and the conditional store", false},
};

TEST(PtxInstrument, PredictsTheAssemblersMemoryInstructions) {
  const fs::path data = THREADMAP_TEST_DATA "/ptx_sass";
  int compared = 0, exact = 0;
  for (const std::string source : {"transpose", "reduce", "smem", "matadd"}) {
    std::ifstream in(data / (source + ".ptx"));
    ASSERT_TRUE(in) << data / (source + ".ptx");
    const std::string ptx((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto sass = read_sass_summary(data / (source + ".sass.txt"));
    ASSERT_FALSE(sass.empty()) << source;
    for (const auto& [function, machine] : sass) {
      ++compared;
      const MachineCounts predicted_counts = predicted(cuda::memory_instructions(ptx, function));
      const KnownDifference* known = nullptr;
      for (const KnownDifference& k : kKnownDifferences)
        if (function.starts_with(k.kernel_prefix)) known = &k;
      if (!known) {
        EXPECT_EQ(predicted_counts, machine) << function;
        exact += predicted_counts == machine;
        continue;
      }
      if (!known->widths_agree) continue;
      std::set<MachineAccess> a, b;
      for (const auto& [k, n] : predicted_counts) a.insert(k);
      for (const auto& [k, n] : machine) b.insert(k);
      EXPECT_EQ(a, b) << function << " (" << known->why << ")";
    }
  }
  EXPECT_EQ(compared, 102);
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
    return at == std::string::npos ? -1
                                   : static_cast<int>(std::count(source.begin(), source.begin() + at, '\n')) + 1;
  };
  const int store_line = line_of("STS(tile[ty + k * ROWS][s + c]) = strips[k].e[c]");
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
  for (const std::string expression :
       {"transpose_copy<int, 64, 16>", "transpose_coalesced<float, 64, 16, 1>"}) {
    const int load_line = line_of("strips[k] = LDG(strip_at(in + row + x));",
                                  expression.substr(0, expression.find('<')) + "(");
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

}  // namespace
}  // namespace threadmap
