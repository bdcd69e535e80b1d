#pragma once
// CUDA kernels compiled at run time with NVRTC, the CUDA Toolkit's runtime
// compiler, for the architecture of the device present (or any architecture
// asked for, with no GPU at all: `threadmap-cli doctor --arch`).
//
// libnvrtc is opened with dlopen on first use, so threadmap and threadmap-cli
// start, and everything else works, on machines without it; a CUDA run then
// says what to install. Results are cached on disk (cuda_cache_dir()), keyed
// by the source and every header it includes, the options, the target
// architecture and the NVRTC version, so a kernel compiles once per machine.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/ptx/compiled.h"
#include "kernels/ptx/ptx_instrument.h"

namespace threadmap::cuda {

// A compiler error: the message carries NVRTC's log (file:line: error: ...).
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& message, std::string log) : std::runtime_error(message), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

class Nvrtc;

// The whole path for a compiled timed build: compiles (or takes from the
// disk cache) the recording runtime for its target and instruments every
// kernel of `timed`. `timed` must be PTX (a compute_XY target). Throws
// PtxError, CompileError, std::runtime_error (NVRTC unavailable).
InstrumentedPtx instrument_compiled(const CompileResult& timed, const Nvrtc& nvrtc, Pass pass = Pass::Access);

class Nvrtc {
 public:
  // The process's one NVRTC, opened on first call.
  static const Nvrtc& get();

  bool available() const { return error_.empty(); }
  // Why it is not: which library was looked for where, and what to install.
  const std::string& error() const { return error_; }
  std::string version() const;  // "13.0"
  // The real architectures this NVRTC emits cubins for: 75, 80, 86, ...
  const std::vector<int>& architectures() const { return architectures_; }

  // The target for a device of compute capability major.minor: its own cubin
  // when NVRTC knows the architecture, else PTX for the newest architecture
  // NVRTC knows below it (the driver compiles PTX for newer GPUs). Throws
  // std::runtime_error for a GPU older than every architecture NVRTC knows.
  std::string target_for(int major, int minor) const;
  // "sm_86" -> 86 (also "compute_86", "86"); 0 when it is not an architecture.
  static int architecture_number(std::string_view name);

  // Compiles, or loads the earlier result from the disk cache. Throws
  // CompileError with the log when the source does not compile, and
  // std::runtime_error when NVRTC is unavailable.
  CompileResult compile(const CompileRequest& request) const;
  // The cached result of an earlier compile of the same request, if any.
  std::optional<CompileResult> cached(const CompileRequest& request) const;

 private:
  std::vector<std::string> options_for(const CompileRequest& request) const;
  std::string cache_entry(const CompileRequest& request) const;
  Nvrtc();
  struct Api;
  const Api* api_ = nullptr;
  std::string error_;
  int major_ = 0, minor_ = 0;
  std::vector<int> architectures_;
};

// Where compiled kernels are kept: $THREADMAP_CACHE_DIR, else
// $XDG_CACHE_HOME/threadmap/cuda, else ~/.cache/threadmap/cuda.
std::string cuda_cache_dir();

}  // namespace threadmap::cuda
