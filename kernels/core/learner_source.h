#pragma once
// A kernel source as a learner reads and edits it: the embedded file itself.
// The files carry no trace hooks (ThreadMap instruments the code it traces:
// opencl/cl_instrument.h, cuda/ptx_instrument.h), so this text is the code
// that is timed and traced; run --source compiles it, or a learner's edit of
// it, in the embedded file's place.
#include <string>
#include <string_view>

#include "kernels/core/error.h"

namespace threadmap {

// file_name: "transpose.cu", "smem.cl". Throws InvalidRequest for a file that
// is not embedded.
std::string learner_source(std::string_view file_name);

// The error for a learner's file (learner_file) that has no kernel named
// `kernel`, naming the catalog's (in the embedded catalog_file) with its
// parameters: "mine.cl has no kernel named setRowReadCol (the catalog's kernel
// is setRowReadCol(__global ELEM* out_all)); keep its name and parameters".
InvalidRequest missing_kernel(const std::string& learner_file, std::string_view catalog_file,
                              const std::string& kernel);

// A learner's file name as the compiler is given it (OpenCL's #line, NVRTC's
// program name) to name in its messages: control characters, quotes and
// backslashes, which neither a #line string nor a message line can carry as
// they are, become '_', and so does '?' (no "??/" trigraph can make one).
// "mine\n.cl" compiles as "mine_.cl".
std::string compiler_file_name(std::string_view file_name);

// Whether `name` appears in `text` as a whole identifier.
bool names_identifier(std::string_view text, std::string_view name);

}  // namespace threadmap
