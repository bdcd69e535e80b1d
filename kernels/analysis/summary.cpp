#include "kernels/analysis/summary.h"

#include <algorithm>
#include <utility>

#include "kernels/core/json_fields.h"

namespace threadmap::analysis {

using nlohmann::json;

namespace {

BarrierSummary summarize_barriers(const Trace& t, const Analysis& a) {
  const BarrierStats& st = a.barrier_stats;
  BarrierSummary b;
  b.passes = a.barrier_pass_count();
  b.clock = t.barrier_clock;
  b.timing_from = st.from;
  b.timed_passes = st.passes;
  b.timed_blocks = st.blocks;
  b.arrival_spread_median = BarrierStats::median(st.spreads);
  b.widest_spread = st.spreads.empty() ? 0 : st.spreads.back();
  if (!st.release_latencies.empty()) {
    b.release_latency_median = BarrierStats::median(st.release_latencies);
    b.release_latency_max = st.release_latencies.back();
  }
  if (st.passes) {
    b.most_often_last_warp = st.most_often_last();
    b.most_often_last_share = st.most_often_last_share();
  }
  if (t.sm_clock_mhz > 0) b.sm_clock_mhz = t.sm_clock_mhz;
  b.release_after_arrivals = a.barriers_consistent;
  return b;
}

ScheduleSummary summarize_schedule(const Trace& t, const Analysis& a) {
  std::uint32_t most = 0;
  for (const SmLoad& s : a.sms) most = std::max(most, s.most_at_once);
  return {t.schedule_clock, t.timing_pass, a.kernel_start, a.kernel_end, a.sms.size(), most};
}

}  // namespace

Summary summarize(const Trace& t, const Analysis& a) {
  Summary s;
  s.model = a.model;
  s.whole_grid = a.whole_grid;
  s.traced_blocks = t.traced_blocks.size();
  s.grid_blocks = t.block_count();
  s.requests = a.request_count();
  s.totals = a.totals;
  s.sites = a.sites;
  s.blocks = a.blocks;
  s.barriers = summarize_barriers(t, a);
  s.schedule = summarize_schedule(t, a);
  s.problems = reports_of(a.problems, t);
  return s;
}

// --- Writing.

json to_json(const Counters& c) {
  json out = {{"accesses", c.accesses},
          {"smsp__inst_executed_op_shared_ld.sum", c.shared_ld_requests},
          {"smsp__inst_executed_op_shared_st.sum", c.shared_st_requests},
          {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", c.shared_ld_wavefronts},
          {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", c.shared_st_wavefronts},
          {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", c.shared_ld_conflicts()},
          {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", c.shared_st_conflicts()},
          {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", c.global_ld_requests},
          {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", c.global_st_requests},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", c.global_ld_sectors},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", c.global_st_sectors},
          {"ideal_shared_ld_wavefronts", c.shared_ld_ideal_wavefronts},
          {"ideal_shared_st_wavefronts", c.shared_st_ideal_wavefronts},
          {"ideal_global_ld_sectors", c.global_ld_ideal_sectors},
          {"ideal_global_st_sectors", c.global_st_ideal_sectors},
          {"smsp__inst_executed_op_shared_atom.sum", c.shared_atom_requests},
          {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", c.shared_atom_wavefronts},
          {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", c.shared_atom_conflicts()},
          {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", c.global_atom_requests},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", c.global_atom_sectors},
          {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", c.global_red_requests},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", c.global_red_sectors},
          {"ideal_shared_atom_wavefronts", c.shared_atom_ideal_wavefronts},
          {"ideal_global_atom_sectors", c.global_atom_ideal_sectors},
          {"ideal_global_red_sectors", c.global_red_ideal_sectors}};
  // Where the launching runtime made global accesses of its own (OpenMP).
  if (c.runtime.any()) {
    out["runtime_global_ld_requests"] = c.runtime.ld_requests;
    out["runtime_global_ld_sectors"] = c.runtime.ld_sectors;
    out["runtime_global_st_requests"] = c.runtime.st_requests;
    out["runtime_global_st_sectors"] = c.runtime.st_sectors;
  }
  return out;
}

json to_json(const BlockTotals& b) { return {{"block", b.block}, {"counters", to_json(b.counters)}}; }

namespace {

// A value that may be unknown: null then.
template <typename T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json to_json(const BarrierSummary& b) {
  return {{"passes", b.passes},
          {"clock", b.clock},
          {"timing_from", b.timing_from},
          {"timed_passes", b.timed_passes},
          {"timed_blocks", b.timed_blocks},
          {"arrival_spread_median", b.arrival_spread_median},
          {"widest_spread", b.widest_spread},
          {"release_latency_median", or_null(b.release_latency_median)},
          {"release_latency_max", or_null(b.release_latency_max)},
          {"most_often_last_warp", or_null(b.most_often_last_warp)},
          {"most_often_last_share", or_null(b.most_often_last_share)},
          {"sm_clock_mhz", or_null(b.sm_clock_mhz)},
          {"release_after_arrivals", b.release_after_arrivals}};
}

json to_json(const ScheduleSummary& s) {
  return {{"clock", s.clock},
          {"from", s.from},
          {"kernel_start", s.kernel_start},
          {"kernel_end", s.kernel_end},
          {"sms_used", s.sms_used},
          {"most_blocks_on_one_sm_at_once", s.most_blocks_on_one_sm_at_once}};
}

json to_json(const SiteTotals& s) {
  return {{"line", s.line},
          {"space", s.space == Space::Shared ? "shared" : "global"},
          {"store", s.store},
          {"atomic", s.atomic},
          {"text", s.text},
          {"merged", s.merged},
          {"counters", to_json(s.counters)}};
}

json to_json(const DeviceModel& m) {
  return {{"warp_width", m.warp_width},
          {"banks", m.banks},
          {"bank_bytes", m.bank_bytes},
          {"sector_bytes", m.sector_bytes},
          {"source", m.source}};
}

}  // namespace

json to_json(const Summary& s, const char* blocks_placeholder) {
  json sites = json::array();
  for (const SiteTotals& site : s.sites) sites.push_back(to_json(site));
  json blocks = json::array();
  if (blocks_placeholder) blocks = blocks_placeholder;
  else
    for (const BlockTotals& b : s.blocks) blocks.push_back(to_json(b));
  return {{"model", to_json(s.model)},
          {"whole_grid", s.whole_grid},
          {"traced_blocks", s.traced_blocks},
          {"grid_blocks", s.grid_blocks},
          {"requests", s.requests},
          {"totals", to_json(s.totals)},
          {"sites", sites},
          {"blocks", blocks},
          {"barriers", to_json(s.barriers)},
          {"schedule", to_json(s.schedule)},
          {"problems", to_json(s.problems)}};
}

json summary_json(const Trace& t, const Analysis& a) { return to_json(summarize(t, a)); }

// --- Reading.

namespace {

Counters counters_from(const json& counters, const std::string& what) {
  const JsonFields f(counters, what);
  Counters c;
  c.accesses = f.count("accesses");
  c.shared_ld_requests = f.count("smsp__inst_executed_op_shared_ld.sum");
  c.shared_st_requests = f.count("smsp__inst_executed_op_shared_st.sum");
  c.shared_ld_wavefronts = f.count("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  c.shared_st_wavefronts = f.count("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  c.global_ld_requests = f.count("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  c.global_st_requests = f.count("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  c.global_ld_sectors = f.count("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  c.global_st_sectors = f.count("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
  c.shared_ld_ideal_wavefronts = f.count("ideal_shared_ld_wavefronts");
  c.shared_st_ideal_wavefronts = f.count("ideal_shared_st_wavefronts");
  c.global_ld_ideal_sectors = f.count("ideal_global_ld_sectors");
  c.global_st_ideal_sectors = f.count("ideal_global_st_sectors");
  // Replies from a worker that traced no atomics have none of these.
  const auto maybe = [&](const char* key) { return f.maybe_count(key).value_or(0); };
  c.shared_atom_requests = maybe("smsp__inst_executed_op_shared_atom.sum");
  c.shared_atom_wavefronts = maybe("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum");
  c.global_atom_requests = maybe("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum");
  c.global_atom_sectors = maybe("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum");
  c.global_red_requests = maybe("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum");
  c.global_red_sectors = maybe("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum");
  c.shared_atom_ideal_wavefronts = maybe("ideal_shared_atom_wavefronts");
  c.global_atom_ideal_sectors = maybe("ideal_global_atom_sectors");
  c.global_red_ideal_sectors = maybe("ideal_global_red_sectors");
  c.runtime = {maybe("runtime_global_ld_requests"), maybe("runtime_global_ld_sectors"),
               maybe("runtime_global_st_requests"), maybe("runtime_global_st_sectors")};
  return c;  // the bank conflicts are wavefronts less the ideal, as written
}

// A field's object, or an empty one where it is absent.
const json& object_or_empty(const JsonFields& f, const char* key) {
  static const json empty = json::object();
  const json* v = f.object(key);
  return v ? *v : empty;
}

DeviceModel model_from(const json& model) {
  const JsonFields f(model, "the summary's \"model\"");
  return {f.narrow<std::uint32_t>("warp_width"), f.narrow<std::uint32_t>("banks"),
          f.narrow<std::uint32_t>("bank_bytes"), f.narrow<std::uint32_t>("sector_bytes"), f.text("source")};
}

SiteTotals site_from(const json& site) {
  const JsonFields f(site, "a site");
  SiteTotals s;
  s.line = f.narrow<std::uint16_t>("line");
  s.space = f.text("space") == "shared" ? Space::Shared : Space::Global;
  s.store = f.flag("store");
  if (f.find("atomic")) s.atomic = f.flag("atomic");
  s.text = f.text("text");
  s.merged = f.narrow<std::uint8_t>("merged");
  s.counters = counters_from(object_or_empty(f, "counters"), "a site's \"counters\"");
  return s;
}

BlockTotals block_from(const json& block) {
  const JsonFields f(block, "a block");
  return {f.narrow<std::uint32_t>("block"), counters_from(object_or_empty(f, "counters"), "a block's \"counters\"")};
}

BarrierSummary barriers_from(const json& barriers) {
  const JsonFields f(barriers, "the summary's \"barriers\"");
  BarrierSummary b;
  b.passes = f.count("passes");
  b.clock = f.text("clock");
  b.timing_from = f.text("timing_from");
  b.timed_passes = f.count("timed_passes");
  b.timed_blocks = f.count("timed_blocks");
  b.arrival_spread_median = f.count("arrival_spread_median");
  b.widest_spread = f.count("widest_spread");
  b.release_latency_median = f.maybe_count("release_latency_median");
  b.release_latency_max = f.maybe_count("release_latency_max");
  if (const auto warp = f.maybe_count("most_often_last_warp"))
    b.most_often_last_warp = static_cast<std::uint16_t>(std::min<std::uint64_t>(*warp, 0xffff));
  b.most_often_last_share = f.maybe_number("most_often_last_share");
  b.sm_clock_mhz = f.maybe_number("sm_clock_mhz");
  if (f.find("release_after_arrivals")) b.release_after_arrivals = f.flag("release_after_arrivals");
  return b;
}

ScheduleSummary schedule_from(const json& schedule) {
  const JsonFields f(schedule, "the summary's \"schedule\"");
  return {f.text("clock"),       f.text("from"),      f.count("kernel_start"),
          f.count("kernel_end"), f.count("sms_used"), f.narrow<std::uint32_t>("most_blocks_on_one_sm_at_once")};
}

}  // namespace

Summary summary_from_json(const json& summary, const std::string& what) {
  const JsonFields f(summary, what);
  Summary s;
  if (const json* model = f.object("model")) s.model = model_from(*model);
  s.whole_grid = f.flag("whole_grid");
  s.traced_blocks = f.count("traced_blocks");
  s.grid_blocks = f.count("grid_blocks");
  s.requests = f.count("requests");
  s.totals = counters_from(object_or_empty(f, "totals"), "the summary's \"totals\"");
  for (const json& site : f.list("sites")) s.sites.push_back(site_from(site));
  for (const json& block : f.list("blocks")) s.blocks.push_back(block_from(block));
  if (const json* barriers = f.object("barriers")) s.barriers = barriers_from(*barriers);
  if (const json* schedule = f.object("schedule")) s.schedule = schedule_from(*schedule);
  if (const json* problems = f.object("problems"))
    s.problems = problem_list_from_json(*problems, "the summary's \"problems\"");
  return s;
}

}  // namespace threadmap::analysis
