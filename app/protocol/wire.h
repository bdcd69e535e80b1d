#pragma once
// The worker protocol's frame (docs/cli.md, "serve: the worker protocol"):
// one JSON object a line each way, its version, the limits of a line, and
// the error a line that cannot be served or read becomes. requests.h and
// replies.h hold the messages; this is what they share.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace threadmap::protocol {

// Changes whenever a request or reply changes its meaning or shape. The
// worker says it in its "ping" reply; a client that speaks another refuses it.
inline constexpr int kVersion = 1;

// The limits of one request line. A learner's kernel source travels inside a
// line, so a line may be long, but not unbounded.
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;  // 16 MiB
inline constexpr std::size_t kMaxDepth = 64;                         // nesting of arrays and objects
inline constexpr std::size_t kMaxIdBytes = 256;                      // a string id
inline constexpr std::size_t kMaxEcho = 200;                         // bytes of a line quoted in a message

// The statuses of an "error" reply.
inline constexpr char kBadRequest[] = "bad-request";   // malformed; the message names the field
inline constexpr char kInvalid[] = "invalid";          // a value that cannot work: the message names the limit
inline constexpr char kUnavailable[] = "unavailable";  // the kernel cannot run on that device
inline constexpr char kDeviceFailure[] = "device-failure";
inline constexpr char kCancelled[] = "cancelled";
// A learner's kernel ran past its source_timeout (or crashed the worker's
// device): the worker answered this and ended itself, releasing the device.
inline constexpr char kStopped[] = "stopped";
// Not the worker's: the status a client gives a reply it cannot read.
inline constexpr char kMalformedReply[] = "malformed-reply";

// A request's id: a number, a string of at most kMaxIdBytes, or null.
// Replies carry it back unchanged.
using RequestId = nlohmann::json;
// Why `id` cannot be a request's id, or "" when it can.
std::string id_problem(const RequestId& id);

// A line that cannot be served as asked, or a reply that cannot be read:
// an "error" reply's status and message.
class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(std::string status, const std::string& message)
      : std::runtime_error(message), status_(std::move(status)) {}
  const std::string& status() const { return status_; }

 private:
  std::string status_;
};

// At most kMaxEcho bytes of `text`, for quoting what a line sent in a message.
std::string excerpt(const std::string& text);
std::string shown(const nlohmann::json& value);  // excerpt(value.dump())

// A line as JSON, its nesting bounded while parsing (a line nested 100 000
// deep stops early instead of overflowing the stack). Throws ProtocolError
// (bad-request) for bytes that are not JSON, invalid UTF-8 included.
nlohmann::json parse_line(const std::string& line);
// A message as its line, without the newline. Bytes that are not UTF-8 (a
// message quoting a bad request) become U+FFFD instead of an exception.
std::string encode_line(const nlohmann::json& message);

// Base64 (RFC 4648, with padding): a streamed recording's bytes travel in
// progress lines (replies.h, SessionChunk).
std::string base64_encode(const std::string& bytes);
// nullopt for text that is not base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace threadmap::protocol
