// Parallel sum: the SYCL lesson "Usando memória local" (Portuguese), the CUDA
// twin of reduce.cl, and the classic improvements on its tree. Template
// parameters: ELEM (int, float or double), WG (threads per block, a power of
// two, the block size the kernel is launched with).
//
// Every tree kernel loads as the lesson does: thread g adds in[2g] and
// in[2g+1] into shared memory (zero when past the end), then reduces its
// block's WG values to one, written to out[blockIdx.x]. The host launches
// again on the partial sums until one value is left. The lesson's load reads
// in[2g+1] whenever 2g < len; the host pads every buffer to an even length
// with a zero so that read stays inside the buffer for odd lengths.
//
//   interleaved (the lesson)   idx = 2*stride*tid            step 1: lanes 0..31 use
//     +--+  +--+  +--+            words 0,2,4,...: 2-way bank conflicts, 4-way at
//     0  1  2  3  4  5  ...       stride 2, ...; half the lanes idle from step 1.
//   divergent                  if (tid % (2*stride) == 0)  same pairs as the lesson,
//                                 but the active threads are scattered: every
//                                 warp stays busy with one active lane in 2, 4, ...
//   sequential                 stride from WG/2 down, tid < stride: active lanes
//                                 are contiguous and read contiguous words, no
//                                 conflicts, whole warps retire.
//
// OpenCL -> CUDA: get_local_id(0) = threadIdx.x, get_global_id(0) =
// blockIdx.x * blockDim.x + threadIdx.x (computed in size_t as OpenCL does),
// get_group_id(0) = blockIdx.x, barrier = __syncthreads, __local = __shared__,
// sub_group_shuffle_down = __shfl_down_sync over the 32 lanes of a warp.
// NVRTC compiles this text with no standard headers: size_t, int4, float4
// and double2 are built in, and an address is read as unsigned long long.

template <typename ELEM, int WG>
__global__ void reduce_interleaved(const ELEM* global_mem, ELEM* out, int len) {
  __shared__ ELEM local_mem[WG];
  const size_t local_id = threadIdx.x;
  const size_t global_id = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  __syncthreads();
  for (size_t stride = 1; stride < WG; stride *= 2) {
    const size_t idx = 2 * stride * local_id;
    if (idx < WG) {
      local_mem[idx] = local_mem[idx] + local_mem[idx + stride];
    }
    __syncthreads();
  }
  if (local_id == 0) {
    out[blockIdx.x] = local_mem[0];
  }
}

template <typename ELEM, int WG>
__global__ void reduce_divergent(const ELEM* global_mem, ELEM* out, int len) {
  __shared__ ELEM local_mem[WG];
  const size_t local_id = threadIdx.x;
  const size_t global_id = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  __syncthreads();
  for (size_t stride = 1; stride < WG; stride *= 2) {
    if (local_id % (2 * stride) == 0) {
      local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
    }
    __syncthreads();
  }
  if (local_id == 0) {
    out[blockIdx.x] = local_mem[0];
  }
}

template <typename ELEM, int WG>
__global__ void reduce_sequential(const ELEM* global_mem, ELEM* out, int len) {
  __shared__ ELEM local_mem[WG];
  const size_t local_id = threadIdx.x;
  const size_t global_id = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  __syncthreads();
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    if (local_id < stride) {
      local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
    }
    __syncthreads();
  }
  if (local_id == 0) {
    out[blockIdx.x] = local_mem[0];
  }
}

// The fast one: a fixed grid (`blocks` blocks) where each thread first sums a
// grid-stride run of the input, then the block reduces in shared memory down
// to one warp, and the last steps are warp shuffles with no shared memory and
// no barrier. A second launch with one block sums the partials.
//
// The grid-stride run is where the time goes, so it is written to keep the
// memory system full: 16-byte loads (one instruction moves four floats or
// ints or two doubles) and kLoadsInFlight independent loads issued before any
// of them is added, each into its own accumulator, so a thread has that many
// requests outstanding instead of waiting for each load in turn.
constexpr int kWarpSize = 32;
constexpr int kLoadsInFlight = 4;

template <typename ELEM>
struct Vector16;
template <>
struct Vector16<int> {
  using type = int4;
  __device__ static int sum(int4 v) { return (v.x + v.y) + (v.z + v.w); }
};
template <>
struct Vector16<float> {
  using type = float4;
  __device__ static float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
};
template <>
struct Vector16<double> {
  using type = double2;
  __device__ static double sum(double2 v) { return v.x + v.y; }
};

template <typename ELEM>
__device__ ELEM sum_grid_stride_run(const ELEM* __restrict__ in, int len) {
  using Vector = Vector16<ELEM>;
  using V = typename Vector::type;
  constexpr size_t lanes = sizeof(V) / sizeof(ELEM);
  const size_t thread = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
  ELEM sum[kLoadsInFlight] = {};
  size_t scalar_from = 0;
  // cudaMalloc'd buffers are 256-byte aligned; a pointer that is not (an
  // offset view) still gets the right sum, one element at a time.
  if (reinterpret_cast<unsigned long long>(in) % sizeof(V) == 0) {
    const V* vectors = reinterpret_cast<const V*>(in);
    const size_t vector_count = static_cast<size_t>(len) / lanes;
    size_t v = thread;
    for (; v + (kLoadsInFlight - 1) * threads < vector_count; v += kLoadsInFlight * threads) {
      V loaded[kLoadsInFlight];
#pragma unroll
      for (int k = 0; k < kLoadsInFlight; ++k) loaded[k] = vectors[v + k * threads];
#pragma unroll
      for (int k = 0; k < kLoadsInFlight; ++k) sum[k] += Vector::sum(loaded[k]);
    }
    for (; v < vector_count; v += threads) sum[0] += Vector::sum(vectors[v]);
    scalar_from = vector_count * lanes;
  }
  for (size_t i = scalar_from + thread; i < static_cast<size_t>(len); i += threads) {
    sum[0] += in[i];
  }
  ELEM total = 0;
#pragma unroll
  for (int k = 0; k < kLoadsInFlight; ++k) total += sum[k];
  return total;
}

template <typename ELEM, int WG>
__global__ void reduce_warp_shuffle(const ELEM* __restrict__ in, ELEM* out, int len) {
  static_assert(WG >= kWarpSize && (WG & (WG - 1)) == 0, "WG: a power of two, at least a warp");
  __shared__ ELEM local_mem[WG];
  const unsigned int local_id = threadIdx.x;
  ELEM sum = sum_grid_stride_run(in, len);
  local_mem[local_id] = sum;
  __syncthreads();
  for (int stride = WG / 2; stride >= kWarpSize; stride /= 2) {
    if (local_id < stride) {
      local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
    }
    __syncthreads();
  }
  if (local_id < kWarpSize) {
    sum = local_mem[local_id];
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if (local_id == 0) {
      out[blockIdx.x] = sum;
    }
  }
}
