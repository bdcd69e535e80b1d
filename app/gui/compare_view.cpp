#include "app/gui/compare_view.h"

#include <algorithm>
#include <cmath>

#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsOpacityEffect>
#include <QHBoxLayout>
#include <QLabel>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTabBar>
#include <QVBoxLayout>

#include "app/gui/side_by_side.h"
#include "kernels/core/report.h"
#include "kernels/core/session.h"
#include "viz/views/timeline.h"
#include "viz/views/playback_bar.h"
#include "viz/views/playback_controller.h"
#include "viz/views/retranslate.h"
#include "viz/views/source_pane.h"
#include "viz/views/trace_view.h"

namespace threadmap::gui {

namespace {

// "NVIDIA H100 80GB HBM3 · block_x=32 ...": the caption's tooltip.
QString device_and_parameters(const analysis::TraceDocument& doc) {
  const std::string device = device_or_default(doc.session.device).name;
  const QString name = QString::fromStdString(device.empty() ? doc.trace().backend : device);
  QStringList params;
  for (const auto& [key, value] : traced_params(doc.session)) params << QString::fromStdString(key + "=" + value);
  return name + " · " + params.join(' ');
}

}  // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent),
      title_(new QLabel(this)),
      kinds_(new QTabBar(this)),
      difference_(new QLabel(this)),
      playback_(new views::PlaybackController(this)),
      bar_(new views::PlaybackBar(*playback_, this)) {
  setObjectName("compareView");
  setFocusPolicy(Qt::StrongFocus);
  title_->setWordWrap(true);
  title_->setTextFormat(Qt::RichText);
  kinds_->setFocusPolicy(Qt::NoFocus);
  for (int i = 0; i < 5; ++i) kinds_->addTab(QString());
  kinds_->setCurrentIndex(1);  // banks: where the lessons' pairs differ most often
  difference_->setObjectName("compareDifference");
  difference_->setWordWrap(true);
  QFont big = difference_->font();
  big.setBold(true);
  big.setPointSizeF(big.pointSizeF() * 1.3);
  difference_->setFont(big);
  bar_->counters().hide();  // each pane says its own

  auto* panes = new QHBoxLayout;
  for (int i = 0; i < 2; ++i) {
    auto* column = new QVBoxLayout;
    captions_[i] = new QLabel(this);
    captions_[i]->setTextFormat(Qt::RichText);
    captions_[i]->setWordWrap(true);
    counters_[i] = new QLabel(this);
    counters_[i]->setObjectName(QString("compareCounters%1").arg(i));
    counters_[i]->setWordWrap(true);
    counters_[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
    holders_[i] = new QVBoxLayout;
    holders_[i]->setContentsMargins(0, 0, 0, 0);
    sources_[i] = new views::SourcePane(this);
    sources_[i]->setObjectName(QString("compareSource%1").arg(i));
    sources_[i]->hide();  // a presentation's; the Trace tab has the source beside its views
    auto* fade = new QGraphicsOpacityEffect(sources_[i]);
    fade->setOpacity(0.35);
    fade->setEnabled(false);
    sources_[i]->setGraphicsEffect(fade);
    column->addWidget(captions_[i]);
    column->addLayout(holders_[i], 1);
    column->addWidget(sources_[i]);
    column->addWidget(counters_[i]);
    panes->addLayout(column, 1);
  }
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(title_);
  layout->addWidget(kinds_);
  layout->addLayout(panes, 1);
  layout->addWidget(difference_);
  layout->addWidget(bar_);

  (new views::Retranslator(this))->add([this] {
    kinds_->setTabText(0, tr("Grid"));
    kinds_->setTabText(1, tr("Banks"));
    kinds_->setTabText(2, tr("Barrier"));
    kinds_->setTabText(3, tr("Coalescing"));
    kinds_->setTabText(4, tr("Schedule"));
  });
  connect(kinds_, &QTabBar::currentChanged, this, [this] { build_views(); });
  connect(playback_, &views::PlaybackController::position_changed, this, &CompareView::show_position);

  auto key = [this](QKeySequence seq, auto slot) {
    auto* s = new QShortcut(seq, this);
    s->setContext(Qt::WidgetWithChildrenShortcut);
    connect(s, &QShortcut::activated, this, slot);
  };
  views::add_playback_keys(this, playback_);
  key(QKeySequence(Qt::Key_V), [this] { set_view((view_index() + 1) % 5); });
  key(QKeySequence(Qt::SHIFT | Qt::Key_V), [this] { set_view((view_index() + 4) % 5); });

  build_views();
  show_texts();
}

QString CompareView::set_documents(std::shared_ptr<const analysis::TraceDocument> a,
                                   std::shared_ptr<const analysis::TraceDocument> b) {
  if (!a || !b) return tr("both recordings need a trace to compare");
  if (const QString why = comparable(*a, *b); !why.isEmpty()) return why;
  docs_ = {std::move(a), std::move(b)};
  steps_ = pair_steps(docs_[0]->analysis, docs_[1]->analysis);
  // It opens on the view of its lesson (the transpose pair's sectors, not
  // the Banks of a kernel with no shared memory), the views built below.
  {
    const QSignalBlocker quiet(kinds_);
    const auto& names = view_names();
    const QString lesson = lesson_view(docs_[0]->analysis, docs_[1]->analysis);
    kinds_->setCurrentIndex(static_cast<int>(std::find(names.begin(), names.end(), lesson) - names.begin()));
  }
  clock_timeline_.reset();
  clock_.requests.assign(steps_.size(), analysis::Request{});
  clock_timeline_.emplace(clock_);
  build_views();
  set_sources();
  lay_out_sources();
  bar_->set_timeline(&*clock_timeline_);
  playback_->set_steps(steps_.size());
  show_texts();
  return {};
}

void CompareView::set_view(int index) { kinds_->setCurrentIndex(index); }
int CompareView::view_index() const { return kinds_->currentIndex(); }
QString CompareView::view_name() const { return view_names()[static_cast<std::size_t>(view_index())]; }

std::optional<std::size_t> CompareView::pane_request(int i) const {
  return playback_->step() < steps_.size() ? steps_[playback_->step()].request[i] : std::nullopt;
}
QString CompareView::counters_text(int i) const { return counters_[i]->text(); }
QString CompareView::caption_text(int i) const { return captions_[i]->text(); }
QString CompareView::difference_text() const { return difference_->text(); }

void CompareView::build_views() {
  for (int i = 0; i < 2; ++i) {
    delete views_[i];
    std::unique_ptr<views::TraceView> view = make_view(view_name());
    views_[i] = view.release();
    views_[i]->setParent(this);
    auto* fade = new QGraphicsOpacityEffect(views_[i]);
    fade->setOpacity(0.35);
    fade->setEnabled(false);
    views_[i]->setGraphicsEffect(fade);
    views_[i]->set_theme(theme_);
    views_[i]->set_document(docs_[i]);
    holders_[i]->addWidget(views_[i]);
  }
  show_position(playback_->step(), playback_->phase());
}

void CompareView::show_position(std::size_t step, double phase) {
  if (steps_.empty()) return;
  step = std::min(step, steps_.size() - 1);
  for (int i = 0; i < 2; ++i)
    if (docs_[i]) show_pane(i, step, phase);
}

void CompareView::show_pane(int i, std::size_t step, double phase) {
  const analysis::TraceDocument& doc = *docs_[i];
  const std::optional<std::size_t> own = steps_[step].request[i];
  const std::optional<std::size_t> other = steps_[step].request[1 - i];
  const std::optional<std::size_t> shown = shown_request(steps_, step, i);
  views_[i]->set_step(shown.value_or(0), own ? phase : 1.0);
  // Without a counterpart the view holds what it showed last, faded: not
  // this step's.
  for (QWidget* held : {static_cast<QWidget*>(views_[i]), static_cast<QWidget*>(sources_[i])})
    if (auto* fade = qobject_cast<QGraphicsOpacityEffect*>(held->graphicsEffect())) fade->setEnabled(!own);
  const QString name = "<b>" + recording_name(doc).toHtmlEscaped() + "</b>";
  if (!own) {
    captions_[i]->setText(name + " · " + tr("nothing at this step"));
  } else {
    const analysis::Request& r = doc.analysis.requests[*own];
    captions_[i]->setText(name + " · " +
                          tr("block %1 warp %2 · request %3 of %4")
                              .arg(QString::fromStdString(views::block_name(doc.trace(), r.block)))
                              .arg(r.warp)
                              .arg(*own + 1)
                              .arg(doc.analysis.requests.size()));
  }
  // Its current site's own figures (loads and stores apart), or what it
  // lacks of the other's; then its timed run.
  QString site;
  if (own) {
    if (const analysis::SiteTotals* s = doc.analysis.site_of(doc.analysis.requests[*own])) site = site_text(*s);
  } else if (other) {
    site = missing_text(doc, *docs_[1 - i], *other);
  }
  counters_[i]->setText(site + (site.isEmpty() ? "" : "\n") + timing_text(numbers_of(doc)));
  if (shown) sources_[i]->highlight_line(doc.analysis.requests[*shown].line);
}

void CompareView::set_sources() {
  for (int i = 0; i < 2; ++i) {
    // The text the trace's lines refer to (a learner's recording: the learner's).
    const std::string_view text = traced_source_text(docs_[i]->session);
    sources_[i]->set_source(QString::fromStdString(traced_source_name(docs_[i]->session)),
                            QString::fromUtf8(text.data(), static_cast<int>(text.size())));
  }
}

void CompareView::lay_out_sources() {
  // A strip of two lines under each pane: its current line read whole
  // (wrapped onto the second if it must be), as the Trace tab's presentation.
  const bool strip = theme_.presentation && !empty();
  for (views::SourcePane* source : sources_) {
    QFont mono = source->font();
    mono.setPixelSize(theme_.font_px);
    source->setFont(mono);
    source->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    source->setFixedHeight(static_cast<int>(std::ceil(2.2 * QFontMetricsF(mono).lineSpacing())) +
                           2 * source->frameWidth() + 4);
    source->setVisible(strip);
    source->set_highlight_colour(views::okabe_ito::kYellow);
  }
}

void CompareView::show_texts() {
  if (empty()) {
    title_->setText(
        tr("Compare… (F7) puts two recordings of a family here, side by side, stepping "
           "together; so does <code>threadmap A.threadmap B.threadmap</code>."));
    title_->show();
    difference_->clear();
    for (int i = 0; i < 2; ++i) {
      captions_[i]->clear();
      counters_[i]->clear();
    }
    return;
  }
  title_->setText(tr("Side by side, stepping together through the same block and warp at corresponding "
                     "sites: %1 against %2")
                      .arg(recording_name(*docs_[0]).toHtmlEscaped(), recording_name(*docs_[1]).toHtmlEscaped()));
  title_->hide();  // the captions name both; the tab's tooltip keeps it
  setToolTip(title_->text());
  for (int i = 0; i < 2; ++i) captions_[i]->setToolTip(device_and_parameters(*docs_[i]));
  difference_->setText(gui::difference_text(*docs_[0], *docs_[1]));
  show_position(playback_->step(), playback_->phase());
}

void CompareView::set_presentation(bool on, int font_px) {
  theme_ = on ? views::Theme::projector() : views::Theme::standard();
  if (on && font_px > 0) theme_.font_px = font_px;
  for (views::TraceView* v : views_) v->set_theme(theme_);
  QFont f = font();
  if (on) f.setPixelSize(theme_.font_px);
  for (QWidget* w :
       std::initializer_list<QWidget*>{title_, kinds_, captions_[0], captions_[1], counters_[0], counters_[1], bar_})
    w->setFont(on ? f : QFont());
  QFont big = on ? f : QFont();
  big.setBold(true);
  if (!on) big.setPointSizeF(big.pointSizeF() * 1.3);
  difference_->setFont(big);
  lay_out_sources();
  show_position(playback_->step(), playback_->phase());
}

void CompareView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::LanguageChange) show_texts();
}

}  // namespace threadmap::gui
