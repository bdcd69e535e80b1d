#pragma once
// Texts that follow the interface language. Each setter given to add() runs
// now and again whenever its owner receives QEvent::LanguageChange (Qt sends
// one to every widget when a translator is installed or removed), so a widget
// built once shows the language picked later without a restart.
#include <QEvent>
#include <QObject>

#include <functional>
#include <utility>
#include <vector>

namespace threadmap::views {

class Retranslator : public QObject {
 public:
  explicit Retranslator(QObject* owner) : QObject(owner) { owner->installEventFilter(this); }
  void add(std::function<void()> apply) {
    apply();
    texts_.push_back(std::move(apply));
  }
  void retranslate() const {
    for (const auto& apply : texts_) apply();
  }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched == parent() && event->type() == QEvent::LanguageChange) retranslate();
    return false;
  }

 private:
  std::vector<std::function<void()>> texts_;
};

}  // namespace threadmap::views
