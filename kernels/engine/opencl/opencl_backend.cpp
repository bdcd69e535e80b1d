// OpenCL through the ICD loader: every platform and device it lists. Kernels
// come from the embedded .cl sources, built once per set of compile options.
#define CL_TARGET_OPENCL_VERSION 120
#include "kernels/engine/opencl/opencl_backend.h"

#include <CL/cl.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kernels/core/error.h"
#include "kernels/core/learner_source.h"
#include "kernels/engine/opencl/cl_instrument.h"
#include "kernels/core/sources.h"

namespace threadmap {

namespace {

const char* error_name(cl_int code) {
  switch (code) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "OpenCL error";
  }
}

void check(cl_int code, const std::string& what) {
  if (code != CL_SUCCESS) throw DeviceError(what + " failed: " + error_name(code) + " (" + std::to_string(code) + ")");
}

std::string device_string(cl_device_id d, cl_device_info param) {
  std::size_t size = 0;
  if (clGetDeviceInfo(d, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  clGetDeviceInfo(d, param, size, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

// A build log as a learner reads it: the compiler's lines, blank ones and
// trailing NULs dropped, at most 40 lines.
std::string compiler_errors(const std::string& log) {
  std::string out, line;
  int lines = 0;
  for (char c : log + "\n") {
    if (c == '\0') continue;
    if (c != '\n') {
      line += c;
      continue;
    }
    if (line.find_first_not_of(" \t\r") != std::string::npos && lines++ < 40) out += line + "\n";
    line.clear();
  }
  if (lines > 40) out += "(" + std::to_string(lines - 40) + " more lines)\n";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string platform_string(cl_platform_id p, cl_platform_info param) {
  std::size_t size = 0;
  if (clGetPlatformInfo(p, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  clGetPlatformInfo(p, param, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info param) {
  T value{};
  clGetDeviceInfo(d, param, sizeof(T), &value, nullptr);
  return value;
}

bool has_extension(const std::string& extensions, const char* name) {
  const std::size_t n = std::strlen(name);
  for (std::size_t pos = extensions.find(name); pos != std::string::npos; pos = extensions.find(name, pos + 1)) {
    const bool starts = pos == 0 || extensions[pos - 1] == ' ';
    const bool ends = pos + n == extensions.size() || extensions[pos + n] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

std::vector<cl_platform_id> platforms() {
  cl_uint count = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err == -1001 || count == 0) return {};
  check(err, "clGetPlatformIDs");
  std::vector<cl_platform_id> ids(count);
  check(clGetPlatformIDs(count, ids.data(), nullptr), "clGetPlatformIDs");
  return ids;
}

std::vector<cl_device_id> devices_of(cl_platform_id p) {
  cl_uint count = 0;
  cl_int err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (err == CL_DEVICE_NOT_FOUND || count == 0) return {};
  check(err, "clGetDeviceIDs");
  std::vector<cl_device_id> ids(count);
  check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr), "clGetDeviceIDs");
  return ids;
}

constexpr cl_device_info kWarpSizeNv = 0x4003;  // CL_DEVICE_WARP_SIZE_NV

DeviceInfo describe(cl_platform_id p, cl_device_id d, int pi, int di) {
  DeviceInfo info;
  info.backend = "opencl";
  info.dialect = Dialect::OpenCL;
  info.spec = "opencl:" + std::to_string(pi) + ":" + std::to_string(di);
  info.name = device_string(d, CL_DEVICE_NAME);
  info.vendor = device_string(d, CL_DEVICE_VENDOR);
  info.platform = platform_string(p, CL_PLATFORM_NAME);
  info.version = device_string(d, CL_DEVICE_VERSION) + ", driver " + device_string(d, CL_DRIVER_VERSION);
  info.global_memory_bytes = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.max_allocation_bytes = device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.memory_is_host = (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  info.local_memory_bytes = device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
  info.last_level_cache_bytes = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  info.max_group_size = device_value<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  std::size_t dims[3] = {0, 0, 0};
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(dims), dims, nullptr);
  info.max_group_dims = {dims[0], dims[1], dims[2]};
  info.compute_units = static_cast<int>(device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS));
  info.timer_resolution_ns = static_cast<double>(device_value<std::size_t>(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION));
  const std::string extensions = device_string(d, CL_DEVICE_EXTENSIONS);
  if (has_extension(extensions, "cl_khr_device_uuid")) {
    unsigned char uuid[16] = {};
    if (clGetDeviceInfo(d, 0x106A /* CL_DEVICE_UUID_KHR */, sizeof uuid, uuid, nullptr) == CL_SUCCESS)
      info.uuid = uuid_text(uuid, sizeof uuid);
  }
  info.has_double = has_extension(extensions, "cl_khr_fp64") ||
                    device_value<cl_ulong>(d, 0x1032 /* CL_DEVICE_DOUBLE_FP_CONFIG */) != 0;
  if (has_extension(extensions, "cl_nv_device_attribute_query"))
    info.warp_width = static_cast<int>(device_value<cl_uint>(d, kWarpSizeNv));
  info.has_subgroup_shuffle =
      has_extension(extensions, "cl_khr_subgroups") && has_extension(extensions, "cl_khr_subgroup_shuffle_relative");
  if (!info.has_subgroup_shuffle)
    info.subgroup_note =
        "the device does not list cl_khr_subgroups and "
        "cl_khr_subgroup_shuffle_relative among its OpenCL extensions";
  return info;
}

class OpenclBuffer final : public DeviceBuffer {
 public:
  OpenclBuffer(cl_mem mem, std::size_t bytes) : mem_(mem), bytes_(bytes) {}
  ~OpenclBuffer() override { clReleaseMemObject(mem_); }
  std::size_t bytes() const override { return bytes_; }
  cl_mem mem() const { return mem_; }

 private:
  cl_mem mem_;
  std::size_t bytes_;
};

class OpenclDevice final : public Device {
 public:
  OpenclDevice(cl_platform_id p, cl_device_id d, int pi, int di) : device_(d), info_(describe(p, d, pi, di)) {
    cl_int err = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    check(err, "clCreateContext(" + info_.name + ")");
    queue_ = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) clReleaseContext(context_);
    check(err, "clCreateCommandQueue(" + info_.name + ")");
  }

  ~OpenclDevice() override {
    if (address_kernel_) clReleaseKernel(address_kernel_);
    if (address_program_) clReleaseProgram(address_program_);
    for (auto& [key, kernel] : kernels_) clReleaseKernel(kernel);
    for (auto& [key, program] : programs_) clReleaseProgram(program);
    clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
  }

  const DeviceInfo& info() const override { return info_; }

  void prepare(const LaunchCmd& launch) override { kernel_for(launch); }

  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &err);
    check(err, "clCreateBuffer(" + std::to_string(bytes) + " bytes)");
    return std::make_unique<OpenclBuffer>(mem, bytes);
  }

  void write(DeviceBuffer& dst, const void* src, std::size_t bytes) override {
    check(clEnqueueWriteBuffer(queue_, as_cl(dst), CL_TRUE, 0, bytes, src, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
  }

  void fill(DeviceBuffer& dst, std::uint8_t value, std::size_t bytes) override {
    const cl_uchar pattern = value;
    check(clEnqueueFillBuffer(queue_, as_cl(dst), &pattern, 1, 0, bytes, 0, nullptr, nullptr), "clEnqueueFillBuffer");
    check(clFinish(queue_), "clFinish");
  }

  void read(const DeviceBuffer& src, void* dst, std::size_t bytes) override {
    check(clEnqueueReadBuffer(queue_, as_cl(src), CL_TRUE, 0, bytes, dst, 0, nullptr, nullptr), "clEnqueueReadBuffer");
  }

  double copy_timed(const DeviceBuffer& src, DeviceBuffer& dst, std::size_t bytes, int repeat) override {
    std::vector<cl_event> events(static_cast<std::size_t>(repeat), nullptr);
    for (cl_event& e : events)
      check(clEnqueueCopyBuffer(queue_, as_cl(src), as_cl(dst), 0, 0, bytes, 0, nullptr, &e), "clEnqueueCopyBuffer");
    check(clWaitForEvents(static_cast<cl_uint>(events.size()), events.data()), "clWaitForEvents(copy)");
    const double ms = elapsed_ms(events.front(), events.back());
    for (cl_event e : events) clReleaseEvent(e);
    return ms;
  }

  double execute(const std::vector<LaunchCmd>& launches, const std::vector<DeviceBuffer*>& buffers) override {
    std::vector<cl_event> events;
    try {
      for (const LaunchCmd& l : launches) events.push_back(enqueue(l, buffers));
      check(clWaitForEvents(static_cast<cl_uint>(events.size()), events.data()),
            "clWaitForEvents(" + launches.back().kernel + ")");
      for (cl_event e : events) {
        cl_int status = CL_COMPLETE;
        clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
        check(status < 0 ? status : CL_SUCCESS, "kernel execution");
      }
      const double ms = events.empty() ? 0.0 : elapsed_ms(events.front(), events.back());
      for (cl_event e : events) clReleaseEvent(e);
      return ms;
    } catch (...) {
      clFinish(queue_);
      for (cl_event e : events) clReleaseEvent(e);
      throw;
    }
  }

  void finish() override { check(clFinish(queue_), "clFinish"); }

  // OpenCL gives the host no address for a buffer; a one-line kernel reports
  // the one the device uses.
  std::uint64_t device_address(const DeviceBuffer& buffer) override {
    static constexpr const char* kSource =
        "__kernel void threadmap_address(__global const uchar* p, __global ulong* out) {"
        " out[0] = (ulong)p; }";
    if (!address_kernel_) {
      cl_int err = CL_SUCCESS;
      const char* ptr = kSource;
      address_program_ = clCreateProgramWithSource(context_, 1, &ptr, nullptr, &err);
      check(err, "clCreateProgramWithSource(threadmap_address)");
      check(clBuildProgram(address_program_, 1, &device_, "", nullptr, nullptr), "clBuildProgram(threadmap_address)");
      address_kernel_ = clCreateKernel(address_program_, "threadmap_address", &err);
      check(err, "clCreateKernel(threadmap_address)");
    }
    auto out = allocate(sizeof(cl_ulong));
    cl_mem in_mem = as_cl(buffer);
    cl_mem out_mem = as_cl(*out);
    check(clSetKernelArg(address_kernel_, 0, sizeof(cl_mem), &in_mem), "clSetKernelArg");
    check(clSetKernelArg(address_kernel_, 1, sizeof(cl_mem), &out_mem), "clSetKernelArg");
    const std::size_t one = 1;
    check(clEnqueueNDRangeKernel(queue_, address_kernel_, 1, nullptr, &one, &one, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel(threadmap_address)");
    cl_ulong address = 0;
    read(*out, &address, sizeof(address));
    return address;
  }

 private:
  static cl_mem as_cl(const DeviceBuffer& b) { return static_cast<const OpenclBuffer&>(b).mem(); }

  static double elapsed_ms(cl_event first, cl_event last) {
    cl_ulong start = 0, end = 0;
    check(clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr),
          "clGetEventProfilingInfo(start)");
    check(clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr),
          "clGetEventProfilingInfo(end)");
    return static_cast<double>(end - start) * 1e-6;
  }

  std::string build_options(const ProgramKey& key) const {
    std::string options;
    for (const auto& [name, value] : opencl_defines(key, info_.has_subgroup_shuffle))
      options += (options.empty() ? "-D " : " -D ") + name + "=" + value;
    if (info_.has_subgroup_shuffle) options += " -cl-std=CL2.0";
    return options;
  }

  // A build for the access pass: kTraceDefine among its defines (OpenCL has
  // no clock pass).
  static bool traced(const ProgramKey& key) {
    return std::any_of(key.defines.begin(), key.defines.end(),
                       [](const auto& d) { return d.first == kTraceDefine && d.second == kAccessPass; });
  }

  // The embedded sources are told apart by name; a learner's by its text.
  static std::string program_cache_key(const ProgramKey& key, const std::string& options) {
    return key.source + "|" + options + (key.text.empty() ? "" : "|learner|" + key.text);
  }

  cl_program program_for(const ProgramKey& key) {
    const std::string options = build_options(key);
    const std::string cache_key = program_cache_key(key, options);
    if (auto it = programs_.find(cache_key); it != programs_.end()) return it->second;

    const bool learner = !key.text.empty();
    if (!learner && key.source.starts_with("pack:"))
      throw InvalidRequest(key.source + " has no OpenCL kernel file: its manifest names only a CUDA one");
    const std::string file = learner ? key.text_name : dialect_file(key.source, Dialect::OpenCL);
    std::string_view text = learner ? std::string_view(key.text) : embedded_source(file);
    if (text.empty()) throw DeviceError("no embedded OpenCL source named " + file);
    // The access pass's build: the kernel's text (the catalog's or the
    // learner's) with the trace hooks of opencl/trace.clh put in by libclang on
    // the lines they belong to (cl_instrument.h), as the CUDA device
    // instruments its PTX for a trace pass.
    std::string instrumented;
    if (traced(key)) {
      instrumented =
          instrument_opencl(text, file, opencl_trace_prelude(), opencl_defines(key, info_.has_subgroup_shuffle));
      text = instrumented;
    }
    // The prelude (trace layout and hooks) comes first; #line keeps __LINE__,
    // which names a traced access's source line, counting in the .cl file,
    // and makes the compiler name that file in its messages.
    const std::string source =
        std::string(embedded_source("trace_format.h")) + "\n" + std::string(embedded_source("common.clh")) + "\n" +
        std::string(embedded_source("trace.clh")) + "\n#line 1 \"" + file + "\"\n" + std::string(text);
    const char* ptr = source.c_str();
    const std::size_t length = source.size();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &ptr, &length, &err);
    check(err, "clCreateProgramWithSource(" + file + ")");
    err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
      std::size_t size = 0;
      clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      clReleaseProgram(program);
      if (learner)
        throw CompileError(file + " does not compile for " + info_.spec + " (" + info_.name + "):\n" +
                           compiler_errors(log));
      throw DeviceError("building " + file + " with \"" + options + "\" failed: " + error_name(err) + "\n" + log);
    }
    programs_.emplace(cache_key, program);
    return program;
  }

  cl_kernel kernel_for(const LaunchCmd& launch) {
    cl_program program = program_for(launch.program);
    const std::string key = program_cache_key(launch.program, build_options(launch.program)) + "|" + launch.kernel;
    if (auto it = kernels_.find(key); it != kernels_.end()) return it->second;
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, launch.kernel.c_str(), &err);
    if (err == CL_INVALID_KERNEL_NAME && !launch.program.text.empty())
      throw missing_kernel(launch.program.text_name, dialect_file(launch.program.source, Dialect::OpenCL), launch.kernel);
    check(err, "clCreateKernel(" + launch.kernel + ")");
    // A learner's kernel may declare more __local memory than the device has;
    // some drivers would run it anyway. Refuse it with both numbers.
    cl_ulong declared = 0;
    if (!launch.program.text.empty() &&
        clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof declared, &declared, nullptr) ==
            CL_SUCCESS &&
        declared > info_.local_memory_bytes) {
      clReleaseKernel(kernel);
      throw InvalidRequest(launch.program.text_name + ": " + launch.kernel + " declares " + std::to_string(declared) +
                           " bytes of __local memory; " + info_.spec + " (" + info_.name + ") allows " +
                           std::to_string(info_.local_memory_bytes) + " per work-group");
    }
    kernels_.emplace(key, kernel);
    return kernel;
  }

  cl_event enqueue(const LaunchCmd& l, const std::vector<DeviceBuffer*>& buffers) {
    cl_kernel kernel = kernel_for(l);
    for (std::size_t i = 0; i < l.args.size(); ++i) {
      const cl_uint index = static_cast<cl_uint>(i);
      cl_int err = CL_SUCCESS;
      if (const auto* b = std::get_if<BufferArg>(&l.args[i])) {
        cl_mem mem = as_cl(*buffers.at(static_cast<std::size_t>(b->buffer)));
        err = clSetKernelArg(kernel, index, sizeof(cl_mem), &mem);
      } else if (const auto* v = std::get_if<std::int32_t>(&l.args[i])) {
        const cl_int value = *v;
        err = clSetKernelArg(kernel, index, sizeof(cl_int), &value);
      } else {
        err = clSetKernelArg(kernel, index, std::get<LocalArrayArg>(l.args[i]).bytes, nullptr);
      }
      check(err, "clSetKernelArg(" + l.kernel + ", " + std::to_string(i) + ")");
    }
    const std::size_t global[3] = {l.groups[0] * l.group_size[0], l.groups[1] * l.group_size[1],
                                   l.groups[2] * l.group_size[2]};
    const std::size_t local[3] = {l.group_size[0], l.group_size[1], l.group_size[2]};
    cl_event event = nullptr;
    check(clEnqueueNDRangeKernel(queue_, kernel, 3, nullptr, global, local, 0, nullptr, &event),
          "clEnqueueNDRangeKernel(" + l.kernel + ")");
    return event;
  }

  cl_device_id device_;
  DeviceInfo info_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::map<std::string, cl_program> programs_;
  std::map<std::string, cl_kernel> kernels_;
  cl_program address_program_ = nullptr;
  cl_kernel address_kernel_ = nullptr;
};

}  // namespace

BackendReport opencl_backend_report() {
  BackendReport report;
  report.backend = "opencl";
  try {
    const auto ps = platforms();
    for (std::size_t pi = 0; pi < ps.size(); ++pi) {
      const auto ds = devices_of(ps[pi]);
      for (std::size_t di = 0; di < ds.size(); ++di)
        report.devices.push_back(describe(ps[pi], ds[di], static_cast<int>(pi), static_cast<int>(di)));
    }
  } catch (const DeviceError& e) {
    report.reason = e.what();
  }
  report.available = !report.devices.empty();
  if (!report.available && report.reason.empty())
    report.reason =
        "the OpenCL ICD loader found no platform with a device (no driver is "
        "registered in /etc/OpenCL/vendors)";
  return report;
}

std::unique_ptr<Device> open_opencl_device(int platform, int device) {
  const auto ps = platforms();
  if (platform < 0 || platform >= static_cast<int>(ps.size()))
    throw InvalidRequest("opencl:" + std::to_string(platform) + ":" + std::to_string(device) +
                         ": there is no OpenCL platform " + std::to_string(platform) + " (" +
                         std::to_string(ps.size()) + " found)");
  const auto ds = devices_of(ps[static_cast<std::size_t>(platform)]);
  if (device < 0 || device >= static_cast<int>(ds.size()))
    throw InvalidRequest("opencl:" + std::to_string(platform) + ":" + std::to_string(device) + ": platform " +
                         std::to_string(platform) + " has no device " + std::to_string(device) + " (" +
                         std::to_string(ds.size()) + " found)");
  return std::make_unique<OpenclDevice>(ps[static_cast<std::size_t>(platform)], ds[static_cast<std::size_t>(device)],
                                        platform, device);
}

}  // namespace threadmap
