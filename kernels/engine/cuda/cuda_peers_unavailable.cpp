#include "kernels/core/peers.h"

namespace threadmap {

// A build without CUDA has no peers to measure.
std::vector<PeerMeasurement> measure_cuda_peers(int, std::int64_t, std::int64_t, int, int) { return {}; }

}  // namespace threadmap
