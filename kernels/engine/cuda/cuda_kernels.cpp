#include "kernels/engine/cuda/cuda_kernels.h"

#include <algorithm>

#include "kernels/core/error.h"
#include "kernels/core/sources.h"

namespace threadmap::cuda_kernels {

namespace {

std::string_view source_stem(std::string_view source) {
  if (const std::optional<Dialect> dialect = dialect_of_file(source))
    return source.substr(0, source.size() - dialect_extension(*dialect).size());
  return source;
}

}  // namespace

const std::vector<KernelSpec>& all_kernels() {
  using enum SharedMemory;
  static const std::vector<KernelSpec> kernels{
      // transpose.cu
      {"transpose", "transpose_copy", {"TILE", "ROWS"}, "bbii", Static},
      {"transpose", "transpose_naive", {}, "bbii", Static},
      {"transpose", "transpose_shared", {"TILE", "PAD"}, "bbii", Static},
      {"transpose", "transpose_shared_dynamic", {}, "bbii", Dynamic},
      {"transpose", "transpose_coalesced", {"TILE", "ROWS", "PAD"}, "bbii", Static, true},
      // matadd.cu
      {"matadd", "matadd_rows", {}, "bbbii", Static},
      {"matadd", "matadd_cols", {}, "bbbii", Static},
      {"matadd", "matadd_elements", {"PER_THREAD"}, "bbbii", Static},
      // reduce.cu
      {"reduce", "reduce_interleaved", {"WG"}, "bbi", Static},
      {"reduce", "reduce_divergent", {"WG"}, "bbi", Static},
      {"reduce", "reduce_sequential", {"WG"}, "bbi", Static},
      {"reduce", "reduce_warp_shuffle", {"WG"}, "bbi", Static},
      // smem.cu
      {"smem", "setRowReadRow", {"BLOCK_X", "BLOCK_Y"}, "b", Static},
      {"smem", "setColReadCol", {"BLOCK_X", "BLOCK_Y"}, "b", Static},
      {"smem", "setRowReadCol", {"BLOCK_X", "BLOCK_Y"}, "b", Static},
      {"smem", "setRowReadColDyn", {}, "b", Dynamic},
      {"smem", "setRowReadColPad", {"BLOCK_X", "BLOCK_Y", "PAD"}, "b", Static},
      {"smem", "setRowReadColDynPad", {"PAD"}, "b", Dynamic},
      {"smem", "setRowReadColRect", {"BLOCK_X", "BLOCK_Y"}, "b", Static},
      {"smem", "setRowReadColRectDyn", {}, "b", Dynamic},
      {"smem", "setRowReadColRectPad", {"BLOCK_X", "BLOCK_Y", "PAD"}, "b", Static},
      {"smem", "setRowReadColRectDynPad", {"PAD"}, "b", Dynamic},
      // diagnostic.cu: fails on purpose, for the tests
      {"diagnostic", "trap_after_launch", {}, "b", Static, false, false},
      // diagnostic.cu: the SM clock against %globaltimer, for the clock pass
      {"diagnostic", "sm_clock_rate", {}, "bi", Static, false, false},
  };
  return kernels;
}

const KernelSpec* find_kernel(std::string_view source, std::string_view kernel) {
  const std::string_view stem = source_stem(source);
  for (const KernelSpec& k : all_kernels())
    if (k.source == stem && k.kernel == kernel) return &k;
  return nullptr;
}

int trace_pass(const ProgramKey& key) {
  for (const auto& [name, value] : key.defines)
    if (name == kTraceDefine) return static_cast<int>(value);
  return 0;
}

std::string name_expression(const KernelSpec& spec, const ProgramKey& key) {
  std::string e = std::string(spec.kernel) + "<" + std::string(element_name(key.type));
  for (std::string_view name : spec.template_values) {
    const auto found =
        std::find_if(key.defines.begin(), key.defines.end(), [&](const auto& define) { return define.first == name; });
    if (found == key.defines.end())
      throw InvalidRequest("CUDA kernel " + std::string(spec.kernel) + " needs " + std::string(name) +
                           ", which the launch does not give");
    e += ", " + std::to_string(found->second);
  }
  return e + ">";
}

std::string describe_request(const ProgramKey& key, std::string_view kernel) {
  std::string s = std::string(kernel) + "<" + std::string(element_name(key.type));
  for (const auto& [name, value] : key.defines) s += ", " + name + "=" + std::to_string(value);
  return s + ">";
}

cuda::CompileRequest compile_request(std::string_view source, std::vector<std::string> name_expressions,
                                     std::string target, const ProgramKey* key) {
  cuda::CompileRequest r;
  if (key && !key->text.empty()) {
    r.file_name = key->text_name.empty() ? dialect_file(source_stem(source), Dialect::Cuda) : key->text_name;
    r.text = key->text;
  } else {
    r.file_name = dialect_file(source_stem(source), Dialect::Cuda);
    r.text = std::string(embedded_source(r.file_name));
  }
  if (r.text.empty()) throw DeviceError("no embedded CUDA source named " + r.file_name);
  r.name_expressions = std::move(name_expressions);
  r.target = std::move(target);
  return r;
}

}  // namespace threadmap::cuda_kernels
