#include "app/gui/status_panel.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

#include "app/gui/run_history.h"

namespace threadmap::gui {

QString badge_style(int tone, bool compact) {
  const char* colour = tone > 0 ? "#1b7a2f" : tone < 0 ? "#b3261e" : "#5f6368";
  return QString("background:%1; color:white; border-radius:6px; padding:%2;")
      .arg(colour, compact ? "4px 10px" : "6px 12px");
}

namespace {

const QString kGood = badge_style(1);
const QString kBad = badge_style(-1);
const QString kNeutral = badge_style(0);

QString ms(double milliseconds) { return QLocale().toString(milliseconds, 'f', 4); }

}  // namespace

StatusPanel::StatusPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  origin_ = new QLabel(this);
  origin_->setObjectName("recordingOrigin");
  origin_->setWordWrap(true);
  origin_->setStyleSheet("background:#e8f0fe; color:#174ea6; border-radius:6px; padding:6px;");
  origin_->hide();
  badge_ = new QLabel(tr("no run yet"), this);
  badge_->setObjectName("verificationBadge");
  badge_->setStyleSheet(kNeutral);
  QFont big = badge_->font();
  big.setPointSizeF(big.pointSizeF() * 1.3);
  big.setBold(true);
  badge_->setFont(big);
  badge_->setWordWrap(true);
  numbers_ = new QLabel(this);
  numbers_->setObjectName("timingNumbers");
  numbers_->setFont(big);
  numbers_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  numbers_->setWordWrap(true);
  detail_ = new QLabel(this);
  detail_->setObjectName("runDetail");
  detail_->setWordWrap(true);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  worker_ = new QLabel(this);
  worker_->setObjectName("workerState");
  worker_->setWordWrap(true);
  layout->addWidget(badge_);
  layout->addWidget(numbers_);
  layout->addWidget(origin_);
  layout->addWidget(detail_);
  layout->addWidget(worker_);
  layout->addStretch(1);
  // Shown by the window in its status bar (it takes the label over).
  headline_ = new QLabel(this);
  headline_->setObjectName("runHeadline");
  headline_->setFont(big);
  headline_->hide();
}

void StatusPanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() != QEvent::LanguageChange) return;
  switch (shown_) {
    case Shown::Nothing: badge_->setText(tr("no run yet")); break;
    case Shown::Report: show_report(report_); break;
    case Shown::Refused: show_refused(refused_); break;
  }
}

void StatusPanel::show_report(const RunReport& report) {
  shown_ = Shown::Report;
  if (&report != &report_) report_ = report;
  const QString kernel = QString::fromStdString(report.kernel);
  const QString params = QString::fromStdString(parameters_text(report));
  if (!report.ok()) {
    badge_->setText(tr("%1: %2").arg(kernel, QString::fromStdString(report.status)));
    badge_->setStyleSheet(kBad);
    numbers_->clear();
    detail_->setText(QString::fromStdString(report.error));
    headline_->setText(badge_->text());
    headline_->setStyleSheet(kBad);
    headline_->show();
    return;
  }
  const Verification verification = report.verification.value_or(Verification{});
  const int checked = static_cast<int>(std::min<std::uint64_t>(verification.checked, std::numeric_limits<int>::max()));
  if (verification.verified) {
    badge_->setText(tr("✔ verified: %Ln value(s)", nullptr, checked));
    badge_->setStyleSheet(kGood);
  } else {
    QString first;
    for (const Mismatch& m : verification.first)
      first += tr("\n%1: expected %2, got %3")
                   .arg(QString::fromStdString(m.where), QString::fromStdString(m.expected),
                        QString::fromStdString(m.actual));
    badge_->setText(tr("✘ NOT verified: %1 of %Ln value(s) differ%2", nullptr, checked)
                        .arg(QLocale().toString(static_cast<qulonglong>(verification.mismatches)), first));
    badge_->setStyleSheet(kBad);
  }
  const TimingStats timing = report.timing ? report.timing->kernel_ms : TimingStats{};
  headline_->setText(tr("%1 · %2 GB/s · median %3 ms")
                         .arg(verification.verified ? tr("✔ verified") : tr("✘ NOT verified"))
                         .arg(QLocale().toString(report.bandwidth_gbps, 'f', 2))
                         .arg(ms(timing.median)));
  headline_->setStyleSheet(verification.verified ? kGood : kBad);
  headline_->show();
  numbers_->setText(tr("%1 GB/s\nmedian %2 ms (min %3, max %4)")
                        .arg(QLocale().toString(report.bandwidth_gbps, 'f', 2))
                        .arg(ms(timing.median), ms(timing.min), ms(timing.max)));
  QString detail = tr("%1  %2\n%Ln timed run(s) on %3", nullptr, timing.samples)
                       .arg(kernel, params, QString::fromStdString(report.device.name));
  if (report.cache_resident)
    detail += tr("\nThe working set fits in the last-level cache: this may be cache bandwidth.");
  if (!report.note.empty()) detail += "\n" + QString::fromStdString(report.note);
  if (report.timing && report.timing->device_lock.busy)
    detail += tr("\nTimed while other processes kept %1 of the machine's %2 cores busy: the times may be slower "
                 "than on a quiet machine.")
                  .arg(QLocale().toString(report.timing->device_lock.others_cores, 'f', 1))
                  .arg(report.timing->device_lock.cores);
  if (report.timing && !report.timing->device_lock.exclusive && !report.timing->device_lock.note.empty())
    detail += "\n" + QString::fromStdString(report.timing->device_lock.note);  // timed without the lock: why
  detail_->setText(detail);
}

void StatusPanel::show_refused(const QString& message) {
  shown_ = Shown::Refused;
  refused_ = message;
  badge_->setText(tr("refused"));
  badge_->setStyleSheet(kBad);
  numbers_->clear();
  detail_->setText(message);
  headline_->setText(badge_->text());
  headline_->setStyleSheet(kBad);
  headline_->show();
}

void StatusPanel::set_worker_state(const QString& text, bool is_problem) {
  worker_->setText(text);
  worker_->setStyleSheet(is_problem ? "color:#b3261e; font-weight:bold;" : "");
}

void StatusPanel::set_origin(const QString& text) {
  origin_->setText(text);
  origin_->setVisible(!text.isEmpty());
}

QString StatusPanel::origin_text() const { return origin_->text(); }
QString StatusPanel::headline_text() const { return headline_->text(); }
QString StatusPanel::badge_text() const { return badge_->text(); }
QString StatusPanel::numbers_text() const { return numbers_->text(); }
QString StatusPanel::worker_text() const { return worker_->text(); }
QString StatusPanel::detail_text() const { return detail_->text(); }

}  // namespace threadmap::gui
