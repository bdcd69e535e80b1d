#pragma once
// The playback clock over the recorded order of events: a position in
// requests (the analysis' requests in device order). Playing advances it at
// `speed` requests a second; the fraction animates the current request.
// Stepping lands on a whole request, shown fully served.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class QWidget;

namespace threadmap::views {

class PlaybackController : public QObject {
  Q_OBJECT
 public:
  explicit PlaybackController(QObject* parent = nullptr);

  void set_steps(std::size_t steps);  // back to step 0, paused
  std::size_t steps() const { return steps_; }
  std::size_t step() const { return step_; }
  double phase() const { return phase_; }
  bool playing() const { return timer_.isActive(); }
  double speed() const { return speed_; }

  static constexpr double kMinSpeed = 0.25, kMaxSpeed = 64;

 public slots:
  void play();
  void pause();
  void toggle();
  void step_forward();
  void step_back();
  void go_first();
  void go_last();
  void seek(std::size_t step);
  void faster();
  void slower();
  // Advances by `seconds` as if that much time had passed while playing
  // (the timer's tick; the frame benchmark drives it directly).
  void advance(double seconds);

 signals:
  void position_changed(std::size_t step, double phase);
  void playing_changed(bool playing);
  void speed_changed(double requests_per_second);

 private:
  void tick();
  void emit_position();

  QTimer timer_;
  QElapsedTimer clock_;
  std::size_t steps_ = 0;
  std::size_t step_ = 0;
  double phase_ = 1.0;
  double speed_ = 2.0;
};

// The playback keys on `owner` and its children (not the rest of a main
// window): Space plays and pauses, Right/PageDown and Left/PageUp step (a
// presenter's remote sends PageDown and PageUp), Home/End go to the ends,
// +/= and - change the speed.
void add_playback_keys(QWidget* owner, PlaybackController* playback);

}  // namespace threadmap::views
