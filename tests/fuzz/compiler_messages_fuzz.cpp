// libFuzzer target for the compiler-message reader (kernels/analysis/exercises.h):
// any compiler log gives messages that each name a place (a line from 1, a
// column from 0) and a severity the editor knows, and nothing else. The reader
// throws nothing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "kernels/analysis/exercises.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view log(reinterpret_cast<const char*>(data), size);
  for (const threadmap::CompilerMessage& m : threadmap::compiler_messages(log)) {
    if (m.line < 1 || m.column < 0) std::abort();
    if (m.severity != "error" && m.severity != "warning" && m.severity != "note") std::abort();
    // Every field is a piece of the log: nothing is made up or read past its end.
    if (m.file.size() > size || m.text.size() > size) std::abort();
    if (log.find(m.file) == std::string_view::npos || log.find(m.text) == std::string_view::npos) std::abort();
  }
  return 0;
}
