#pragma once
// The trace views together: grid, banks, barrier, coalescing and schedule as
// tabs, the kernel source beside them with the current access site's line
// highlighted, and the playback bar under them. It draws a TraceDocument (a
// session and its analysis); it never runs anything on a device.
//
// The Problems list (what the trace shows went wrong: races, uninitialised
// reads, accesses out of bounds, divergent barriers) lies under the views;
// choosing one steps the playback to it and draws it.
//
// Keys (while it or a child has focus): Space play/pause, Left/Right (and a
// presenter's PageDown/PageUp) step, Home/End, + and - speed, V and Shift+V
// the next and previous view. The main window's presentation mode (F11)
// sets the presentation theme, and puts the source in a strip under the
// views so the highlighted line is read whole.
#include <QWidget>
#include <memory>
#include <optional>

#include "kernels/analysis/document.h"
#include "viz/views/theme.h"
#include "viz/views/timeline.h"

class QLabel;
class QSplitter;
class QTabWidget;
class QToolButton;

namespace threadmap::views {

class BankView;
class BarrierView;
class CoalescingView;
class GridView;
class PlaybackBar;
class PlaybackController;
class ProblemsView;
class ScheduleView;
class SourcePane;
class TraceView;

class TraceViewsWidget : public QWidget {
  Q_OBJECT
 public:
  explicit TraceViewsWidget(QWidget* parent = nullptr);

  // Loads a .threadmap file; returns "" or the message also shown in the widget.
  QString open_file(const QString& path);

  GridView& grid() { return *grid_; }
  BankView& banks() { return *banks_; }
  BarrierView& barrier() { return *barrier_; }
  CoalescingView& coalescing() { return *coalescing_; }
  ScheduleView& schedule() { return *schedule_; }
  QTabWidget& tabs() { return *tabs_; }
  SourcePane& source() { return *source_; }
  // The Problems list under the views (docs/gui.md, "Problems").
  ProblemsView& problems() { return *problems_; }
  PlaybackController& playback() { return *playback_; }
  PlaybackBar& playback_bar() { return *bar_; }
  // The views beside the source (or over its strip in a presentation).
  QSplitter& splitter() { return *split_; }
  bool presentation() const { return theme_.presentation; }
  const std::shared_ptr<const analysis::TraceDocument>& document() const { return doc_; }

 public slots:
  void set_document(std::shared_ptr<const analysis::TraceDocument> doc);
  // Large type, high contrast (the theme only); font_px: the body text's
  // pixel size (0: the projector theme's).
  void set_presentation(bool on, int font_px = 0);
  // V, Shift+V: the next or previous of the five views.
  void next_view(int direction);
  // Problem `index` of the document's list chosen (in the list or here):
  // the view that draws its kind comes forward, the playback steps to the
  // site's request and pauses, its lines are highlighted in the source and
  // the views draw its threads and word.
  void show_problem(std::size_t index, int site);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void show_position(std::size_t step, double phase);
  void apply_theme();
  void lay_out_source();  // beside the views, or a strip under them in a presentation
  void give_back_beside_sizes();
  void highlight_source();  // the line the current view discusses
  void fit_problems();      // the list's height and whether a presentation shows it
  void show_title();        // the recording's title (a presentation's one line), or how to open one
  std::vector<TraceView*> views() const;

  std::shared_ptr<const analysis::TraceDocument> doc_;
  std::optional<Timeline> timeline_;
  Theme theme_ = Theme::standard();
  QLabel* title_;
  QToolButton* open_;
  QTabWidget* tabs_;
  GridView* grid_;
  BankView* banks_;
  BarrierView* barrier_;
  CoalescingView* coalescing_;
  ScheduleView* schedule_;
  SourcePane* source_;
  QSplitter* split_;
  ProblemsView* problems_;
  QList<int> beside_sizes_;  // the views' and the source's widths before a presentation
  int beside_width_ = -1;    // the splitter's width then; -1 once they are given back
  QFont beside_source_font_;
  PlaybackController* playback_;
  PlaybackBar* bar_;
};

}  // namespace threadmap::views
