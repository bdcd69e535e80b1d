#pragma once
// One workload builder per kernel family; the catalog points each variant at one.
#include <cstdint>

#include "kernels/catalog.h"

namespace threadmap::families {

Workload build_transpose(const Variant& v, const Params& p, std::uint64_t seed);
Workload build_matadd(const Variant& v, const Params& p, std::uint64_t seed);
Workload build_reduce(const Variant& v, const Params& p, std::uint64_t seed);
Workload build_smem(const Variant& v, const Params& p, std::uint64_t seed);

}  // namespace threadmap::families
