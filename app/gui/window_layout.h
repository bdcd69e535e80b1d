#pragma once
// The window's layout: the splitters that share it (the controls beside the
// charts and lesson; the controls over the run's status; the charts over the
// lesson; the lesson over its source), the chart tab shown and the window's
// geometry. QSettings keeps them between runs; File ▸ Reset layout brings
// back the layout as first shown; the presentation gives back its sizes.
#include <QByteArray>
#include <QList>

class QMainWindow;
class QSettings;
class QSplitter;
class QTabWidget;

namespace threadmap::gui {

class WindowLayout {
 public:
  struct Splitters {
    QSplitter* main;      // controls | right
    QSplitter* right;     // chart tabs over the lesson
    QSplitter* controls;  // controls over the run's status
    QSplitter* lesson;    // the lesson over its source
  };
  struct Sizes {
    QList<int> main, right, controls, lesson;
  };

  WindowLayout(QMainWindow& window, Splitters splitters, QTabWidget& tabs);

  Sizes sizes() const;
  void set_sizes(const Sizes& sizes);
  // The layout as the window first shows it: what restore_defaults() brings back.
  void keep_defaults();
  void restore_defaults();
  // The geometry, the window's state, every splitter and the tab shown.
  void save(QSettings& settings) const;
  void restore(const QSettings& settings);
  static void forget(QSettings& settings);

 private:
  struct States {
    QByteArray main, right, controls, lesson;
  };
  States states() const;
  void set_states(const States& states);

  QMainWindow& window_;
  Splitters splitters_;
  QTabWidget& tabs_;
  States defaults_;
};

}  // namespace threadmap::gui
