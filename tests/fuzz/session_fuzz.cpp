// libFuzzer target for the session loader: any bytes give a session or a
// SessionError, never a crash, a hang or a huge allocation.
#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/core/session.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    threadmap::decode_session(std::span(data, size));
  } catch (const threadmap::SessionError&) {
  }
  return 0;
}
