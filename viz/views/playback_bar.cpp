#include "viz/views/playback_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include "viz/views/playback_controller.h"
#include "viz/views/retranslate.h"

namespace threadmap::views {

namespace {

QToolButton* button(const QString& text, const QString& tip, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setText(text);
  b->setToolTip(tip);
  b->setFocusPolicy(Qt::NoFocus);  // the keys belong to the views
  return b;
}

}  // namespace

PlaybackBar::PlaybackBar(PlaybackController& controller, QWidget* parent) : QWidget(parent), controller_(controller) {
  // The arrows are symbols, the same in every language; their tooltips are translated.
  auto* first = button("|<", QString(), this);
  auto* back = button("<", QString(), this);
  play_ = button(QString(), QString(), this);
  auto* forward = button(">", QString(), this);
  auto* last = button(">|", QString(), this);
  auto* slower = button("-", QString(), this);
  auto* faster = button("+", QString(), this);
  speed_ = new QLabel(this);
  scrubber_ = new QSlider(Qt::Horizontal, this);
  scrubber_->setFocusPolicy(Qt::NoFocus);
  counters_ = new QLabel(this);
  counters_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The counters wrap rather than widen the window (Portuguese on a 1024-pixel projector).
  counters_->setWordWrap(true);

  auto* row = new QHBoxLayout;
  for (QWidget* w : {static_cast<QWidget*>(first), static_cast<QWidget*>(back), static_cast<QWidget*>(play_),
                     static_cast<QWidget*>(forward), static_cast<QWidget*>(last)})
    row->addWidget(w);
  row->addWidget(scrubber_, 1);
  row->addWidget(slower);
  row->addWidget(speed_);
  row->addWidget(faster);
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 2, 4, 2);
  column->addLayout(row);
  column->addWidget(counters_);

  connect(first, &QToolButton::clicked, &controller_, &PlaybackController::go_first);
  connect(back, &QToolButton::clicked, &controller_, &PlaybackController::step_back);
  connect(play_, &QToolButton::clicked, &controller_, &PlaybackController::toggle);
  connect(forward, &QToolButton::clicked, &controller_, &PlaybackController::step_forward);
  connect(last, &QToolButton::clicked, &controller_, &PlaybackController::go_last);
  connect(slower, &QToolButton::clicked, &controller_, &PlaybackController::slower);
  connect(faster, &QToolButton::clicked, &controller_, &PlaybackController::faster);
  connect(scrubber_, &QSlider::valueChanged, this, [this](int v) {
    if (static_cast<std::size_t>(v) != controller_.step()) controller_.seek(static_cast<std::size_t>(v));
  });
  connect(&controller_, &PlaybackController::position_changed, this,
          [this](std::size_t step, double) { show_position(step); });
  connect(&controller_, &PlaybackController::playing_changed, this,
          [this](bool playing) { play_->setText(playing ? tr("Pause") : tr("Play")); });
  auto show_speed = [this](double s) { speed_->setText(tr("%1 requests/s").arg(QLocale().toString(s))); };
  connect(&controller_, &PlaybackController::speed_changed, this, show_speed);
  set_timeline(nullptr);
  (new Retranslator(this))->add([=, this] {
    first->setToolTip(tr("First request (Home)"));
    back->setToolTip(tr("Step back (Left)"));
    play_->setText(controller_.playing() ? tr("Pause") : tr("Play"));
    play_->setToolTip(tr("Play / pause (Space)"));
    forward->setToolTip(tr("Step forward (Right)"));
    last->setToolTip(tr("Last request (End)"));
    slower->setToolTip(tr("Slower (-)"));
    faster->setToolTip(tr("Faster (+)"));
    scrubber_->setToolTip(tr("The recorded warp-level requests, in device order"));
    speed_->setText(tr("%1 requests/s").arg(QLocale().toString(controller_.speed())));
    show_position(controller_.step());
  });
}

void PlaybackBar::set_timeline(const Timeline* timeline) {
  timeline_ = timeline;
  const QSignalBlocker quiet(scrubber_);
  scrubber_->setRange(0, timeline_ && timeline_->steps() > 0 ? static_cast<int>(timeline_->steps() - 1) : 0);
  setEnabled(timeline_ && timeline_->steps() > 0);
  show_position(controller_.step());
}

void PlaybackBar::show_position(std::size_t step) {
  {
    const QSignalBlocker quiet(scrubber_);
    scrubber_->setValue(static_cast<int>(step));
  }
  if (!timeline_ || timeline_->steps() == 0) {
    counters_->setText(tr("No recorded requests."));
    return;
  }
  const Progress now = timeline_->so_far(step);
  const Progress& all = timeline_->total();
  counters_->setText(tr("request %1 / %2 · shared wavefronts %3 / %4 · global sectors %5 / %6")
                         .arg(step + 1)
                         .arg(timeline_->steps())
                         .arg(now.shared_wavefronts)
                         .arg(all.shared_wavefronts)
                         .arg(now.global_sectors)
                         .arg(all.global_sectors));
}

}  // namespace threadmap::views
