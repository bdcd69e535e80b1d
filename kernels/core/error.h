#pragma once
// Errors inside the engine are exceptions. run_variant (runner.h) returns them
// as a status with the message; make_params, load_session and open_device
// throw them to their caller, and every caller catches them at its own edge
// (a command, a worker request, a window's loader): docs/ARCHITECTURE.md, "Errors".
#include <stdexcept>
#include <string>

namespace threadmap {

// A request that can never run as asked: bad parameter, unknown id, over a device limit.
class InvalidRequest : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A learner's kernel source (run --source) that the device's compiler refused.
// The message holds the compiler's own lines: FILE:LINE:COLUMN: error: ...
class CompileError : public InvalidRequest {
 public:
  using InvalidRequest::InvalidRequest;
};

// Something failed while talking to a backend or device.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace threadmap

namespace threadmap {

// The variant cannot run on this device for a reason the user cannot change
// with parameters (no sub-group shuffles, no double precision).
class Unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace threadmap
