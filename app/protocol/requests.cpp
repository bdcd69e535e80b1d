#include "app/protocol/requests.h"

#include <array>
#include <type_traits>
#include <variant>

namespace threadmap::protocol {

using nlohmann::json;

namespace {

ProtocolError bad_request(const std::string& message) { return ProtocolError(kBadRequest, message); }
ProtocolError invalid(const std::string& message) { return ProtocolError(kInvalid, message); }

// --- Reading fields: each absent one takes its default, a present one must have its type.

std::string text_field(const json& line, const char* name, const std::string& fallback) {
  const auto it = line.find(name);
  if (it == line.end()) return fallback;
  if (!it->is_string())
    throw bad_request(std::string("\"") + name + "\" must be text (a JSON string); got " + shown(*it));
  return it->get<std::string>();
}

bool flag_field(const json& line, const char* name, bool fallback) {
  const auto it = line.find(name);
  if (it == line.end()) return fallback;
  if (!it->is_boolean()) throw bad_request(std::string("\"") + name + "\" must be true or false; got " + shown(*it));
  return it->get<bool>();
}

int bounded_field(const json& line, const char* name, int fallback, int low, int high) {
  const auto it = line.find(name);
  const json value = it == line.end() ? json(fallback) : *it;
  if (!value.is_number_integer() || value.get<std::int64_t>() < low || value.get<std::int64_t>() > high)
    throw invalid(std::string(name) + "=" + shown(value) + " is out of range: " + name +
                  " must be a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  return value.get<int>();
}

// A parameter's value as --set takes it: a name ("float") or a whole number.
std::string value_text(const std::string& name, const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  throw invalid("parameter " + excerpt(name) + "=" + shown(value) + " must be a whole number or a name (\"float\")");
}

std::map<std::string, std::string> params_field(const json& line) {
  const auto it = line.find("params");
  if (it == line.end()) return {};
  if (!it->is_object()) throw bad_request("\"params\" must be an object, e.g. {\"tile\": 32}");
  std::map<std::string, std::string> params;
  for (const auto& [name, value] : it->items()) params[name] = value_text(name, value);
  return params;
}

struct Repetitions {
  int reps = RunOptions{}.repetitions;
  int warmup = RunOptions{}.warmup;
  std::optional<std::uint64_t> seed;
  std::optional<LearnerSource> source;
};

std::optional<std::uint64_t> seed_field(const json& line) {
  const auto seed = line.find("seed");
  if (seed == line.end()) return std::nullopt;
  if (!seed->is_number_unsigned())
    throw invalid("\"seed\" must be a whole number from 0 to 2^64 - 1; got " + shown(*seed));
  return seed->get<std::uint64_t>();
}

double timeout_field(const json& line, const char* name, double fallback);

Repetitions repetitions_fields(const json& line) {
  Repetitions r;
  r.reps = bounded_field(line, "reps", r.reps, 1, 100000);
  r.warmup = bounded_field(line, "warmup", r.warmup, 0, 1000);
  r.seed = seed_field(line);
  if (const auto source = line.find("source"); source != line.end()) {
    if (!source->is_string() || source->get_ref<const std::string&>().empty())
      throw bad_request("\"source\" must be the kernel's text");
    r.source = LearnerSource{source->get<std::string>(), text_field(line, "source_name", LearnerSource{}.name)};
    if (line.contains("source_timeout")) r.source->timeout = timeout_field(line, "source_timeout", 0);
  }
  return r;
}

// The fields of a KernelRun, read in the order the worker used to check them
// (kernel, params, repetitions, then the device), so one message wins.
KernelRun kernel_run_fields(const json& line) {
  KernelRun run;
  run.kernel = text_field(line, "kernel", "");
  run.params = params_field(line);
  Repetitions r = repetitions_fields(line);
  run.reps = r.reps;
  run.warmup = r.warmup;
  run.seed = r.seed;
  run.source = std::move(r.source);
  return run;
}

std::vector<SweepAxis> vary_field(const json& line) {
  const json vary = line.value("vary", json::object());
  if (!vary.is_object() || vary.empty()) throw bad_request("sweep needs \"vary\": {\"NAME\": [V1, V2, ...]}");
  std::vector<SweepAxis> axes;
  for (const auto& [name, values] : vary.items()) {
    if (!values.is_array() || values.empty()) throw bad_request("vary." + excerpt(name) + " must be a non-empty array");
    SweepAxis axis{name, {}};
    for (const json& value : values) axis.values.push_back(value_text(name, value));
    axes.push_back(std::move(axis));
  }
  return axes;
}

TracedBlocks blocks_field(const json& line) {
  TracedBlocks blocks;
  const json value = line.value("blocks", json());
  if (value == "all") {
    blocks.all = true;
  } else if (value.is_array()) {
    for (const json& b : value) {
      if (!b.is_number_unsigned() || b.get<std::uint64_t>() > 0xffffffffULL)
        throw invalid(
            "blocks: " + shown(b) +
            " is not a block number; give \"all\" or numbers like [0, 1, 64] (block (x, y) is x + gridX * y)");
      blocks.ids.push_back(b.get<std::uint32_t>());
    }
  } else if (!value.is_null()) {
    throw bad_request("\"blocks\" must be \"all\" or an array of block numbers");
  }
  return blocks;
}

// A folder that is not text is as unusable as one that does not exist: the
// worker says the same of both.
std::optional<std::string> folder_field(const json& line) {
  const json folder = line.value("folder", json());
  if (folder.is_null()) return std::nullopt;
  if (!folder.is_string()) throw invalid(folder_problem(folder));
  return folder.get<std::string>();
}

RunRequest run_fields(const json& line) {
  RunRequest r(kernel_run_fields(line));
  r.device_copy = flag_field(line, "device_copy", false);
  r.problems = flag_field(line, "problems", false);
  r.device = text_field(line, "device", "auto");
  return r;
}

CopyRequest copy_fields(const json& line) {
  const json bytes = line.value("bytes", json());
  if (!bytes.is_number_unsigned() || bytes.get<std::uint64_t>() == 0)
    throw invalid("copy needs \"bytes\": a positive whole number");
  CopyRequest c;
  c.bytes = bytes.get<std::uint64_t>();
  c.device = text_field(line, "device", "auto");
  const Repetitions r = repetitions_fields(line);
  c.reps = r.reps;
  c.warmup = r.warmup;
  return c;
}

SweepRequest sweep_fields(const json& line) {
  SweepRequest s;
  s.kernel = text_field(line, "kernel", "");
  s.params = params_field(line);
  s.vary = vary_field(line);
  Repetitions r = repetitions_fields(line);
  s.reps = r.reps;
  s.warmup = r.warmup;
  s.seed = r.seed;
  s.source = std::move(r.source);
  s.device = text_field(line, "device", "auto");
  return s;
}

RecordRequest record_fields(const json& line) {
  RecordRequest r(kernel_run_fields(line));
  r.blocks = blocks_field(line);
  r.folder = folder_field(line);
  r.scratch = flag_field(line, "scratch", false);
  r.stream = flag_field(line, "stream", false);
  r.device = text_field(line, "device", "auto");
  if (line.contains("exercise")) r.exercise = text_field(line, "exercise", "");
  return r;
}

CountersRequest counters_fields(const json& line) {
  CountersRequest c(kernel_run_fields(line));
  if (line.contains("blocks")) c.blocks = blocks_field(line);
  c.device = text_field(line, "device", "auto");
  return c;
}

std::vector<Submission> submissions_field(const json& line) {
  const json list = line.value("submissions", json());
  // An empty list still checks the exercise and the device: every file given was unreadable.
  if (!list.is_array())
    throw bad_request("check needs \"submissions\": [{\"file\": \"NAME.cl\", \"text\": \"...\"}, ...]");
  std::vector<Submission> submissions;
  for (const json& item : list) {
    if (!item.is_object())
      throw bad_request("a submission is an object {\"file\": NAME, \"text\": TEXT}; got " + shown(item));
    Submission s{text_field(item, "file", ""), text_field(item, "text", "")};
    if (s.file.empty() || s.text.empty()) throw bad_request("a submission needs its \"file\" name and its \"text\"");
    submissions.push_back(std::move(s));
  }
  return submissions;
}

double timeout_field(const json& line, const char* name = "timeout", double fallback = CheckRequest{}.timeout) {
  const json value = line.value(name, json(fallback));
  if (!value.is_number() || !(value.get<double>() >= 0.1 && value.get<double>() <= 3600))
    throw invalid(std::string(name) + "=" + shown(value) + " is out of range: " + name +
                  " must be a number of seconds from 0.1 to 3600");
  return value.get<double>();
}

CheckRequest check_fields(const json& line) {
  CheckRequest c;
  c.exercise = text_field(line, "exercise", "");
  c.device = text_field(line, "device", "auto");
  c.submissions = submissions_field(line);
  c.timeout = timeout_field(line);
  c.reps = bounded_field(line, "reps", c.reps, 1, 1000);
  c.seed = seed_field(line);
  return c;
}

DoctorRequest doctor_fields(const json& line) { return {text_field(line, "architectures", "")}; }

BenchRequest bench_fields(const json& line) {
  BenchRequest b;
  b.device = text_field(line, "device", "auto");
  const json size = line.value("size", json(0));
  if (!size.is_number_integer() || size.get<std::int64_t>() < 0 || size.get<std::int64_t>() > 32768)
    throw invalid("size=" + shown(size) + " is out of range: size must be a whole number from 0 to 32768");
  b.size = size.get<std::int64_t>();
  b.params = params_field(line);
  const Repetitions r = repetitions_fields(line);
  b.reps = r.reps;
  b.warmup = r.warmup;
  b.seed = r.seed;
  return b;
}

CancelRequest cancel_fields(const json& line) {
  const auto target = line.find("target");
  if (target != line.end() && !target->is_null() && id_problem(*target).empty()) return {*target};
  throw bad_request("cancel needs \"target\": the id (a number or a string of at most " + std::to_string(kMaxIdBytes) +
                    " bytes) of a queued or running request" + (target == line.end() ? "" : "; got " + shown(*target)));
}

// --- Writing.

void put_kernel_run(json& j, const KernelRun& run) {
  j["kernel"] = run.kernel;
  j["device"] = run.device;
  j["params"] = run.params;
  j["reps"] = run.reps;
  j["warmup"] = run.warmup;
  if (run.seed) j["seed"] = *run.seed;
  if (run.source) {
    j["source"] = run.source->text;
    j["source_name"] = run.source->name;
    if (run.source->timeout > 0) j["source_timeout"] = run.source->timeout;
  }
}

json fields_of(const PingRequest& p) {
  json j = json::object();
  if (p.protocol) j["protocol"] = *p.protocol;
  return j;
}

PingRequest ping_fields(const json& line) {
  PingRequest p;
  p.protocol.reset();
  if (line.contains("protocol")) p.protocol = bounded_field(line, "protocol", kVersion, 0, 1 << 30);
  return p;
}
json fields_of(const DevicesRequest&) { return json::object(); }
json fields_of(const ListRequest&) { return json::object(); }
json fields_of(const QuitRequest&) { return json::object(); }

json fields_of(const RunRequest& r) {
  json j;
  put_kernel_run(j, r);
  if (r.device_copy) j["device_copy"] = true;
  if (r.problems) j["problems"] = true;
  return j;
}

json fields_of(const CopyRequest& c) {
  return {{"device", c.device}, {"bytes", c.bytes}, {"reps", c.reps}, {"warmup", c.warmup}};
}

json fields_of(const SweepRequest& s) {
  json j;
  put_kernel_run(j, s);
  json vary = json::object();
  for (const SweepAxis& axis : s.vary) vary[axis.name] = axis.values;
  j["vary"] = vary;
  return j;
}

json fields_of(const RecordRequest& r) {
  json j;
  put_kernel_run(j, r);
  if (r.blocks.all) j["blocks"] = "all";
  else if (!r.blocks.ids.empty()) j["blocks"] = r.blocks.ids;
  if (r.folder) j["folder"] = *r.folder;
  if (r.scratch) j["scratch"] = true;
  if (r.stream) j["stream"] = true;
  if (r.exercise) j["exercise"] = *r.exercise;
  return j;
}

json fields_of(const CancelRequest& c) { return {{"target", c.target}}; }

json fields_of(const CountersRequest& c) {
  json j;
  put_kernel_run(j, c);
  if (c.blocks.all) j["blocks"] = "all";
  else j["blocks"] = c.blocks.ids;  // an empty list: the few blocks that show the pattern
  return j;
}

json fields_of(const CheckRequest& c) {
  json submissions = json::array();
  for (const Submission& s : c.submissions) submissions.push_back({{"file", s.file}, {"text", s.text}});
  json j = {{"exercise", c.exercise},
            {"device", c.device},
            {"submissions", submissions},
            {"timeout", c.timeout},
            {"reps", c.reps}};
  if (c.seed) j["seed"] = *c.seed;
  return j;
}

json fields_of(const DoctorRequest& d) { return {{"architectures", d.architectures}}; }

json fields_of(const BenchRequest& b) {
  json j = {{"device", b.device}, {"size", b.size}, {"params", b.params}, {"reps", b.reps}, {"warmup", b.warmup}};
  if (b.seed) j["seed"] = *b.seed;
  return j;
}

json fields_of(const PackRequest& p) { return {{"folder", p.folder}, {"manifest", p.manifest}, {"files", p.files}}; }

PackRequest pack_fields(const json& line) {
  PackRequest p;
  p.folder = text_field(line, "folder", "");
  p.manifest = text_field(line, "manifest", "");
  if (p.folder.empty() || p.manifest.empty())
    throw bad_request("pack needs \"folder\" and \"manifest\" (pack.toml's text)");
  const json files = line.value("files", json::object());
  if (!files.is_object()) throw bad_request("\"files\" must be an object: {\"NAME.cl\": \"its text\"}");
  for (const auto& [name, text] : files.items()) {
    if (!text.is_string()) throw bad_request("files." + excerpt(name) + " must be the file's text");
    p.files[name] = text.get<std::string>();
  }
  return p;
}

template <typename T>
Request without_fields(const json&) {
  return T{};
}

// Every op: its name on the wire and its reader, in Request's order.
struct Op {
  std::string_view name;
  Request (*read)(const json& line);
};
constexpr std::array<Op, std::variant_size_v<Request>> kOps = {{
    {"ping", [](const json& line) -> Request { return ping_fields(line); }},
    {"devices", without_fields<DevicesRequest>},
    {"list", without_fields<ListRequest>},
    {"run", [](const json& line) -> Request { return run_fields(line); }},
    {"copy", [](const json& line) -> Request { return copy_fields(line); }},
    {"sweep", [](const json& line) -> Request { return sweep_fields(line); }},
    {"record", [](const json& line) -> Request { return record_fields(line); }},
    {"cancel", [](const json& line) -> Request { return cancel_fields(line); }},
    {"quit", without_fields<QuitRequest>},
    {"counters", [](const json& line) -> Request { return counters_fields(line); }},
    {"check", [](const json& line) -> Request { return check_fields(line); }},
    {"doctor", [](const json& line) -> Request { return doctor_fields(line); }},
    {"bench", [](const json& line) -> Request { return bench_fields(line); }},
    {"pack", [](const json& line) -> Request { return pack_fields(line); }},
}};

}  // namespace

std::string folder_problem(const json& folder) { return "folder " + shown(folder) + " is not an existing folder"; }

std::string_view op_name(const Request& request) { return kOps[request.index()].name; }

std::string op_names() {
  std::string names;
  for (const Op& op : kOps) names += (names.empty() ? "" : ", ") + std::string(op.name);
  return names;
}

RequestId id_of(const json& line) { return line.is_object() ? line.value("id", json()) : json(); }

json to_json(const Request& request, const RequestId& id) {
  json j = std::visit([](const auto& r) { return fields_of(r); }, request);
  j["id"] = id;
  j["op"] = op_name(request);
  return j;
}

Request parse_request(const json& line) {
  const std::string op = text_field(line, "op", "");
  for (const Op& known : kOps)
    if (known.name == op) return known.read(line);
  throw bad_request("unknown op '" + excerpt(op) + "'; ops: " + op_names());
}

double source_timeout(const Request& request) {
  return std::visit(
      [](const auto& r) -> double {
        if constexpr (std::is_base_of_v<KernelRun, std::decay_t<decltype(r)>>)
          return r.source ? r.source->timeout : 0;
        else
          return 0;
      },
      request);
}

}  // namespace threadmap::protocol
