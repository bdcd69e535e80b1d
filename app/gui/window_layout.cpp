#include "app/gui/window_layout.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>

namespace threadmap::gui {

namespace {

constexpr const char* kGeometry = "window/geometry";
constexpr const char* kState = "window/state";
constexpr const char* kMain = "window/mainSplitter";
constexpr const char* kRight = "window/rightSplitter";
constexpr const char* kLesson = "window/lessonSplitter";
constexpr const char* kControls = "window/controlsSplitter";
constexpr const char* kTab = "window/tab";

}  // namespace

WindowLayout::WindowLayout(QMainWindow& window, Splitters splitters, QTabWidget& tabs)
    : window_(window), splitters_(splitters), tabs_(tabs) {}

WindowLayout::Sizes WindowLayout::sizes() const {
  return {splitters_.main->sizes(), splitters_.right->sizes(), splitters_.controls->sizes(),
          splitters_.lesson->sizes()};
}

void WindowLayout::set_sizes(const Sizes& sizes) {
  splitters_.main->setSizes(sizes.main);
  splitters_.right->setSizes(sizes.right);
  splitters_.controls->setSizes(sizes.controls);
  splitters_.lesson->setSizes(sizes.lesson);
}

WindowLayout::States WindowLayout::states() const {
  return {splitters_.main->saveState(), splitters_.right->saveState(), splitters_.controls->saveState(),
          splitters_.lesson->saveState()};
}

void WindowLayout::set_states(const States& states) {
  splitters_.main->restoreState(states.main);
  splitters_.right->restoreState(states.right);
  splitters_.controls->restoreState(states.controls);
  splitters_.lesson->restoreState(states.lesson);
}

void WindowLayout::keep_defaults() { defaults_ = states(); }

void WindowLayout::restore_defaults() {
  set_states(defaults_);
  tabs_.setCurrentIndex(0);
}

void WindowLayout::save(QSettings& settings) const {
  const States now = states();
  settings.setValue(kGeometry, window_.saveGeometry());
  settings.setValue(kState, window_.saveState());
  settings.setValue(kMain, now.main);
  settings.setValue(kRight, now.right);
  settings.setValue(kLesson, now.lesson);
  settings.setValue(kControls, now.controls);
  settings.setValue(kTab, tabs_.currentIndex());
}

void WindowLayout::restore(const QSettings& settings) {
  window_.restoreGeometry(settings.value(kGeometry).toByteArray());
  window_.restoreState(settings.value(kState).toByteArray());
  set_states({settings.value(kMain).toByteArray(), settings.value(kRight).toByteArray(),
              settings.value(kControls).toByteArray(), settings.value(kLesson).toByteArray()});
  tabs_.setCurrentIndex(settings.value(kTab, 0).toInt());
}

void WindowLayout::forget(QSettings& settings) {
  for (const char* key : {kGeometry, kState, kMain, kRight, kLesson, kControls, kTab}) settings.remove(key);
}

}  // namespace threadmap::gui
