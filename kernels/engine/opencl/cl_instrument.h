#pragma once
// Tracing an OpenCL C kernel that carries no trace hooks, as a learner writes
// it: libclang parses the text (with the build's -D options and the OpenCL
// builtins), and the hooks of opencl/trace.clh are inserted where the accesses and
// barriers are, on the lines they are on, so a traced access's __LINE__ is
// the learner's line:
//   a load or store of a __global / __local element   LDG/STG/LDS/STS(...)
//   (x op= y, ++x: both)                              STG(LDG...) forms
//   atomic_add(p, v) and the other atomic builtins    atomic_add(ATOMG(p, TM_ATOM_ADD, r), v)
//   barrier(...);                                     TM_ARRIVE(); ... TM_RELEASE();
//   each __local array, each __local pointer          TM_LOCAL_ARRAY(name); TM_LOCAL_PARAMETER(name, k);
//   each __kernel's parameters and body               TM_TRACE_PARAM, TM_BEGIN(), TM_END()
// libclang is opened at run time (libclang-14.so.1, or THREADMAP_LIBCLANG):
// without it everything else works and tracing a learner's OpenCL kernel says
// what to install.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/core/device.h"

namespace threadmap {

// `text`: the kernel source; `file_name`: how messages name it; `prelude`:
// what the backend puts before it (builtins' helpers), parsed but not
// rewritten; `defines`: the -D options the build uses. Throws CompileError
// (with the file, line and libclang's message) when the text does not parse,
// DeviceError when libclang cannot be opened.
std::string instrument_opencl(std::string_view text, std::string_view file_name, std::string_view prelude,
                              const std::vector<std::pair<std::string, std::string>>& defines);

// The lines of the barriers some work-items of a group may not reach: one
// inside an if, a ?: or a switch, or after a return made inside one. Such a
// barrier is undefined behaviour, which PoCL's CPU device does not survive
// (it crashes or hangs): what a crashed run of an OpenCL kernel is told. A
// barrier under a condition every work-item of the group shares is named
// too: the text alone does not tell them apart. Throws as instrument_opencl.
std::vector<long> divergent_barrier_lines(std::string_view text, std::string_view file_name, std::string_view prelude,
                                          const std::vector<std::pair<std::string, std::string>>& defines);

// Whether libclang can be opened here, and if not, why.
bool opencl_instrumenter_available(std::string* why = nullptr);

// The -D values an OpenCL build of `key` uses (opencl_backend.cpp builds with
// exactly these, and the instrumenter parses with them): ELEM, the double
// and sub-group switches, then the key's own values.
std::vector<std::pair<std::string, std::string>> opencl_defines(const ProgramKey& key, bool subgroup_shuffle);

// What the backend puts before every kernel text (the trace format and the
// builtins' helpers), for the instrumenter to parse but not rewrite.
std::string opencl_trace_prelude();

}  // namespace threadmap
