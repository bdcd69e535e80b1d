#pragma once
// The Compare tab: two recordings of one family in the same trace view, side
// by side, stepping together by warp request index (side_by_side.h), each
// with its counters and timings under it and the difference spelled out
// ("32 → 1 wavefronts per request, 3.2× the bandwidth"). One playback bar
// drives both. Keys as in the Trace tab: Space, Left/Right, PageUp/PageDown,
// Home/End, + and -, V and Shift+V.
#include <QWidget>

#include <array>
#include <memory>
#include <optional>

#include "viz/analysis/document.h"
#include "viz/views/theme.h"
#include "viz/views/timeline.h"

class QLabel;
class QTabBar;
class QVBoxLayout;

namespace threadmap::views {
class PlaybackBar;
class PlaybackController;
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
  // The request each pane shows at the shared step.
  std::size_t pane_step(int i) const;
  QString counters_text(int i) const;
  QString caption_text(int i) const;  // "<b>kernel</b> · request 12 of 192"
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

  std::array<std::shared_ptr<const analysis::TraceDocument>, 2> docs_;
  std::array<std::optional<views::Timeline>, 2> timelines_;
  std::array<std::size_t, 2> pane_steps_{0, 0};
  views::Theme theme_ = views::Theme::standard();
  QLabel* title_;
  QTabBar* kinds_;
  std::array<QLabel*, 2> captions_;
  std::array<QVBoxLayout*, 2> holders_;
  std::array<views::TraceView*, 2> views_{nullptr, nullptr};
  std::array<QLabel*, 2> counters_;
  QLabel* difference_;
  views::PlaybackController* playback_;
  views::PlaybackBar* bar_;
};

}  // namespace threadmap::gui
