#pragma once
// A kernel source as a learner reads and edits it: the embedded file itself.
// The files carry no trace hooks (ThreadMap instruments the code it traces:
// opencl/cl_instrument.h, cuda/ptx_instrument.h), so this text is the code
// that is timed and traced; run --source compiles it, or a learner's edit of
// it, in the embedded file's place.
#include <string>
#include <string_view>

namespace threadmap {

// file_name: "transpose.cu", "smem.cl". Throws InvalidRequest for a file that
// is not embedded.
std::string learner_source(std::string_view file_name);

}  // namespace threadmap
