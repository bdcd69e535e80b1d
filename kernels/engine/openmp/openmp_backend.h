#pragma once
// OpenMP target offload: a kernel file is a C function holding a target
// region, compiled by an OpenMP offload compiler into a shared object that the
// process opens, and run by that compiler's runtime (GCC: libgomp and its
// nvptx plugin) on the GPU it finds, else in the runtime's host fallback.
//
// The runtime decides the launch: ThreadMap hands it the function's buffers,
// already mapped on the device (omp_target_associate_ptr), so the region's map
// clauses find them there and copy nothing, and times the call with the
// driver's events on the stream the runtime launches on. Where the runtime has
// no device, the device is the host fallback, named so in every figure.
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/device.h"

namespace threadmap {

// The OpenMP offload compilers ThreadMap knows, by the key a device spec
// names: "openmp:gcc".
inline constexpr std::string_view kOpenmpGcc = "gcc";

// THREADMAP_OPENMP=off switches the backend off (it lists no device).
BackendReport openmp_backend_report();
// compiler: "gcc". Throws InvalidRequest naming what is missing.
std::unique_ptr<Device> open_openmp_device(const std::string& compiler);

// Why GCC cannot compile OpenMP kernels for the GPU here (not installed, no
// nvptx offload compiler); empty when it can. Compiled kernels in the cache
// still run without it.
std::string openmp_compiler_problem();

// The GPU image of a compiled OpenMP kernel as GCC's runtime is handed it
// (GOMP_offload_register_ver, which ThreadMap's programs export and pass on
// to libgomp): the PTX objects, in link order (the kernel file's own first,
// then libgomp's and newlib's device code), and the entries it launches
// ("matadd_rows$_omp_fn$0", one per target region).
struct OffloadImage {
  std::vector<std::string> ptx;
  std::vector<std::string> entries;
};

// The image of the object compiled for `launch` (its cached compile): a
// private copy of the object is opened and the image it registers read.
// Throws Unavailable where the compiler is missing and the object is not
// cached, DeviceError for an image of another layout than GCC 12's.
OffloadImage openmp_offload_image(const LaunchCmd& launch);

// Where compiled kernels are kept: $XDG_CACHE_HOME/threadmap/openmp, else
// ~/.cache/threadmap/openmp.
std::string openmp_cache_dir();

}  // namespace threadmap
