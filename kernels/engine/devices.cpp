#include "kernels/engine/devices.h"

#include <charconv>

#include "kernels/engine/cuda/cuda_backend.h"
#include "kernels/core/error.h"
#include "kernels/engine/opencl/opencl_backend.h"
#include "kernels/engine/openmp/openmp_backend.h"

namespace threadmap {

namespace {

bool parse_index(std::string_view text, int& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

[[noreturn]] void bad_spec(const std::string& spec) {
  throw InvalidRequest("unknown device '" + spec +
                       "': use auto, opencl:P:D (platform and device index), cuda:N or openmp:gcc; "
                       "`threadmap-cli devices` lists them");
}

}  // namespace

std::vector<BackendReport> list_backends() {
  return {cuda_backend_report(), opencl_backend_report(), openmp_backend_report()};
}

std::unique_ptr<Device> open_device(const std::string& spec) {
  if (spec == "auto") {
    const BackendReport cuda = cuda_backend_report();
    if (cuda.available) return open_cuda_device(0);
    const BackendReport opencl = opencl_backend_report();
    if (opencl.available) return open_opencl_device(0, 0);
    throw InvalidRequest("no device to run on: CUDA: " + cuda.reason + "; OpenCL: " + opencl.reason);
  }
  const std::string_view s = spec;
  if (s.starts_with("cuda:")) {
    int index = 0;
    if (!parse_index(s.substr(5), index)) bad_spec(spec);
    const BackendReport cuda = cuda_backend_report();
    if (!cuda.available) throw InvalidRequest(spec + ": " + cuda.reason);
    if (index >= static_cast<int>(cuda.devices.size()))
      throw InvalidRequest(spec + ": there is no CUDA device " + std::to_string(index) + " (" +
                           std::to_string(cuda.devices.size()) + " found)");
    return open_cuda_device(index);
  }
  if (s.starts_with("openmp:")) return open_openmp_device(spec.substr(7));
  if (s.starts_with("opencl:")) {
    const std::string_view rest = s.substr(7);
    const std::size_t colon = rest.find(':');
    int platform = 0, device = 0;
    if (colon == std::string_view::npos || !parse_index(rest.substr(0, colon), platform) ||
        !parse_index(rest.substr(colon + 1), device))
      bad_spec(spec);
    return open_opencl_device(platform, device);
  }
  bad_spec(spec);
}

}  // namespace threadmap
