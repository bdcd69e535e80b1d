#pragma once
// What a user would pick instead of writing the kernel: vendor library calls
// measured on the same device in the same run, beside the catalog's variants.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/stats.h"

namespace threadmap {

struct PeerMeasurement {
  std::string name;        // "cublasSgeam transpose"
  std::string family;      // the catalog family it stands beside
  std::string parameters;  // "8192 x 8192 float"
  std::uint64_t ideal_bytes = 0;
  TimingStats ms;
  double bandwidth_gbps = 0;
  bool verified = false;
  std::string error;
};

// cuBLAS Sgeam (transpose of an edge x edge float matrix) and CUB
// DeviceReduce::Sum (sum_length floats), timed with CUDA events like the
// variants. Empty when the build has no CUDA backend.
std::vector<PeerMeasurement> measure_cuda_peers(int device_index, std::int64_t edge, std::int64_t sum_length,
                                                int warmup, int reps);

}  // namespace threadmap
