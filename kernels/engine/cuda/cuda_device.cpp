// The CUDA runtime behind device.h. Kernels are compiled at run time by NVRTC
// for this device's architecture (cuda_compiler.h), loaded as runtime
// libraries (cudaLibraryLoadData) and launched through their cudaKernel_t
// handles; work goes to the legacy default stream, so cudaMemcpy, the
// launches and the timing events are ordered without extra synchronisation.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/engine/cuda/cuda_compiler.h"
#include "kernels/engine/cuda/cuda_kernels.h"
#include "kernels/ptx/ptx_instrument.h"
#include "kernels/core/error.h"
#include "kernels/core/learner_source.h"

namespace threadmap {

namespace {

bool is_pack(const ProgramKey& program) { return program.source.starts_with("pack:"); }

// A learner's text must define the catalog kernel's name: NVRTC's message for
// a name expression it cannot find does not say which name it wanted.
void require_kernel_name(const cuda_kernels::KernelSpec& spec, const ProgramKey& program) {
  if (is_pack(program) && !names_identifier(program.text, spec.kernel))
    throw InvalidRequest(program.text_name + " defines no kernel " + std::string(spec.kernel) +
                         ", which the pack's manifest names");
  if (!program.text.empty() && !names_identifier(program.text, spec.kernel))
    throw missing_kernel(program.text_name, dialect_file(spec.source, Dialect::Cuda), std::string(spec.kernel));
}

// A pack's CUDA kernel (kernels/pack): an extern "C" __global__ function of
// the pack's .cu text. Its parameters are read off the launch ('b' a buffer,
// 'i' an int; a __local argument is its dynamic shared memory), as the
// table of cuda_kernels.h states them for the catalog's. Kept for the
// program's life: a KernelSpec holds views.
struct PackKernel {
  std::string source, kernel, parameters;
  cuda_kernels::KernelSpec spec;
};

const cuda_kernels::KernelSpec* pack_kernel_spec(const LaunchCmd& launch) {
  std::string parameters;
  bool dynamic = false;
  // A trace pass's launch carries the trace buffer last: no parameter of the kernel's own.
  const std::size_t own = launch.args.size() - (cuda_kernels::trace_pass(launch.program) != 0 && !launch.args.empty() &&
                                                        std::holds_alternative<BufferArg>(launch.args.back())
                                                    ? 1
                                                    : 0);
  for (std::size_t i = 0; i < own; ++i) {
    const KernelArg& a = launch.args[i];
    if (std::holds_alternative<BufferArg>(a)) parameters += 'b';
    else if (std::holds_alternative<std::int32_t>(a)) parameters += 'i';
    else dynamic = true;
  }
  const auto shared = dynamic ? cuda_kernels::SharedMemory::Dynamic : cuda_kernels::SharedMemory::Static;
  static std::mutex mutex;
  static std::vector<std::unique_ptr<PackKernel>> known;
  std::lock_guard lock(mutex);
  for (const auto& k : known)
    if (k->source == launch.program.source && k->kernel == launch.kernel && k->parameters == parameters &&
        k->spec.shared == shared)
      return &k->spec;
  auto k = std::make_unique<PackKernel>();
  k->source = launch.program.source;
  k->kernel = launch.kernel;
  k->parameters = parameters;
  k->spec = {k->source, k->kernel, {}, k->parameters, shared, false, false};
  known.push_back(std::move(k));
  return &known.back()->spec;
}

// The kernel a launch names: the catalog's, or a pack's. Throws InvalidRequest when there is none.
const cuda_kernels::KernelSpec& kernel_spec(const LaunchCmd& launch) {
  if (is_pack(launch.program)) {
    if (launch.program.text.empty())
      throw InvalidRequest(launch.program.source + " has no CUDA kernel file: its manifest names only an OpenCL one");
    return *pack_kernel_spec(launch);
  }
  const cuda_kernels::KernelSpec* spec = cuda_kernels::find_kernel(launch.program.source, launch.kernel);
  if (!spec) throw InvalidRequest("there is no CUDA kernel " + launch.kernel + " in source " + launch.program.source);
  return *spec;
}

// What NVRTC compiles for a launch: the kernel's text (the catalog's, or a
// learner's) for `target`. A trace pass is the same text: compiled to PTX
// with line information for the target's architecture, then instrumented
// (ptx_instrument.h), so the traced kernel is the timed kernel's code.
cuda::CompileRequest kernel_request(const cuda_kernels::KernelSpec& spec, const LaunchCmd& launch,
                                    const std::string& target) {
  const bool traced = cuda_kernels::trace_pass(launch.program) != 0;
  const bool pack = is_pack(launch.program);
  cuda::CompileRequest request = cuda_kernels::compile_request(
      spec.source, {pack ? std::string(spec.kernel) : cuda_kernels::name_expression(spec, launch.program)},
      traced ? "compute_" + std::to_string(cuda::Nvrtc::architecture_number(target)) : target, &launch.program);
  if (pack) {  // as its OpenCL build: ELEM the element type, then the manifest's values
    request.defines.push_back("ELEM=" + std::string(element_name(launch.program.type)));
    for (const auto& [name, value] : launch.program.defines)
      if (name != kTraceDefine) request.defines.push_back(name + "=" + std::to_string(value));
  }
  if (traced) request.options.push_back("-lineinfo");
  return request;
}

// Rewrites the compiled PTX for the pass; returns what the instrumenter
// found in each entry (the machine's memory instructions per line).
std::vector<cuda::EntryReport> instrument(cuda::CompileResult& compiled, int pass, const cuda::Nvrtc& nvrtc) {
  cuda::InstrumentedPtx out =
      cuda::instrument_compiled(compiled, nvrtc, pass == kClockPass ? cuda::Pass::Clock : cuda::Pass::Access);
  compiled.image = std::move(out.ptx);
  compiled.ptx = true;
  return std::move(out.entries);
}

using cuda_kernels::KernelSpec;
using cuda_kernels::SharedMemory;

std::mutex notice_mutex;
std::function<void(const std::string&)> compile_notice;

void notify(const std::string& message) {
  std::lock_guard lock(notice_mutex);
  if (compile_notice) compile_notice(message);
}

// cudaEventElapsedTime's documented resolution: "around 0.5 microseconds".
constexpr double kEventResolutionNs = 500.0;

std::string error_text(cudaError_t code) {
  return std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ")";
}

std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

DeviceInfo query_device_info(int index) {
  cudaDeviceProp prop{};
  const cudaError_t code = cudaGetDeviceProperties(&prop, index);
  if (code != cudaSuccess) {
    cudaGetLastError();
    throw DeviceError("cuda:" + std::to_string(index) + ": cudaGetDeviceProperties failed: " + error_text(code));
  }
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);

  DeviceInfo d;
  d.backend = "cuda";
  d.dialect = Dialect::Cuda;
  d.kernel_clocks = true;
  d.spec = "cuda:" + std::to_string(index);
  d.name = prop.name;
  d.vendor = "NVIDIA";
  d.platform = "CUDA " + version_text(runtime);
  d.version = "compute capability " + std::to_string(prop.major) + "." + std::to_string(prop.minor) +
              ", driver for CUDA " + version_text(driver);
  d.global_memory_bytes = prop.totalGlobalMem;
  // CUDA has no per-allocation limit below the device's memory.
  d.max_allocation_bytes = prop.totalGlobalMem;
  // The opt-in limit, not the default 48 KB: a launch that asks for more
  // dynamic shared memory raises the kernel's limit (see ensure_dynamic_shared).
  d.local_memory_bytes = prop.sharedMemPerBlockOptin;
  d.last_level_cache_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
  d.max_group_size = static_cast<std::size_t>(prop.maxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    d.max_group_dims[i] = static_cast<std::size_t>(prop.maxThreadsDim[i]);
    d.max_grid_groups[i] = static_cast<std::uint64_t>(prop.maxGridSize[i]);
  }
  d.compute_units = prop.multiProcessorCount;
  d.warp_width = prop.warpSize;
  d.has_double = true;
  d.has_subgroup_shuffle = true;
  d.timer_resolution_ns = kEventResolutionNs;
  d.uuid = uuid_text(reinterpret_cast<const unsigned char*>(prop.uuid.bytes), sizeof prop.uuid.bytes);
  return d;
}

class CudaBuffer final : public DeviceBuffer {
 public:
  CudaBuffer(int device, void* data, std::size_t bytes) : device_(device), data_(data), bytes_(bytes) {}
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  ~CudaBuffer() override {
    // Nothing to report from a destructor; after a sticky error cudaFree fails
    // and the memory goes with the process.
    if (data_ && cudaSetDevice(device_) == cudaSuccess) cudaFree(data_);
    cudaGetLastError();
  }
  std::size_t bytes() const override { return bytes_; }
  void* data() const { return data_; }

 private:
  int device_;
  void* data_;
  std::size_t bytes_;
};

// A kernel compiled and loaded for a launch, with what its checks need.
struct ResolvedKernel {
  std::vector<Device::MergedAccess> merged;  // the access pass's, from the instrumenter
  const KernelSpec* spec = nullptr;
  std::string name;        // transpose_shared<float, TILE=16, PAD=1>
  std::string parameters;  // the spec's, plus the trace buffer in the traced build
  cudaKernel_t function = nullptr;
  cudaFuncAttributes attributes{};
};

union ArgumentValue {
  void* pointer;
  std::int32_t integer;
};

struct ReadyLaunch {
  const ResolvedKernel* kernel = nullptr;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared = 0;
  std::vector<ArgumentValue> values;
  std::vector<void*> addresses;  // what cudaLaunchKernel reads: &values[i]
};

std::string parameter_list(std::string_view letters) {
  std::string s;
  for (char c : letters) s += std::string(s.empty() ? "" : ", ") + (c == 'b' ? "buffer" : "int");
  return "(" + s + ")";
}

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(int index) : index_(index), info_(query_device_info(index)) {
    select();
    check(cudaDeviceGetAttribute(&major_, cudaDevAttrComputeCapabilityMajor, index_),
          "cudaDeviceGetAttribute(compute capability)");
    check(cudaDeviceGetAttribute(&minor_, cudaDevAttrComputeCapabilityMinor, index_),
          "cudaDeviceGetAttribute(compute capability)");
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;
  ~CudaDevice() override {
    if (cudaSetDevice(index_) == cudaSuccess) {
      if (start_) cudaEventDestroy(start_);
      if (stop_) cudaEventDestroy(stop_);
      for (cudaLibrary_t library : libraries_) cudaLibraryUnload(library);
    }
    cudaGetLastError();
  }

  const DeviceInfo& info() const override { return info_; }

  void prepare(const LaunchCmd& launch) override {
    select();
    resolve(launch);
  }

  std::vector<MergedAccess> merged_accesses(const LaunchCmd& launch) override {
    select();
    return resolve(launch).merged;
  }

  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override {
    select();
    void* data = nullptr;
    check(cudaMalloc(&data, bytes), "cudaMalloc of " + std::to_string(bytes) + " bytes");
    return std::make_unique<CudaBuffer>(index_, data, bytes);
  }

  void fill(DeviceBuffer& dst, std::uint8_t value, std::size_t bytes) override {
    select();
    CudaBuffer& buffer = own(dst, "fill");
    check_size(buffer, bytes, "fill");
    check(cudaMemset(buffer.data(), value, bytes), "cudaMemset of " + std::to_string(bytes) + " bytes");
  }

  void write(DeviceBuffer& dst, const void* src, std::size_t bytes) override {
    select();
    CudaBuffer& buffer = own(dst, "write");
    check_size(buffer, bytes, "write");
    check(cudaMemcpy(buffer.data(), src, bytes, cudaMemcpyHostToDevice),
          "cudaMemcpy of " + std::to_string(bytes) + " bytes to the device");
  }

  void read(const DeviceBuffer& src, void* dst, std::size_t bytes) override {
    select();
    const CudaBuffer& buffer = own(src, "read");
    check_size(buffer, bytes, "read");
    check(cudaMemcpy(dst, buffer.data(), bytes, cudaMemcpyDeviceToHost),
          "cudaMemcpy of " + std::to_string(bytes) + " bytes from the device");
  }

  double copy_timed(const DeviceBuffer& src, DeviceBuffer& dst, std::size_t bytes, int repeat) override {
    select();
    const CudaBuffer& from = own(src, "copy");
    CudaBuffer& to = own(dst, "copy");
    check_size(from, bytes, "copy");
    check_size(to, bytes, "copy");
    const std::string what = "device-to-device cudaMemcpy of " + std::to_string(bytes) + " bytes";
    check(cudaEventRecord(start_, nullptr), "cudaEventRecord");
    for (int i = 0; i < repeat; ++i)
      check(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice, nullptr), what);
    check(cudaEventRecord(stop_, nullptr), "cudaEventRecord");
    return elapsed_ms(what);
  }

  double execute(const std::vector<LaunchCmd>& launches, const std::vector<DeviceBuffer*>& buffers) override {
    select();
    if (launches.empty()) throw InvalidRequest(info_.spec + ": execute was given no launches");
    // Every check and lookup happens before the first event: host work
    // between launches would show up as idle device time in the measurement.
    std::vector<ReadyLaunch> ready;
    ready.reserve(launches.size());
    for (const LaunchCmd& launch : launches) ready.push_back(make_ready(launch, buffers));
    for (ReadyLaunch& r : ready)
      for (ArgumentValue& v : r.values) r.addresses.push_back(&v);

    check(cudaEventRecord(start_, nullptr), "cudaEventRecord");
    for (ReadyLaunch& r : ready) {
      cudaError_t code = cudaLaunchKernel(static_cast<const void*>(r.kernel->function), r.grid, r.block,
                                          r.addresses.data(), r.dynamic_shared, nullptr);
      if (code == cudaSuccess) code = cudaGetLastError();
      check(code, "launching " + r.kernel->name + launch_shape(r));
    }
    check(cudaEventRecord(stop_, nullptr), "cudaEventRecord");
    std::string names;
    for (const ReadyLaunch& r : ready)
      if (names.find(r.kernel->name) == std::string::npos) names += (names.empty() ? "" : ", ") + r.kernel->name;
    return elapsed_ms("running " + names);
  }

  void finish() override {
    select();
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }

  std::uint64_t device_address(const DeviceBuffer& buffer) override {
    return reinterpret_cast<std::uint64_t>(own(buffer, "an address").data());
  }

 private:
  std::string where() const { return info_.spec + " (" + info_.name + ")"; }

  void select() {
    if (!broken_.empty())
      throw DeviceError(where() + " is unusable after an earlier error that corrupted its " + "CUDA context (" +
                        broken_ + "); restart the program to use it again");
    const cudaError_t code = cudaSetDevice(index_);
    if (code != cudaSuccess) check(code, "cudaSetDevice");
  }

  // Throws DeviceError naming the call and the CUDA error. Errors such as an
  // illegal address inside a kernel are sticky: the context is corrupted and
  // every later call fails the same way, so the device is marked unusable.
  void check(cudaError_t code, const std::string& what) {
    if (code == cudaSuccess) return;
    cudaGetLastError();
    const cudaError_t after = cudaDeviceSynchronize();
    cudaGetLastError();
    std::string message = where() + ": " + what + " failed: " + error_text(code);
    if (after != cudaSuccess) {
      broken_ = error_text(after);
      message += ". This error is sticky: the CUDA context is corrupted and " + info_.spec +
                 " stays unusable in this process; restart the program";
    }
    throw DeviceError(message);
  }

  double elapsed_ms(const std::string& what) {
    check(cudaEventSynchronize(stop_), what);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime after " + what);
    return ms;
  }

  CudaBuffer& own(DeviceBuffer& buffer, const char* operation) {
    auto* b = dynamic_cast<CudaBuffer*>(&buffer);
    if (!b)
      throw InvalidRequest(where() + ": " + operation + " was given a buffer that the CUDA backend did not allocate");
    return *b;
  }
  const CudaBuffer& own(const DeviceBuffer& buffer, const char* operation) {
    return own(const_cast<DeviceBuffer&>(buffer), operation);
  }

  void check_size(const CudaBuffer& buffer, std::size_t bytes, const char* operation) const {
    if (bytes > buffer.bytes())
      throw InvalidRequest(where() + ": " + operation + " of " + std::to_string(bytes) +
                           " bytes exceeds the buffer's " + std::to_string(buffer.bytes()) + " bytes");
  }

  // The target NVRTC compiles for: this GPU's own cubin, or PTX when NVRTC
  // does not know its architecture yet.
  const std::string& target() {
    if (target_.empty()) {
      const cuda::Nvrtc& nvrtc = cuda::Nvrtc::get();
      if (!nvrtc.available()) throw DeviceError(where() + " needs NVRTC to compile its kernels: " + nvrtc.error());
      try {
        target_ = nvrtc.target_for(major_, minor_);
      } catch (const std::runtime_error& e) {
        throw DeviceError(where() + ": " + e.what());
      }
    }
    return target_;
  }

  const ResolvedKernel& resolve(const LaunchCmd& launch) {
    const std::string name = cuda_kernels::describe_request(launch.program, launch.kernel);
    const int pass = cuda_kernels::trace_pass(launch.program);
    // The clock pass is loaded for the launch's shape: its registers are
    // capped so that it keeps the timed kernel's occupancy for that shape.
    std::string key =
        launch.program.source + "/" + name + (launch.program.text.empty() ? "" : "|learner|" + launch.program.text);
    if (pass == kClockPass)
      key += "|" + std::to_string(threads_of(launch)) + "|" + std::to_string(dynamic_shared_of(launch));
    if (auto found = resolved_.find(key); found != resolved_.end()) return found->second;

    const KernelSpec* spec = &kernel_spec(launch);
    require_kernel_name(*spec, launch.program);
    const std::string expression =
        is_pack(launch.program) ? std::string(spec->kernel) : cuda_kernels::name_expression(*spec, launch.program);
    const cuda::CompileRequest request = kernel_request(*spec, launch, target());
    const cuda::Nvrtc& nvrtc = cuda::Nvrtc::get();
    std::optional<cuda::CompileResult> compiled = nvrtc.cached(request);
    if (!compiled) {
      notify("compiling " + expression +
             (pass == kAccessPass  ? " (traced build)"
              : pass == kClockPass ? " (clock pass)"
                                   : "") +
             " for " + target() + " with NVRTC " + nvrtc.version() + " (first use; kept in " + cuda::cuda_cache_dir() +
             ")");
      try {
        compiled = nvrtc.compile(request);
      } catch (const cuda::CompileError& e) {
        if (!launch.program.text.empty())
          throw CompileError(request.file_name + " does not compile for " + where() + " (" + target() + "):\n" +
                             e.log());
        throw DeviceError(where() + ": " + e.what());
      } catch (const std::runtime_error& e) {
        throw DeviceError(where() + ": " + e.what());
      }
    }
    std::vector<MergedAccess> merged;
    std::string untraced;  // memory instructions the trace would miss, a compiler-style line each
    if (pass != 0) {
      try {
        for (const cuda::EntryReport& entry : instrument(*compiled, pass, nvrtc)) {
          for (const cuda::MemoryInstructions& m : entry.recorded)
            if (m.merged > 1 && m.line > 0 && m.line <= 65535)
              merged.push_back({static_cast<std::uint16_t>(m.line), m.space != cuda::MemorySpace::Global,
                                m.space != cuda::MemorySpace::Shared, m.store, m.merged});
          if (pass == kAccessPass)
            for (const cuda::UnrecordedInstructions& u : entry.unrecorded)
              if (u.moves_data())
                untraced += (u.file.empty() ? request.file_name : u.file) + "(" + std::to_string(u.line) +
                            "): error: " + u.opcode +
                            " is not traced: ThreadMap records loads, stores and atomics of one element (or "
                            "vector) of global and shared memory, and barriers; write it as element accesses to "
                            "trace this kernel\n";
        }
      } catch (const std::exception& e) {
        throw DeviceError(where() + ": instrumenting " + request.file_name + " for its trace: " + e.what());
      }
    }
    // A kernel whose data moves in a form the trace misses (an asynchronous
    // copy into shared memory, ldmatrix, a vector atomic) would be measured
    // without those accesses, and graded so: its traced build is refused.
    if (!untraced.empty()) throw CompileError(untraced);

    ResolvedKernel r;
    r.merged = std::move(merged);
    r.spec = spec;
    r.name = name;
    r.parameters = std::string(spec->parameters) + (pass ? "b" : "");
    load(r, *compiled, name, pass == kClockPass ? clock_register_cap(launch) : 0);
    if (spec->prefer_shared)
      check(cudaFuncSetAttribute(static_cast<const void*>(r.function), cudaFuncAttributePreferredSharedMemoryCarveout,
                                 cudaSharedmemCarveoutMaxShared),
            "asking for the largest shared-memory carveout for " + name);
    return resolved_.emplace(key, std::move(r)).first->second;
  }

  // Loads the compiled code (PTX: finished by the driver, with at most
  // `max_registers` per thread where that is not 0) and finds the kernel.
  void load(ResolvedKernel& r, const cuda::CompileResult& compiled, const std::string& name, int max_registers) {
    cudaLibrary_t library = nullptr;
    cudaJitOption option = cudaJitMaxRegisters;
    void* value = reinterpret_cast<void*>(static_cast<std::uintptr_t>(max_registers));
    check(cudaLibraryLoadData(&library, compiled.image.data(), max_registers ? &option : nullptr,
                              max_registers ? &value : nullptr, max_registers ? 1 : 0, nullptr, nullptr, 0),
          "loading the " + std::string(compiled.ptx ? "PTX" : "cubin") + " of " + name + " (" + target() + ")" +
              (max_registers ? " with at most " + std::to_string(max_registers) + " registers" : ""));
    libraries_.push_back(library);
    check(cudaLibraryGetKernel(&r.function, library, compiled.kernels.front().lowered_name.c_str()),
          "finding " + name + " in its compiled library");
    // Also loads the kernel into this device's context now: with lazy loading
    // the first launch would otherwise pay for it inside the timed region.
    check(cudaFuncGetAttributes(&r.attributes, static_cast<const void*>(r.function)),
          "cudaFuncGetAttributes of " + name);
  }

  // The most registers per thread that keep the timed build's blocks per SM
  // for this launch's shape, or 0 where there is none to ask for: a clock
  // pass that held fewer blocks per SM would time a less crowded machine, so
  // the driver's JIT is asked to stay within them (spilling if it must).
  int clock_register_cap(const LaunchCmd& launch) {
    // The timed launch: without the define, and without the trace buffer the
    // pass takes last (a pack kernel's parameters are read off the launch:
    // with it, the timed kernel would be remembered taking one more).
    LaunchCmd timed = launch;
    auto& defines = timed.program.defines;
    defines.erase(std::remove_if(defines.begin(), defines.end(), [](const auto& d) { return d.first == kTraceDefine; }),
                  defines.end());
    if (!timed.args.empty() && std::holds_alternative<BufferArg>(timed.args.back())) timed.args.pop_back();
    const int blocks = resident_blocks(timed);
    const int warps = static_cast<int>((threads_of(launch) + 31) / 32);
    int per_sm = 0;
    check(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxRegistersPerMultiprocessor, index_),
          "cudaDeviceGetAttribute (registers per multiprocessor)");
    if (blocks <= 0 || warps <= 0) return 0;
    // A warp's registers are given in units of 256: 8 per thread.
    const int cap = per_sm / (blocks * warps * 256) * 8;
    return cap >= 16 ? std::min(cap, 255) : 0;
  }

  static std::size_t threads_of(const LaunchCmd& launch) {
    return launch.group_size[0] * launch.group_size[1] * launch.group_size[2];
  }

  static std::size_t dynamic_shared_of(const LaunchCmd& launch) {
    std::size_t bytes = 0;
    for (const KernelArg& arg : launch.args)
      if (const auto* local = std::get_if<LocalArrayArg>(&arg)) bytes += local->bytes;
    return bytes;
  }

 public:
  int resident_blocks(const LaunchCmd& launch) override {
    select();
    const ResolvedKernel& kernel = resolve(launch);
    const std::size_t shared = dynamic_shared_of(launch);
    if (shared) ensure_dynamic_shared(kernel, shared);
    int blocks = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, static_cast<const void*>(kernel.function),
                                                        static_cast<int>(threads_of(launch)), shared),
          "the occupancy of " + kernel.name);
    return blocks;
  }

 private:
  ReadyLaunch make_ready(const LaunchCmd& launch, const std::vector<DeviceBuffer*>& buffers) {
    const ResolvedKernel& kernel = resolve(launch);
    ReadyLaunch r;
    r.kernel = &kernel;

    std::string given;
    for (const KernelArg& arg : launch.args) {
      if (const auto* local = std::get_if<LocalArrayArg>(&arg)) {
        r.dynamic_shared += local->bytes;
      } else if (const auto* buffer = std::get_if<BufferArg>(&arg)) {
        given += 'b';
        if (buffer->buffer < 0 || static_cast<std::size_t>(buffer->buffer) >= buffers.size() ||
            !buffers[buffer->buffer])
          throw InvalidRequest(kernel.name + ": parameter " + std::to_string(given.size()) + " names buffer " +
                               std::to_string(buffer->buffer) + ", but the launch was given " +
                               std::to_string(buffers.size()) + " buffers");
        ArgumentValue v;
        v.pointer = own(*buffers[buffer->buffer], "a launch").data();
        r.values.push_back(v);
      } else {
        given += 'i';
        ArgumentValue v;
        v.integer = std::get<std::int32_t>(arg);
        r.values.push_back(v);
      }
    }
    if (given != kernel.parameters)
      throw InvalidRequest(kernel.name + " takes " + parameter_list(kernel.parameters) + " but the launch passes " +
                           parameter_list(given));
    if (kernel.spec->shared == SharedMemory::Dynamic && r.dynamic_shared == 0)
      throw InvalidRequest(kernel.name + " declares extern __shared__ memory; the launch must " +
                           "size it with a local array argument");
    if (kernel.spec->shared == SharedMemory::Static && r.dynamic_shared != 0)
      throw InvalidRequest(kernel.name + " has no dynamic shared memory, yet the launch asks " + "for " +
                           std::to_string(r.dynamic_shared) + " bytes");

    check_geometry(kernel, launch);
    r.grid = dim3(static_cast<unsigned>(launch.groups[0]), static_cast<unsigned>(launch.groups[1]),
                  static_cast<unsigned>(launch.groups[2]));
    r.block = dim3(static_cast<unsigned>(launch.group_size[0]), static_cast<unsigned>(launch.group_size[1]),
                   static_cast<unsigned>(launch.group_size[2]));
    if (r.dynamic_shared) ensure_dynamic_shared(kernel, r.dynamic_shared);
    return r;
  }

  void check_geometry(const ResolvedKernel& kernel, const LaunchCmd& launch) const {
    static const char* const axis[] = {"x", "y", "z"};
    std::size_t threads = 1;
    for (int i = 0; i < 3; ++i) {
      const std::size_t size = launch.group_size[i];
      const std::size_t groups = launch.groups[i];
      if (size == 0 || groups == 0)
        throw InvalidRequest(kernel.name + ": a launch of " + std::to_string(groups) + " blocks of " +
                             std::to_string(size) + " threads along " + axis[i] + " is empty");
      if (size > info_.max_group_dims[i])
        throw InvalidRequest(kernel.name + ": " + std::to_string(size) + " threads per block " + "along " + axis[i] +
                             " exceed the limit of " + std::to_string(info_.max_group_dims[i]) + " on " + where());
      if (groups > info_.max_grid_groups[i])
        throw InvalidRequest(kernel.name + ": " + std::to_string(groups) + " blocks along " + axis[i] +
                             " exceed the limit of " + std::to_string(info_.max_grid_groups[i]) + " on " + where());
      threads *= size;
    }
    // The kernel's own limit can be below the device's when it uses many registers.
    const auto kernel_limit = static_cast<std::size_t>(kernel.attributes.maxThreadsPerBlock);
    if (threads > kernel_limit)
      throw InvalidRequest(kernel.name + ": a block of " + std::to_string(threads) +
                           " threads exceeds the kernel's limit of " + std::to_string(kernel_limit) +
                           " threads per block on " + where());
  }

  // Above 48 KB a kernel must opt in to more dynamic shared memory, up to
  // sharedMemPerBlockOptin minus what it declares statically.
  void ensure_dynamic_shared(const ResolvedKernel& kernel, std::size_t bytes) {
    const std::size_t static_bytes = kernel.attributes.sharedSizeBytes;
    if (static_bytes + bytes > info_.local_memory_bytes)
      throw InvalidRequest(kernel.name + ": " + std::to_string(bytes) + " bytes of dynamic " + "shared memory plus " +
                           std::to_string(static_bytes) + " static exceed the limit of " +
                           std::to_string(info_.local_memory_bytes) + " bytes per block on " + where());
    int& allowed = dynamic_shared_allowed_[kernel.function];
    if (allowed == 0) allowed = kernel.attributes.maxDynamicSharedSizeBytes;
    if (bytes <= static_cast<std::size_t>(allowed)) return;
    check(cudaFuncSetAttribute(static_cast<const void*>(kernel.function), cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(bytes)),
          "raising the dynamic shared memory of " + kernel.name + " to " + std::to_string(bytes) + " bytes");
    allowed = static_cast<int>(bytes);
  }

  static std::string launch_shape(const ReadyLaunch& r) {
    return " with " + std::to_string(r.grid.x) + "x" + std::to_string(r.grid.y) + "x" + std::to_string(r.grid.z) +
           " blocks of " + std::to_string(r.block.x) + "x" + std::to_string(r.block.y) + "x" +
           std::to_string(r.block.z) + " threads" +
           (r.dynamic_shared ? ", " + std::to_string(r.dynamic_shared) + " bytes dynamic shared" : std::string());
  }

  int index_;
  DeviceInfo info_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  int major_ = 0, minor_ = 0;  // compute capability
  std::string target_;         // sm_XY or compute_XY, once a kernel was compiled
  std::map<std::string, ResolvedKernel> resolved_;
  std::vector<cudaLibrary_t> libraries_;
  std::map<cudaKernel_t, int> dynamic_shared_allowed_;
  std::string broken_;  // the sticky error, once one happened
};

}  // namespace

BackendReport cuda_backend_report() {
  BackendReport report;
  report.backend = "cuda";
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    cudaGetLastError();
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    // The runtime reports a machine without any NVIDIA driver as an
    // insufficient driver, the usual case on a build or CI machine.
    int driver = 0;
    cudaDriverGetVersion(&driver);
    const std::string why = code == cudaErrorNoDevice ? "no CUDA device"
                            : code == cudaErrorInsufficientDriver && driver == 0
                                ? "no NVIDIA driver (libcuda.so.1 was not found): install the NVIDIA driver to use "
                                  "an NVIDIA GPU"
                            : code == cudaErrorInsufficientDriver
                                ? "the NVIDIA driver supports CUDA " + version_text(driver) + ", older than the CUDA " +
                                      version_text(runtime) + " this build needs: update the NVIDIA driver"
                                : "CUDA cannot start";
    report.reason = why + ": " + error_text(code);
    return report;
  }
  if (count == 0) {
    report.reason = "no CUDA device: cudaGetDeviceCount found none";
    return report;
  }
  try {
    for (int i = 0; i < count; ++i) report.devices.push_back(query_device_info(i));
  } catch (const DeviceError& e) {
    report.devices.clear();
    report.reason = e.what();
    return report;
  }
  report.available = true;
  return report;
}

void set_cuda_compile_notice(std::function<void(const std::string&)> notice) {
  std::lock_guard lock(notice_mutex);
  compile_notice = std::move(notice);
}

std::unique_ptr<Device> open_cuda_device(int index) {
  const BackendReport report = cuda_backend_report();
  if (!report.available) throw InvalidRequest("cuda:" + std::to_string(index) + ": " + report.reason);
  if (index < 0 || index >= static_cast<int>(report.devices.size()))
    throw InvalidRequest("cuda:" + std::to_string(index) + " does not exist: this machine has " +
                         std::to_string(report.devices.size()) +
                         " CUDA device(s), cuda:0 to cuda:" + std::to_string(report.devices.size() - 1));
  return std::make_unique<CudaDevice>(index);
}

}  // namespace threadmap

namespace threadmap {

CudaCompilerReport cuda_compiler_report() {
  const cuda::Nvrtc& nvrtc = cuda::Nvrtc::get();
  CudaCompilerReport report;
  report.available = nvrtc.available();
  report.cache_dir = cuda::cuda_cache_dir();
  if (!report.available) {
    report.reason = nvrtc.error();
    return report;
  }
  report.version = nvrtc.version();
  report.architectures = nvrtc.architectures();
  return report;
}

std::string cuda_target_for(const std::string& architecture) {
  const cuda::Nvrtc& nvrtc = cuda::Nvrtc::get();
  if (!nvrtc.available()) throw InvalidRequest(nvrtc.error());
  const int number = cuda::Nvrtc::architecture_number(architecture);
  if (number < 10)
    throw InvalidRequest("\"" + architecture + "\" is not a GPU architecture: write sm_86, " + "compute_86 or 86");
  if (architecture.starts_with("compute_")) {
    for (int known : nvrtc.architectures())
      if (known == number) return architecture;
  }
  try {
    return nvrtc.target_for(number / 10, number % 10);
  } catch (const std::runtime_error& e) {
    throw InvalidRequest(e.what());
  }
}

CudaCompileCheck compile_cuda_kernel(const LaunchCmd& launch, const std::string& target) {
  const cuda_kernels::KernelSpec& spec = kernel_spec(launch);
  require_kernel_name(spec, launch.program);
  const cuda::CompileRequest request = kernel_request(spec, launch, target);
  try {
    cuda::CompileResult r = cuda::Nvrtc::get().compile(request);
    if (const int pass = cuda_kernels::trace_pass(launch.program)) instrument(r, pass, cuda::Nvrtc::get());
    return {r.target, r.from_cache, r.compile_ms, r.log};
  } catch (const std::runtime_error& e) {
    throw DeviceError(e.what());
  }
}

}  // namespace threadmap
