#include "viz/views/bank_model.h"

#include <algorithm>
#include <map>
#include <set>

namespace threadmap::views {

BankModel::BankModel(std::shared_ptr<const analysis::TraceDocument> doc)
    : doc_(std::move(doc)), timeline_(doc_->analysis) {
  const auto& model = doc_->analysis.model;
  empty_.banks = model.banks;
  empty_.bank_bytes = model.bank_bytes;
  empty_.tile = tile_shape(*doc_);
  empty_.total = timeline_.total();
  for (const auto& r : doc_->analysis.requests) empty_.shared_requests_total += r.space == Space::Shared;

  // The window may hold more than the tile (other shared variables), so
  // the tile starts at the lowest shared word accessed.
  const TileShape& tile = empty_.tile;
  std::uint64_t lowest = UINT64_MAX, end = 0;
  for (const auto& a : doc_->trace().accesses)
    if (a.space == Space::Shared) {
      lowest = std::min<std::uint64_t>(lowest, a.offset / model.bank_bytes);
      end = std::max<std::uint64_t>(
          end, (a.offset + std::max<std::uint8_t>(a.size, 1) + model.bank_bytes - 1) / model.bank_bytes);
    }
  if (lowest == UINT64_MAX) lowest = 0;
  empty_.first_row = static_cast<std::uint32_t>(lowest / empty_.banks);
  const std::uint64_t first_word = std::uint64_t{empty_.first_row} * empty_.banks;
  if (tile.known)
    end = std::max<std::uint64_t>(
        end, lowest + std::uint64_t{tile.rows} * tile.cols * tile.element_bytes / model.bank_bytes);
  const std::uint64_t words = end > first_word ? end - first_word : 0;
  empty_.rows =
      static_cast<std::uint32_t>(std::min<std::uint64_t>((words + empty_.banks - 1) / empty_.banks, kMaxRows));
  empty_.words.assign(std::size_t{empty_.rows} * empty_.banks, {});
  if (tile.known) {
    const std::uint32_t words_per_element = std::max<std::uint32_t>(1, tile.element_bytes / model.bank_bytes);
    for (std::uint32_t r = 0; r < tile.rows; ++r)
      for (std::uint32_t c = 0; c < tile.cols; ++c)
        for (std::uint32_t k = 0; k < words_per_element; ++k) {
          const std::uint64_t w = lowest - first_word + (std::uint64_t{r} * tile.cols + c) * words_per_element + k;
          if (w >= empty_.words.size()) continue;
          empty_.words[w] = {static_cast<std::int32_t>(r), static_cast<std::int32_t>(c), c >= tile.data_cols};
        }
  }
}

BankFrame BankModel::frame(std::size_t step) const {
  BankFrame f = empty_;
  const auto& analysis = doc_->analysis;
  f.so_far = timeline_.so_far(step);
  const auto near = request_near(analysis, step, Space::Shared);
  if (!near) return f;
  const analysis::Request& r = take_request(f, analysis, *near);
  f.at_step = *near == step;
  if (step < analysis.requests.size()) {
    f.step_space = analysis.requests[step].space;
    f.step_store = analysis.requests[step].store;
  }
  f.block = r.block;
  f.warp = r.warp;
  f.wavefronts = r.wavefronts;
  f.ideal_wavefronts = r.ideal_wavefronts;

  // The analysis' rule (analysis::lanes_per_phase): lanes go in phases, the
  // whole warp for 4-byte words, half of it for 8- and 16-byte accesses;
  // within a phase each bank serves its distinct words one per wavefront.
  const auto& model = analysis.model;
  const auto& accesses = doc_->trace().accesses;
  const std::uint32_t size = std::max<std::uint32_t>(r.size, 1);
  const std::uint32_t lanes_per_phase = analysis::lanes_per_phase(size, model);
  std::map<std::uint64_t, int> readers;
  for (const std::uint32_t i : analysis.lanes_of(r)) {
    const Access& a = accesses[i];
    BankLane lane;
    lane.thread = a.thread;
    lane.lane = static_cast<std::uint16_t>(a.thread % model.warp_width);
    lane.word = a.offset / model.bank_bytes;
    lane.bank = static_cast<std::uint32_t>(lane.word % model.banks);
    lane.row = static_cast<std::uint32_t>(lane.word / model.banks) - f.first_row;
    ++readers[lane.word];
    f.lanes.push_back(lane);
  }
  std::sort(f.lanes.begin(), f.lanes.end(), [](const BankLane& a, const BankLane& b) { return a.lane < b.lane; });
  for (auto& lane : f.lanes) lane.shared_word = readers[lane.word] > 1;
  // An atomic other than a count serves each lane of a bank in turn, lanes
  // on one word too; a compare-and-swap takes two passes a lane (analysis.cpp).
  if (r.atomic != AtomicOp::None && !(r.atomic == AtomicOp::AddOne && r.reduction)) {
    std::map<std::uint32_t, std::uint16_t> turns;
    const std::uint16_t passes = r.atomic == AtomicOp::Cas ? 2 : 1;
    for (auto& lane : f.lanes) lane.wavefront = static_cast<std::uint16_t>(passes * turns[lane.bank]++);
    return f;
  }
  std::uint16_t before = 0;
  for (std::uint32_t phase = 0; phase < model.warp_width; phase += lanes_per_phase) {
    std::map<std::uint32_t, std::vector<std::uint64_t>> bank_words;  // distinct, first-come order
    std::uint16_t most = 0;
    for (auto& lane : f.lanes) {
      if (lane.lane < phase || lane.lane >= phase + lanes_per_phase) continue;
      auto& served = bank_words[lane.bank];
      auto it = std::find(served.begin(), served.end(), lane.word);
      if (it == served.end()) it = served.insert(served.end(), lane.word);
      lane.wavefront = static_cast<std::uint16_t>(before + (it - served.begin()));
      most = std::max<std::uint16_t>(most, static_cast<std::uint16_t>(served.size()));
    }
    before = static_cast<std::uint16_t>(before + most);
    if (lanes_per_phase >= model.warp_width) break;
  }
  return f;
}

}  // namespace threadmap::views
