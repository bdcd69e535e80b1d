# The CUDA backend's files, relative to kernels/. The four kernel sources are
# also embedded as text (kernels/CMakeLists.txt), so learners can read them.
set(THREADMAP_CUDA_SOURCES
  cuda/cuda_device.cu
  cuda/cuda_kernels.cpp
  cuda/transpose.cu
  cuda/matadd.cu
  cuda/reduce.cu
  cuda/smem.cu
  cuda/diagnostic.cu
  cuda/cuda_peers.cu
)
set(THREADMAP_CUDA_FALLBACK_SOURCES
  cuda/cuda_unavailable.cpp
  cuda/cuda_peers_unavailable.cpp
)
# -lineinfo: Nsight Compute can then show each kernel's source lines next to
# its memory and bank-conflict counters, which is what the lessons are about.
set(THREADMAP_CUDA_FLAGS -lineinfo)
