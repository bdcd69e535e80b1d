#pragma once
// The bank view's drawing model: the block's shared window as 32 banks
// (columns) by words (rows), each word labelled with the tile element the
// kernel's declaration puts there (or as padding), and for the shared request
// at a playback step, each lane's word, bank and the wavefront that serves it.
// Lanes whose bank must serve several distinct words wait for later
// wavefronts: the replays.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/analysis/document.h"
#include "viz/views/layout.h"
#include "viz/views/timeline.h"

namespace threadmap::views {

struct BankWord {
  std::int32_t tile_row = -1, tile_col = -1;  // -1: outside the declared tile
  bool padding = false;                       // declared, never stored into
};

struct BankLane {
  std::uint16_t lane = 0;
  std::uint16_t thread = 0;
  std::uint64_t word = 0;  // first word the lane touches
  std::uint32_t bank = 0;
  std::uint32_t row = 0;        // word / banks - BankFrame::first_row
  std::uint16_t wavefront = 0;  // 0-based: which pass of the banks serves it
  bool shared_word = false;     // another lane reads the same word (broadcast)
};

struct BankFrame {
  std::uint32_t banks = 32, bank_bytes = 4;
  std::uint32_t first_row = 0;  // the window's word row the drawing starts at (the tile's first)
  std::uint32_t rows = 0;       // word rows drawn
  std::vector<BankWord> words;  // rows * banks
  TileShape tile;
  bool has_request = false;
  std::size_t request = 0;  // Analysis::requests index
  // Whether `request` is the step's own; else the step is another kind of
  // access (step_space, step_store) and `request` only the nearest shared one.
  bool at_step = false;
  Space step_space = Space::Shared;
  bool step_store = false;
  bool store = false;
  AtomicOp atomic = AtomicOp::None;  // an atomic's operation (store is set too)
  std::uint16_t line = 0;
  std::string source;             // the access site's text
  std::uint8_t merged = 1;        // the source's accesses in this one (the compiler merged them)
  std::uint8_t access_bytes = 0;  // per lane
  std::uint32_t block = 0;
  std::uint16_t warp = 0;
  std::uint16_t wavefronts = 0, ideal_wavefronts = 0;  // the analysis' numbers
  std::vector<BankLane> lanes;                         // active lanes, by lane
  std::uint64_t shared_requests_total = 0;
  Progress so_far, total;
};

class BankModel {
 public:
  static constexpr std::uint32_t kMaxRows = 72;

  explicit BankModel(std::shared_ptr<const analysis::TraceDocument> doc);
  BankFrame frame(std::size_t step) const;

 private:
  std::shared_ptr<const analysis::TraceDocument> doc_;
  Timeline timeline_;
  BankFrame empty_;
};

}  // namespace threadmap::views
