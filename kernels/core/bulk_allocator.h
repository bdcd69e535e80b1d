#pragma once
// Host memory for matrix-sized buffers. Large blocks are aligned to 2 MiB and
// offered to the kernel for transparent huge pages, so filling a 64 MiB input
// takes a few dozen page faults instead of sixteen thousand; under a virtual
// machine those faults, not the filling, were most of a large run's set-up.
// Elements are default-initialised (see construct), so whoever resizes a
// buffer writes every byte of it.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace threadmap {

template <class T>
struct BulkAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  BulkAllocator() = default;
  template <class U>
  BulkAllocator(const BulkAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return std::allocator<T>().allocate(n);
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) throw std::bad_alloc();
    ::madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without it the memory still works
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHugePage) std::allocator<T>().deallocate(p, n);
    else std::free(p);
  }

  // Default-initialise: resize() leaves a trivial type's bytes unwritten, so
  // a buffer about to be filled is not zeroed first.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <class U>
  bool operator==(const BulkAllocator<U>&) const {
    return true;
  }
};

// Room for `n` elements in a std::vector whose allocator cannot change (a
// trace's records, a CBOR byte string): reserved, and the new room offered
// for transparent huge pages before anything is written to it.
template <class Vector>
void reserve_on_huge_pages(Vector& v, std::size_t n) {
  if (n <= v.capacity()) return;
  v.reserve(n);
  constexpr std::uintptr_t kHugePage = BulkAllocator<char>::kHugePage;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data() + v.size());
  const auto end = reinterpret_cast<std::uintptr_t>(v.data() + n);
  const std::uintptr_t first = (begin + kHugePage - 1) / kHugePage * kHugePage;
  const std::uintptr_t last = end / kHugePage * kHugePage;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // a hint only
}

}  // namespace threadmap
