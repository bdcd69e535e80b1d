// libFuzzer target for the client's side of the worker protocol
// (app/protocol/replies.h): the input is what a worker wrote on its stdout,
// JSON lines, read as the GUI's WorkerClient reads them. A line is a reply
// or is skipped; a reply's result is read as each request's result, and a
// malformed one is a ProtocolError. What is read must write the same line
// again, so nothing a reply says is lost or changed between the two sides.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/protocol/replies.h"
#include "app/protocol/requests.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

namespace protocol = threadmap::protocol;

// A run asking for its problems scan: read as a ScannedRun.
protocol::RunRequest scanning_run() {
  protocol::RunRequest run;
  run.problems = true;
  return run;
}

// Every request a reply could answer (list's result is never read).
std::vector<protocol::Request> every_request() {
  return {protocol::PingRequest{},     protocol::DevicesRequest{}, protocol::RunRequest{},    protocol::CopyRequest{},
          protocol::SweepRequest{},    protocol::RecordRequest{},  protocol::CancelRequest{}, protocol::QuitRequest{},
          protocol::CountersRequest{}, protocol::CheckRequest{},   protocol::DoctorRequest{}, scanning_run(),
          protocol::BenchRequest{}};
}

void read_result_as_each_request(const protocol::ReplyLine& reply) {
  for (const protocol::Request& request : every_request()) {
    try {
      const protocol::Result result = protocol::read_result(request, reply.body);
      const nlohmann::json written = protocol::result_line(reply.id, result);
      const protocol::Result again = protocol::read_result(request, written["result"]);
      if (protocol::result_line(reply.id, again) != written) std::abort();
      if (const auto* ping = std::get_if<protocol::PingResult>(&result)) protocol::version_problem(*ping);
    } catch (const protocol::ProtocolError& e) {
      if (e.status() != protocol::kMalformedReply) std::abort();
    }
  }
}

void read_progress(const protocol::ReplyLine& reply) {
  try {
    const protocol::Progress progress = protocol::read_progress(reply.body);
    const nlohmann::json written = protocol::progress_line(reply.id, progress);
    if (protocol::progress_line(reply.id, protocol::read_progress(written)) != written) std::abort();
  } catch (const protocol::ProtocolError& e) {
    if (e.status() != protocol::kMalformedReply) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (const std::string& line : threadmap::fuzz::lines_of(data, size)) {
    const std::optional<protocol::ReplyLine> reply = protocol::read_reply_line(line);
    if (!reply) continue;
    if (reply->kind == protocol::ReplyKind::Result) read_result_as_each_request(*reply);
    if (reply->kind == protocol::ReplyKind::Progress) read_progress(*reply);
  }
  return 0;
}
