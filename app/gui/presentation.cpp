#include "app/gui/presentation.h"

#include <QGuiApplication>
#include <QMainWindow>
#include <QMenuBar>
#include <QScreen>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>

#include "app/gui/charts.h"
#include "app/gui/compare_view.h"
#include "viz/views/trace_views_widget.h"

namespace threadmap::gui {

Presentation::Presentation(Parts parts) : QObject(parts.window), parts_(parts) {
  split_ = new QSplitter(Qt::Vertical);
  split_->setObjectName("presentation");
  parts_.pages->addWidget(split_);
  // C gives the views the whole screen, and brings the chart back. Enabled
  // only while presenting: elsewhere C belongs to the fields and the kernel list's search.
  chart_key_ = new QShortcut(QKeySequence(Qt::Key_C), parts_.window);
  chart_key_->setEnabled(false);
  connect(chart_key_, &QShortcut::activated, this, [this] {
    if (on() && split_->indexOf(parts_.chart) >= 0) parts_.chart->setVisible(!parts_.chart->isVisible());
  });
}

bool Presentation::on() const { return parts_.pages->currentWidget() == split_; }

QWidget* Presentation::presented() const { return on() ? presented_ : nullptr; }

int Presentation::font_px() const {
  const QScreen* s = parts_.window->screen() ? parts_.window->screen() : QGuiApplication::primaryScreen();
  return std::max(24, (s ? s->geometry().height() : 768) / 32);
}

void Presentation::enter() {
  if (on()) return;
  QMainWindow& window = *parts_.window;
  tab_before_ = parts_.tabs->currentIndex();
  before_ = Before{window.size(), parts_.layout->sizes()};
  was_full_screen_ = window.isFullScreen();
  was_maximized_ = window.isMaximized();
  window.menuBar()->hide();
  window.statusBar()->hide();
  show_page();
  const int px = font_px();
  parts_.chart->set_presentation(true, px);
  parts_.trace_views->set_presentation(true, px);
  parts_.compare_view->set_presentation(true, px);
  window.showFullScreen();
  const int h = split_->height();
  // The chart's bars read at a quarter of the screen; the views need the rest.
  if (split_->count() == 2) split_->setSizes({h / 4, h - h / 4});
  presented_->setFocus();
  chart_key_->setEnabled(true);
}

// The pair when the Side by side tab is shown, else the trace views. Each
// leaves its tab; the pair takes the whole screen (its difference line gives
// the bandwidths), the trace views share it with the chart.
void Presentation::show_page() {
  presented_ = parts_.tabs->currentWidget() == parts_.compare_view ? static_cast<QWidget*>(parts_.compare_view)
                                                                   : static_cast<QWidget*>(parts_.trace_views);
  if (presented_ == parts_.trace_views) {
    split_->addWidget(parts_.chart);
    parts_.chart->show();  // a tab that was not the current one is hidden
  }
  split_->addWidget(presented_);
  presented_->show();
  split_->setStretchFactor(0, 1);
  split_->setStretchFactor(1, 2);
  parts_.pages->setCurrentWidget(split_);
  // The hidden layout's minimum must not hold a small screen's presentation.
  parts_.layout_page->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
}

void Presentation::leave() {
  if (!on()) return;
  QMainWindow& window = *parts_.window;
  parts_.chart->set_presentation(false);
  parts_.trace_views->set_presentation(false);
  parts_.compare_view->set_presentation(false);
  // C may have hidden the chart over the trace views. A pair's presentation
  // left it in its tab, where showing it would paint it over the pair's page.
  if (split_->indexOf(parts_.chart) >= 0) parts_.chart->show();
  restore_tabs();
  parts_.layout_page->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  parts_.pages->setCurrentWidget(parts_.layout_page);
  parts_.tabs->setCurrentIndex(tab_before_);
  window.menuBar()->show();
  window.statusBar()->show();
  if (was_full_screen_) window.showFullScreen();
  else if (was_maximized_) window.showMaximized();
  else window.showNormal();
  give_back_layout();
  chart_key_->setEnabled(false);
}

// The chart first, the trace views fourth, the pair fifth, as they were;
// the window titles them.
void Presentation::restore_tabs() {
  QTabWidget& tabs = *parts_.tabs;
  if (tabs.indexOf(parts_.chart) < 0) tabs.insertTab(0, parts_.chart, QString());
  tabs.insertTab(presented_ == parts_.compare_view ? 4 : 3, presented_, QString());
}

// Where the window manager restores the window after showNormal returns
// (X11), the layout is shown at the screen's size first and then shrinks by
// stretch factors, not to the sizes it had; those come back once the window
// has its old size (at once where the platform restores it at once).
void Presentation::give_back_layout() {
  if (!before_ || on() || parts_.window->size() != before_->size) return;
  parts_.layout->set_sizes(before_->sizes);
  before_.reset();
}

}  // namespace threadmap::gui
