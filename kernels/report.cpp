#include "kernels/report.h"

namespace threadmap {

using nlohmann::json;

json to_json(const DeviceInfo& d) {
  return {{"backend", d.backend},
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
  return {{"backend", b.backend}, {"available", b.available}, {"reason", b.reason},
          {"devices", devices}};
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
  return {{"id", v.id},
          {"family", v.family},
          {"title", v.title},
          {"summary", v.summary},
          {"lesson", {{"file", v.lesson.file}, {"section", v.lesson.section},
                      {"language", v.lesson.language}}},
          {"source", v.source},
          {"kernel", v.kernel},
          {"from_lesson", v.lesson_original},
          {"needs_subgroup_shuffle", v.availability == Availability::NeedsSubgroupShuffle},
          {"parameters", params}};
}

json to_json(const Variant& v, const Params& p) {
  json j = json::object();
  for (const ParamSpec& spec : v.params) {
    if (!p.has(spec.name)) continue;
    if (spec.is_choice())
      j[spec.name] = spec.format(p.get(spec.name));
    else
      j[spec.name] = p.get(spec.name);
  }
  return j;
}

json to_json(const TimingStats& t) {
  return {{"median", t.median}, {"min", t.min}, {"max", t.max}, {"samples", t.samples}};
}

json to_json(const ExclusiveSection& s) {
  json j = {{"exclusive", s.exclusive}, {"waited_ms", s.waited_ms}, {"runs_ahead", s.runs_ahead},
            {"start_ns", s.start_ns},   {"end_ns", s.end_ns}};
  if (!s.note.empty()) j["note"] = s.note;
  return j;
}

json to_json(const CopyResult& c, std::uint64_t bytes) {
  json j = {{"bytes", bytes}, {"ms", to_json(c.ms)}, {"bandwidth_gbps", c.bandwidth_gbps},
            {"device_lock", to_json(c.exclusive)}};
  if (!c.error.empty()) j["error"] = c.error;
  return j;
}

json to_json(const RunResult& r) {
  json parameters = json::object();
  if (const Variant* v = find_variant(r.kernel_id)) parameters = to_json(*v, r.params);
  json mismatches = json::array();
  for (const Mismatch& m : r.verification.first)
    mismatches.push_back({{"where", m.where}, {"expected", m.expected}, {"actual", m.actual}});
  json j = {{"kernel", r.kernel_id},
            {"device", to_json(r.device)},
            {"parameters", parameters},
            {"status", status_name(r.status)}};
  if (r.status != RunStatus::Ok) {
    j["error"] = r.error;
    return j;
  }
  j["verification"] = {{"verified", r.verification.verified},
                       {"checked", r.verification.checked},
                       {"mismatches", r.verification.mismatches},
                       {"first_mismatches", mismatches},
                       {"method", r.verification.method}};
  j["timing"] = {{"kernel_ms", to_json(r.kernel_ms)},
                 {"end_to_end_ms", to_json(r.end_to_end_ms)},
                 {"launches_per_run", r.launches},
                 {"runs_per_timed_sample", r.repeats_per_sample},
                 {"device_lock", to_json(r.exclusive)}};
  j["ideal_bytes"] = r.ideal_bytes;
  j["working_set_bytes"] = r.working_set_bytes;
  j["bandwidth_gbps"] = r.bandwidth_gbps;
  j["end_to_end_gbps"] = r.end_to_end_gbps;
  j["cache_resident"] = r.cache_resident;
  if (!r.note.empty()) j["note"] = r.note;
  return j;
}

std::string device_problem(const json& device) {
  if (!device.is_object()) return "a device description is a JSON object";
  for (const auto& [key, value] : device.items()) {
    const bool text = key == "backend" || key == "spec" || key == "name" || key == "vendor" ||
                      key == "platform" || key == "version" || key == "subgroup_note" ||
                      key == "uuid";
    const bool flag = key == "double" || key == "subgroup_shuffle";
    if (text && !value.is_string()) return "device." + key + " must be text";
    if (flag && !value.is_boolean()) return "device." + key + " must be true or false";
    if (!text && !flag && !value.is_number() && !value.is_array()) return "device." + key + " must be a number";
  }
  return {};
}

std::string report_problem(const json& report) {
  if (!report.is_object()) return "a run report is a JSON object";
  auto wrong = [&](const json& j, const char* key, auto is_type) {
    return j.contains(key) && !is_type(j[key]);
  };
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
  const json parameters = report.value("parameters", json::object());
  for (const auto& [name, value] : parameters.items())
    if (!value.is_number_integer() && !value.is_string())
      return "parameter " + name + " must be a whole number or a name";
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
  if (wrong(report, "kernel_ms", is_object)) return "\"kernel_ms\" must be an object";
  for (const char* key : {"median", "min", "max", "samples"})
    if (wrong(report.value("kernel_ms", json::object()), key, is_number))
      return std::string("kernel_ms.") + key + " must be a number";
  const json timing = report.value("timing", json::object());
  if (wrong(timing, "kernel_ms", is_object)) return "timing.kernel_ms must be an object";
  for (const char* key : {"median", "min", "max", "samples"})
    if (wrong(timing.value("kernel_ms", json::object()), key, is_number))
      return std::string("timing.kernel_ms.") + key + " must be a number";
  const json copy = report.value("device_copy", json::object());
  if (wrong(copy, "bandwidth_gbps", is_number)) return "device_copy.bandwidth_gbps must be a number";
  if (wrong(copy, "error", is_string)) return "device_copy.error must be text";
  return {};
}

}  // namespace threadmap
