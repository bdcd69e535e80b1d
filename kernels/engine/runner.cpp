#include "kernels/engine/runner.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <chrono>
#include <cmath>
#include <new>
#include <set>
#include <sstream>

#include "kernels/core/error.h"
#include "kernels/core/learner_source.h"

namespace threadmap {

namespace {

using Clock = std::chrono::steady_clock;

std::string shape_params(const Variant& v, const Params& p) {
  std::string s;
  for (const char* name : {"tile", "strips", "pad", "block_x", "block_y", "per_thread", "wg", "type"}) {
    const ParamSpec* spec = v.param(name);
    if (!spec) continue;
    s += (s.empty() ? "" : ", ") + std::string(name) + "=" + spec->format(p.get(name));
  }
  return s;
}

std::string mib(std::uint64_t bytes) {
  std::ostringstream os;
  os.precision(4);
  os << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  return os.str();
}

// The largest grid dimension, in blocks and threads, launched on a device
// that reports no limit of its own (CUDA's x limit).
constexpr std::uint64_t kMaxGridBlocks = (std::uint64_t{1} << 31) - 1;
constexpr std::uint64_t kMaxGridThreads = (std::uint64_t{1} << 32) - 1;

// "40.0 GiB", "512 MiB": a host's amount of memory.
std::string memory_text(std::uint64_t bytes) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  if (bytes >= (std::uint64_t{1} << 30)) {
    os.precision(1);
    os << static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30) << " GiB";
  } else {
    os.precision(0);
    os << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  }
  return os.str();
}

// The host memory free for a run (MemAvailable), in bytes; 0 where unknown.
std::uint64_t host_memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    std::uint64_t kib = 0;
    std::string unit;
    meminfo >> kib >> unit;
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

void check_launch(const Variant& v, const Params& p, const Workload& w, const LaunchCmd& l, const DeviceInfo& d) {
  const std::string on = " on " + d.name + " (" + d.spec + ")";
  const std::string with = shape_params(v, p);
  const std::size_t threads = l.group_size[0] * l.group_size[1] * l.group_size[2];
  std::ostringstream block;
  block << l.group_size[0] << " x " << l.group_size[1];
  if (threads > d.max_group_size)
    throw InvalidRequest(v.id + ": a block of " + block.str() + " = " + std::to_string(threads) + " threads (" + with +
                         ") exceeds the maximum of " + std::to_string(d.max_group_size) + " threads per block" + on);
  for (int dim = 0; dim < 3; ++dim) {
    if (d.max_group_dims[dim] && l.group_size[dim] > d.max_group_dims[dim])
      throw InvalidRequest(v.id + ": block dimension " + std::to_string(dim) + " of " +
                           std::to_string(l.group_size[dim]) + " threads (" + with + ") exceeds the maximum of " +
                           std::to_string(d.max_group_dims[dim]) + on);
    if (d.max_grid_groups[dim] && l.groups[dim] > d.max_grid_groups[dim])
      throw InvalidRequest(v.id + ": grid dimension " + std::to_string(dim) + " of " + std::to_string(l.groups[dim]) +
                           " blocks exceeds the maximum of " + std::to_string(d.max_grid_groups[dim]) + on);
    // A device that reports no grid limit (OpenCL) is held to the largest
    // any device ThreadMap runs on takes: past it PoCL's CPU device died of
    // SIGFPE (2^32 blocks), taking the worker with it.
    if (!d.max_grid_groups[dim] &&
        (l.groups[dim] > kMaxGridBlocks || l.groups[dim] * l.group_size[dim] > kMaxGridThreads))
      throw InvalidRequest(v.id + ": grid dimension " + std::to_string(dim) + " of " + std::to_string(l.groups[dim]) +
                           " blocks of " + std::to_string(l.group_size[dim]) + " threads exceeds the " +
                           std::to_string(kMaxGridBlocks) + " blocks and " + std::to_string(kMaxGridThreads) +
                           " threads a dimension ThreadMap launches" + on);
  }
  const std::uint64_t local = w.static_local_bytes + w.dynamic_local_bytes;
  if (d.local_memory_bytes && local > d.local_memory_bytes)
    throw InvalidRequest(v.id + ": " + std::to_string(local) + " bytes of shared memory per block (" + with +
                         ") exceed the limit of " + std::to_string(d.local_memory_bytes) + " bytes" + on);
}

}  // namespace

int repeats_for(double single_ms, double min_sample_ms) {
  if (single_ms <= 0) return kMaxRepeatsPerSample;
  const double wanted = std::ceil(min_sample_ms / single_ms);
  return static_cast<int>(std::clamp(wanted, 1.0, static_cast<double>(kMaxRepeatsPerSample)));
}

void validate_launch(const Variant& v, const Params& p, const Workload& w, const DeviceInfo& d) {
  if (v.availability == Availability::NeedsSubgroupShuffle && !d.has_subgroup_shuffle)
    throw Unavailable(v.id + " is unavailable on " + d.name + " (" + d.spec + "): it needs " + "sub-group shuffles" +
                      (d.subgroup_note.empty() ? std::string() : "; " + d.subgroup_note));
  if (!v.pack.empty()) {
    if (!pack_text(v, d.dialect))
      throw Unavailable(v.id + ": pack '" + v.pack + "' has no " + std::string(dialect_title(d.dialect)) +
                        " kernel file, which " + d.name + " (" + d.spec + ") needs");
  }
  if (!v.written_in(d.dialect)) {
    std::string written;
    for (Dialect w : v.dialects) written += (written.empty() ? "" : ", ") + std::string(dialect_title(w));
    throw Unavailable(v.id + " is written in " + written + "; " + d.name + " (" + d.spec + ") compiles " +
                      std::string(dialect_title(d.dialect)));
  }
  if (p.type() == ElementType::Double && !d.has_double)
    throw Unavailable(v.id + ": type=double is not supported by " + d.name + " (" + d.spec +
                      "): the device has no double precision");
  for (const LaunchCmd& l : w.launches) check_launch(v, p, w, l, d);
  for (const LaunchCmd& l : w.reference.launches) check_launch(v, p, w, l, d);
  std::uint64_t largest = 0;
  for (const HostBuffer& b : w.buffers) largest = std::max<std::uint64_t>(largest, b.bytes());
  if (d.global_memory_bytes && w.working_set_bytes > d.global_memory_bytes)
    throw InvalidRequest(v.id + ": the buffers need " + mib(w.working_set_bytes) + ", more than the " +
                         mib(d.global_memory_bytes) + " of device memory on " + d.name);
  if (d.max_allocation_bytes && largest > d.max_allocation_bytes)
    throw InvalidRequest(v.id + ": one buffer of " + mib(largest) + " exceeds the largest " +
                         "allocation the device allows, " + mib(d.max_allocation_bytes) + ", on " + d.name);
  // The host holds a copy of every buffer and the expected outputs beside
  // them; a CPU device's buffers come out of the same RAM.
  std::uint64_t outputs = 0;
  for (const HostBuffer& b : w.buffers)
    if (b.role == BufferRole::Output) outputs += b.bytes();
  const std::uint64_t host = w.working_set_bytes + outputs + (d.memory_is_host ? w.working_set_bytes : 0);
  if (const std::uint64_t available = host_memory_available(); available && host > available)
    throw InvalidRequest(v.id + ": the run needs about " + memory_text(host) + " of host memory (" +
                         memory_text(w.working_set_bytes) + " of buffers, their host copies" +
                         (d.memory_is_host ? " (the device's memory is the host's)" : "") +
                         " and the expected outputs), more than the " + memory_text(available) +
                         " this machine has available; choose a smaller size");
}

void check_source_dialect(const std::string& name, const DeviceInfo& device) {
  const std::optional<Dialect> dialect = dialect_of_file(name);
  if (!dialect)
    throw InvalidRequest(name + ": name the file " + dialect_extensions_text() + ", the dialect of the " +
                         "device it runs on");
  if (*dialect != device.dialect)
    throw InvalidRequest(name + " is " + std::string(dialect_title(*dialect)) + ", but " + device.spec + " (" +
                         device.name + ") compiles " + std::string(dialect_title(device.dialect)) + " (" +
                         std::string(dialect_extension(device.dialect)) + ")");
}

void use_source(Workload& work, const Variant& variant, const std::string& text, const std::string& name) {
  for (LaunchCmd& l : work.launches) {
    if (l.kernel != variant.kernel) continue;
    l.program.text = text;
    l.program.text_name = compiler_file_name(name);
  }
}

void use_pack_text(Workload& work, const Variant& variant, const DeviceInfo& device) {
  if (variant.pack.empty()) return;
  // A pack without a kernel file in the device's dialect leaves no text: the
  // backend then says the pack has none for it.
  const Variant::KernelText* text = pack_text(variant, device.dialect);
  for (auto* launches : {&work.launches, &work.reference.launches})
    for (LaunchCmd& l : *launches) {
      l.program.text = text ? text->text : std::string();
      l.program.text_name = text ? compiler_file_name(text->file) : std::string();
    }
}

std::vector<Build> builds_of(const std::vector<LaunchCmd>& launches) {
  std::vector<Build> builds;
  std::set<std::string> seen;
  for (int pass : {0, kAccessPass, kClockPass})
    for (LaunchCmd launch : launches) {
      if (pass) launch.program.defines.emplace_back(std::string(kTraceDefine), pass);
      std::string key = launch.program.source + "|" + launch.kernel + "|" +
                        std::to_string(static_cast<int>(launch.program.type)) + "|" + launch.program.text;
      for (const auto& [name, value] : launch.program.defines) key += "|" + name + "=" + std::to_string(value);
      if (seen.insert(key).second) builds.push_back({pass, std::move(launch)});
    }
  return builds;
}

namespace {

// A workload's buffers made on the host and allocated on the device (their
// contents written there when `upload`).
struct DeviceCopies {
  std::vector<std::unique_ptr<DeviceBuffer>> owned;
  std::vector<DeviceBuffer*> buffers;
};
DeviceCopies allocate_buffers(Device& device, Workload& w, bool upload) {
  DeviceCopies c;
  for (HostBuffer& b : w.buffers) {
    materialize(b);
    c.owned.push_back(device.allocate(b.data.size()));
    c.buffers.push_back(c.owned.back().get());
    if (upload) device.write(*c.owned.back(), b.data.data(), b.data.size());
  }
  return c;
}

}  // namespace

void run_reference(Device& device, const Variant& variant, const Params& params, std::uint64_t seed) {
  Workload w = variant.build(variant, params, seed);
  if (w.reference.launches.empty()) return;
  use_pack_text(w, variant, device.info());
  validate_launch(variant, params, w, device.info());
  for (const LaunchCmd& l : w.reference.launches) device.prepare(l);
  const DeviceCopies copies = allocate_buffers(device, w, true);
  const std::vector<DeviceBuffer*>& buffers = copies.buffers;
  device.execute(w.reference.launches, buffers);
  std::vector<HostBuffer> expected(w.buffers.size());
  for (std::size_t i = 0; i < w.buffers.size(); ++i) {
    if (w.buffers[i].role != BufferRole::Output) continue;
    expected[i] = std::move(w.buffers[i]);
    device.read(*buffers[i], expected[i].data.data(), expected[i].data.size());
  }
  *w.reference.outputs = std::move(expected);
}

std::optional<std::string> unwritten_output(Device& device, const Variant& variant, const Params& params,
                                            std::uint64_t seed) {
  Workload w = variant.build(variant, params, seed);
  use_pack_text(w, variant, device.info());
  validate_launch(variant, params, w, device.info());
  for (const LaunchCmd& l : w.launches) device.prepare(l);
  const DeviceCopies copies = allocate_buffers(device, w, false);
  const std::vector<DeviceBuffer*>& buffers = copies.buffers;
  const auto checked = [&](const HostBuffer& b) { return b.role == BufferRole::Output && !b.fill; };
  // Each checked output as the run left it, starting from `initial` (the
  // poison, then zeros); every other buffer as materialize made it.
  const auto run_from = [&](bool poisoned) {
    std::vector<std::vector<std::byte>> out(w.buffers.size());
    for (std::size_t i = 0; i < w.buffers.size(); ++i) {
      const HostBuffer& b = w.buffers[i];
      if (checked(b) && !poisoned) out[i].assign(b.data.size(), std::byte{0});
      device.write(*buffers[i], out[i].empty() ? b.data.data() : out[i].data(), b.data.size());
    }
    device.execute(w.launches, buffers);
    for (std::size_t i = 0; i < w.buffers.size(); ++i)
      if (checked(w.buffers[i])) {
        out[i].resize(w.buffers[i].data.size());
        device.read(*buffers[i], out[i].data(), out[i].size());
      }
    return out;
  };
  const auto first = run_from(true), second = run_from(false);
  for (std::size_t i = 0; i < w.buffers.size(); ++i) {
    const HostBuffer& b = w.buffers[i];
    if (!checked(b)) continue;
    const std::size_t size = element_size(b.type);
    for (std::size_t at = 0; at + size <= first[i].size(); at += size)
      if (std::memcmp(first[i].data() + at, second[i].data() + at, size) != 0)
        return "output '" + b.name + "' element " + std::to_string(at / size) + " of " +
               std::to_string(b.elements) + " keeps what the buffer held before the run: the kernel never writes it";
  }
  return std::nullopt;
}

RunResult run_variant(Device& device, const Variant& variant, const Params& params, const RunOptions& options) {
  RunResult r;
  r.kernel_id = variant.id;
  r.device = device.info();
  r.params = params;
  const Outcome outcome = run_capturing_errors(
      [&] {
        if (!options.source_text.empty()) check_source_dialect(options.source_name, device.info());
        Workload w = variant.build(variant, params, options.seed);
        use_pack_text(w, variant, device.info());
        if (!options.source_text.empty()) use_source(w, variant, options.source_text, options.source_name);
        validate_launch(variant, params, w, device.info());
        for (const LaunchCmd& l : w.reference.launches) device.prepare(l);
        for (const LaunchCmd& l : w.launches) device.prepare(l);
        r.ideal_bytes = w.ideal_bytes;
        r.working_set_bytes = w.working_set_bytes;
        r.launches = static_cast<int>(w.launches.size());
        r.note = w.note;
        r.cache_resident =
            device.info().last_level_cache_bytes && w.working_set_bytes <= device.info().last_level_cache_bytes;

        for (HostBuffer& b : w.buffers) materialize(b);
        // From the first upload to the last timed sample the device is this
        // process's alone among ThreadMap's; compiling (above) is not.
        TimingLock lock(device.info(), options.on_wait);
        std::vector<std::unique_ptr<DeviceBuffer>> owned;
        std::vector<DeviceBuffer*> buffers;
        for (HostBuffer& b : w.buffers) {
          owned.push_back(device.allocate(b.data.size()));
          buffers.push_back(owned.back().get());
          device.write(*owned.back(), b.data.data(), b.data.size());
        }
        auto read_outputs = [&] {
          for (std::size_t i = 0; i < w.buffers.size(); ++i)
            if (w.buffers[i].role == BufferRole::Output)
              device.read(*buffers[i], w.buffers[i].data.data(), w.buffers[i].data.size());
        };

        if (!w.reference.launches.empty()) {
          // The reference kernel on the same inputs; its outputs are kept, then
          // poisoned again (the host copies still hold the poison) for the run
          // that is verified.
          device.execute(w.reference.launches, buffers);
          std::vector<HostBuffer>& expected = *w.reference.outputs;
          expected.assign(w.buffers.size(), HostBuffer{});
          for (std::size_t i = 0; i < w.buffers.size(); ++i) {
            if (w.buffers[i].role != BufferRole::Output) continue;
            expected[i] = w.buffers[i];
            device.read(*buffers[i], expected[i].data.data(), expected[i].data.size());
            device.write(*buffers[i], w.buffers[i].data.data(), w.buffers[i].data.size());
          }
        }
        device.execute(w.launches, buffers);
        read_outputs();
        r.verification = w.verify(w.buffers);

        // The last warm-up run (at least one) sizes the timed samples.
        double single_ms = 0;
        for (int i = 0; i < std::max(options.warmup, 1); ++i) single_ms = device.execute(w.launches, buffers);
        r.repeats_per_sample = repeats_for(single_ms, options.min_sample_ms);
        std::vector<LaunchCmd> batch;
        for (int i = 0; i < r.repeats_per_sample; ++i) batch.insert(batch.end(), w.launches.begin(), w.launches.end());
        std::vector<double> samples;
        for (int i = 0; i < options.repetitions; ++i)
          samples.push_back(device.execute(batch, buffers) / r.repeats_per_sample);
        r.kernel_ms = summarize(std::move(samples));

        std::vector<double> end_to_end;
        for (int i = 0; i < options.end_to_end_repetitions; ++i) {
          const auto start = Clock::now();
          for (std::size_t b = 0; b < w.buffers.size(); ++b)
            if (w.buffers[b].role == BufferRole::Input)
              device.write(*buffers[b], w.buffers[b].data.data(), w.buffers[b].data.size());
          device.execute(w.launches, buffers);
          read_outputs();
          device.finish();
          end_to_end.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        }
        r.end_to_end_ms = summarize(std::move(end_to_end));
        r.exclusive = lock.release();
        r.bandwidth_gbps = gigabytes_per_second(static_cast<double>(r.ideal_bytes), r.kernel_ms.median);
        r.end_to_end_gbps = gigabytes_per_second(static_cast<double>(r.ideal_bytes), r.end_to_end_ms.median);
      },
      variant.id + ": preparing the inputs and references");
  r.status = outcome.status;
  r.error = outcome.error;
  return r;
}

Outcome run_capturing_errors(const std::function<void()>& body, const std::string& what_ran) {
  Outcome o;
  try {
    body();
  } catch (const InvalidRequest& e) {
    o = {RunStatus::Invalid, e.what()};
  } catch (const Unavailable& e) {
    o = {RunStatus::Unavailable, e.what()};
  } catch (const DeviceError& e) {
    o = {RunStatus::DeviceFailure, e.what()};
  } catch (const std::bad_alloc&) {
    o = {RunStatus::Invalid, what_ran + ": the host ran out of memory"};
  }
  return o;
}

CopyResult measure_device_copy(Device& device, std::uint64_t bytes, const RunOptions& options) {
  CopyResult c;
  try {
    TimingLock lock(device.info(), options.on_wait);
    auto src = device.allocate(bytes);
    auto dst = device.allocate(bytes);
    device.fill(*src, 0x5A, bytes);  // on the device: no host buffer of that size
    double single_ms = 0;
    for (int i = 0; i < std::max(options.warmup, 1); ++i) single_ms = device.copy_timed(*src, *dst, bytes, 1);
    c.repeats_per_sample = repeats_for(single_ms, options.min_sample_ms);
    std::vector<double> samples;
    for (int i = 0; i < options.repetitions; ++i)
      samples.push_back(device.copy_timed(*src, *dst, bytes, c.repeats_per_sample) / c.repeats_per_sample);
    c.ms = summarize(std::move(samples));
    c.exclusive = lock.release();
    c.bandwidth_gbps = gigabytes_per_second(2.0 * static_cast<double>(bytes), c.ms.median);
  } catch (const std::exception& e) {
    c.error = e.what();
  }
  return c;
}

}  // namespace threadmap
