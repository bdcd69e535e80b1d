#pragma once
// The status area: verification badge, median/min/max and GB/s of the last
// run, and what the worker is doing (running, restarted, refused a value).
#include <QWidget>

#include "kernels/core/report.h"

class QLabel;

namespace threadmap::gui {

// The badge's look: green (tone > 0), red (< 0) or grey; compact for a line
// over an editor.
QString badge_style(int tone, bool compact = false);

class StatusPanel : public QWidget {
  Q_OBJECT
 public:
  explicit StatusPanel(QWidget* parent = nullptr);
  void show_report(const RunReport& report);
  void show_refused(const QString& message);  // a request the worker turned down
  void set_worker_state(const QString& text, bool is_problem = false);
  // Where the shown run comes from when it is a recording; empty for a live run.
  void set_origin(const QString& text);

  QString badge_text() const;
  QString numbers_text() const;
  QString worker_text() const;
  QString detail_text() const;
  QString origin_text() const;
  // One line for the window's status bar, visible whatever the layout:
  // "✔ verified · 12.34 GB/s · median 0.1234 ms".
  QLabel& headline() { return *headline_; }
  QString headline_text() const;

 protected:
  void changeEvent(QEvent* event) override;  // a new language: the shown run's text again

 private:
  enum class Shown { Nothing, Report, Refused };
  Shown shown_ = Shown::Nothing;
  RunReport report_;
  QString refused_;
  QLabel* origin_;
  QLabel* badge_;
  QLabel* numbers_;
  QLabel* detail_;
  QLabel* worker_;
  QLabel* headline_;
};

}  // namespace threadmap::gui
