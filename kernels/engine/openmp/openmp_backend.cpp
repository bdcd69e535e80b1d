// OpenMP target offload through GCC's libgomp (openmp_backend.h).
#include "kernels/engine/openmp/openmp_backend.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "kernels/core/error.h"
#include "kernels/core/learner_source.h"
#include "kernels/core/sources.h"
#include "kernels/engine/cache_dir.h"
#include "kernels/ptx/ptx_instrument.h"
#if THREADMAP_HAVE_CUDA
#include "kernels/engine/cuda/cuda_compiler.h"
#endif

extern char** environ;

namespace threadmap {

namespace fs = std::filesystem;

namespace {

// ---- The CUDA driver, for the GPU's name and the events that time a region.
// Opened at run time: the runtime's plugin opens the same library.
struct Driver {
  using CUresult = int;
  using CUdevice = int;
  using CUcontext = void*;
  using CUevent = void*;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(std::size_t*, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetUuid)(unsigned char*, CUdevice) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext*) = nullptr;
  CUresult (*cuEventCreate)(CUevent*, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, void*) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  // For the launch libgomp chooses: the image linked as its plugin links it.
  CUresult (*cuLinkCreate)(unsigned, int*, void**, void**) = nullptr;
  CUresult (*cuLinkAddData)(void*, int, void*, std::size_t, const char*, unsigned, int*, void**) = nullptr;
  CUresult (*cuLinkComplete)(void*, void**, std::size_t*) = nullptr;
  CUresult (*cuLinkDestroy)(void*) = nullptr;
  CUresult (*cuModuleLoadData)(void**, const void*) = nullptr;
  CUresult (*cuModuleGetFunction)(void**, void*, const char*) = nullptr;
  CUresult (*cuModuleUnload)(void*) = nullptr;
  CUresult (*cuFuncGetAttribute)(int*, int, void*) = nullptr;
  CUresult (*cuCtxGetDevice)(CUdevice*) = nullptr;
  bool loaded = false;
  bool links = false;  // the link functions are there

  static const Driver& get() {
    static const Driver d = [] {
      Driver d;
      void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
      if (!lib) return d;
      const auto sym = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
        return fn != nullptr;
      };
      d.loaded = sym(d.cuInit, "cuInit") && sym(d.cuDeviceGet, "cuDeviceGet") &&
                 sym(d.cuDeviceGetName, "cuDeviceGetName") && sym(d.cuDeviceTotalMem, "cuDeviceTotalMem_v2") &&
                 sym(d.cuDeviceGetAttribute, "cuDeviceGetAttribute") &&
                 sym(d.cuDeviceGetUuid, "cuDeviceGetUuid") && sym(d.cuCtxGetCurrent, "cuCtxGetCurrent") &&
                 sym(d.cuEventCreate, "cuEventCreate") && sym(d.cuEventRecord, "cuEventRecord") &&
                 sym(d.cuEventSynchronize, "cuEventSynchronize") &&
                 sym(d.cuEventElapsedTime, "cuEventElapsedTime") && sym(d.cuEventDestroy, "cuEventDestroy_v2") &&
                 d.cuInit(0) == 0;
      d.links = sym(d.cuLinkCreate, "cuLinkCreate_v2") && sym(d.cuLinkAddData, "cuLinkAddData_v2") &&
                sym(d.cuLinkComplete, "cuLinkComplete") && sym(d.cuLinkDestroy, "cuLinkDestroy") &&
                sym(d.cuModuleLoadData, "cuModuleLoadData") && sym(d.cuModuleGetFunction, "cuModuleGetFunction") &&
                sym(d.cuModuleUnload, "cuModuleUnload") && sym(d.cuFuncGetAttribute, "cuFuncGetAttribute") &&
                sym(d.cuCtxGetDevice, "cuCtxGetDevice");
      return d;
    }();
    return d;
  }

  void check(CUresult r, const char* what) const {
    if (r != 0) throw DeviceError(std::string(what) + " failed: CUDA driver error " + std::to_string(r));
  }
};

// CU_DEVICE_ATTRIBUTE_* the device description reads.
constexpr int kAttrMultiprocessors = 16, kAttrCapabilityMajor = 75, kAttrCapabilityMinor = 76,
              kAttrSharedPerBlock = 8, kAttrL2Bytes = 38, kAttrRegistersPerSm = 82;
// CU_FUNC_ATTRIBUTE_*, CU_JIT_INPUT_PTX.
constexpr int kFuncMaxThreadsPerBlock = 0, kFuncRegisters = 4, kJitInputPtx = 1;

// ---- libgomp's device memory API, opened at run time: the compiled kernels
// link the same library, so they and ThreadMap share one runtime.
struct Gomp {
  int (*get_num_devices)() = nullptr;
  int (*get_initial_device)() = nullptr;
  void* (*target_alloc)(std::size_t, int) = nullptr;
  void (*target_free)(void*, int) = nullptr;
  int (*target_memcpy)(void*, const void*, std::size_t, std::size_t, std::size_t, int, int) = nullptr;
  int (*target_associate_ptr)(const void*, const void*, std::size_t, std::size_t, int) = nullptr;
  int (*target_disassociate_ptr)(const void*, int) = nullptr;
  std::string error;  // why it is not there

  static const Gomp& get() {
    static const Gomp g = [] {
      Gomp g;
      void* lib = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL);
      if (!lib) {
        g.error = std::string("libgomp.so.1, GCC's OpenMP runtime, does not load: ") + dlerror();
        return g;
      }
      const auto sym = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
        if (!fn && g.error.empty()) g.error = std::string("libgomp.so.1 lacks ") + name;
      };
      sym(g.get_num_devices, "omp_get_num_devices");
      sym(g.get_initial_device, "omp_get_initial_device");
      sym(g.target_alloc, "omp_target_alloc");
      sym(g.target_free, "omp_target_free");
      sym(g.target_memcpy, "omp_target_memcpy");
      sym(g.target_associate_ptr, "omp_target_associate_ptr");
      sym(g.target_disassociate_ptr, "omp_target_disassociate_ptr");
      return g;
    }();
    return g;
  }
  bool loaded() const { return error.empty(); }
};

// ---- The image a compiled object hands libgomp when it is opened.
//
// Its constructor calls GOMP_offload_register_ver(version, host table,
// target type, target data). ThreadMap's programs export a function of that
// name (kernels/CMakeLists.txt), so the object's call comes here first: the
// image is read (and, for a trace, rewritten) while a hook is set, then
// handed on to libgomp's own function.

// The target data of an nvptx image as GCC 12's mkoffload writes it.
struct PtxObject {
  const char* code;
  std::size_t size;  // with the closing NUL
};
struct NvptxFunction {
  const char* name;
  unsigned short dim[3];
};
struct NvptxImage {
  const PtxObject* ptx_objs;
  unsigned ptx_num;
  const char* const* var_names;
  unsigned var_num;
  const NvptxFunction* fn_names;
  unsigned fn_num;
};
constexpr unsigned kImageVersion = 0x10001;  // GOMP_VERSION 1, GOMP_VERSION_NVIDIA_PTX 1
constexpr int kNvidiaPtx = 5;                // OFFLOAD_TARGET_TYPE_NVIDIA_PTX

using ImageHook = std::function<void(OffloadImage&)>;

// The hook of the object being opened (under image_mutex), and the images
// handed on rewritten, by the target data they replace (which the object's
// destructor names when it unregisters).
std::mutex image_mutex;
const ImageHook* image_hook = nullptr;
std::string image_error;  // what the last hooked registration could not read
struct Rewritten {
  std::vector<std::string> ptx;
  std::vector<PtxObject> objects;
  NvptxImage image{};
};
std::mutex rewritten_mutex;
std::map<const void*, std::unique_ptr<Rewritten>> rewritten_images;

// The image libgomp was handed for an object's `target_data`.
const void* registered_image(const void* target_data) {
  std::lock_guard lock(rewritten_mutex);
  const auto it = rewritten_images.find(target_data);
  return it == rewritten_images.end() ? target_data : &it->second->image;
}

using RegisterFunction = void (*)(unsigned, const void*, int, const void*);

RegisterFunction libgomp_function(const char* name) {
  void* gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD);
  void* fn = gomp ? dlvsym(gomp, name, "GOMP_4.5") : nullptr;
  return reinterpret_cast<RegisterFunction>(fn);
}

// The image libgomp is to load: the original, or its rewrite by the hook.
const void* hooked_image(unsigned version, int target_type, const void* target_data) {
  if (!image_hook) return target_data;
  if (target_type != kNvidiaPtx) return target_data;
  if (version != kImageVersion) {
    image_error = "the object's nvptx image is of version " + std::to_string(version) +
                  ", not GCC 12's (" + std::to_string(kImageVersion) + ")";
    return target_data;
  }
  const auto* image = static_cast<const NvptxImage*>(target_data);
  OffloadImage read;
  for (unsigned i = 0; i < image->ptx_num; ++i) {
    std::string_view code(image->ptx_objs[i].code, image->ptx_objs[i].size);
    while (!code.empty() && code.back() == '\0') code.remove_suffix(1);
    read.ptx.emplace_back(code);
  }
  for (unsigned i = 0; i < image->fn_num; ++i) read.entries.emplace_back(image->fn_names[i].name);
  const std::vector<std::string> original = read.ptx;
  (*image_hook)(read);
  if (read.ptx == original) return target_data;
  auto r = std::make_unique<Rewritten>();
  r->ptx = std::move(read.ptx);
  for (const std::string& code : r->ptx) r->objects.push_back({code.c_str(), code.size() + 1});
  r->image = *image;
  r->image.ptx_objs = r->objects.data();
  r->image.ptx_num = static_cast<unsigned>(r->objects.size());
  const void* out = &r->image;
  std::lock_guard lock(rewritten_mutex);
  rewritten_images[target_data] = std::move(r);
  return out;
}

// Where a traced build's registers are measured, its trace buffer's address
// (any: the code only holds it).
constexpr std::uint64_t kShapeProbeAddress = std::uint64_t{1} << 40;

// How libgomp's nvptx plugin launches a region's entry (launch_shape).
struct LaunchShape {
  int teams = 0, warps = 0;
  int registers = 0;  // a thread's, as the driver linked the entry
};

// The teams and warps a traced call is launched with: those libgomp chose for
// the timed build, or as many as fit the SMs by the instrumented entry's
// registers where fewer do (launch_shape, traced), so that the trace says
// what ran. Passed on as the target arguments a num_teams and a
// thread_limit clause would make (libgomp's GOMP_TARGET_ARG_*); 0: the
// runtime's own choice.
std::atomic<int> forced_teams{0}, forced_warps{0};
constexpr std::intptr_t kArgSubsequent = 1 << 7, kArgNumTeams = 1 << 8, kArgThreadLimit = 2 << 8;
using TargetExt = void (*)(int, void (*)(void*), std::size_t, void**, std::size_t*, unsigned short*, unsigned,
                           void**, void**);

// The target arguments with the forced launch after them (the plugin reads
// them in order, the last word for each kind holding).
std::vector<void*> forced_arguments(void** args) {
  std::vector<void*> out;
  for (void** a = args; a && *a; ++a) out.push_back(*a);
  out.push_back(reinterpret_cast<void*>(kArgNumTeams | kArgSubsequent));
  out.push_back(reinterpret_cast<void*>(static_cast<std::intptr_t>(forced_teams.load())));
  out.push_back(reinterpret_cast<void*>(kArgThreadLimit | kArgSubsequent));
  out.push_back(reinterpret_cast<void*>(static_cast<std::intptr_t>(forced_warps.load())));
  out.push_back(nullptr);
  return out;
}

// Opens `object` (a private copy: a fresh registration) with `hook` reading
// its image; returns the handle.
void* open_hooked(const fs::path& object, const ImageHook& hook) {
  std::lock_guard lock(image_mutex);
  image_hook = &hook;
  image_error.clear();
  void* handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  image_hook = nullptr;
  if (!handle) throw DeviceError("cannot load " + object.string() + ": " + dlerror());
  if (!image_error.empty()) throw DeviceError(image_error);
  return handle;
}

// Opens a private copy of `object` with `hook` reading (or rewriting) its
// image: an object already open registers nothing again. The copy's file is
// gone once it is open.
void* open_private_copy(const fs::path& object, const ImageHook& hook) {
  static std::atomic<int> copies{0};
  std::error_code ec;
  const fs::path copy = fs::temp_directory_path(ec) / ("threadmap-openmp-" + std::to_string(getpid()) + "-" +
                                                       std::to_string(copies++) + ".so");
  fs::copy_file(object, copy, fs::copy_options::overwrite_existing, ec);
  if (ec) throw DeviceError("cannot copy " + object.string() + ": " + ec.message());
  void* handle = nullptr;
  try {
    handle = open_hooked(copy, hook);
  } catch (...) {
    fs::remove(copy, ec);
    throw;
  }
  fs::remove(copy, ec);
  return handle;
}

// ---- The compiler.

struct Spawned {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// Runs argv[0] (found on PATH) with the arguments, its output to a file read back.
Spawned spawn(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  Spawned out;
  const int err = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    out.output = argv[0] + ": " + std::strerror(err);
    return out;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  out.output = text.str();
  std::error_code ec;
  fs::remove(log, ec);
  return out;
}

std::string first_line(std::string text) {
  text = text.substr(0, text.find('\n'));
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

// GCC with its nvptx offload compiler (Debian: gcc-12-offload-nvptx).
struct GccCompiler {
  std::string program;  // "gcc-12", or $THREADMAP_OPENMP_GCC
  std::string version;  // "12.2.0"; empty: not found
  bool offload = false;  // the nvptx offload compiler is installed
  std::string missing;   // why it cannot compile, or cannot offload

  static const GccCompiler& get() {
    static const GccCompiler c = [] {
      GccCompiler c;
      const char* env = std::getenv("THREADMAP_OPENMP_GCC");
      c.program = env && *env ? env : "gcc-12";
      std::error_code ec;
      const fs::path log = fs::temp_directory_path(ec) / ("threadmap-gcc-" + std::to_string(getpid()) + ".log");
      const Spawned v = spawn({c.program, "-dumpfullversion"}, log);
      if (v.status != 0) {
        c.missing = c.program + " is not installed (Debian: gcc-12 and gcc-12-offload-nvptx)";
        return c;
      }
      c.version = first_line(v.output);
      const Spawned libgcc = spawn({c.program, "-print-libgcc-file-name"}, log);
      const fs::path accel = fs::path(first_line(libgcc.output)).parent_path() / "accel" / "nvptx-none" / "mkoffload";
      c.offload = libgcc.status == 0 && fs::exists(accel, ec);
      if (!c.offload)
        c.missing = "GCC's nvptx offload compiler is not installed (Debian: gcc-12-offload-nvptx)";
      return c;
    }();
    return c;
  }
  bool found() const { return !version.empty(); }
};

std::uint64_t fnv1a(std::string_view text, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 15];
  return s;
}

bool traced(const ProgramKey& key) {
  for (const auto& d : key.defines)
    if (d.first == kTraceDefine) return true;
  return false;
}

// A traced launch as the kernel file is compiled for it: the same object as
// the timed build (its image is instrumented when loaded), without the
// trace buffer the recorder appends to the arguments.
LaunchCmd untraced(const LaunchCmd& launch) {
  if (!traced(launch.program)) return launch;
  LaunchCmd plain = launch;
  std::erase_if(plain.program.defines, [](const auto& d) { return d.first == kTraceDefine; });
  plain.args.pop_back();
  return plain;
}

// The image's names for a kernel's target regions ("matadd_rows$_omp_fn$0")
// and the functions GCC outlined from them all start with this.
std::string region_prefix(const std::string& kernel) { return kernel + "$_omp_fn$"; }

// The entry ThreadMap calls: the kernel function with its arguments unpacked,
// each buffer a pointer to its mapped host copy, each scalar an int. In C a
// void* converts to the kernel's own pointer types.
std::string entry_text(const LaunchCmd& launch) {
  std::string call;
  for (std::size_t i = 0; i < launch.args.size(); ++i) {
    if (i) call += ", ";
    const std::string arg = "args[" + std::to_string(i) + "]";
    call += std::holds_alternative<BufferArg>(launch.args[i]) ? arg : "*(const int*)" + arg;
  }
  return "void threadmap_entry_" + launch.kernel + "(void* const* args) { " + launch.kernel + "(" + call + "); }\n";
}

// The flags and defines of a compile, which with the text name its object.
// misa: the PTX ISA the offload compiler targets ("sm_80").
std::vector<std::string> compile_flags(const ProgramKey& key, const std::string& misa) {
  // -g: the image's PTX carries the source lines (.loc), as a trace names
  // them; GCC's code is the same with and without it.
  std::vector<std::string> flags{"-std=gnu11", "-O2", "-g", "-fPIC", "-shared", "-fopenmp",
                                 "-Werror=implicit-function-declaration", "-Wl,-z,notext"};
  flags.push_back("-foffload=nvptx-none");
  flags.push_back("-foffload-options=nvptx-none=-misa=" + misa);
  flags.push_back("-DELEM=" + std::string(element_name(key.type)));
  for (const auto& [name, value] : key.defines)
    if (name != kTraceDefine) flags.push_back("-D" + name + "=" + std::to_string(value));
  return flags;
}

struct CompiledObject {
  fs::path path;     // in the cache
  std::string file;  // the kernel file, as messages name it
};

// The compiled object of the launch's kernel file, from the cache or compiled
// into it (written under a temporary name and renamed: a half-written object
// is never read). A traced build is the same object: its image is
// instrumented when it is loaded.
CompiledObject compiled_object(const LaunchCmd& launch, const std::string& misa) {
  const ProgramKey& key = launch.program;
  const bool learner = !key.text.empty();
  if (!learner && key.source.starts_with("pack:"))
    throw InvalidRequest(key.source + " has no OpenMP kernel file: its manifest names no openmp = \"FILE.c\"");
  const std::string file = learner ? key.text_name : dialect_file(key.source, Dialect::OpenMP);
  const std::string text = learner ? key.text : std::string(embedded_source(file));
  if (text.empty()) throw DeviceError("no embedded OpenMP source named " + file);
  if (!names_identifier(text, launch.kernel)) {
    if (learner) throw missing_kernel(file, dialect_file(key.source, Dialect::OpenMP), launch.kernel);
    throw DeviceError(file + " has no function " + launch.kernel);
  }
  const std::string unit = "#line 1 \"" + compiler_file_name(file) + "\"\n" + text + "\n#line 1 \"threadmap entry\"\n" +
                           entry_text(launch);
  const std::vector<std::string> flags = compile_flags(key, misa);
  // The compiler by its program name (gcc-12: one major version), so that
  // a cache made on one machine serves another with the same runtime.
  std::string signature = GccCompiler::get().program;
  for (const std::string& f : flags) signature += " " + f;
  const std::string name = hex(fnv1a(unit, fnv1a(signature)));
  const fs::path dir = openmp_cache_dir();
  const fs::path object = dir / (name + ".so");
  std::error_code ec;
  if (fs::exists(object, ec)) return {object, file};
  const GccCompiler& gcc = GccCompiler::get();
  if (!gcc.found() || !gcc.offload) throw Unavailable(file + " is not compiled yet, and " + gcc.missing);
  fs::create_directories(dir, ec);
  if (ec) throw DeviceError("cannot create " + dir.string() + ": " + ec.message());
  const std::string tag = std::to_string(getpid());
  const fs::path source = dir / (name + "." + tag + ".c");
  const fs::path partial = dir / (name + "." + tag + ".so");
  {
    std::ofstream out(source, std::ios::binary);
    out << unit;
    if (!out) throw DeviceError("cannot write " + source.string());
  }
  std::vector<std::string> argv{gcc.program};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-o", partial.string(), source.string()});
  const Spawned result = spawn(argv, dir / (name + "." + tag + ".log"));
  fs::remove(source, ec);
  if (result.status != 0) {
    fs::remove(partial, ec);
    // The compiler names the file by its #line: the messages are the learner's.
    throw CompileError(file + " does not compile with GCC " + gcc.version + " (OpenMP offload to nvptx):\n" +
                       result.output.substr(0, 8000));
  }
  fs::rename(partial, object, ec);
  if (ec) throw DeviceError("cannot keep " + object.string() + ": " + ec.message());
  return {object, file};
}

class OpenmpBuffer : public DeviceBuffer {
 public:
  OpenmpBuffer(std::size_t bytes, int device) : bytes_(bytes), device_(device) {
    host_ = std::aligned_alloc(4096, (std::max<std::size_t>(bytes, 1) + 4095) / 4096 * 4096);
    if (!host_) throw DeviceError("allocating " + std::to_string(bytes) + " bytes of host memory failed");
    if (device_ < 0) return;
    const Gomp& g = Gomp::get();
    device_ptr_ = g.target_alloc(std::max<std::size_t>(bytes, 1), device_);
    if (!device_ptr_) {
      std::free(host_);
      throw DeviceError("omp_target_alloc of " + std::to_string(bytes) + " bytes failed");
    }
    if (g.target_associate_ptr(host_, device_ptr_, bytes, 0, device_) != 0) {
      g.target_free(device_ptr_, device_);
      std::free(host_);
      throw DeviceError("omp_target_associate_ptr failed");
    }
  }
  ~OpenmpBuffer() override {
    if (device_ >= 0) {
      const Gomp& g = Gomp::get();
      g.target_disassociate_ptr(host_, device_);
      g.target_free(device_ptr_, device_);
    }
    std::free(host_);
  }
  std::size_t bytes() const override { return bytes_; }
  void* host() const { return host_; }
  void* device_ptr() const { return device_ptr_ ? device_ptr_ : host_; }

  // Host copy -> device copy (nothing to do in the host fallback).
  void upload(std::size_t bytes) {
    if (device_ < 0 || bytes == 0) return;
    const Gomp& g = Gomp::get();
    if (g.target_memcpy(device_ptr_, host_, bytes, 0, 0, device_, g.get_initial_device()) != 0)
      throw DeviceError("omp_target_memcpy to the device failed");
  }
  void download(std::size_t bytes) {
    if (device_ < 0 || bytes == 0) return;
    const Gomp& g = Gomp::get();
    if (g.target_memcpy(host_, device_ptr_, bytes, 0, 0, g.get_initial_device(), device_) != 0)
      throw DeviceError("omp_target_memcpy from the device failed");
  }

 private:
  std::size_t bytes_;
  int device_;  // the OpenMP device number; -1: the host fallback
  void* host_ = nullptr;
  void* device_ptr_ = nullptr;
};

OpenmpBuffer& as_openmp(const DeviceBuffer& b) {
  return const_cast<OpenmpBuffer&>(dynamic_cast<const OpenmpBuffer&>(b));
}

// The GPU time between two events recorded on the legacy default stream of
// the runtime's context (where libgomp's nvptx plugin launches), or the host
// clock in the host fallback.
class RegionTimer {
 public:
  explicit RegionTimer(bool gpu) : gpu_(gpu) {
    if (!gpu_) return;
    const Driver& d = Driver::get();
    d.check(d.cuEventCreate(&start_, 0), "cuEventCreate");
    d.check(d.cuEventCreate(&stop_, 0), "cuEventCreate");
  }
  ~RegionTimer() {
    if (!gpu_) return;
    const Driver& d = Driver::get();
    d.cuEventDestroy(start_);
    d.cuEventDestroy(stop_);
  }
  void start() {
    if (gpu_) Driver::get().check(Driver::get().cuEventRecord(start_, nullptr), "cuEventRecord");
    else begin_ = std::chrono::steady_clock::now();
  }
  double stop_ms() {
    if (!gpu_) return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin_).count();
    const Driver& d = Driver::get();
    d.check(d.cuEventRecord(stop_, nullptr), "cuEventRecord");
    d.check(d.cuEventSynchronize(stop_), "cuEventSynchronize");
    float ms = 0;
    d.check(d.cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
    return ms;
  }

 private:
  bool gpu_;
  void* start_ = nullptr;
  void* stop_ = nullptr;
  std::chrono::steady_clock::time_point begin_;
};

class OpenmpDevice : public Device {
 public:
  OpenmpDevice(DeviceInfo info, int omp_device, std::string misa)
      : info_(std::move(info)), omp_device_(omp_device), misa_(std::move(misa)) {}
  ~OpenmpDevice() override {
    // The compiled objects stay loaded: libgomp keeps their images
    // registered until the process ends.
  }

  const DeviceInfo& info() const override { return info_; }

  void prepare(const LaunchCmd& launch) override {
    if (!traced(launch.program)) {
      entry_for(launch);
      return;
    }
    // A traced build: the timed build's object, instrumented when its trace
    // buffer is known (execute); here, what it needs.
    if (!on_gpu())
      throw Unavailable("a trace of an OpenMP region records the GPU's warps and lanes; " + info_.name +
                        " runs it on the host");
    compiled_object(untraced(launch), misa_);
    recording_runtime();
  }

  std::optional<RuntimeLaunch> runtime_launch(const LaunchCmd& launch) override {
    if (!on_gpu()) return std::nullopt;  // prepare refuses the traced build
    const auto [teams, warps, registers] = launch_shape(untraced(launch), true);
    RuntimeLaunch r;
    r.groups = {static_cast<std::size_t>(teams), 1, 1};
    r.group_size = {32, static_cast<std::size_t>(warps), 1};
    return r;
  }

  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override {
    return std::make_unique<OpenmpBuffer>(bytes, omp_device_);
  }
  void write(DeviceBuffer& dst, const void* src, std::size_t bytes) override {
    OpenmpBuffer& b = as_openmp(dst);
    std::memcpy(b.host(), src, bytes);
    b.upload(bytes);
  }
  void read(const DeviceBuffer& src, void* dst, std::size_t bytes) override {
    OpenmpBuffer& b = as_openmp(src);
    b.download(bytes);
    std::memcpy(dst, b.host(), bytes);
  }
  void fill(DeviceBuffer& dst, std::uint8_t value, std::size_t bytes) override {
    OpenmpBuffer& b = as_openmp(dst);
    std::memset(b.host(), value, bytes);
    b.upload(bytes);
  }
  double copy_timed(const DeviceBuffer& src, DeviceBuffer& dst, std::size_t bytes, int repeat) override {
    OpenmpBuffer& s = as_openmp(src);
    OpenmpBuffer& d = as_openmp(dst);
    const Gomp& g = Gomp::get();
    RegionTimer timer(on_gpu());
    timer.start();
    for (int i = 0; i < repeat; ++i) {
      if (on_gpu()) {
        if (g.target_memcpy(d.device_ptr(), s.device_ptr(), bytes, 0, 0, omp_device_, omp_device_) != 0)
          throw DeviceError("omp_target_memcpy on the device failed");
      } else {
        std::memcpy(d.host(), s.host(), bytes);
      }
    }
    return timer.stop_ms();
  }

  double execute(const std::vector<LaunchCmd>& launches, const std::vector<DeviceBuffer*>& buffers) override {
    std::vector<std::pair<Entry, std::vector<void*>>> calls;
    std::vector<std::int32_t> scalars;
    scalars.reserve(launches.size() * 16);
    std::size_t traced_call = launches.size();  // none
    LaunchShape shape;
    for (const LaunchCmd& l : launches) {
      std::vector<void*> args;
      for (const KernelArg& a : l.args) {
        if (const auto* b = std::get_if<BufferArg>(&a)) {
          args.push_back(as_openmp(*buffers.at(static_cast<std::size_t>(b->buffer))).host());
        } else if (const auto* v = std::get_if<std::int32_t>(&a)) {
          scalars.push_back(*v);
          args.push_back(&scalars.back());
        } else {
          throw InvalidRequest(l.kernel + ": an OpenMP kernel takes no dynamically sized shared memory");
        }
      }
      if (!traced(l.program)) {
        calls.emplace_back(entry_for(l), std::move(args));
        continue;
      }
      // The trace buffer, the recorder's last argument, is no argument of the
      // kernel's: its address goes into the instrumented image.
      args.pop_back();
      const auto* trace = std::get_if<BufferArg>(&l.args.back());
      if (!trace) throw DeviceError(l.kernel + ": a traced launch ends with its trace buffer");
      const std::uint64_t address = device_address(*buffers.at(static_cast<std::size_t>(trace->buffer)));
      calls.emplace_back(traced_entry_for(l, address), std::move(args));
      traced_call = calls.size() - 1;
      shape = launch_shape(untraced(l), true);
    }
    RegionTimer timer(on_gpu());
    timer.start();
    for (std::size_t i = 0; i < calls.size(); ++i) {
      if (i == traced_call) {
        forced_teams = shape.teams;
        forced_warps = shape.warps;
      }
      calls[i].first(calls[i].second.data());
      forced_teams = 0;
      forced_warps = 0;
    }
    return timer.stop_ms();
  }

  void finish() override {}

  std::uint64_t device_address(const DeviceBuffer& buffer) override {
    return reinterpret_cast<std::uint64_t>(as_openmp(buffer).device_ptr());
  }

 private:
  using Entry = void (*)(void* const*);

  bool on_gpu() const { return omp_device_ >= 0; }

  // The recording runtime (trace_runtime.cuh) as PTX for the image's ISA,
  // compiled by NVRTC.
  const std::string& recording_runtime() {
    if (!runtime_ptx_.empty()) return runtime_ptx_;
#if THREADMAP_HAVE_CUDA
    const cuda::Nvrtc& nvrtc = cuda::Nvrtc::get();
    if (!nvrtc.available()) throw Unavailable("a trace of an OpenMP region needs NVRTC: " + nvrtc.error());
    runtime_ptx_ = nvrtc.compile(cuda::trace_runtime_request("compute_" + misa_.substr(3))).image;
#else
    throw Unavailable("a trace of an OpenMP region needs NVRTC, and this build of ThreadMap has no CUDA");
#endif
    return runtime_ptx_;
  }

  // The teams and warps libgomp's nvptx plugin launches the region of
  // `launch` with (GCC 12's nvptx_adjust_launch_bounds, no num_teams or
  // thread_limit clause): 8 warps a team, or fewer where the kernel allows
  // fewer threads a block; as many teams as the SMs hold by registers alone.
  // The kernel's registers come from linking the image as the plugin does.
  //
  // `traced`: the launch of the traced build, asked for the timed build's
  // teams and warps (execute). The plugin still launches no more teams than
  // fit the SMs by the entry's registers, and the instrumented entry needs
  // more (matadd.rows on the H100: 264 teams traced, 396 timed): the image
  // is instrumented here as it will be, and linked, for its registers.
  LaunchShape launch_shape(const LaunchCmd& launch, bool traced = false) {
    const std::string key =
        compiled_object(launch, misa_).path.string() + "|" + launch.kernel + (traced ? "|traced" : "");
    if (auto it = shapes_.find(key); it != shapes_.end()) return it->second;
    const LaunchShape timed = traced ? launch_shape(launch) : LaunchShape{};
    const Driver& cu = Driver::get();
    if (!cu.links) throw DeviceError("the CUDA driver lacks its link functions (cuLinkCreate)");
    // libgomp's context, current on this thread once it has touched the
    // device from here (it attaches each host thread it serves).
    const Gomp& g = Gomp::get();
    g.target_free(g.target_alloc(1, omp_device_), omp_device_);
    OffloadImage image = openmp_offload_image(launch);
    // Any address will do: the registers do not depend on it.
    if (traced) instrument_image(image, launch.kernel, kShapeProbeAddress);
    std::string entry;
    for (const std::string& e : image.entries)
      if (e.starts_with(region_prefix(launch.kernel))) {
        entry = e;
        break;
      }
    if (entry.empty()) throw DeviceError(launch.kernel + " holds no target region (no entry " +
                                         region_prefix(launch.kernel) + "N in its image)");
    void* link = nullptr;
    cu.check(cu.cuLinkCreate(0, nullptr, nullptr, &link), "cuLinkCreate");
    void* module = nullptr;
    try {
      for (const std::string& ptx : image.ptx)
        cu.check(cu.cuLinkAddData(link, kJitInputPtx, const_cast<char*>(ptx.c_str()), ptx.size() + 1, nullptr, 0,
                                  nullptr, nullptr),
                 "cuLinkAddData");
      void* cubin = nullptr;
      std::size_t bytes = 0;
      cu.check(cu.cuLinkComplete(link, &cubin, &bytes), "cuLinkComplete");
      cu.check(cu.cuModuleLoadData(&module, cubin), "cuModuleLoadData");
    } catch (...) {
      cu.cuLinkDestroy(link);
      throw;
    }
    cu.cuLinkDestroy(link);
    void* function = nullptr;
    int registers = 0, max_threads = 0, registers_per_sm = 0, sms = 0, device = 0;
    cu.check(cu.cuModuleGetFunction(&function, module, entry.c_str()), "cuModuleGetFunction");
    cu.check(cu.cuFuncGetAttribute(&registers, kFuncRegisters, function), "cuFuncGetAttribute");
    cu.check(cu.cuFuncGetAttribute(&max_threads, kFuncMaxThreadsPerBlock, function), "cuFuncGetAttribute");
    cu.cuModuleUnload(module);
    cu.check(cu.cuCtxGetDevice(&device), "cuCtxGetDevice");
    cu.check(cu.cuDeviceGetAttribute(&registers_per_sm, kAttrRegistersPerSm, device), "cuDeviceGetAttribute");
    cu.check(cu.cuDeviceGetAttribute(&sms, kAttrMultiprocessors, device), "cuDeviceGetAttribute");
    const int warps = traced ? timed.warps : std::clamp(std::min(max_threads / 32, 32), 1, 8);
    const int fit = std::max(1, registers_per_sm / std::max(1, registers * 32 * warps) * sms);
    return shapes_[key] = {traced ? std::min(timed.teams, fit) : fit, warps, registers};
  }

  // Instruments the regions of `kernel` in `image`, with the functions GCC
  // outlined from them, the trace buffer's address written in.
  void instrument_image(OffloadImage& image, const std::string& kernel, std::uint64_t trace_buffer) {
    const std::string prefix = region_prefix(kernel);
    std::vector<std::string> entries, functions;
    for (const std::string& e : image.entries)
      if (e.starts_with(prefix)) entries.push_back(e);
    for (const std::string& f : cuda::function_definitions(image.ptx.at(0)))
      if (f.starts_with(prefix)) functions.push_back(f);
    image.ptx[0] = cuda::instrument_offload_ptx(image.ptx[0], entries, recording_runtime(), {trace_buffer, functions}).ptx;
  }

  // The traced build of `launch`: a private copy of its object, whose image
  // is instrumented as it registers (the kernel's regions and the functions
  // GCC outlined from them, the trace buffer's address written in).
  Entry traced_entry_for(const LaunchCmd& launch, std::uint64_t trace_buffer) {
    const LaunchCmd plain = untraced(launch);
    const CompiledObject compiled = compiled_object(plain, misa_);
    const std::string key = compiled.path.string() + "|" + std::to_string(trace_buffer) + "|" + launch.kernel;
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
    recording_runtime();  // compiled here, not inside libgomp's registration
    std::string failure;
    const ImageHook instrument = [&](OffloadImage& image) {
      try {
        instrument_image(image, launch.kernel, trace_buffer);
      } catch (const std::exception& e) {
        failure = e.what();
      }
    };
    void* handle = open_private_copy(compiled.path, instrument);
    if (!failure.empty()) throw DeviceError(compiled.file + ": its GPU image could not be instrumented: " + failure);
    const std::string symbol = "threadmap_entry_" + launch.kernel;
    auto entry = reinterpret_cast<Entry>(dlsym(handle, symbol.c_str()));
    if (!entry) throw DeviceError("the compiled " + compiled.file + " lacks " + symbol);
    return entries_[key] = entry;
  }

  // The timed build's entry: looked up by what names its program (each run
  // asks again), compiled or taken from the disk cache the first time.
  Entry entry_for(const LaunchCmd& launch) {
    std::string program = launch.kernel + '\n' + launch.program.source + '\n' +
                          std::string(element_name(launch.program.type)) + '\n';
    for (const auto& [name, value] : launch.program.defines) program += name + "=" + std::to_string(value) + '\n';
    program += launch.program.text;
    if (auto it = launched_.find(program); it != launched_.end()) return it->second;
    return launched_[program] = load_entry(launch);
  }

  Entry load_entry(const LaunchCmd& launch) {
    const CompiledObject compiled = compiled_object(launch, misa_);
    if (auto it = entries_.find(compiled.path.string() + launch.kernel); it != entries_.end()) return it->second;
    auto object = objects_.find(compiled.path.string());
    if (object == objects_.end()) {
      void* handle = dlopen(compiled.path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) throw DeviceError("cannot load the compiled " + compiled.file + ": " + dlerror());
      object = objects_.emplace(compiled.path.string(), handle).first;
    }
    const std::string symbol = "threadmap_entry_" + launch.kernel;
    auto entry = reinterpret_cast<Entry>(dlsym(object->second, symbol.c_str()));
    if (!entry) throw DeviceError("the compiled " + compiled.file + " lacks " + symbol);
    entries_.emplace(compiled.path.string() + launch.kernel, entry);
    return entry;
  }

  DeviceInfo info_;
  int omp_device_;    // -1: the host fallback
  std::string misa_;  // the PTX ISA the offload compiler targets ("sm_80")
  std::map<std::string, void*> objects_;
  std::map<std::string, Entry> entries_;
  std::map<std::string, Entry> launched_;              // entry_for's answers, by program
  std::map<std::string, LaunchShape> shapes_;  // launch_shape's answers
  std::string runtime_ptx_;
};

// What the runtime offers: the GPU it offloads to (OpenMP device 0) with its
// description, or the host fallback.
struct Runtime {
  int device = -1;
  DeviceInfo info;
  std::string misa;
};

Runtime probe_gcc() {
  const Gomp& g = Gomp::get();
  const GccCompiler& gcc = GccCompiler::get();
  Runtime r;
  // With no GPU the image is still compiled for one (and checked by ptxas
  // where the CUDA toolkit is on PATH, which knows no ISA older than sm_50):
  // Ampere's, which every GPU since runs.
  r.misa = "sm_80";
  DeviceInfo& d = r.info;
  d.backend = "openmp";
  d.dialect = Dialect::OpenMP;
  d.spec = "openmp:gcc";
  d.platform = "GCC " + (gcc.found() ? gcc.version : std::string("(compiler not installed)")) + ", libgomp";
  d.max_group_size = 1024;
  d.max_group_dims = {1024, 1024, 64};
  d.max_grid_groups = {2147483647ull, 65535, 65535};
  d.has_double = true;
  const int devices = g.get_num_devices();
  const Driver& cu = Driver::get();
  if (devices > 0 && cu.loaded) {
    r.device = 0;
    int dev = 0;
    cu.cuDeviceGet(&dev, 0);
    char name[256] = {};
    cu.cuDeviceGetName(name, sizeof name, dev);
    std::size_t total = 0;
    cu.cuDeviceTotalMem(&total, dev);
    int sms = 0, major = 0, minor = 0, shared = 0, l2 = 0;
    cu.cuDeviceGetAttribute(&sms, kAttrMultiprocessors, dev);
    cu.cuDeviceGetAttribute(&major, kAttrCapabilityMajor, dev);
    cu.cuDeviceGetAttribute(&minor, kAttrCapabilityMinor, dev);
    cu.cuDeviceGetAttribute(&shared, kAttrSharedPerBlock, dev);
    cu.cuDeviceGetAttribute(&l2, kAttrL2Bytes, dev);
    unsigned char uuid[16] = {};
    if (cu.cuDeviceGetUuid(uuid, dev) == 0) d.uuid = uuid_text(uuid, sizeof uuid);
    d.name = std::string(name) + ", GCC OpenMP offload";
    d.vendor = "NVIDIA";
    d.version = "compute capability " + std::to_string(major) + "." + std::to_string(minor);
    d.global_memory_bytes = total;
    d.max_allocation_bytes = total;
    d.local_memory_bytes = static_cast<std::uint64_t>(shared);
    d.last_level_cache_bytes = static_cast<std::uint64_t>(l2);
    d.compute_units = sms;
    d.warp_width = 32;
    d.kernel_clocks = true;  // the recording runtime reads %globaltimer, %smid and clock64
    d.timer_resolution_ns = 500;  // cuEventElapsedTime: about half a microsecond
    const int cc = major * 10 + minor;
    r.misa = cc >= 80 ? "sm_80" : cc >= 75 ? "sm_75" : cc >= 70 ? "sm_70" : "sm_53";
  } else {
    d.name = "host CPU, GCC OpenMP host fallback (no offload device)";
    d.vendor = "host";
    // Why: libgomp opens its nvptx plugin, which opens the CUDA driver.
    void* plugin = dlopen("libgomp-plugin-nvptx.so.1", RTLD_NOW | RTLD_LOCAL);
    d.version = devices > 0 ? "libgomp offloads, but the CUDA driver does not load here"
                : !plugin   ? "libgomp finds no offload device: its nvptx plugin is not installed "
                              "(Debian: libgomp-plugin-nvptx1)"
                : !cu.loaded ? "libgomp finds no offload device: no NVIDIA driver (libcuda.so.1)"
                             : "libgomp finds no offload device";
    if (plugin) dlclose(plugin);
    d.memory_is_host = true;
    d.compute_units = static_cast<int>(std::max(1l, sysconf(_SC_NPROCESSORS_ONLN)));
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    d.global_memory_bytes = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : 0;
    d.max_allocation_bytes = d.global_memory_bytes;
    d.timer_resolution_ns = 1;
  }
  d.subgroup_note = "an OpenMP kernel has no sub-group shuffles";
  return r;
}

const Runtime& gcc_runtime() {
  static const Runtime r = probe_gcc();
  return r;
}

}  // namespace

OffloadImage openmp_offload_image(const LaunchCmd& launch) {
  const Gomp& g = Gomp::get();
  if (!g.loaded()) throw Unavailable(g.error);
  const CompiledObject compiled = compiled_object(launch, gcc_runtime().misa);
  OffloadImage image;
  bool registered = false;
  const ImageHook read = [&](OffloadImage& i) {
    image = i;
    registered = true;
  };
  dlclose(open_private_copy(compiled.path, read));
  if (!registered) throw DeviceError(compiled.file + ": its compiled object registers no nvptx image");
  return image;
}

std::string openmp_compiler_problem() {
  const GccCompiler& gcc = GccCompiler::get();
  return gcc.found() && gcc.offload ? std::string() : gcc.missing;
}

std::string openmp_cache_dir() { return user_cache_dir("openmp"); }

// THREADMAP_OPENMP=off: the backend is switched off (its host fallback is a
// device on every machine with libgomp).
static bool switched_off() {
  const char* v = std::getenv("THREADMAP_OPENMP");
  return v && std::string_view(v) == "off";
}
static constexpr const char* kSwitchedOff = "switched off by THREADMAP_OPENMP=off";

BackendReport openmp_backend_report() {
  BackendReport report;
  report.backend = "openmp";
  if (switched_off()) {
    report.reason = kSwitchedOff;
    return report;
  }
  const Gomp& g = Gomp::get();
  if (!g.loaded()) {
    report.reason = g.error;
    return report;
  }
  report.devices.push_back(gcc_runtime().info);
  report.available = true;
  const GccCompiler& gcc = GccCompiler::get();
  if (!gcc.missing.empty()) report.reason = gcc.missing;
  return report;
}

std::unique_ptr<Device> open_openmp_device(const std::string& compiler) {
  if (compiler != kOpenmpGcc)
    throw InvalidRequest("openmp:" + compiler + ": ThreadMap compiles OpenMP offload with gcc (openmp:gcc)");
  if (switched_off()) throw InvalidRequest("openmp:gcc: " + std::string(kSwitchedOff));
  const Gomp& g = Gomp::get();
  if (!g.loaded()) throw InvalidRequest("openmp:gcc: " + g.error);
  const Runtime& r = gcc_runtime();
  return std::make_unique<OpenmpDevice>(r.info, r.device, r.misa);
}

}  // namespace threadmap

// The registration every object compiled for offload makes when it is opened
// (above: "The image a compiled object hands libgomp"), passed on to libgomp.
extern "C" __attribute__((visibility("default"))) void GOMP_offload_register_ver(unsigned version,
                                                                                const void* host_table,
                                                                                int target_type,
                                                                                const void* target_data) {
  static const threadmap::RegisterFunction real = threadmap::libgomp_function("GOMP_offload_register_ver");
  const void* image = threadmap::hooked_image(version, target_type, target_data);
  if (real) real(version, host_table, target_type, image);
}

// Its counterpart when an object is closed: the image libgomp was handed.
extern "C" __attribute__((visibility("default"))) void GOMP_offload_unregister_ver(unsigned version,
                                                                                  const void* host_table,
                                                                                  int target_type,
                                                                                  const void* target_data) {
  static const threadmap::RegisterFunction real = threadmap::libgomp_function("GOMP_offload_unregister_ver");
  if (real) real(version, host_table, target_type, threadmap::registered_image(target_data));
}

// Every target region's launch (GCC's host code calls it for each region),
// passed on to libgomp, with the teams and warps of a traced call forced.
extern "C" __attribute__((visibility("default"))) void GOMP_target_ext(int device, void (*fn)(void*),
                                                                      std::size_t mapnum, void** hostaddrs,
                                                                      std::size_t* sizes, unsigned short* kinds,
                                                                      unsigned int flags, void** depend, void** args) {
  static const auto real = [] {
    void* gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD);
    return reinterpret_cast<threadmap::TargetExt>(gomp ? dlvsym(gomp, "GOMP_target_ext", "GOMP_4.5") : nullptr);
  }();
  if (!real) return;
  if (threadmap::forced_teams.load() <= 0) return real(device, fn, mapnum, hostaddrs, sizes, kinds, flags, depend, args);
  std::vector<void*> forced = threadmap::forced_arguments(args);
  real(device, fn, mapnum, hostaddrs, sizes, kinds, flags, depend, forced.data());
}
