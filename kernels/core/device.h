#pragma once
// The narrow door to a compute device. Family code (families/) describes work
// as buffers and launches; a backend (OpenCL, CUDA) carries it out. Nothing
// above this interface knows which API runs the kernels.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "kernels/core/dialect.h"
#include "kernels/core/element_type.h"

namespace threadmap {

struct DeviceInfo {
  std::string backend;  // "opencl" or "cuda": the API that runs its kernels
  Dialect dialect = Dialect::OpenCL;  // the language its compiler takes
  // Its kernels read the SM clocks (globaltimer, clock64): a trace times its
  // blocks and barriers in a second, clock-instrumented run (CUDA), or in
  // its access run where another runtime launches the kernel (OpenMP); else
  // in order only.
  bool kernel_clocks = false;
  std::string spec;     // "opencl:0:0", "cuda:0": what --device takes
  std::string name;
  std::string vendor;
  std::string platform;  // OpenCL platform name, or "CUDA <runtime version>"
  std::string version;   // device/driver version text
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t max_allocation_bytes = 0;
  std::uint64_t local_memory_bytes = 0;      // shared/local memory per group
  std::uint64_t last_level_cache_bytes = 0;  // L2 on GPUs; what the device reports
  // The device's memory is the host's (a CPU device: PoCL): its buffers and
  // the host copies of them come out of the same RAM.
  bool memory_is_host = false;
  std::size_t max_group_size = 0;            // threads per block / work-items per group
  std::array<std::size_t, 3> max_group_dims{};
  std::array<std::uint64_t, 3> max_grid_groups{};  // blocks per grid dimension
  int compute_units = 0;
  int warp_width = 0;  // CUDA warp size; OpenCL: sub-group size when known, else 0
  bool has_double = false;
  bool has_subgroup_shuffle = false;
  std::string subgroup_note;  // why shuffles are unavailable, when they are
  double timer_resolution_ns = 0;
  // The device's UUID in hex where it reports one (CUDA; OpenCL with
  // cl_khr_device_uuid), else empty. Names its timing lock (timing_lock.h).
  std::string uuid;
};

// A backend's devices, or why it has none (engine/devices.h lists them).
struct BackendReport {
  std::string backend;  // "opencl", "cuda"
  bool available = false;
  std::string reason;  // why not, when not available
  std::vector<DeviceInfo> devices;
};

// The dialect of a device known only by its spec or backend ("cuda:0",
// "opencl"): each backend is named after the dialect it compiles. Where the
// device is listed, DeviceInfo::dialect says it.
inline Dialect named_dialect(std::string_view spec) {
  return dialect_from_key(spec.substr(0, spec.find(':'))).value_or(Dialect::OpenCL);
}

// 16 bytes of a device UUID as 32 lowercase hex digits (DeviceInfo::uuid).
std::string uuid_text(const unsigned char* bytes, std::size_t count);

// A compiled program is named by its source file and the compile-time values
// the kernel text needs (tile, pad, block sizes) plus the element type.
struct ProgramKey {
  std::string source;  // "transpose.cl" / "transpose" family
  ElementType type = ElementType::Int;
  std::vector<std::pair<std::string, std::int64_t>> defines;  // e.g. {"TILE",16},{"PAD",1}
  // A learner's version of the source (run --source): compiled instead of the
  // embedded file, with the same kernel names, parameters and compile-time
  // values. Empty: the embedded file. text_name names it in compiler messages.
  std::string text;
  std::string text_name;

  bool operator==(const ProgramKey&) const = default;
};

// The define that asks for a traced build of a kernel (instrumented by
// ThreadMap: OpenCL's hooks put in by libclang, CUDA's PTX rewritten; the
// kernel takes the trace buffer as its last argument). Its value is the
// pass: kAccessPass records every access of the traced blocks; kClockPass
// (CUDA) only the barrier stamps and the schedule, with clocks kept on the SM.
inline constexpr std::string_view kTraceDefine = "THREADMAP_TRACE";
inline constexpr int kAccessPass = 1;
inline constexpr int kClockPass = 2;

struct BufferArg {
  int buffer;
};  // index into Workload::buffers
struct LocalArrayArg {
  std::size_t bytes;
};  // dynamically sized shared/local memory
using KernelArg = std::variant<BufferArg, std::int32_t, LocalArrayArg>;

struct LaunchCmd {
  ProgramKey program;
  std::string kernel;                              // function name in the source
  std::array<std::size_t, 3> groups{1, 1, 1};      // blocks per grid dimension
  std::array<std::size_t, 3> group_size{1, 1, 1};  // threads per block dimension
  std::vector<KernelArg> args;
};

// Device memory owned by a backend; freed when the handle goes.
class DeviceBuffer {
 public:
  virtual ~DeviceBuffer() = default;
  virtual std::size_t bytes() const = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceInfo& info() const = 0;

  // Builds (and caches) the programs before any timing; throws DeviceError with
  // the build log on failure.
  virtual void prepare(const LaunchCmd& launch) = 0;
  virtual std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) = 0;
  virtual void write(DeviceBuffer& dst, const void* src, std::size_t bytes) = 0;
  virtual void read(const DeviceBuffer& src, void* dst, std::size_t bytes) = 0;
  // Sets the first `bytes` bytes to `value` on the device (no host copy).
  virtual void fill(DeviceBuffer& dst, std::uint8_t value, std::size_t bytes) = 0;
  // Copies device to device `repeat` times back to back (the practical
  // bandwidth limit); returns the device milliseconds of all of them.
  virtual double copy_timed(const DeviceBuffer& src, DeviceBuffer& dst, std::size_t bytes, int repeat) = 0;
  // Enqueues the launches in order and waits. Returns the device time in
  // milliseconds from the start of the first to the end of the last, measured
  // with the backend's events (cudaEvent / OpenCL profiling).
  virtual double execute(const std::vector<LaunchCmd>& launches, const std::vector<DeviceBuffer*>& buffers) = 0;
  // Waits for all work queued so far.
  virtual void finish() = 0;
  // The address a kernel sees for the start of the buffer (what a traced
  // kernel records for its global accesses).
  virtual std::uint64_t device_address(const DeviceBuffer& buffer) = 0;

  // For a traced launch already prepared: the accesses the compiler merged,
  // as the instrumenter found them (CUDA: ptx_instrument.h). A backend that
  // traces the source as written has none.
  struct MergedAccess {
    std::uint16_t line = 0;
    bool shared = false, global = false;  // the instruction's space (both: a generic address)
    bool store = false;
    int merged = 1;  // source-level accesses in each
  };
  virtual std::vector<MergedAccess> merged_accesses(const LaunchCmd&) { return {}; }

  // The grid and block a runtime chooses for the traced run of a launch it
  // shapes itself (OpenMP: libgomp runs a region as teams of warps it counts
  // from the kernel's registers, and the traced build's may fit fewer teams
  // than the timed one's); nullopt where the LaunchCmd's grid and block are
  // the launch.
  struct RuntimeLaunch {
    std::array<std::size_t, 3> groups{1, 1, 1};
    std::array<std::size_t, 3> group_size{1, 1, 1};
  };
  virtual std::optional<RuntimeLaunch> runtime_launch(const LaunchCmd&) { return std::nullopt; }

  // How many blocks of this launch one multiprocessor holds at once (the
  // occupancy the compiler's registers and the launch's shared memory
  // allow); 0 where the backend cannot say.
  virtual int resident_blocks(const LaunchCmd&) { return 0; }
};

}  // namespace threadmap
