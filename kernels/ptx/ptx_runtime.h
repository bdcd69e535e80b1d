#pragma once
// The recording runtime (kernels/ptx/trace_runtime.cuh) as the PTX rewrite
// sees it: NVRTC's PTX of it, read and checked against the calls the rewrite
// makes, its functions ready to merge into a kernel's module, and the PTX of
// one call.
#include <string>
#include <string_view>
#include <vector>

#include "kernels/ptx/ptx_parse.h"

namespace threadmap::cuda::ptx {

struct Runtime {
  std::string text;     // the .func definitions, without .loc lines or exported names
  std::string version;  // the module's .version and .target
  std::string target;
};

// Reads NVRTC's PTX of trace_runtime.cuh (compiled with -rdc=true). Throws
// PtxError when it is malformed, lacks a function the rewrite calls, or a
// function's parameters differ from what the rewrite passes.
Runtime read_runtime(std::string_view runtime_ptx);

// One call of the runtime function `function` as a scoped PTX block:
//   { // threadmap: what
//   <prelude>
//   .param .b64 threadmap_arg0; st.param.b64 [threadmap_arg0], value; ...
//   [guard] call (threadmap_result), function, (threadmap_arg0, ...);
//   [guard] ld.param.b32 result, [threadmap_result];
//   }
std::string runtime_call(std::string_view what, std::string_view guard, std::string_view function,
                         const std::vector<std::string>& arguments, std::string_view result = {},
                         const std::vector<std::string>& prelude = {});

}  // namespace threadmap::cuda::ptx
