#include "kernels/engine/cuda/cuda_compiler.h"

#include "kernels/engine/cache_dir.h"
#include "kernels/core/output_file.h"

#include <dlfcn.h>
#include <nvrtc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#ifndef THREADMAP_CUDA_MAJOR
#define THREADMAP_CUDA_MAJOR 13
#endif
#ifndef THREADMAP_CUDA_MINOR
#define THREADMAP_CUDA_MINOR 0
#endif
#ifndef THREADMAP_CUDA_LIBRARY_DIR
#define THREADMAP_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace threadmap::cuda {

namespace fs = std::filesystem;

// The NVRTC entry points, looked up in the library opened at run time; the
// types come from the toolkit's nvrtc.h.
struct Nvrtc::Api {
  decltype(&nvrtcGetErrorString) get_error_string = nullptr;
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcGetNumSupportedArchs) num_supported_archs = nullptr;
  decltype(&nvrtcGetSupportedArchs) supported_archs = nullptr;
  decltype(&nvrtcCreateProgram) create_program = nullptr;
  decltype(&nvrtcDestroyProgram) destroy_program = nullptr;
  decltype(&nvrtcAddNameExpression) add_name_expression = nullptr;
  decltype(&nvrtcCompileProgram) compile_program = nullptr;
  decltype(&nvrtcGetProgramLogSize) program_log_size = nullptr;
  decltype(&nvrtcGetProgramLog) program_log = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetLoweredName) lowered_name = nullptr;
};

namespace {

std::string library_name() { return "libnvrtc.so." + std::to_string(THREADMAP_CUDA_MAJOR); }

// The soname first (ld.so.conf, LD_LIBRARY_PATH), then the toolkits' usual homes.
std::vector<std::string> library_candidates() {
  // A library named by hand (an unusual install) is the only one tried.
  if (const char* chosen = std::getenv("THREADMAP_NVRTC_LIBRARY"); chosen && *chosen) return {chosen};
  const std::string name = library_name();
  std::vector<std::string> paths{name};
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(variable); home && *home) paths.push_back(std::string(home) + "/lib64/" + name);
  paths.push_back(std::string(THREADMAP_CUDA_LIBRARY_DIR) + "/" + name);
  paths.push_back("/usr/local/cuda/lib64/" + name);
  paths.push_back("/usr/local/cuda-" + std::to_string(THREADMAP_CUDA_MAJOR) + "/lib64/" + name);
  return paths;
}

template <class F>
bool bind(void* handle, const char* symbol, F& function, std::string& missing) {
  function = reinterpret_cast<F>(dlsym(handle, symbol));
  if (!function) missing += std::string(missing.empty() ? "" : ", ") + symbol;
  return function != nullptr;
}

// FNV-1a, 64 bits: the cache key only has to tell inputs apart, and must be
// the same in every run (std::hash need not be).
class Fingerprint {
 public:
  void add(std::string_view text) {
    const std::uint64_t size = text.size();
    mix(reinterpret_cast<const unsigned char*>(&size), sizeof(size));
    mix(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  std::string hex() const {
    std::ostringstream s;
    s << std::hex;
    s.width(16);
    s.fill('0');
    s << state_;
    return s.str();
  }

 private:
  void mix(const unsigned char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) state_ = (state_ ^ p[i]) * 0x100000001b3ull;
  }
  std::uint64_t state_ = 0xcbf29ce484222325ull;
};

constexpr std::string_view kCacheMagic = "threadmap-cuda-cache 1";

// The entry: a header of text lines, then the image's bytes.
//   threadmap-cuda-cache 1 / target / ptx|cubin / kernel count /
//   name expression TAB lowered name (one line each) / image size / image
std::string serialize(const CompileResult& r) {
  std::string s(kCacheMagic);
  s += "\n" + r.target + "\n" + (r.ptx ? "ptx" : "cubin") + "\n" + std::to_string(r.kernels.size()) + "\n";
  for (const CompiledKernel& k : r.kernels) s += k.name_expression + "\t" + k.lowered_name + "\n";
  s += std::to_string(r.image.size()) + "\n";
  return s + r.image;
}

// Anything unexpected (a truncated or foreign file) is a miss: the caller compiles again.
bool deserialize(const std::string& bytes, const CompileRequest& request, CompileResult& out) {
  std::istringstream in(bytes);
  std::string line, kind, count_text, size_text;
  if (!std::getline(in, line) || line != kCacheMagic) return false;
  if (!std::getline(in, out.target) || out.target != request.target) return false;
  if (!std::getline(in, kind) || (kind != "ptx" && kind != "cubin")) return false;
  out.ptx = kind == "ptx";
  if (!std::getline(in, count_text)) return false;
  const std::size_t count = std::strtoull(count_text.c_str(), nullptr, 10);
  if (count != request.name_expressions.size()) return false;
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::getline(in, line)) return false;
    const auto tab = line.find('\t');
    if (tab == std::string::npos || line.substr(0, tab) != request.name_expressions[i]) return false;
    out.kernels.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  if (!std::getline(in, size_text)) return false;
  const std::size_t size = std::strtoull(size_text.c_str(), nullptr, 10);
  const auto at = static_cast<std::size_t>(in.tellg());
  if (size == 0 || at + size != bytes.size()) return false;
  out.image = bytes.substr(at);
  out.from_cache = true;
  return true;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Written whole or not at all (OutputFile): a reader sees the old entry, no
// entry, or the whole new one. Not synced: a lost entry costs a compile. A
// cache that cannot be written (read-only home) only costs the next run a compile.
void write_atomically(const fs::path& path, const std::string& bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return;
  try {
    write_file(path, bytes, Durability::Scratch);
  } catch (const OutputError&) {
  }
}

// The name a cache entry starts with: the file's own name without its
// folder (a pack's or a learner's file is named by its whole path, and a
// path would take the entry out of the cache folder) and extension.
std::string file_stem(std::string_view file_name) {
  std::string stem = fs::path(file_name).filename().string();
  if (const auto dot = stem.rfind('.'); dot != std::string::npos) stem.resize(dot);
  return stem.empty() ? std::string("kernel") : stem;
}

}  // namespace

std::string cuda_cache_dir() {
  if (const char* dir = std::getenv("THREADMAP_CACHE_DIR"); dir && *dir) return dir;
  return user_cache_dir("cuda");
}

const Nvrtc& Nvrtc::get() {
  static const Nvrtc nvrtc;
  return nvrtc;
}

Nvrtc::Nvrtc() {
  void* handle = nullptr;
  std::string tried;
  for (const std::string& path : library_candidates()) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) break;
    tried += (tried.empty() ? "" : ", ") + path;
  }
  if (!handle) {
    error_ = "NVRTC (" + library_name() + ", the CUDA Toolkit's runtime compiler) is missing: " + "looked for " +
             tried + ". Install the toolkit's NVRTC (Debian/Ubuntu package " + "cuda-nvrtc-" +
             std::to_string(THREADMAP_CUDA_MAJOR) + "-" + std::to_string(THREADMAP_CUDA_MINOR) +
             " from NVIDIA's repository, or the CUDA Toolkit " + std::to_string(THREADMAP_CUDA_MAJOR) +
             "), or set CUDA_HOME to the toolkit's folder";
    return;
  }
  static Api api;
  std::string missing;
  bind(handle, "nvrtcGetErrorString", api.get_error_string, missing);
  bind(handle, "nvrtcVersion", api.version, missing);
  bind(handle, "nvrtcGetNumSupportedArchs", api.num_supported_archs, missing);
  bind(handle, "nvrtcGetSupportedArchs", api.supported_archs, missing);
  bind(handle, "nvrtcCreateProgram", api.create_program, missing);
  bind(handle, "nvrtcDestroyProgram", api.destroy_program, missing);
  bind(handle, "nvrtcAddNameExpression", api.add_name_expression, missing);
  bind(handle, "nvrtcCompileProgram", api.compile_program, missing);
  bind(handle, "nvrtcGetProgramLogSize", api.program_log_size, missing);
  bind(handle, "nvrtcGetProgramLog", api.program_log, missing);
  bind(handle, "nvrtcGetCUBINSize", api.cubin_size, missing);
  bind(handle, "nvrtcGetCUBIN", api.cubin, missing);
  bind(handle, "nvrtcGetPTXSize", api.ptx_size, missing);
  bind(handle, "nvrtcGetPTX", api.ptx, missing);
  bind(handle, "nvrtcGetLoweredName", api.lowered_name, missing);
  if (!missing.empty()) {
    error_ =
        "the NVRTC library found lacks " + missing + ": install NVRTC " + std::to_string(THREADMAP_CUDA_MAJOR) + ".x";
    return;
  }
  api.version(&major_, &minor_);
  int count = 0;
  if (api.num_supported_archs(&count) == NVRTC_SUCCESS && count > 0) {
    architectures_.resize(static_cast<std::size_t>(count));
    api.supported_archs(architectures_.data());
    std::sort(architectures_.begin(), architectures_.end());
  }
  if (architectures_.empty()) {
    error_ = "NVRTC " + version() + " lists no GPU architecture it can compile for";
    return;
  }
  api_ = &api;
}

std::string Nvrtc::version() const { return std::to_string(major_) + "." + std::to_string(minor_); }

int Nvrtc::architecture_number(std::string_view name) {
  for (std::string_view prefix : {"sm_", "compute_"})
    if (name.starts_with(prefix)) name.remove_prefix(prefix.size());
  if (name.empty() || name.size() > 4) return 0;
  int n = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

std::string Nvrtc::target_for(int major, int minor) const {
  const int wanted = major * 10 + minor;
  if (std::find(architectures_.begin(), architectures_.end(), wanted) != architectures_.end())
    return "sm_" + std::to_string(wanted);
  int below = 0;
  for (int a : architectures_)
    if (a < wanted) below = a;
  if (below == 0)
    throw std::runtime_error(
        "NVRTC " + version() + " compiles for compute capability " + std::to_string(architectures_.front() / 10) + "." +
        std::to_string(architectures_.front() % 10) + " and newer; this GPU is " + std::to_string(major) + "." +
        std::to_string(minor) + ". Use a CUDA Toolkit that still supports it, or the OpenCL backend");
  return "compute_" + std::to_string(below);
}

std::vector<std::string> Nvrtc::options_for(const CompileRequest& request) const {
  std::vector<std::string> options{"--gpu-architecture=" + request.target, "-std=c++20", "-lineinfo"};
  for (const std::string& define : request.defines) options.push_back("-D" + define);
  options.insert(options.end(), request.options.begin(), request.options.end());
  return options;
}

std::string Nvrtc::cache_entry(const CompileRequest& request) const {
  Fingerprint key;
  key.add(version());
  key.add(request.target);
  for (const std::string& o : options_for(request)) key.add(o);
  for (const std::string& e : request.name_expressions) key.add(e);
  key.add(request.file_name);
  key.add(request.text);
  for (const auto& [name, text] : request.headers) {
    key.add(name);
    key.add(text);
  }
  const bool ptx = request.target.starts_with("compute_");
  return (fs::path(cuda_cache_dir()) /
          (file_stem(request.file_name) + "-" + request.target + "-" + key.hex() + (ptx ? ".ptx.bin" : ".cubin.bin")))
      .string();
}

std::optional<CompileResult> Nvrtc::cached(const CompileRequest& request) const {
  if (!available()) return std::nullopt;
  CompileResult result;
  if (!deserialize(read_file(cache_entry(request)), request, result)) return std::nullopt;
  return result;
}

CompileResult Nvrtc::compile(const CompileRequest& request) const {
  if (!available()) throw std::runtime_error(error_);
  if (auto hit = cached(request)) return std::move(*hit);
  const Api& api = *api_;
  const bool ptx = request.target.starts_with("compute_");
  const std::vector<std::string> options = options_for(request);
  const std::string entry = cache_entry(request);

  const auto started = std::chrono::steady_clock::now();
  std::vector<const char*> header_texts, header_names;
  for (const auto& [name, text] : request.headers) {
    header_names.push_back(name.c_str());
    header_texts.push_back(text.c_str());
  }
  nvrtcProgram program = nullptr;
  nvrtcResult code =
      api.create_program(&program, request.text.c_str(), request.file_name.c_str(),
                         static_cast<int>(header_texts.size()), header_texts.data(), header_names.data());
  if (code != NVRTC_SUCCESS)
    throw std::runtime_error("nvrtcCreateProgram(" + request.file_name + ") failed: " + api.get_error_string(code));
  std::unique_ptr<_nvrtcProgram, void (*)(_nvrtcProgram*)> owner(
      program, [](_nvrtcProgram* p) { Nvrtc::get().api_->destroy_program(&p); });
  for (const std::string& e : request.name_expressions) {
    code = api.add_name_expression(program, e.c_str());
    if (code != NVRTC_SUCCESS)
      throw std::runtime_error("nvrtcAddNameExpression(" + e + ") failed: " + api.get_error_string(code));
  }
  std::vector<const char*> option_pointers;
  for (const std::string& o : options) option_pointers.push_back(o.c_str());
  const nvrtcResult compiled =
      api.compile_program(program, static_cast<int>(option_pointers.size()), option_pointers.data());

  CompileResult result;
  result.target = request.target;
  result.ptx = ptx;
  std::size_t log_size = 0;
  if (api.program_log_size(program, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    result.log.resize(log_size);
    api.program_log(program, result.log.data());
    while (!result.log.empty() && (result.log.back() == '\0' || result.log.back() == '\n')) result.log.pop_back();
  }
  if (compiled != NVRTC_SUCCESS)
    throw CompileError("NVRTC " + version() + " could not compile " + request.file_name + " for " + request.target +
                           ":\n" + result.log,
                       result.log);

  std::size_t size = 0;
  if (ptx) {
    api.ptx_size(program, &size);
    result.image.resize(size);
    api.ptx(program, result.image.data());  // NUL-terminated, as loading PTX needs
  } else {
    api.cubin_size(program, &size);
    result.image.resize(size);
    api.cubin(program, result.image.data());
  }
  for (const std::string& e : request.name_expressions) {
    const char* lowered = nullptr;
    code = api.lowered_name(program, e.c_str(), &lowered);
    if (code != NVRTC_SUCCESS || !lowered)
      throw CompileError("NVRTC compiled " + request.file_name + " but has no kernel " + e +
                             ": is it a __global__ function of that source?",
                         result.log);
    result.kernels.push_back({e, lowered});
  }
  result.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  write_atomically(entry, serialize(result));
  return result;
}

InstrumentedPtx instrument_compiled(const CompileResult& timed, const Nvrtc& nvrtc, Pass pass) {
  if (!timed.ptx)
    throw PtxError("the instrumenter rewrites PTX; this build is a " + timed.target + " cubin: compile for compute_" +
                   std::to_string(Nvrtc::architecture_number(timed.target)) + " instead");
  const CompileResult runtime = nvrtc.compile(trace_runtime_request(timed.target));
  std::vector<std::string> entries;
  for (const CompiledKernel& k : timed.kernels) entries.push_back(k.lowered_name);
  return instrument_ptx(timed.image, entries, runtime.image, pass);
}

}  // namespace threadmap::cuda
