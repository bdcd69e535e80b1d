#pragma once
// A kernel source as a learner reads and edits it: the embedded file with the
// trace hooks taken out (LDG(x) -> x, the TM_ lines and the trace parameter
// dropped). The timed build defines every hook as nothing, so this text is
// the code that is timed; run --source compiles it, or a learner's edit of
// it, in the embedded file's place.
#include <string>
#include <string_view>

namespace threadmap {

// file_name: "transpose.cu", "smem.cl". Throws InvalidRequest for a file that
// is not embedded.
std::string learner_source(std::string_view file_name);

// The same transformation on any text.
std::string strip_trace_hooks(std::string_view text);

}  // namespace threadmap
