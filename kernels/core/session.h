#pragma once
// Session files: one recorded run (device, parameters, timings, verification,
// trace, schedule and the analysis summary) in one versioned CBOR file
// (docs/session-format.md). Written atomically; a truncated, corrupt or
// hostile file is refused with a message, and nothing it claims (counts,
// sizes, nesting) makes the loader allocate more than the file's own size.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/core/output_file.h"
#include "kernels/core/trace.h"

namespace threadmap {

class SessionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kSessionVersion = 1;
inline constexpr std::uint64_t kMaxSessionBytes = std::uint64_t{1} << 30;
// The access records a session file holds within kMaxSessionBytes (20 bytes
// each, with a sixteenth of the limit left for the rest of the trace).
inline constexpr std::uint64_t kMaxSessionAccessRecords = kMaxSessionBytes / 16 * 15 / 20;

struct Session {
  std::string created_by;  // "threadmap-cli 0.1.0"
  std::string created_at;  // UTC, ISO 8601
  std::string kernel_id;
  std::map<std::string, std::string> params;  // NAME -> VALUE, as --set takes them
  // The traced run's parameters when they differ from the timed run's (a
  // smaller size, so a recording timed at a size far above the caches keeps
  // a small trace); empty when the trace was made with `params`.
  std::map<std::string, std::string> trace_params;
  nlohmann::json device;  // to_json(DeviceInfo)
  nlohmann::json run;     // to_json(RunReport), or null when not timed
  std::optional<Trace> trace;
  nlohmann::json trace_verification;  // the traced run's output check
  double record_ms = 0;
  nlohmann::json analysis;  // summary saved with it (recomputed on load by readers)
  // A learner's version of the kernel, run and traced in the catalog's place
  // (record --source): its file name and text. Empty for the kernel's own.
  std::string source_name;
  std::string source_text;
  // The kernel's own file the session compiled and its text, as it was then
  // (a built-in file's, or a pack's): so the trace's lines keep their text
  // when the file changes. Empty where source_text (a learner's) is set, and
  // in sessions recorded before sessions kept it.
  std::string kernel_file;
  std::string kernel_text;
};

// Reads the older format's layouts (sessions recorded before traces carried
// them: no "tile" key in the trace, as in the bundled recordings): fills in
// each buffer's row length and parameter place and the shared tile from the
// catalog id and the traced parameters, by the rules the views used before
// the workloads declared their layouts, so an older file draws as it always
// did. A kernel the rules do not know (a pack's) gets 1-D buffers passed in
// order and no tile. decode_session calls it; throws SessionError where the
// parameters give a tile outside the limits (kMaxTileSide, kMaxTileElements).
void fill_older_layouts(Trace& trace, const std::map<std::string, std::string>& traced_params);

// The parameters the trace was recorded with: trace_params, else params.
const std::map<std::string, std::string>& traced_params(const Session& session);

// The kernel text the trace's line numbers refer to, and its file name: the
// learner's text where the session ran one, else the kernel's own text the
// session kept, else (older sessions) the file embedded in this program.
std::string_view traced_source_text(const Session& session);
std::string traced_source_name(const Session& session);

// Keeps in a session made before sessions kept their kernel text the
// built-in text its trace was recorded from: refused (SessionError naming the
// line) unless every access site's recorded text is that line of `text`, so
// the kept text provably is the one the line numbers refer to. Adds the one
// key to the file's map and changes nothing else in it (checked).
std::vector<std::uint8_t> keep_kernel_text(std::span<const std::uint8_t> session_bytes, std::string_view text);

std::vector<std::uint8_t> encode_session(const Session& session);
// Throws SessionError naming what is wrong.
Session decode_session(std::span<const std::uint8_t> bytes);

// Written through OutputFile (kernels/core/output_file.h): whole or not at all,
// never over a file that is not a regular one or over one of `inputs` (the
// learner's kernel a recording ran). Throws SessionError naming what failed,
// before writing anything when the session would be over kMaxSessionBytes,
// the limit its readers take.
void save_session(const Session& session, const std::filesystem::path& path, Durability durability = Durability::Synced,
                  std::span<const std::filesystem::path> inputs = {});
// The bytes a session's bulk records take in its file (a little less than
// the whole file).
std::uint64_t session_record_bytes(const Session& session);
Session load_session(const std::filesystem::path& path);

}  // namespace threadmap
