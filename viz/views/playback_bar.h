#pragma once
// Play, pause, step, first/last, speed and a scrubber over the recorded
// requests, with the counters so far. It drives a PlaybackController and
// shows its state; the keys are bound by the widget that owns both.
#include <QWidget>

#include "viz/views/timeline.h"

class QLabel;
class QSlider;
class QToolButton;

namespace threadmap::views {

class PlaybackController;

class PlaybackBar : public QWidget {
  Q_OBJECT
 public:
  PlaybackBar(PlaybackController& controller, QWidget* parent = nullptr);
  void set_timeline(const Timeline* timeline);  // nullptr: nothing loaded
  QSlider& scrubber() { return *scrubber_; }
  QLabel& counters() { return *counters_; }

 private:
  void show_position(std::size_t step);

  PlaybackController& controller_;
  const Timeline* timeline_ = nullptr;
  QToolButton* play_;
  QSlider* scrubber_;
  QLabel* speed_;
  QLabel* counters_;
};

}  // namespace threadmap::views
