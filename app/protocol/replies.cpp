#include "app/protocol/replies.h"

#include <algorithm>

#include "kernels/core/json_fields.h"

namespace threadmap::protocol {

using nlohmann::json;

namespace {

// --- Writing each result.

json body_of(const PingResult& p) {
  json j = {{"pong", true}, {"version", p.version}};
  if (p.protocol) j["protocol"] = *p.protocol;
  return j;
}

json body_of(const DevicesResult& backends) {
  json j = json::array();
  for (const BackendReport& b : backends) j.push_back(to_json(b));
  return j;
}

json body_of(const ListResult& list) {
  json j = json::array();
  for (const Variant& v : list.catalog) j.push_back(to_json(v));
  return j;
}

json body_of(const RunReport& report) { return to_json(report); }
json body_of(const CopyReport& copy) { return to_json(copy); }

json body_of(const SweepResult& s) {
  json results = json::array();
  for (const RunReport& r : s.results) results.push_back(to_json(r));
  return {{"kernel", s.kernel},
          {"device", to_json(s.device)},
          {"results", results},
          {"cancelled", s.cancelled},
          {"total", s.total}};
}

json check_size_json(const CheckSize& size);

json body_of(const RecordResult& r) {
  json phases = json::array();
  for (const auto& [name, ms] : r.phases_ms) phases.push_back({name, ms});
  json j = {{"session", r.session},
            {"bytes", r.bytes},
            {"verified", r.verified},
            {"record_ms", r.record_ms},
            {"phases_ms", phases}};
  if (r.sizes) {
    json sizes = json::array();
    for (const SizeCheck& size : *r.sizes) sizes.push_back(check_size_json(size));
    j["sizes"] = sizes;
  }
  return j;
}

json body_of(const CancelResult& c) { return {{"cancelled", c.target}, {"found", c.found}}; }
json body_of(const QuitResult&) { return {{"bye", true}}; }
json body_of(const PackResult& p) { return {{"pack", p.pack}, {"variants", p.variants}}; }

json body_of(const CountersResult& c) {
  return {{"summary", counters_json(c.summary)}, {"text", c.text}, {"verified", c.verified}};
}

json check_size_json(const CheckSize& size) {
  json j = {{"set", size.set}, {"verified", size.verified}};
  if (size.error) j["error"] = *size.error;
  if (size.mismatch) j["mismatch"] = *size.mismatch;
  return j;
}

json body_of(const CheckResult& c) { return check_json(c); }

}  // namespace

json counters_json(const CountersSummary& c, const char* blocks_placeholder) {
  json j = analysis::to_json(c.analysis, blocks_placeholder);
  j["kernel_id"] = c.kernel_id;
  j["device"] = threadmap::to_json(c.device);
  j["params"] = threadmap::to_json(c.params);
  j["verified"] = c.verified;
  if (const std::optional<CountersBatches>& b = c.batches)
    j["batches"] = {{"count", b->count},
                    {"records_per_batch", b->records_per_batch},
                    {"largest_records", b->largest_records},
                    {"access_runs", b->access_runs},
                    {"verified", "the last run's output"},
                    {"schedule", "the first batch's run"},
                    {"record_ms", b->record_ms},
                    {"phases_ms", b->phases_ms}};
  return j;
}

json check_row_json(const CheckRow& r) {
  json j = {{"file", r.file},
            {"compiled", r.compiled},
            {"verified", r.verified},
            {"goal_met", r.goal_met},
            {"status", r.status}};
  if (r.error) j["error"] = *r.error;
  if (r.device) j["device"] = *r.device;
  if (r.device_spec) j["device_spec"] = *r.device_spec;
  if (r.trace) {
    j["counters"] = r.trace->counters;
    j["reasons"] = r.trace->reasons;
    j["problems"] = r.trace->problems;
  }
  if (r.sizes) {
    json sizes = json::array();
    for (const CheckSize& size : *r.sizes) sizes.push_back(check_size_json(size));
    j["sizes"] = std::move(sizes);
  }
  if (r.median_ms) j["median_ms"] = *r.median_ms;
  if (r.gbps) j["gbps"] = *r.gbps;
  return j;
}

json check_json(const CheckResult& c) {
  json rows = json::array();
  for (const CheckRow& row : c.submissions) rows.push_back(check_row_json(row));
  return {{"seed", c.seed}, {"submissions", std::move(rows)}};
}

json scanned_run_json(const ScannedRun& run) {
  json j = to_json(run.report);
  if (run.problems) j["problems"] = analysis::to_json(*run.problems);
  return j;
}

json doctor_json(const DoctorResult& d) {
  json backends = json::array();
  for (const BackendReport& b : d.backends) backends.push_back(to_json(b));
  json icds = json::array();
  for (const DoctorIcd& icd : d.opencl_icds) icds.push_back({{"file", icd.file}, {"library", icd.library}});
  json targets = json::array();
  for (const DoctorTarget& t : d.targets) {
    json kernels = json::array();
    for (const DoctorKernel& k : t.kernels) {
      json row = {{"variant", k.variant},      {"kernel", k.kernel},           {"build", k.build},
                  {"compiled", k.compiled},    {"unavailable", k.unavailable}, {"cached", k.cached},
                  {"compile_ms", k.compile_ms}};
      if (!k.compiled) row["error"] = k.error;
      kernels.push_back(std::move(row));
    }
    json target = {
        {"name", t.name}, {"backend", t.backend}, {"detail", t.detail}, {"compiled", t.compiled}, {"kernels", kernels}};
    if (!t.cuda_target.empty()) target["cuda_target"] = t.cuda_target;
    if (!t.problem.empty()) target["problem"] = t.problem;
    targets.push_back(std::move(target));
  }
  return {{"backends", backends},
          {"opencl_icd_folder", d.opencl_icd_folder},
          {"opencl_icds", icds},
          {"nvrtc",
           {{"available", d.nvrtc.available},
            {"version", d.nvrtc.version},
            {"architectures", d.nvrtc.architectures},
            {"reason", d.nvrtc.reason},
            {"cache_dir", d.nvrtc.cache_dir}}},
          {"targets", targets},
          {"jobs", d.jobs},
          {"seconds", d.seconds},
          {"ok", d.ok}};
}

namespace {

json body_of(const DoctorResult& d) { return doctor_json(d); }

json body_of(const ScannedRun& run) { return scanned_run_json(run); }

json peer_json(const PeerMeasurement& p) {
  return {{"name", p.name},
          {"family", p.family},
          {"parameters", p.parameters},
          {"verified", p.verified},
          {"ideal_bytes", p.ideal_bytes},
          {"ms", threadmap::to_json(p.ms)},
          {"bandwidth_gbps", p.bandwidth_gbps},
          {"error", p.error}};
}

json body_of(const BenchResult& b) {
  json results = json::array();
  for (const RunReport& r : b.results) results.push_back(threadmap::to_json(r));
  json peers = json::array();
  for (const PeerMeasurement& p : b.peers) peers.push_back(peer_json(p));
  return {{"device", threadmap::to_json(b.device)},           {"reps", b.reps},     {"warmup", b.warmup},
          {"device_copy", threadmap::to_json(b.device_copy)}, {"results", results}, {"peers", peers}};
}

// --- Reading: one object's fields (kernels/core/json_fields.h); what is
// malformed is a ReportError, a malformed reply once it leaves read_result()
// or read_progress().
using Fields = JsonFields;

// A ReportError (a field's reader, kernels/core/report.h's readers) as the
// malformed reply it is.
template <typename Read>
auto reported(Read read) {
  try {
    return read();
  } catch (const ReportError& e) {
    throw ProtocolError(kMalformedReply, e.what());
  }
}

Result read_body(const PingRequest&, const json& body) {
  const Fields f(body, "the ping reply");
  PingResult p{f.text("version"), std::nullopt};
  if (const json* protocol = f.find("protocol")) {
    if (!protocol->is_number_integer()) f.fail("protocol", "a whole number");
    p.protocol = static_cast<int>(std::clamp<std::int64_t>(protocol->get<std::int64_t>(), -1, 1 << 30));
  }
  return p;
}

Result read_body(const DevicesRequest&, const json& body) {
  if (!body.is_array()) throw ProtocolError(kMalformedReply, "the devices reply must be a list");
  DevicesResult backends;
  for (const json& b : body) backends.push_back(backend_from_json(b));
  return backends;
}

Result read_body(const ListRequest&, const json&) { return ListResult{}; }
Result read_body(const RunRequest& request, const json& body) {
  RunReport report = report_from_json(body);
  if (!request.problems) return report;
  ScannedRun run{std::move(report), std::nullopt};
  if (const auto it = body.find("problems"); it != body.end())
    run.problems = analysis::scan_from_json(*it, "the run's \"problems\"");
  return run;
}
Result read_body(const CopyRequest&, const json& body) { return copy_from_json(body); }

Result read_body(const SweepRequest&, const json& body) {
  const Fields f(body, "the sweep reply");
  SweepResult s;
  s.kernel = f.text("kernel");
  if (const json* device = f.find("device")) s.device = device_from_json(*device);
  for (const json& r : f.list("results")) s.results.push_back(report_from_json(r));
  s.total = f.count("total");
  s.cancelled = f.flag("cancelled");
  return s;
}

std::optional<std::vector<CheckSize>> read_check_sizes(const Fields& row);

Result read_body(const RecordRequest&, const json& body) {
  const Fields f(body, "the record reply");
  RecordResult r;
  if (!f.find("session")) f.fail("session", "the session file's path");
  r.session = f.text("session");
  r.bytes = f.count("bytes");
  r.verified = f.flag("verified");
  r.record_ms = f.number("record_ms");
  for (const json& phase : f.list("phases_ms")) {
    if (!phase.is_array() || phase.size() != 2 || !phase[0].is_string() || !phase[1].is_number())
      f.fail("phases_ms", "a list of [name, ms] pairs");
    r.phases_ms.emplace_back(phase[0].get<std::string>(), phase[1].get<double>());
  }
  r.sizes = read_check_sizes(f);
  return r;
}

Result read_body(const CancelRequest&, const json& body) {
  const Fields f(body, "the cancel reply");
  return CancelResult{f.find("cancelled") ? *f.find("cancelled") : json(), f.flag("found")};
}

Result read_body(const QuitRequest&, const json&) { return QuitResult{}; }

CountersBatches read_batches(const json& batches) {
  const Fields f(batches, "the counters summary's \"batches\"");
  CountersBatches b{f.count("count"),       f.count("records_per_batch"), f.count("largest_records"),
                    f.count("access_runs"), f.number("record_ms"),        {}};
  f.text("verified");
  f.text("schedule");
  if (const json* phases = f.object("phases_ms"))
    for (const auto& [name, ms] : phases->items()) {
      if (!ms.is_number()) f.fail("phases_ms", "an object of numbers");
      b.phases_ms[name] = ms.get<double>();
    }
  return b;
}

CountersSummary read_counters_summary(const json& summary) {
  const std::string what = "the counters summary";
  const Fields f(summary, what);
  CountersSummary c;
  c.kernel_id = f.text("kernel_id");
  if (const json* device = f.find("device")) c.device = device_from_json(*device);
  if (const json* params = f.object("params")) c.params = parameters_from_json(*params);
  c.verified = f.flag("verified");
  c.analysis = analysis::summary_from_json(summary, what);
  if (const json* batches = f.find("batches")) c.batches = read_batches(*batches);
  return c;
}

Result read_body(const CountersRequest&, const json& body) {
  const Fields f(body, "the counters reply");
  const json* summary = f.find("summary");
  if (!summary || !summary->is_object()) f.fail("summary", "an object");
  CountersSummary read = read_counters_summary(*summary);
  return CountersResult{std::move(read), f.text("text"), f.flag("verified")};
}

std::optional<CheckTrace> read_check_trace(const Fields& row) {
  if (!row.find("counters") && !row.find("reasons") && !row.find("problems")) return std::nullopt;
  CheckTrace t;
  if (const json* counters = row.object("counters"))
    for (const auto& [metric, value] : counters->items()) {
      if (!value.is_number()) row.fail("counters", "an object of numbers");
      t.counters[metric] = value.get<double>();
    }
  t.reasons = row.texts("reasons");
  t.problems = row.texts("problems");
  return t;
}

std::optional<std::vector<CheckSize>> read_check_sizes(const Fields& row) {
  if (!row.find("sizes")) return std::nullopt;
  std::vector<CheckSize> sizes;
  for (const json& size : row.list("sizes")) {
    const Fields f(size, "a submission's size");
    sizes.push_back({f.text("set"), f.flag("verified"), f.maybe_text("error"), f.maybe_text("mismatch")});
  }
  return sizes;
}

CheckRow read_row(const json& row) {
  const Fields f(row, "a submission's row");
  CheckRow r;
  r.file = f.text("file");
  r.compiled = f.flag("compiled");
  r.verified = f.flag("verified");
  r.goal_met = f.flag("goal_met");
  r.status = f.text("status");
  r.error = f.maybe_text("error");
  r.device = f.maybe_text("device");
  r.device_spec = f.maybe_text("device_spec");
  r.trace = read_check_trace(f);
  r.sizes = read_check_sizes(f);
  if (f.find("median_ms")) r.median_ms = f.number("median_ms");
  if (f.find("gbps")) r.gbps = f.number("gbps");
  return r;
}

Result read_body(const CheckRequest&, const json& body) {
  const Fields f(body, "the check reply");
  if (!f.find("seed")) f.fail("seed", "the grading's seed");
  CheckResult c{f.count("seed"), {}};
  for (const json& row : f.list("submissions")) {
    // A row has what the report prints of every submission; the rest is optional.
    if (!row.is_object() || !row.value("file", json()).is_string() || !row.value("status", json()).is_string())
      f.fail("submissions", "a list of rows, each with its \"file\" and \"status\" as text");
    c.submissions.push_back(read_row(row));
  }
  return c;
}

Result read_body(const BenchRequest&, const json& body) {
  const Fields f(body, "the bench reply");
  BenchResult b;
  if (const json* device = f.find("device")) b.device = device_from_json(*device);
  b.reps = static_cast<int>(std::min<std::uint64_t>(f.count("reps"), 1 << 30));
  b.warmup = static_cast<int>(std::min<std::uint64_t>(f.count("warmup"), 1 << 30));
  if (const json* copy = f.find("device_copy")) b.device_copy = copy_from_json(*copy);
  for (const json& r : f.list("results")) b.results.push_back(report_from_json(r));
  for (const json& peer : f.list("peers")) {
    const Fields p(peer, "a peer's row");
    PeerMeasurement m{p.text("name"),
                      p.text("family"),
                      p.text("parameters"),
                      p.count("ideal_bytes"),
                      {},
                      p.number("bandwidth_gbps"),
                      p.flag("verified"),
                      p.text("error")};
    if (const json* ms = p.find("ms")) {
      const Fields t(*ms, "a peer's \"ms\"");
      m.ms.median = t.number("median");
      m.ms.min = t.number("min");
      m.ms.max = t.number("max");
      m.ms.samples = static_cast<int>(std::min<std::uint64_t>(t.count("samples"), 1 << 30));
    }
    b.peers.push_back(std::move(m));
  }
  return b;
}

DoctorTarget read_doctor_target(const json& target) {
  const Fields f(target, "a doctor target");
  DoctorTarget t{f.text("name"),
                 f.text("backend"),
                 f.text("detail"),
                 f.text("cuda_target"),
                 f.text("problem"),
                 f.count("compiled"),
                 {}};
  for (const json& kernel : f.list("kernels")) {
    const Fields k(kernel, "a doctor target's kernel");
    t.kernels.push_back({k.text("variant"), k.text("kernel"), k.text("build"), k.flag("compiled"),
                         k.flag("unavailable"), k.flag("cached"), k.number("compile_ms"), k.text("error")});
  }
  return t;
}

DoctorNvrtc read_nvrtc(const Fields& report) {
  DoctorNvrtc n;
  const json* nvrtc = report.find("nvrtc");
  if (!nvrtc) return n;
  const Fields f(*nvrtc, "the doctor report's \"nvrtc\"");
  n.available = f.flag("available");
  n.version = f.text("version");
  for (const json& a : f.list("architectures")) {
    if (!a.is_number_integer()) f.fail("architectures", "a list of whole numbers");
    n.architectures.push_back(static_cast<int>(std::clamp<std::int64_t>(a.get<std::int64_t>(), -1, 1 << 30)));
  }
  n.reason = f.text("reason");
  n.cache_dir = f.text("cache_dir");
  return n;
}

Result read_body(const DoctorRequest&, const json& body) {
  const Fields f(body, "the doctor report");
  DoctorResult d;
  d.ok = f.flag("ok");
  for (const json& t : f.list("targets")) d.targets.push_back(read_doctor_target(t));
  for (const json& b : f.list("backends")) d.backends.push_back(backend_from_json(b));
  d.opencl_icd_folder = f.text("opencl_icd_folder");
  for (const json& icd : f.list("opencl_icds")) {
    const Fields i(icd, "an OpenCL ICD");
    d.opencl_icds.push_back({i.text("file"), i.text("library")});
  }
  d.nvrtc = read_nvrtc(f);
  d.jobs = f.count("jobs");
  d.seconds = f.number("seconds");
  return d;
}

Result read_body(const PackRequest&, const json& body) {
  const Fields f(body, "the pack reply");
  PackResult p{f.text("pack"), {}};
  for (const json& id : f.list("variants")) {
    if (!id.is_string()) f.fail("variants", "a list of variant ids");
    p.variants.push_back(id.get<std::string>());
  }
  return p;
}

}  // namespace

json result_line(const RequestId& id, const Result& result) {
  return {{"id", id}, {"type", "result"}, {"result", std::visit([](const auto& r) { return body_of(r); }, result)}};
}

json progress_line(const RequestId& id, const Progress& progress) {
  if (const auto* notice = std::get_if<CompileNotice>(&progress))
    return {{"id", id}, {"type", "progress"}, {"compiling", notice->message}};
  if (const auto* wait = std::get_if<WaitNotice>(&progress))
    return {{"id", id}, {"type", "progress"}, {"waiting", wait->message}};
  if (const auto* chunk = std::get_if<SessionChunk>(&progress))
    return {{"id", id},
            {"type", "progress"},
            {"chunk", base64_encode(chunk->bytes)},
            {"offset", chunk->offset},
            {"total", chunk->total}};
  const auto& point = std::get<SweepPoint>(progress);
  return {{"id", id},
          {"type", "progress"},
          {"done", point.done},
          {"total", point.total},
          {"result", to_json(point.result)}};
}

std::string chunk_line(const RequestId& id, const SessionChunk& chunk) {
  // The keys in the order encode_line writes them (sorted), the chunk first.
  return "{\"chunk\":\"" + base64_encode(chunk.bytes) + "\",\"id\":" + encode_line(id) +
         ",\"offset\":" + std::to_string(chunk.offset) + ",\"total\":" + std::to_string(chunk.total) +
         ",\"type\":\"progress\"}";
}

json error_line(const RequestId& id, const ErrorReply& error) {
  return {{"id", id}, {"type", "error"}, {"status", error.status}, {"error", error.message}};
}

namespace {

// A chunk line (chunk_line) parsed without lexing its base64 character by
// character: the rest of the line is parsed, the chunk's text put back as it
// is (base64 needs no unescaping; a quote or backslash in it is no chunk
// line, and goes the long way).
json parse_chunk_line(const std::string& line) {
  static constexpr std::string_view kPrefix = "{\"chunk\":\"";
  if (!std::string_view(line).starts_with(kPrefix)) return parse_line(line);
  const std::size_t end = line.find_first_of("\"\\", kPrefix.size());
  if (end == std::string::npos || line[end] != '"') return parse_line(line);
  json reply = parse_line(std::string(kPrefix) + line.substr(end));
  reply["chunk"] = line.substr(kPrefix.size(), end - kPrefix.size());
  return reply;
}

}  // namespace

std::optional<ReplyLine> read_reply_line(const std::string& line) {
  json reply;
  try {
    reply = parse_chunk_line(line);
  } catch (const ProtocolError&) {
    return std::nullopt;
  }
  if (!reply.is_object() || !reply.contains("id")) return std::nullopt;
  ReplyLine out;
  out.id = reply["id"];
  const json type = reply.value("type", json());
  if (type == "progress") {
    out.kind = ReplyKind::Progress;
    out.body = std::move(reply);
  } else if (type == "result") {
    out.kind = ReplyKind::Result;
    out.body = reply.value("result", json());
  } else {
    const json status = reply.value("status", json());
    const json error = reply.value("error", json());
    out.error.status = status.is_string() ? status.get<std::string>() : "error";
    out.error.message = error.is_string() ? error.get<std::string>() : "the worker sent an error without a message";
  }
  return out;
}

CheckRow read_check_row(const json& row) {
  return reported([&] { return read_row(row); });
}

Result read_result(const Request& request, const json& body) {
  return reported([&] { return std::visit([&](const auto& r) { return read_body(r, body); }, request); });
}

namespace {

Progress read_progress_fields(const json& line) {
  const Fields f(line, "a progress line");
  if (f.find("compiling")) return CompileNotice{f.text("compiling")};
  if (f.find("waiting")) return WaitNotice{f.text("waiting")};
  if (f.find("chunk")) {
    auto bytes = base64_decode(f.text("chunk"));
    if (!bytes) f.fail("chunk", "the session's bytes in base64");
    return SessionChunk{f.count("offset"), f.count("total"), std::move(*bytes)};
  }
  if (!f.find("result")) f.fail("result", "a sweep point's run report");
  const json& report = *f.find("result");
  return SweepPoint{f.count("done"), f.count("total"), report_from_json(report)};
}

}  // namespace

Progress read_progress(const json& line) {
  return reported([&] { return read_progress_fields(line); });
}

std::string missing_op_problem(const Request& request, const ErrorReply& error, const std::string& host,
                               const std::string& worker_version) {
  const std::string unknown = "unknown op '" + std::string(op_name(request)) + "'";
  if (error.status != kBadRequest || !error.message.starts_with(unknown)) return "";
  return "the worker on " + host + " (threadmap-cli " +
         (worker_version.empty() ? "of an unknown version" : worker_version) + ") has no \"" +
         std::string(op_name(request)) + "\" request: upgrade threadmap-cli on " + host + " to this one's version (" +
         THREADMAP_VERSION + ")";
}

std::string version_problem(const PingResult& ping) {
  if (ping.protocol == kVersion) return "";
  const std::string worker =
      "the worker (threadmap-cli " + (ping.version.empty() ? std::string("of an unknown version") : ping.version) + ")";
  const std::string ours = "this threadmap speaks protocol " + std::to_string(kVersion);
  const std::string theirs = ping.protocol ? "speaks protocol " + std::to_string(*ping.protocol)
                                           : "speaks no protocol version (it is older than protocol versions)";
  return worker + " " + theirs + " and " + ours + ": run the threadmap-cli installed with this threadmap";
}

}  // namespace threadmap::protocol
