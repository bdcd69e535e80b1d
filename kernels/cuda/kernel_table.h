#pragma once
// The CUDA kernels are templates; only the instantiations listed in a table
// exist in the binary. Each .cu lists its own as data: a kernel name, the
// template values it takes (the OpenCL compile options), and a lambda that
// names one instantiation. The builder expands the value lists into every
// combination for int, float and double and records each function's address
// (what cudaLaunchKernel takes) with its parameter list read off its type.
//
// Plain C++: the lookup and the backend include this without CUDA headers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/element_type.h"

namespace threadmap::cuda_kernels {

struct TemplateValue {
  std::string_view name;  // the OpenCL define it stands for: TILE, PAD, WG, BLOCK_X, ...
  std::int64_t value = 0;
};

constexpr std::size_t kMaxTemplateValues = 3;

enum class SharedMemory { Static, Dynamic };

struct KernelEntry {
  std::string_view source;  // "transpose": the stem shared with transpose.cl
  std::string_view kernel;
  ElementType type = ElementType::Int;
  std::array<TemplateValue, kMaxTemplateValues> values{};
  std::size_t value_count = 0;
  // One letter per kernel parameter, in order: 'b' a device pointer (a
  // BufferArg), 'i' an int. The launch's arguments are checked against it
  // because cudaLaunchKernel trusts whatever array it is given.
  std::string_view parameters;
  // Dynamic kernels declare extern __shared__ and need a LocalArrayArg; the
  // others must not be given one.
  SharedMemory shared = SharedMemory::Static;
  // Launched with the largest shared-memory carveout of L1 (set once, before
  // the first launch): for kernels whose blocks per SM the default split
  // would limit by shared memory rather than by threads.
  bool prefer_shared = false;
  const void* function = nullptr;

  std::span<const TemplateValue> template_values() const { return {values.data(), value_count}; }
};

// The instantiation a table's lambda is asked for: the element type and the
// template ints, in order.
template <class T, int... V>
struct Instance {};

// One template parameter: every listed value is instantiated.
template <int... V>
struct Values {
  static constexpr std::size_t width = 1;
};

// Two template parameters that only make sense equal (a square block whose
// kernel swaps threadIdx.x and threadIdx.y): instantiated as (V, V) pairs.
template <int... V>
struct SquareValues {
  static constexpr std::size_t width = 2;
};

namespace detail {

template <class T>
constexpr ElementType element_type_of() {
  if constexpr (std::is_same_v<T, float>) return ElementType::Float;
  else if constexpr (std::is_same_v<T, double>) return ElementType::Double;
  else {
    static_assert(std::is_same_v<T, int>, "kernels are instantiated for int, float and double");
    return ElementType::Int;
  }
}

template <class P>
constexpr char parameter_letter() {
  if constexpr (std::is_pointer_v<P>) return 'b';
  else {
    static_assert(std::is_same_v<P, int>, "kernel parameters are device pointers or int");
    return 'i';
  }
}

template <class... P>
inline constexpr char parameter_letters[] = {parameter_letter<P>()..., '\0'};

template <class... P>
constexpr std::string_view parameters_of(void (*)(P...)) {
  return {parameter_letters<P...>, sizeof...(P)};
}

}  // namespace detail

class KernelTable {
 public:
  explicit KernelTable(std::string_view source) : source_(source) {}

  // make: []<class T, int... V>(Instance<T, V...>) { return &kernel<T, V...>; },
  // called with every combination of the axes' values; names: one per template int.
  // A lambda that returns a null pointer of the kernel's type skips a combination.
  template <std::size_t N, class Make, class... Axes>
  void add(std::string_view kernel, SharedMemory shared, const char* const (&names)[N],
           Make make, Axes... axes) {
    static_assert(N == (Axes::width + ... + 0), "one name per template value");
    static_assert(N <= kMaxTemplateValues);
    std::array<std::string_view, kMaxTemplateValues> all_names{};
    for (std::size_t i = 0; i < N; ++i) all_names[i] = names[i];
    add_types(kernel, shared, all_names, make, axes...);
  }

  // A kernel whose only template parameter is the element type.
  template <class Make>
  void add(std::string_view kernel, SharedMemory shared, Make make) {
    add_types(kernel, shared, {}, make);
  }

  // Every instantiation of `kernel` asks for the largest shared carveout.
  void prefer_shared(std::string_view kernel) {
    for (KernelEntry& e : entries_)
      if (e.kernel == kernel) e.prefer_shared = true;
  }

  std::vector<KernelEntry> entries() && { return std::move(entries_); }

 private:
  using Names = std::array<std::string_view, kMaxTemplateValues>;

  template <class Make, class... Axes>
  void add_types(std::string_view kernel, SharedMemory shared, const Names& names, Make make,
                 Axes... axes) {
    add_product<int>(kernel, shared, names, make, Values<>{}, axes...);
    add_product<float>(kernel, shared, names, make, Values<>{}, axes...);
    add_product<double>(kernel, shared, names, make, Values<>{}, axes...);
  }

  template <class T, class Make, int... Chosen>
  void add_product(std::string_view kernel, SharedMemory shared, const Names& names, Make make,
                   Values<Chosen...>) {
    auto* function = make(Instance<T, Chosen...>{});
    if (function == nullptr) return;  // the lambda declined this combination
    KernelEntry e;
    e.source = source_;
    e.kernel = kernel;
    e.type = detail::element_type_of<T>();
    const std::int64_t chosen[] = {Chosen..., 0};
    e.value_count = sizeof...(Chosen);
    for (std::size_t i = 0; i < e.value_count; ++i) e.values[i] = {names[i], chosen[i]};
    e.parameters = detail::parameters_of(function);
    e.shared = shared;
    e.function = reinterpret_cast<const void*>(function);
    entries_.push_back(e);
  }

  template <class T, class Make, int... Chosen, int... Next, class... Rest>
  void add_product(std::string_view kernel, SharedMemory shared, const Names& names, Make make,
                   Values<Chosen...>, Values<Next...>, Rest... rest) {
    (add_product<T>(kernel, shared, names, make, Values<Chosen..., Next>{}, rest...), ...);
  }

  template <class T, class Make, int... Chosen, int... Edge, class... Rest>
  void add_product(std::string_view kernel, SharedMemory shared, const Names& names, Make make,
                   Values<Chosen...>, SquareValues<Edge...>, Rest... rest) {
    (add_product<T>(kernel, shared, names, make, Values<Chosen..., Edge, Edge>{}, rest...), ...);
  }

  std::string_view source_;
  std::vector<KernelEntry> entries_;
};

// Each .cu file's instantiations, from the timed build of its text and from
// the traced build (trace.cuh), where every kernel takes the trace buffer last.
namespace timed {
std::span<const KernelEntry> transpose_kernels();
std::span<const KernelEntry> matadd_kernels();
std::span<const KernelEntry> reduce_kernels();
std::span<const KernelEntry> smem_kernels();
std::span<const KernelEntry> diagnostic_kernels();  // test-only: diagnostic.cu
}  // namespace timed
namespace traced {
std::span<const KernelEntry> transpose_kernels();
std::span<const KernelEntry> matadd_kernels();
std::span<const KernelEntry> reduce_kernels();
std::span<const KernelEntry> smem_kernels();
std::span<const KernelEntry> diagnostic_kernels();
}  // namespace traced

}  // namespace threadmap::cuda_kernels
