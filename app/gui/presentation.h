#pragma once
// F11, one screen for a room: the menus, controls, status bar and lesson go;
// the variants chart (large type) sits over the trace views, full screen,
// or from the Side by side tab the pair takes the screen alone. The views
// leave their tabs while it lasts and go back after, and the window gets
// back its size and splitters. C hides or shows the chart.
#include <QObject>
#include <QSize>

#include <optional>

#include "app/gui/window_layout.h"

class QMainWindow;
class QShortcut;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QWidget;

namespace threadmap::views {
class TraceViewsWidget;
}

namespace threadmap::gui {

class CompareView;
class FamilyChart;

class Presentation : public QObject {
  Q_OBJECT
 public:
  struct Parts {
    QMainWindow* window;
    QStackedWidget* pages;  // the window's pages: its layout, then the presentation's
    QWidget* layout_page;   // the window's layout
    QTabWidget* tabs;       // the chart tabs the views leave
    FamilyChart* chart;
    views::TraceViewsWidget* trace_views;
    CompareView* compare_view;
    WindowLayout* layout;
  };
  // Adds the presentation's page to parts.pages.
  explicit Presentation(Parts parts);

  bool on() const;
  // Each returns at once when it is already so.
  void enter();
  void leave();
  // The views presented (the trace views or the pair), or null when not presenting.
  QWidget* presented() const;
  // The body text: 24 px on a 768-pixel-high screen, more on larger ones.
  int font_px() const;
  // The splitters as entering found them, once the window has its old size
  // again (a window manager may restore it after showNormal returns).
  void give_back_layout();

 private:
  void show_page();
  void restore_tabs();

  Parts parts_;
  QSplitter* split_;      // the chart over the views, or the pair alone
  QShortcut* chart_key_;  // C, while presenting
  QWidget* presented_ = nullptr;
  int tab_before_ = 0;
  struct Before {
    QSize size;
    WindowLayout::Sizes sizes;
  };
  std::optional<Before> before_;
  bool was_full_screen_ = false, was_maximized_ = false;
};

}  // namespace threadmap::gui
