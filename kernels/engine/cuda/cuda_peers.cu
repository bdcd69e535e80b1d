// The peers: cuBLAS Sgeam for the transpose and CUB DeviceReduce::Sum for the
// reduction. Same inputs kind, same timing method (events around each call,
// warm-up, median of repetitions), verified before timing.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cub/device/device_reduce.cuh>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/core/peers.h"
#include "kernels/engine/runner.h"

namespace threadmap {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + " (" +
                             cudaGetErrorString(e) + ")");
}

// cuBLAS is loaded at run time: threadmap-cli starts, and every other number is
// measured, on machines whose CUDA install lacks it; the peer then says why.
struct Cublas {
  using Create = cublasStatus_t (*)(cublasHandle_t*);
  using Destroy = cublasStatus_t (*)(cublasHandle_t);
  using Sgeam = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                   const float*, const float*, int, const float*, const float*,
                                   int, float*, int);
  Create create = nullptr;
  Destroy destroy = nullptr;
  Sgeam sgeam = nullptr;
  std::string load_error;

  static const Cublas& get() {
    static const Cublas lib = [] {
      Cublas c;
      void* handle = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
      if (!handle) handle = dlopen("libcublas.so", RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char* why = dlerror();
        c.load_error = why ? why : "not found";
        return c;
      }
      c.create = reinterpret_cast<Create>(dlsym(handle, "cublasCreate_v2"));
      c.destroy = reinterpret_cast<Destroy>(dlsym(handle, "cublasDestroy_v2"));
      c.sgeam = reinterpret_cast<Sgeam>(dlsym(handle, "cublasSgeam"));
      return c;
    }();
    return lib;
  }
  bool loaded() const { return create && destroy && sgeam; }
};

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}

struct DeviceArray {
  float* ptr = nullptr;
  explicit DeviceArray(std::size_t n) { check(cudaMalloc(&ptr, n * sizeof(float)), "cudaMalloc"); }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// The variants' method: warm-up, then samples of R calls back to back between
// two events (R from repeats_for), each divided by R; median of the samples.
template <class F>
TimingStats time_events(F&& call, int warmup, int reps) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  auto timed = [&](int repeat) {
    check(cudaEventRecord(start), "cudaEventRecord");
    for (int i = 0; i < repeat; ++i) call();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return static_cast<double>(ms);
  };
  double single = timed(1);
  for (int i = 0; i < warmup; ++i) single = timed(1);
  const int repeat = repeats_for(single);
  std::vector<double> samples;
  for (int i = 0; i < reps; ++i) samples.push_back(timed(repeat) / repeat);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  check(cudaGetLastError(), "peer launch");
  return summarize(std::move(samples));
}

PeerMeasurement sgeam(std::int64_t edge, int warmup, int reps) {
  PeerMeasurement m;
  m.name = "cublasSgeam transpose";
  m.family = "transpose";
  m.parameters = std::to_string(edge) + " x " + std::to_string(edge) + " float";
  const std::size_t n = static_cast<std::size_t>(edge * edge);
  m.ideal_bytes = 2 * n * sizeof(float);
  try {
    const Cublas& cublas = Cublas::get();
    if (!cublas.loaded())
      throw std::runtime_error("libcublas.so.13 could not be loaded: " + cublas.load_error);
    const std::vector<float> host = random_floats(n, 1);
    DeviceArray a(n), c(n);
    check(cudaMemcpy(a.ptr, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    cublasHandle_t handle;
    check(cublas.create(&handle), "cublasCreate");
    const float one = 1.0f, zero = 0.0f;
    const int e = static_cast<int>(edge);
    auto call = [&] {
      check(cublas.sgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, e, e, &one, a.ptr, e, &zero, c.ptr, e,
                        c.ptr, e),
            "cublasSgeam");
    };
    call();
    std::vector<float> out(n);
    check(cudaMemcpy(out.data(), c.ptr, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    m.verified = true;
    for (std::size_t r = 0; r < static_cast<std::size_t>(edge) && m.verified; ++r)
      for (std::size_t col = 0; col < static_cast<std::size_t>(edge); ++col)
        if (out[col * edge + r] != host[r * edge + col]) {
          m.verified = false;
          break;
        }
    m.ms = time_events(call, warmup, reps);
    cublas.destroy(handle);
    m.bandwidth_gbps = gigabytes_per_second(static_cast<double>(m.ideal_bytes), m.ms.median);
  } catch (const std::exception& e) {
    m.error = e.what();
  }
  return m;
}

PeerMeasurement device_reduce(std::int64_t length, int warmup, int reps) {
  PeerMeasurement m;
  m.name = "cub::DeviceReduce::Sum";
  m.family = "reduction";
  m.parameters = std::to_string(length) + " float";
  const std::size_t n = static_cast<std::size_t>(length);
  m.ideal_bytes = (n + 1) * sizeof(float);
  try {
    const std::vector<float> host = random_floats(n, 2);
    DeviceArray in(n), out(1);
    check(cudaMemcpy(in.ptr, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    std::size_t temp_bytes = 0;
    check(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.ptr, out.ptr, static_cast<int>(n)),
          "cub::DeviceReduce::Sum (size query)");
    void* temp = nullptr;
    check(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1), "cudaMalloc");
    auto call = [&] {
      check(cub::DeviceReduce::Sum(temp, temp_bytes, in.ptr, out.ptr, static_cast<int>(n)),
            "cub::DeviceReduce::Sum");
    };
    call();
    float result = 0;
    check(cudaMemcpy(&result, out.ptr, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    long double exact = 0, magnitude = 0;
    for (float x : host) {
      exact += x;
      magnitude += std::fabs(x);
    }
    m.verified = std::fabs(static_cast<long double>(result) - exact) <= 1e-5L * magnitude;
    m.ms = time_events(call, warmup, reps);
    cudaFree(temp);
    m.bandwidth_gbps = gigabytes_per_second(static_cast<double>(m.ideal_bytes), m.ms.median);
  } catch (const std::exception& e) {
    m.error = e.what();
  }
  return m;
}

}  // namespace

std::vector<PeerMeasurement> measure_cuda_peers(int device_index, std::int64_t edge,
                                                std::int64_t sum_length, int warmup, int reps) {
  if (cudaSetDevice(device_index) != cudaSuccess) return {};
  return {sgeam(edge, warmup, reps), device_reduce(sum_length, warmup, reps)};
}

}  // namespace threadmap
