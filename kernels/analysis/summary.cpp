#include "kernels/analysis/summary.h"

#include "kernels/analysis/problems.h"

namespace threadmap::analysis {

using nlohmann::json;

json to_json(const Counters& c) {
  return {{"accesses", c.accesses},
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
          {"ideal_global_st_sectors", c.global_st_ideal_sectors}};
}

json to_json(const BlockTotals& b) { return {{"block", b.block}, {"counters", to_json(b.counters)}}; }

json summary_json(const Trace& t, const Analysis& a) {
  json sites = json::array();
  for (const SiteTotals& s : a.sites)
    sites.push_back({{"line", s.line},
                     {"space", s.space == Space::Shared ? "shared" : "global"},
                     {"store", s.store},
                     {"text", s.text},
                     {"merged", s.merged},
                     {"counters", to_json(s.counters)}});
  json blocks = json::array();
  for (const BlockTotals& b : a.blocks) blocks.push_back(to_json(b));
  const BarrierStats& st = a.barrier_stats;
  json barriers = {{"passes", a.barrier_pass_count()},
                   {"clock", t.barrier_clock},
                   {"timing_from", st.from},
                   {"timed_passes", st.passes},
                   {"timed_blocks", st.blocks},
                   {"arrival_spread_median", BarrierStats::median(st.spreads)},
                   {"widest_spread", st.spreads.empty() ? 0 : st.spreads.back()},
                   {"release_latency_median", nullptr},
                   {"release_latency_max", nullptr},
                   {"most_often_last_warp", nullptr},
                   {"most_often_last_share", nullptr},
                   {"sm_clock_mhz", nullptr},
                   {"release_after_arrivals", a.barriers_consistent}};
  if (!st.release_latencies.empty()) {
    barriers["release_latency_median"] = BarrierStats::median(st.release_latencies);
    barriers["release_latency_max"] = st.release_latencies.back();
  }
  if (st.passes) {
    barriers["most_often_last_warp"] = st.most_often_last();
    barriers["most_often_last_share"] = st.most_often_last_share();
  }
  if (t.sm_clock_mhz > 0) barriers["sm_clock_mhz"] = t.sm_clock_mhz;
  json sms = json::array();
  std::uint32_t most = 0;
  for (const SmLoad& s : a.sms) most = std::max(most, s.most_at_once);
  return {{"model",
           {{"warp_width", a.model.warp_width},
            {"banks", a.model.banks},
            {"bank_bytes", a.model.bank_bytes},
            {"sector_bytes", a.model.sector_bytes},
            {"source", a.model.source}}},
          {"whole_grid", a.whole_grid},
          {"traced_blocks", t.traced_blocks.size()},
          {"grid_blocks", t.block_count()},
          {"requests", a.request_count()},
          {"totals", to_json(a.totals)},
          {"sites", sites},
          {"blocks", blocks},
          {"barriers", barriers},
          {"schedule",
           {{"clock", t.schedule_clock},
            {"from", t.timing_pass},
            {"kernel_start", a.kernel_start},
            {"kernel_end", a.kernel_end},
            {"sms_used", a.sms.size()},
            {"most_blocks_on_one_sm_at_once", most}}},
          {"problems", to_json(reports_of(a.problems, t))}};
}

}  // namespace threadmap::analysis
