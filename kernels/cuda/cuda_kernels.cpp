#include "kernels/cuda/cuda_kernels.h"

#include <algorithm>
#include <initializer_list>
#include <set>
#include <vector>

namespace threadmap {

namespace {

using cuda_kernels::KernelEntry;
using cuda_kernels::TemplateValue;

std::vector<KernelEntry> joined(std::initializer_list<std::span<const KernelEntry>> tables) {
  std::vector<KernelEntry> entries;
  for (auto table : tables) entries.insert(entries.end(), table.begin(), table.end());
  return entries;
}

std::span<const KernelEntry> all_kernels(bool traced) {
  namespace timed = cuda_kernels::timed;
  namespace trace = cuda_kernels::traced;
  static const std::vector<KernelEntry> timed_entries =
      joined({timed::transpose_kernels(), timed::matadd_kernels(), timed::reduce_kernels(),
              timed::smem_kernels(), timed::diagnostic_kernels()});
  static const std::vector<KernelEntry> traced_entries =
      joined({trace::transpose_kernels(), trace::matadd_kernels(), trace::reduce_kernels(),
              trace::smem_kernels(), trace::diagnostic_kernels()});
  return traced ? traced_entries : timed_entries;
}

// The traced build is asked for as the OpenCL build is: -D THREADMAP_TRACE.
bool wants_trace(const ProgramKey& key) {
  return std::any_of(key.defines.begin(), key.defines.end(),
                     [](const auto& define) { return define.first == kTraceDefine; });
}

std::string_view source_stem(std::string_view source) {
  for (std::string_view extension : {".cl", ".cu"})
    if (source.ends_with(extension)) return source.substr(0, source.size() - extension.size());
  return source;
}

bool key_has(const ProgramKey& key, const TemplateValue& wanted) {
  return std::any_of(key.defines.begin(), key.defines.end(), [&](const auto& define) {
    return define.first == wanted.name && define.second == wanted.value;
  });
}

bool matches(const KernelEntry& e, const ProgramKey& key, std::string_view kernel_name) {
  if (e.kernel != kernel_name || e.type != key.type || e.source != source_stem(key.source))
    return false;
  const auto values = e.template_values();
  return std::all_of(values.begin(), values.end(),
                     [&](const TemplateValue& v) { return key_has(key, v); });
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : std::string(separator)) + p;
  return s;
}

std::string braced(const std::set<std::int64_t>& values) {
  std::vector<std::string> parts;
  for (std::int64_t v : values) parts.push_back(std::to_string(v));
  return "{" + join(parts, ", ") + "}";
}

}  // namespace

const KernelEntry* find_cuda_kernel_entry(const ProgramKey& key, std::string_view kernel_name) {
  for (const KernelEntry& e : all_kernels(wants_trace(key)))
    if (matches(e, key, kernel_name)) return &e;
  return nullptr;
}

const void* find_cuda_kernel(const ProgramKey& key, const std::string& kernel_name) {
  const KernelEntry* e = find_cuda_kernel_entry(key, kernel_name);
  return e ? e->function : nullptr;
}

std::string describe_cuda_request(const ProgramKey& key, std::string_view kernel_name) {
  std::vector<std::string> parts{std::string(element_name(key.type))};
  for (const auto& [name, value] : key.defines) parts.push_back(name + "=" + std::to_string(value));
  return std::string(kernel_name) + "<" + join(parts, ", ") + ">";
}

std::string describe_cuda_instantiations(std::string_view source, std::string_view kernel_name) {
  std::vector<const KernelEntry*> entries;
  for (const KernelEntry& e : all_kernels(false))
    if (e.kernel == kernel_name && e.source == source_stem(source)) entries.push_back(&e);
  if (entries.empty()) return {};

  std::set<ElementType> types;
  std::vector<std::string_view> names;
  for (const TemplateValue& v : entries.front()->template_values()) names.push_back(v.name);
  std::vector<std::set<std::int64_t>> per_name(names.size());
  std::set<std::vector<std::int64_t>> combinations;
  for (const KernelEntry* e : entries) {
    types.insert(e->type);
    std::vector<std::int64_t> combination;
    for (std::size_t i = 0; i < names.size(); ++i) {
      per_name[i].insert(e->values[i].value);
      combination.push_back(e->values[i].value);
    }
    combinations.insert(std::move(combination));
  }

  std::vector<std::string> type_names;
  for (ElementType t : types) type_names.emplace_back(element_name(t));
  std::vector<std::string> parts{join(type_names, "|")};
  std::size_t full_product = 1;
  for (const auto& values : per_name) full_product *= values.size();
  if (full_product == combinations.size()) {
    for (std::size_t i = 0; i < names.size(); ++i)
      parts.push_back(std::string(names[i]) + " in " + braced(per_name[i]));
  } else {
    std::vector<std::string> name_list(names.begin(), names.end());
    std::vector<std::string> tuples;
    for (const auto& combination : combinations) {
      std::vector<std::string> values;
      for (std::int64_t v : combination) values.push_back(std::to_string(v));
      tuples.push_back("(" + join(values, ", ") + ")");
    }
    parts.push_back("(" + join(name_list, ", ") + ") in {" + join(tuples, ", ") + "}");
  }
  return std::string(kernel_name) + "<" + join(parts, ", ") + ">";
}

}  // namespace threadmap
