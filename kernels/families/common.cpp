#include "kernels/families/common.h"

#include "kernels/families/families.h"

#include "kernels/core/parallel.h"

#include <cmath>
#include <limits>

namespace threadmap::families {

// splitmix64: a fast seeded stream; inputs for 2^26 elements in well under a second.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

namespace {

HostBuffer describe(std::string name, BufferRole role, ElementType type, std::uint64_t count) {
  HostBuffer b;
  b.name = std::move(name);
  b.role = role;
  b.type = type;
  b.elements = count;
  return b;
}

}  // namespace

HostBuffer random_input(std::string name, ElementType type, std::uint64_t count, std::uint64_t seed) {
  HostBuffer b = describe(std::move(name), BufferRole::Input, type, count);
  b.random_elements = count;
  b.seed = seed;
  return b;
}

HostBuffer poisoned_output(std::string name, ElementType type, std::uint64_t count) {
  return describe(std::move(name), BufferRole::Output, type, count);
}

HostBuffer zero_scratch(std::string name, ElementType type, std::uint64_t count) {
  return describe(std::move(name), BufferRole::Scratch, type, count);
}

std::string format_value(double v) { return format_typed(v); }

}  // namespace threadmap::families

namespace threadmap {

void materialize(HostBuffer& b) {
  using families::view;
  using families::with_type;
  // resize leaves the bytes as they are (BulkAllocator default-initialises);
  // every byte is written exactly once below, spread over the cores.
  b.data.resize(b.bytes());
  if (b.fill && b.role != BufferRole::Scratch) {
    b.fill(b);
    return;
  }
  auto fill = [&](std::uint64_t from, int value) {
    parallel_for(
        b.data.size() - from,
        [&](std::uint64_t begin, std::uint64_t end) { std::memset(b.data.data() + from + begin, value, end - begin); },
        std::uint64_t{4} << 20);
  };
  if (b.role != BufferRole::Input) {
    fill(0, b.role == BufferRole::Output ? 0xFF : 0);
    return;
  }
  fill(std::min<std::uint64_t>(b.random_elements * element_size(b.type), b.data.size()), 0);
  // SplitMix64's state only advances by a constant, so element i's value is
  // known without the ones before it and the fill splits over cores.
  with_type(b.type, [&](auto tag) {
    using T = decltype(tag);
    std::span<T> out = view<T>(b).first(b.random_elements);
    parallel_for(out.size(), [&](std::uint64_t begin, std::uint64_t end) {
      families::SplitMix64 rng{b.seed + begin * 0x9E3779B97F4A7C15ull};
      for (std::uint64_t i = begin; i < end; ++i) {
        const std::uint64_t r = rng.next();
        if constexpr (std::is_integral_v<T>) {
          out[i] = static_cast<T>(static_cast<std::int64_t>(r % (2u << 20)) - (1 << 20));
        } else {
          out[i] = static_cast<T>(static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0);
        }
      }
    });
  });
}

}  // namespace threadmap

namespace threadmap::families {

void reject(const Variant& v, const std::string& message) { throw InvalidRequest(v.id + ": " + message); }

}  // namespace threadmap::families

namespace threadmap::families {

namespace {

struct NamedWorkload {
  std::string_view name;
  Workload (*build)(const Variant&, const Params&, std::uint64_t);
};

constexpr NamedWorkload kWorkloads[] = {
    {"transpose", build_transpose}, {"matadd", build_matadd}, {"reduce", build_reduce}, {"smem", build_smem}};

}  // namespace

WorkloadBuilder workload(std::string_view name) {
  for (const NamedWorkload& w : kWorkloads)
    if (w.name == name) return w.build;
  return nullptr;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const NamedWorkload& w : kWorkloads) names.emplace_back(w.name);
  return names;
}

}  // namespace threadmap::families
