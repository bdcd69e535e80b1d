#pragma once
// The Side by side tab: two recordings of one family in the same trace
// view, side by side, stepping together through corresponding requests (the
// same block, warp and access site: side_by_side.h), each with its current
// site's figures and its timing under it, and the difference spelled out
// site by site ("shared load, wavefronts per request: 32 → 1 · 3.2× the
// bandwidth"). In a presentation each pane has its source line in a strip
// under it. One playback bar drives both. Keys as in the Trace tab: Space, Left/Right, PageUp/PageDown,
// Home/End, + and -, V and Shift+V.
#include <QWidget>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/side_by_side.h"
#include "kernels/analysis/document.h"
#include "viz/views/theme.h"
#include "viz/views/timeline.h"

class QLabel;
class QTabBar;
class QVBoxLayout;

namespace threadmap::views {
class PlaybackBar;
class PlaybackController;
class SourcePane;
class TraceView;
}  // namespace threadmap::views

namespace threadmap::gui {

class CompareView : public QWidget {
  Q_OBJECT
 public:
  explicit CompareView(QWidget* parent = nullptr);

  // Shows a against b; "" or why not (another family, no trace): then
  // what was shown stays.
  QString set_documents(std::shared_ptr<const analysis::TraceDocument> a,
                        std::shared_ptr<const analysis::TraceDocument> b);
  bool empty() const { return !docs_[0]; }
  const std::shared_ptr<const analysis::TraceDocument>& document(int pane) const { return docs_[pane]; }

  // 0..4: grid, banks, barrier, coalescing, schedule (side_by_side.h's names).
  void set_view(int index);
  int view_index() const;
  QString view_name() const;
  views::TraceView& pane(int i) { return *views_[i]; }
  // Each pane's own request at the shared step; none where that recording
  // has no counterpart to the other's (its view then holds, faded, the
  // request it showed last, and its counters say what it lacks).
  std::optional<std::size_t> pane_request(int i) const;
  const std::vector<PairedStep>& steps() const { return steps_; }
  QString counters_text(int i) const;
  QString caption_text(int i) const;  // "<b>kernel</b> · block 0 warp 3 · request 12 of 192"
  views::SourcePane& source(int i) { return *sources_[i]; }
  QString difference_text() const;
  views::PlaybackController& playback() { return *playback_; }

  // Large type (font_px) and the projector theme, for the presentation mode.
  void set_presentation(bool on, int font_px = 0);

 protected:
  void changeEvent(QEvent* event) override;  // a new language: captions again

 private:
  void build_views();
  void show_texts();
  void show_position(std::size_t step, double phase);
  void show_pane(int i, std::size_t step, double phase);
  void set_sources();
  void lay_out_sources();

  std::array<std::shared_ptr<const analysis::TraceDocument>, 2> docs_;
  std::vector<PairedStep> steps_;
  // The scrubber counts the pair's steps: a timeline of as many requests.
  analysis::Analysis clock_;
  std::optional<views::Timeline> clock_timeline_;
  views::Theme theme_ = views::Theme::standard();
  QLabel* title_;
  QTabBar* kinds_;
  std::array<QLabel*, 2> captions_;
  std::array<QVBoxLayout*, 2> holders_;
  std::array<views::TraceView*, 2> views_{nullptr, nullptr};
  std::array<views::SourcePane*, 2> sources_;  // a presentation's strips
  std::array<QLabel*, 2> counters_;
  QLabel* difference_;
  views::PlaybackController* playback_;
  views::PlaybackBar* bar_;
};

}  // namespace threadmap::gui
