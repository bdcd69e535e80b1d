#pragma once
// What one catalog variant asks of a device for one set of parameters: the
// buffers with their host contents, the launches in order, the ideal bytes
// moved, and how to check the result against the CPU reference.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/bulk_allocator.h"
#include "kernels/core/device.h"

namespace threadmap {

enum class BufferRole {
  Input,    // seeded random contents, uploaded before the kernels
  Output,   // poisoned before the checked run (or, with a fill, set to it: a buffer the
            // kernel updates, a histogram's bins), read back and verified
  Scratch,  // device-only intermediate; uploaded once as given (zeros), never read back
};

// A buffer is described first (so its size can be checked against the device
// before any host memory is spent) and filled by materialize().
struct HostBuffer {
  std::string name;
  BufferRole role = BufferRole::Input;
  ElementType type = ElementType::Int;
  std::uint64_t elements = 0;         // allocated
  std::uint64_t random_elements = 0;  // Input: leading elements drawn at random, the rest zero
  std::uint64_t seed = 0;
  std::vector<std::byte, BulkAllocator<std::byte>> data;  // input contents / output read back / scratch initial
  // Input contents other than the seeded random default (a pack's zeros,
  // iota, constant or random range), or an output's initial contents in
  // place of the poison: called by materialize() once `data` has its size.
  std::function<void(HostBuffer&)> fill;
  // How the kernel lays the buffer out, for the views: the elements of one
  // row of the matrix it holds (a height x width input: width), or 0 where
  // it is no matrix (the views wrap it at 32 elements, a warp).
  std::uint64_t row_elements = 0;

  std::uint64_t bytes() const { return elements * element_size(type); }
};

// Fills `data`: seeded random values for inputs (ints in [-2^20, 2^20), reals
// in [-1, 1)), a poison pattern for outputs (all bits set: -1 / NaN), zeros
// for scratch.
void materialize(HostBuffer& buffer);

// The 2-D shared array the kernel declares, as the learner reads it:
// tile[rows][cols], of which the first data_cols columns hold data and the
// rest is padding (the bank view hatches it). Declared by whoever builds the
// workload (the family builders, a pack's [family.tile]); the trace carries
// it to the views (Trace::tile).
struct SharedTile {
  std::uint32_t rows = 0;
  std::uint32_t cols = 0;       // padding included
  std::uint32_t data_cols = 0;  // at most cols
  bool operator==(const SharedTile&) const = default;
};

// The largest tile a layout may declare: a side, and rows x cols (far above
// any GPU's shared memory; bounds what the views walk).
inline constexpr std::uint32_t kMaxTileSide = 65536;
inline constexpr std::uint64_t kMaxTileElements = std::uint64_t{1} << 22;

struct Mismatch {
  std::string where;  // "row 3, column 17" / "element 12" / "sum"
  std::string expected;
  std::string actual;
};

struct Verification {
  bool verified = false;
  std::uint64_t checked = 0;  // elements compared
  std::uint64_t mismatches = 0;
  std::vector<Mismatch> first;  // at most a few
  std::string method;           // "exact" / "relative error <= 1e-5 against a double-precision sum"
};

struct Workload {
  std::vector<HostBuffer> buffers;
  std::vector<LaunchCmd> launches;
  std::uint64_t ideal_bytes = 0;          // each input read once, each output written once
  std::uint64_t working_set_bytes = 0;    // all buffers the launches touch
  std::uint64_t static_local_bytes = 0;   // per group, declared in the kernel text
  std::uint64_t dynamic_local_bytes = 0;  // per group, given at launch
  std::string note;                       // a property of this run worth showing (e.g. padding)
  // The shared tile of the first launch (the one a recording traces), for
  // the views; none where the kernel has no 2-D tile (its shared memory is
  // drawn as a 1-D array of words). Each buffer's row length is in `buffers`.
  std::optional<SharedTile> tile;
  // Compares buffers (outputs filled in) against the CPU reference.
  std::function<Verification(const std::vector<HostBuffer>&)> verify;

  // Expected outputs computed on the device by another kernel instead of on
  // the host (a pack's reference variant, kernels/pack): the runner runs
  // these launches on the same inputs before the checked run and keeps each
  // output buffer as they left it in *outputs (aligned with `buffers`; the
  // others empty), which `verify` compares with. Empty for the built-in
  // families.
  struct DeviceReference {
    std::vector<LaunchCmd> launches;
    std::shared_ptr<std::vector<HostBuffer>> outputs = std::make_shared<std::vector<HostBuffer>>();
  };
  DeviceReference reference;
};

constexpr std::size_t kMaxReportedMismatches = 5;

}  // namespace threadmap
