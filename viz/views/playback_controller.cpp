#include "viz/views/playback_controller.h"

#include <QShortcut>
#include <QWidget>

#include <algorithm>

namespace threadmap::views {

PlaybackController::PlaybackController(QObject* parent) : QObject(parent) {
  timer_.setInterval(16);  // about 60 frames a second
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &PlaybackController::tick);
}

void PlaybackController::set_steps(std::size_t steps) {
  pause();
  steps_ = steps;
  step_ = 0;
  phase_ = 1.0;
  emit_position();
}

void PlaybackController::play() {
  if (steps_ == 0 || timer_.isActive()) return;
  if (step_ + 1 >= steps_ && phase_ >= 1.0) step_ = 0;  // play again from the start
  phase_ = 0.0;
  clock_.start();
  timer_.start();
  emit playing_changed(true);
  emit_position();
}

void PlaybackController::pause() {
  if (!timer_.isActive()) return;
  timer_.stop();
  phase_ = 1.0;
  emit playing_changed(false);
  emit_position();
}

void PlaybackController::toggle() { playing() ? pause() : play(); }

void PlaybackController::step_forward() { seek(step_ + 1); }

void PlaybackController::step_back() { seek(step_ > 0 ? step_ - 1 : 0); }

void PlaybackController::go_first() { seek(0); }

void PlaybackController::go_last() { seek(steps_ > 0 ? steps_ - 1 : 0); }

void PlaybackController::seek(std::size_t step) {
  pause();
  step_ = steps_ == 0 ? 0 : std::min(step, steps_ - 1);
  phase_ = 1.0;
  emit_position();
}

void PlaybackController::faster() {
  speed_ = std::min(kMaxSpeed, speed_ * 2);
  emit speed_changed(speed_);
}

void PlaybackController::slower() {
  speed_ = std::max(kMinSpeed, speed_ / 2);
  emit speed_changed(speed_);
}

void PlaybackController::advance(double seconds) {
  if (steps_ == 0) return;
  double position = static_cast<double>(step_) + phase_ + seconds * speed_;
  if (position >= static_cast<double>(steps_)) {
    step_ = steps_ - 1;
    phase_ = 1.0;
    if (timer_.isActive()) {
      timer_.stop();
      emit playing_changed(false);
    }
  } else {
    step_ = static_cast<std::size_t>(position);
    phase_ = position - static_cast<double>(step_);
  }
  emit_position();
}

void PlaybackController::tick() {
  const double seconds = clock_.restart() / 1000.0;
  advance(seconds);
}

void PlaybackController::emit_position() { emit position_changed(step_, phase_); }

void add_playback_keys(QWidget* owner, PlaybackController* playback) {
  auto key = [&](QKeySequence seq, void (PlaybackController::*slot)()) {
    auto* s = new QShortcut(seq, owner);
    s->setContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(s, &QShortcut::activated, playback, slot);
  };
  key(QKeySequence(Qt::Key_Space), &PlaybackController::toggle);
  key(QKeySequence(Qt::Key_Right), &PlaybackController::step_forward);
  key(QKeySequence(Qt::Key_Left), &PlaybackController::step_back);
  key(QKeySequence(Qt::Key_PageDown), &PlaybackController::step_forward);
  key(QKeySequence(Qt::Key_PageUp), &PlaybackController::step_back);
  key(QKeySequence(Qt::Key_Home), &PlaybackController::go_first);
  key(QKeySequence(Qt::Key_End), &PlaybackController::go_last);
  key(QKeySequence(Qt::Key_Plus), &PlaybackController::faster);
  key(QKeySequence(Qt::Key_Equal), &PlaybackController::faster);  // + without Shift
  key(QKeySequence(Qt::Key_Minus), &PlaybackController::slower);
}

}  // namespace threadmap::views
