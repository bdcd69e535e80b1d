#include "viz/analysis/summary.h"

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

json summary_json(const Trace& t, const Analysis& a) {
  json sites = json::array();
  for (const SiteTotals& s : a.sites)
    sites.push_back({{"line", s.line},
                     {"space", s.space == Space::Shared ? "shared" : "global"},
                     {"store", s.store},
                     {"text", s.text},
                     {"counters", to_json(s.counters)}});
  json blocks = json::array();
  for (const BlockTotals& b : a.blocks) blocks.push_back({{"block", b.block}, {"counters", to_json(b.counters)}});
  std::uint64_t widest_spread = 0;
  for (const BarrierPass& p : a.barriers) widest_spread = std::max(widest_spread, p.spread());
  json sms = json::array();
  std::uint32_t most = 0;
  for (const SmLoad& s : a.sms) most = std::max(most, s.most_at_once);
  return {{"model", {{"warp_width", a.model.warp_width},
                     {"banks", a.model.banks},
                     {"bank_bytes", a.model.bank_bytes},
                     {"sector_bytes", a.model.sector_bytes},
                     {"source", a.model.source}}},
          {"whole_grid", a.whole_grid},
          {"traced_blocks", t.traced_blocks.size()},
          {"grid_blocks", t.block_count()},
          {"requests", a.requests.size()},
          {"totals", to_json(a.totals)},
          {"sites", sites},
          {"blocks", blocks},
          {"barriers", {{"passes", a.barriers.size()},
                        {"clock", t.barrier_clock},
                        {"widest_spread", widest_spread},
                        {"release_after_arrivals", a.barriers_consistent}}},
          {"schedule", {{"clock", t.schedule_clock},
                        {"kernel_start", a.kernel_start},
                        {"kernel_end", a.kernel_end},
                        {"sms_used", a.sms.size()},
                        {"most_blocks_on_one_sm_at_once", most}}}};
}

}  // namespace threadmap::analysis
