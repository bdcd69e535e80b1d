#include "app/gui/recording_panel.h"

#include <QHeaderView>
#include <QDateTime>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

#include "app/gui/language.h"
#include "app/gui/site_model.h"
#include "kernels/core/report.h"

#include "viz/views/retranslate.h"

namespace threadmap::gui {

namespace {

QString number(std::uint64_t n) { return QLocale().toString(static_cast<qulonglong>(n)); }

}  // namespace

RecordingPanel::RecordingPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  summary_ = new QLabel(this);
  (new views::Retranslator(this))->add([this] {
    if (!showing_)
      summary_->setText(
          tr("No recording open. Ctrl+R records the selected kernel's trace; "
             "Ctrl+O opens a .threadmap session."));
  });
  summary_->setObjectName("recordingSummary");
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  sites_ = new SiteModel(this);
  table_ = new QTableView(this);
  table_->setObjectName("recordingSites");
  table_->setModel(sites_);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
}

void RecordingPanel::show_document(const analysis::TraceDocument& doc) {
  const Session& s = doc.session;
  const Trace& t = doc.trace();
  const analysis::Analysis& a = doc.analysis;
  const analysis::Counters& c = a.totals;
  showing_ = true;
  const DeviceInfo device = device_or_default(s.device);
  const auto or_unknown = [](const std::string& text) { return QString::fromStdString(text.empty() ? "?" : text); };
  QString text = tr("<b>%1</b> recorded on %2 (%3), %4, by %5")
                     .arg(QString::fromStdString(s.kernel_id), or_unknown(device.name), or_unknown(device.spec),
                          language::date_time(s.created_at), QString::fromStdString(s.created_by));
  text += tr("<br>%1 in %2: grid %3 × %4 blocks of %5 × %6 threads")
              .arg(QString::fromStdString(t.kernel), QString::fromStdString(t.source_file))
              .arg(t.grid[0])
              .arg(t.grid[1])
              .arg(t.block[0])
              .arg(t.block[1]);
  text += tr("<br>Traced %1 of %2 blocks: %3 accesses in %4 warp-level requests, %5 barrier arrivals")
              .arg(number(t.traced_blocks.size()), number(t.block_count()), number(t.accesses.size()),
                   number(a.requests.size()), number(t.barriers.size()));
  const std::uint64_t shared_requests = c.shared_ld_requests + c.shared_st_requests;
  const std::uint64_t global_requests = c.global_ld_requests + c.global_st_requests;
  if (shared_requests)
    text += tr("<br>Shared memory: %1 wavefronts for %2 requests (%3 bank conflicts)")
                .arg(number(c.shared_ld_wavefronts + c.shared_st_wavefronts), number(shared_requests),
                     number(c.shared_ld_conflicts() + c.shared_st_conflicts()));
  if (global_requests)
    text += tr("<br>Global memory: %1 sectors for %2 requests (ideal %3)")
                .arg(number(c.global_ld_sectors + c.global_st_sectors), number(global_requests),
                     number(c.global_ld_ideal_sectors + c.global_st_ideal_sectors));
  if (!a.whole_grid) text += tr("<br><i>Totals of the traced blocks only.</i>");
  // The analysis' model (kernels/analysis model_for), said in the interface's language.
  const QString model = t.warp_width_assumed
                            ? tr("warp width %1 assumed (the device does not report one); 32 banks of 4 bytes and "
                                 "32-byte sectors, as on NVIDIA GPUs")
                                  .arg(a.model.warp_width)
                            : tr("warp width %1 read from the device (%2); 32 banks of 4 bytes and 32-byte sectors")
                                  .arg(a.model.warp_width)
                                  .arg(QString::fromStdString(t.backend));
  text += tr("<br>Traced run %1. Model: %2")
              .arg(verification_from_json(s.trace_verification).verified ? tr("verified") : tr("NOT verified"), model);
  summary_->setText(text);
  sites_->set_sites(a.sites);
  table_->resizeColumnsToContents();
}

QString RecordingPanel::summary_text() const { return summary_->text(); }

}  // namespace threadmap::gui
