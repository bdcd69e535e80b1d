#include "kernels/core/report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace threadmap {

// The run status as reports, sessions and the protocol name it (declared in runner.h).
std::string_view status_name(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Invalid: return "invalid";
    case RunStatus::Unavailable: return "unavailable";
    case RunStatus::DeviceFailure: return "device-failure";
  }
  return "ok";
}

using nlohmann::json;

json to_json(const DeviceInfo& d) {
  return {{"backend", d.backend},
          {"dialect", dialect_key(d.dialect)},
          {"kernel_clocks", d.kernel_clocks},
          {"spec", d.spec},
          {"name", d.name},
          {"vendor", d.vendor},
          {"platform", d.platform},
          {"version", d.version},
          {"global_memory_bytes", d.global_memory_bytes},
          {"max_allocation_bytes", d.max_allocation_bytes},
          {"local_memory_bytes", d.local_memory_bytes},
          {"last_level_cache_bytes", d.last_level_cache_bytes},
          {"max_group_size", d.max_group_size},
          {"max_group_dims", d.max_group_dims},
          {"max_grid_groups", d.max_grid_groups},
          {"compute_units", d.compute_units},
          {"warp_width", d.warp_width},
          {"double", d.has_double},
          {"subgroup_shuffle", d.has_subgroup_shuffle},
          {"subgroup_note", d.subgroup_note},
          {"timer_resolution_ns", d.timer_resolution_ns},
          {"uuid", d.uuid}};
}

json to_json(const BackendReport& b) {
  json devices = json::array();
  for (const DeviceInfo& d : b.devices) devices.push_back(to_json(d));
  return {{"backend", b.backend}, {"available", b.available}, {"reason", b.reason}, {"devices", devices}};
}

json to_json(const ParamSpec& p) {
  json j = {{"name", p.name}, {"meaning", p.meaning}, {"range", p.describe_range()}};
  if (p.is_choice()) {
    j["choices"] = p.choices;
    j["default"] = p.format(p.default_value);
  } else {
    j["min"] = p.min;
    j["max"] = p.max;
    j["default"] = p.default_value;
    if (!p.allowed.empty()) j["allowed"] = p.allowed;
  }
  return j;
}

json to_json(const Variant& v) {
  json params = json::array();
  for (const ParamSpec& p : v.params) params.push_back(to_json(p));
  json dialects = json::array();  // the languages its kernel is written in
  for (Dialect d : v.dialects) dialects.push_back(std::string(dialect_key(d)));
  return {{"id", v.id},
          {"family", v.family},
          {"title", v.title},
          {"summary", v.summary},
          {"lesson", {{"file", v.lesson.file}, {"section", v.lesson.section}, {"language", v.lesson.language}}},
          {"source", v.source},
          {"kernel", v.kernel},
          {"from_lesson", v.lesson_original},
          {"needs_subgroup_shuffle", v.availability == Availability::NeedsSubgroupShuffle},
          {"dialects", dialects},
          {"parameters", params}};
}

ReportParameters report_parameters(const Variant& v, const Params& p) {
  ReportParameters out;
  for (const ParamSpec& spec : v.params) {
    if (!p.has(spec.name)) continue;
    const std::int64_t value = p.get(spec.name);
    out[spec.name] = spec.is_choice() ? ReportValue(spec.format(value)) : ReportValue(value);
  }
  return out;
}

json to_json(const ReportParameters& p) {
  json j = json::object();
  for (const auto& [name, value] : p)
    j[name] = std::holds_alternative<std::int64_t>(value) ? json(std::get<std::int64_t>(value))
                                                          : json(std::get<std::string>(value));
  return j;
}

json to_json(const Variant& v, const Params& p) { return to_json(report_parameters(v, p)); }

json to_json(const TimingStats& t) {
  return {{"median", t.median}, {"min", t.min}, {"max", t.max}, {"samples", t.samples}};
}

json to_json(const ExclusiveSection& s) {
  json j = {{"exclusive", s.exclusive},
            {"waited_ms", s.waited_ms},
            {"runs_ahead", s.runs_ahead},
            {"start_ns", s.start_ns},
            {"end_ns", s.end_ns},
            {"busy", s.busy}};
  if (s.others_cores >= 0) {
    j["others_cores"] = std::round(s.others_cores * 100) / 100;
    j["cores"] = s.cores;
  }
  if (!s.note.empty()) j["note"] = s.note;
  return j;
}

json to_json(const Verification& v) {
  json mismatches = json::array();
  for (const Mismatch& m : v.first)
    mismatches.push_back({{"where", m.where}, {"expected", m.expected}, {"actual", m.actual}});
  return {{"verified", v.verified},
          {"checked", v.checked},
          {"mismatches", v.mismatches},
          {"first_mismatches", mismatches},
          {"method", v.method}};
}

CopyReport make_copy_report(const CopyResult& c, std::uint64_t bytes) {
  return {bytes, c.ms, c.bandwidth_gbps, c.error, c.exclusive};
}

json to_json(const CopyReport& c) {
  json j = {{"bytes", c.bytes}, {"ms", to_json(c.ms)}, {"bandwidth_gbps", c.bandwidth_gbps}};
  if (c.device_lock) j["device_lock"] = to_json(*c.device_lock);
  if (!c.error.empty()) j["error"] = c.error;
  return j;
}

json to_json(const CopyResult& c, std::uint64_t bytes) { return to_json(make_copy_report(c, bytes)); }

RunReport make_report(const RunResult& r, const Variant& variant) {
  RunReport report;
  report.kernel = r.kernel_id;
  report.status = status_name(r.status);
  report.device = r.device;
  report.parameters = report_parameters(variant, r.params);
  if (r.status != RunStatus::Ok) {
    report.error = r.error;
    return report;
  }
  report.verification = r.verification;
  report.timing = ReportTiming{r.kernel_ms, r.end_to_end_ms, r.launches, r.repeats_per_sample, r.exclusive};
  report.ideal_bytes = r.ideal_bytes;
  report.working_set_bytes = r.working_set_bytes;
  report.bandwidth_gbps = r.bandwidth_gbps;
  report.end_to_end_gbps = r.end_to_end_gbps;
  report.cache_resident = r.cache_resident;
  report.note = r.note;
  return report;
}

std::string value_text(const ReportValue& value) {
  if (const auto* number = std::get_if<std::int64_t>(&value)) return std::to_string(*number);
  return std::get<std::string>(value);
}

json to_json(const RunReport& r) {
  json j = {
      {"kernel", r.kernel}, {"device", to_json(r.device)}, {"parameters", to_json(r.parameters)}, {"status", r.status}};
  if (r.device_copy) j["device_copy"] = to_json(*r.device_copy);
  if (!r.ok()) {
    j["error"] = r.error;
    return j;
  }
  if (r.verification) j["verification"] = to_json(*r.verification);
  if (r.timing)
    j["timing"] = {{"kernel_ms", to_json(r.timing->kernel_ms)},
                   {"end_to_end_ms", to_json(r.timing->end_to_end_ms)},
                   {"launches_per_run", r.timing->launches_per_run},
                   {"runs_per_timed_sample", r.timing->runs_per_timed_sample},
                   {"device_lock", to_json(r.timing->device_lock)}};
  j["ideal_bytes"] = r.ideal_bytes;
  j["working_set_bytes"] = r.working_set_bytes;
  j["bandwidth_gbps"] = r.bandwidth_gbps;
  j["end_to_end_gbps"] = r.end_to_end_gbps;
  j["cache_resident"] = r.cache_resident;
  if (!r.note.empty()) j["note"] = r.note;
  return j;
}


namespace {

// Empty when `parent[key]`, if there, is {median, min, max, samples} of numbers.
std::string stats_problem(const json& parent, const char* key, const std::string& prefix) {
  const auto it = parent.find(key);
  if (it == parent.end() || !it->is_object()) return {};
  for (const char* field : {"median", "min", "max", "samples"})
    if (it->contains(field) && !(*it)[field].is_number()) return prefix + key + "." + field + " must be a number";
  return {};
}

// Empty when `copy` has the shape of to_json(CopyReport) (each field it has, with its type).
std::string copy_problem(const json& copy, const std::string& prefix) {
  if (copy.contains("bytes") && !copy["bytes"].is_number_unsigned())
    return prefix + "bytes must be a whole number of bytes";
  if (copy.contains("ms") && !copy["ms"].is_object()) return prefix + "ms must be an object";
  if (const std::string problem = stats_problem(copy, "ms", prefix); !problem.empty()) return problem;
  if (copy.contains("bandwidth_gbps") && !copy["bandwidth_gbps"].is_number())
    return prefix + "bandwidth_gbps must be a number";
  if (copy.contains("error") && !copy["error"].is_string()) return prefix + "error must be text";
  return {};
}

}  // namespace

std::string device_problem(const json& device) {
  if (!device.is_object()) return "a device description is a JSON object";
  for (const auto& [key, value] : device.items()) {
    const bool text = key == "backend" || key == "spec" || key == "name" || key == "vendor" || key == "platform" ||
                      key == "version" || key == "subgroup_note" || key == "uuid" || key == "dialect";
    const bool flag = key == "double" || key == "subgroup_shuffle" || key == "kernel_clocks";
    if (text && !value.is_string()) return "device." + key + " must be text";
    if (key == "dialect" && !dialect_from_key(value.get<std::string>()))
      return "device.dialect names no dialect ThreadMap knows";
    if (flag && !value.is_boolean()) return "device." + key + " must be true or false";
    if (!text && !flag && !value.is_number() && !value.is_array()) return "device." + key + " must be a number";
  }
  return {};
}

namespace {

std::string parameters_problem(const json& parameters) {
  if (!parameters.is_object()) return "the parameters must be an object";
  for (const auto& [name, value] : parameters.items())
    if (!value.is_number_integer() && !value.is_string())
      return "parameter " + name + " must be a whole number or a name";
  return "";
}

}  // namespace

std::string report_problem(const json& report) {
  if (!report.is_object()) return "a run report is a JSON object";
  auto wrong = [&](const json& j, const char* key, auto is_type) { return j.contains(key) && !is_type(j[key]); };
  const auto is_string = [](const json& v) { return v.is_string(); };
  const auto is_number = [](const json& v) { return v.is_number(); };
  const auto is_object = [](const json& v) { return v.is_object(); };
  const auto is_bool = [](const json& v) { return v.is_boolean(); };
  for (const char* key : {"kernel", "status"})
    if (!report.contains(key) || !report[key].is_string())
      return std::string("a run report needs \"") + key + "\" as text";
  for (const char* key : {"error", "note"})
    if (wrong(report, key, is_string)) return std::string("\"") + key + "\" must be text";
  for (const char* key : {"bandwidth_gbps", "end_to_end_gbps"})
    if (wrong(report, key, is_number)) return std::string("\"") + key + "\" must be a number";
  // Byte counts are read as whole numbers: 1e300 is no count.
  const auto is_count = [](const json& v) { return v.is_number_unsigned(); };
  for (const char* key : {"ideal_bytes", "working_set_bytes"})
    if (wrong(report, key, is_count)) return std::string("\"") + key + "\" must be a whole number of bytes";
  for (const char* key : {"device", "parameters", "verification", "timing", "device_copy"})
    if (wrong(report, key, is_object)) return std::string("\"") + key + "\" must be an object";
  if (wrong(report, "cache_resident", is_bool)) return "\"cache_resident\" must be true or false";
  if (report.contains("device"))
    if (const std::string problem = device_problem(report["device"]); !problem.empty()) return problem;
  if (const std::string problem = parameters_problem(report.value("parameters", json::object())); !problem.empty())
    return problem;
  const json verification = report.value("verification", json::object());
  if (wrong(verification, "verified", is_bool)) return "verification.verified must be true or false";
  for (const char* key : {"checked", "mismatches"})
    if (wrong(verification, key, is_number)) return std::string("verification.") + key + " must be a number";
  if (verification.contains("first_mismatches")) {
    if (!verification["first_mismatches"].is_array()) return "verification.first_mismatches must be a list";
    for (const json& m : verification["first_mismatches"])
      for (const char* key : {"where", "expected", "actual"})
        if (!m.is_object() || !m.contains(key) || !m[key].is_string())
          return std::string("each first mismatch needs \"") + key + "\" as text";
  }
  if (wrong(verification, "method", is_string)) return "verification.method must be text";
  if (wrong(report, "kernel_ms", is_object)) return "\"kernel_ms\" must be an object";
  if (const std::string problem = stats_problem(report, "kernel_ms", ""); !problem.empty()) return problem;
  const json timing = report.value("timing", json::object());
  for (const char* key : {"kernel_ms", "end_to_end_ms"}) {
    if (wrong(timing, key, is_object)) return std::string("timing.") + key + " must be an object";
    if (const std::string problem = stats_problem(timing, key, "timing."); !problem.empty()) return problem;
  }
  for (const char* key : {"launches_per_run", "runs_per_timed_sample"})
    if (wrong(timing, key, is_number)) return std::string("timing.") + key + " must be a number";
  return copy_problem(report.value("device_copy", json::object()), "device_copy.");
}

// --- Readers. The shape was checked first (the *_problem functions), so a
// field is either absent or of its type; numbers are still converted with
// care, since a number's type says nothing of its size (1e300, -1).

namespace {

std::uint64_t count_of(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (!v.is_number()) return 0;
  const double d = v.get<double>();
  if (!(d > 0)) return 0;
  return d >= 18446744073709551615.0 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(d);
}

int whole_of(const json& v, int fallback) {
  if (!v.is_number()) return fallback;
  const double d =
      std::clamp(v.get<double>(), double{std::numeric_limits<int>::min()}, double{std::numeric_limits<int>::max()});
  return static_cast<int>(d);
}

std::uint64_t count_or(const json& j, const char* key, std::uint64_t fallback = 0) {
  const auto it = j.find(key);
  return it == j.end() ? fallback : count_of(*it);
}

int whole_or(const json& j, const char* key, int fallback = 0) {
  const auto it = j.find(key);
  return it == j.end() ? fallback : whole_of(*it, fallback);
}

double number_or(const json& j, const char* key, double fallback = 0) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string text_or(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool flag_or(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// {median, min, max, samples}; an absent or mistyped one reads as zero.
TimingStats stats_from(const json& j) {
  if (!j.is_object()) return {};
  return {number_or(j, "median"), number_or(j, "min"), number_or(j, "max"), whole_or(j, "samples")};
}

template <typename T>
std::array<T, 3> three_of(const json& j, const char* key) {
  std::array<T, 3> out{};
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (std::size_t i = 0; i < out.size() && i < it->size(); ++i) out[i] = static_cast<T>(count_of((*it)[i]));
  return out;
}

ExclusiveSection lock_from(const json& j) {
  if (!j.is_object()) return {};
  return {flag_or(j, "exclusive"),
          number_or(j, "waited_ms"),
          whole_or(j, "runs_ahead"),
          static_cast<std::int64_t>(count_or(j, "start_ns")),
          static_cast<std::int64_t>(count_or(j, "end_ns")),
          text_or(j, "note"),
          number_or(j, "others_cores", -1.0),
          whole_or(j, "cores"),
          flag_or(j, "busy")};
}

ReportTiming timing_from(const json& j) {
  return {stats_from(j.value("kernel_ms", json())), stats_from(j.value("end_to_end_ms", json())),
          whole_or(j, "launches_per_run"), whole_or(j, "runs_per_timed_sample", 1),
          lock_from(j.value("device_lock", json()))};
}

}  // namespace

Verification verification_from_json(const json& j) {
  Verification v;
  if (!j.is_object()) return v;
  v.verified = flag_or(j, "verified");
  v.checked = count_or(j, "checked");
  v.mismatches = count_or(j, "mismatches");
  v.method = text_or(j, "method");
  const json first = j.value("first_mismatches", json::array());
  if (first.is_array())
    for (const json& m : first)
      if (m.is_object()) v.first.push_back({text_or(m, "where"), text_or(m, "expected"), text_or(m, "actual")});
  return v;
}

DeviceInfo device_from_json(const json& j) {
  if (const std::string problem = device_problem(j); !problem.empty()) throw ReportError(problem);
  DeviceInfo d;
  d.backend = text_or(j, "backend");
  // Reports written before devices named their dialect: each backend's
  // dialect was its namesake.
  d.dialect = dialect_from_key(text_or(j, "dialect")).value_or(named_dialect(d.backend));
  d.kernel_clocks = flag_or(j, "kernel_clocks");
  d.spec = text_or(j, "spec");
  d.name = text_or(j, "name");
  d.vendor = text_or(j, "vendor");
  d.platform = text_or(j, "platform");
  d.version = text_or(j, "version");
  d.global_memory_bytes = count_or(j, "global_memory_bytes");
  d.max_allocation_bytes = count_or(j, "max_allocation_bytes");
  d.local_memory_bytes = count_or(j, "local_memory_bytes");
  d.last_level_cache_bytes = count_or(j, "last_level_cache_bytes");
  d.max_group_size = count_or(j, "max_group_size");
  d.max_group_dims = three_of<std::size_t>(j, "max_group_dims");
  d.max_grid_groups = three_of<std::uint64_t>(j, "max_grid_groups");
  d.compute_units = whole_or(j, "compute_units");
  d.warp_width = whole_or(j, "warp_width");
  d.has_double = flag_or(j, "double");
  d.has_subgroup_shuffle = flag_or(j, "subgroup_shuffle");
  d.subgroup_note = text_or(j, "subgroup_note");
  d.timer_resolution_ns = number_or(j, "timer_resolution_ns");
  d.uuid = text_or(j, "uuid");
  return d;
}

BackendReport backend_from_json(const json& j) {
  if (!j.is_object()) throw ReportError("a backend is a JSON object");
  for (const char* key : {"backend", "reason"})
    if (j.contains(key) && !j[key].is_string()) throw ReportError(std::string("backend.") + key + " must be text");
  if (j.contains("available") && !j["available"].is_boolean())
    throw ReportError("backend.available must be true or false");
  const json devices = j.value("devices", json::array());
  if (!devices.is_array()) throw ReportError("backend.devices must be a list");
  BackendReport b{text_or(j, "backend"), flag_or(j, "available"), text_or(j, "reason"), {}};
  for (const json& d : devices) b.devices.push_back(device_from_json(d));
  return b;
}

CopyReport copy_from_json(const json& j) {
  if (!j.is_object()) throw ReportError("a device copy is a JSON object");
  if (const std::string problem = copy_problem(j, ""); !problem.empty()) throw ReportError(problem);
  CopyReport c{count_or(j, "bytes"), stats_from(j.value("ms", json())), number_or(j, "bandwidth_gbps"),
               text_or(j, "error"), std::nullopt};
  if (j.contains("device_lock")) c.device_lock = lock_from(j["device_lock"]);
  return c;
}

ReportParameters parameters_from_json(const json& parameters) {
  if (const std::string problem = parameters_problem(parameters); !problem.empty()) throw ReportError(problem);
  ReportParameters out;
  for (const auto& [name, value] : parameters.items())
    out[name] = value.is_string() ? ReportValue(value.get<std::string>()) : ReportValue(value.get<std::int64_t>());
  return out;
}

RunReport report_from_json(const json& j) {
  if (const std::string problem = report_problem(j); !problem.empty()) throw ReportError(problem);
  RunReport r;
  r.kernel = text_or(j, "kernel");
  r.status = text_or(j, "status");
  r.error = text_or(j, "error");
  if (j.contains("device")) r.device = device_from_json(j["device"]);
  r.parameters = parameters_from_json(j.value("parameters", json::object()));
  if (j.contains("verification")) r.verification = verification_from_json(j["verification"]);
  if (j.contains("timing")) r.timing = timing_from(j["timing"]);
  r.ideal_bytes = count_or(j, "ideal_bytes");
  r.working_set_bytes = count_or(j, "working_set_bytes");
  r.bandwidth_gbps = number_or(j, "bandwidth_gbps");
  r.end_to_end_gbps = number_or(j, "end_to_end_gbps");
  r.cache_resident = flag_or(j, "cache_resident");
  r.note = text_or(j, "note");
  if (j.contains("device_copy")) r.device_copy = copy_from_json(j["device_copy"]);
  return r;
}

std::optional<RunReport> report_if_any(const json& run) {
  if (!run.is_object() || run.empty()) return std::nullopt;
  try {
    return report_from_json(run);
  } catch (const ReportError&) {
    return std::nullopt;
  }
}

DeviceInfo device_or_default(const json& device) {
  try {
    return device_from_json(device);
  } catch (const ReportError&) {
    return {};
  }
}

}  // namespace threadmap
