#pragma once
// The workloads compiled into ThreadMap, one per built-in family: each makes
// a run's buffers, launches and CPU reference. The built-in lessons'
// manifest (kernels/lessons/catalog.toml) names them (`workload = "NAME"`).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/variant.h"

namespace threadmap::families {

Workload build_transpose(const Variant& v, const Params& p, std::uint64_t seed);
Workload build_matadd(const Variant& v, const Params& p, std::uint64_t seed);
Workload build_reduce(const Variant& v, const Params& p, std::uint64_t seed);
Workload build_smem(const Variant& v, const Params& p, std::uint64_t seed);

// The workload of that name ("transpose", "matadd", "reduce", "smem"); null
// when there is none.
WorkloadBuilder workload(std::string_view name);
std::vector<std::string> workload_names();

}  // namespace threadmap::families
