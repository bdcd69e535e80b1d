#include "viz/views/trace_views_widget.h"

#include "viz/views/retranslate.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QShortcut>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QFontMetricsF>
#include <QPlainTextEdit>
#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/core/session.h"
#include "kernels/core/sources.h"
#include "viz/views/bank_view.h"
#include "viz/views/barrier_view.h"
#include "viz/views/coalescing_view.h"
#include "viz/views/grid_view.h"
#include "viz/views/playback_bar.h"
#include "viz/views/playback_controller.h"
#include "viz/views/problems_view.h"
#include "viz/views/schedule_view.h"
#include "viz/views/source_pane.h"

namespace threadmap::views {

TraceViewsWidget::TraceViewsWidget(QWidget* parent)
    : QWidget(parent),
      title_(new QLabel(this)),
      open_(new QToolButton(this)),
      tabs_(new QTabWidget(this)),
      grid_(new GridView),
      banks_(new BankView),
      barrier_(new BarrierView),
      coalescing_(new CoalescingView),
      schedule_(new ScheduleView),
      source_(new SourcePane),
      split_(new QSplitter(Qt::Horizontal, this)),
      problems_(new ProblemsView(this)),
      playback_(new PlaybackController(this)),
      bar_(new PlaybackBar(*playback_, this)) {
  setFocusPolicy(Qt::StrongFocus);
  title_->setObjectName("traceTitle");
  title_->setWordWrap(true);
  open_->setFocusPolicy(Qt::NoFocus);

  for (QWidget* view : {static_cast<QWidget*>(grid_), static_cast<QWidget*>(banks_), static_cast<QWidget*>(barrier_),
                        static_cast<QWidget*>(coalescing_), static_cast<QWidget*>(schedule_)})
    tabs_->addTab(view, QString());
  (new Retranslator(this))->add([this] {
    open_->setText(tr("Open recording..."));
    tabs_->setTabText(0, tr("Grid"));
    tabs_->setTabText(1, tr("Banks"));
    tabs_->setTabText(2, tr("Barrier"));
    tabs_->setTabText(3, tr("Coalescing"));
    tabs_->setTabText(4, tr("Schedule"));
    show_title();
  });
  tabs_->setFocusPolicy(Qt::NoFocus);
  // Five short names, read whole in every language ("Escalonamento" cut to
  // "Escalonamen" behind scroll buttons was not).
  tabs_->setElideMode(Qt::ElideNone);
  tabs_->setUsesScrollButtons(false);
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { highlight_source(); });
  split_->addWidget(tabs_);
  split_->addWidget(source_);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 1);
  split_->setSizes({720, 300});  // the views first; the source shows the highlighted line's start

  auto* header = new QHBoxLayout;
  header->addWidget(title_, 1);
  header->addWidget(open_);
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  column->addLayout(header);
  column->addWidget(split_, 1);
  column->addWidget(problems_);
  column->addWidget(bar_);

  connect(playback_, &PlaybackController::position_changed, this, &TraceViewsWidget::show_position);
  connect(problems_, &ProblemsView::problem_chosen, this, &TraceViewsWidget::show_problem);
  connect(open_, &QToolButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open recording"), QString(), tr("ThreadMap recordings (*.threadmap)"));
    if (!path.isEmpty()) open_file(path);
  });

  // Widget-wide keys, so they do not take Space or the arrows from the rest
  // of a main window.
  auto key = [this](QKeySequence seq, auto slot) {
    auto* s = new QShortcut(seq, this);
    s->setContext(Qt::WidgetWithChildrenShortcut);
    connect(s, &QShortcut::activated, this, slot);
  };
  add_playback_keys(this, playback_);
  key(QKeySequence(Qt::Key_V), [this] { next_view(1); });
  key(QKeySequence(Qt::SHIFT | Qt::Key_V), [this] { next_view(-1); });

  set_document(nullptr);
}

std::vector<TraceView*> TraceViewsWidget::views() const { return {grid_, banks_, barrier_, coalescing_, schedule_}; }

QString TraceViewsWidget::open_file(const QString& path) {
  try {
    auto doc = analysis::make_document(load_session(path.toStdString()), path.toStdString());
    if (!doc) {
      const QString message = tr("%1 holds no trace: record one with `threadmap-cli record`.").arg(path);
      title_->setText(message);
      return message;
    }
    set_document(std::move(doc));
    return {};
  } catch (const std::exception& e) {
    const QString message = tr("Cannot open %1: %2").arg(path, QString::fromUtf8(e.what()));
    title_->setText(message);
    return message;
  }
}

void TraceViewsWidget::set_document(std::shared_ptr<const analysis::TraceDocument> doc) {
  doc_ = std::move(doc);
  if (doc_) timeline_.emplace(doc_->analysis);
  else timeline_.reset();
  for (TraceView* v : views()) v->set_document(doc_);
  problems_->set_document(doc_);
  fit_problems();
  bar_->set_timeline(timeline_ ? &*timeline_ : nullptr);
  show_title();
  if (doc_) {
    title_->setToolTip(QString::fromStdString(doc_->origin));
    // The text the trace's lines refer to (a learner's recording: the learner's).
    const std::string_view text = traced_source_text(doc_->session);
    source_->set_source(QString::fromStdString(traced_source_name(doc_->session)),
                        QString::fromUtf8(text.data(), static_cast<int>(text.size())));
  } else {
    source_->set_source({}, {});
  }
  playback_->set_steps(timeline_ ? timeline_->steps() : 0);
}

// The open recording's kernel, device, parameters and traced blocks (a
// presentation keeps one line: the kernel and its parameters), else how to
// open one; in the interface's language.
void TraceViewsWidget::show_title() {
  if (!doc_) {
    title_->setText(tr("No recording open. Open a .threadmap file, or record a trace."));
    return;
  }
  const Trace& t = doc_->trace();
  QStringList params;
  for (const auto& [name, value] : traced_params(doc_->session)) params << QString::fromStdString(name + "=" + value);
  if (theme_.presentation) {
    title_->setText(QString("<b>%1</b> · %2").arg(QString::fromStdString(t.kernel_id), params.join(' ')));
    return;
  }
  // A hand-made session may lack the device; nothing here may throw into a slot.
  const auto& info = doc_->session.device;
  const QString device = info.is_object() && info.contains("name") && info["name"].is_string()
                             ? QString::fromStdString(info["name"].get<std::string>())
                             : QString::fromStdString(t.backend);
  title_->setText(tr("<b>%1</b> on %2 · %3 · traced %4 of %5 blocks")
                      .arg(QString::fromStdString(t.kernel_id), device, params.join(' '))
                      .arg(t.traced_blocks.size())
                      .arg(t.block_count()));
}

void TraceViewsWidget::show_problem(std::size_t index, int site) {
  if (!doc_) return;
  std::optional<ProblemFocus> focus = focus_on_problem(*doc_, index);
  if (!focus) return;
  site = site == 1 && focus->requests[1] ? 1 : 0;
  if (problems_->chosen() != index || problems_->chosen_site() != site) {
    problems_->choose(index, site);  // comes back here through problem_chosen
    return;
  }
  focus->site = site;
  const analysis::Problem& p = focus->problem;
  for (TraceView* v : views()) v->set_problem(focus);
  std::vector<int> lines{p.first.line};
  if (focus->has_second() && p.second.line != p.first.line) lines.push_back(p.second.line);
  source_->set_problem_lines(lines, theme_.problem);
  // The view that draws it: the banks for shared memory, the grid for a
  // global access, the barrier for a barrier.
  if (p.kind == analysis::ProblemKind::DivergentBarrier) tabs_->setCurrentWidget(barrier_);
  else tabs_->setCurrentWidget(p.space == Space::Shared ? static_cast<QWidget*>(banks_) : static_cast<QWidget*>(grid_));
  playback_->pause();
  if (const auto request = focus->requests[focus->site]) playback_->seek(*request);
}

void TraceViewsWidget::fit_problems() {
  // A presentation shows the list only where there is a problem to choose.
  problems_->setVisible(doc_ && (!theme_.presentation || problems_->count() > 0));
  problems_->fit_height();
}

void TraceViewsWidget::show_position(std::size_t step, double phase) {
  for (TraceView* v : views()) v->set_step(step, phase);
  highlight_source();
}

void TraceViewsWidget::set_presentation(bool on, int font_px) {
  theme_ = on ? Theme::projector() : Theme::standard();
  if (on && font_px > 0) theme_.font_px = font_px;
  apply_theme();
}

void TraceViewsWidget::next_view(int direction) {
  const int n = tabs_->count();
  tabs_->setCurrentIndex(((tabs_->currentIndex() + direction) % n + n) % n);
}

void TraceViewsWidget::apply_theme() {
  for (TraceView* v : views()) v->set_theme(theme_);
  problems_->set_theme(theme_);
  fit_problems();
  QFont f = font();
  f.setPixelSize(theme_.presentation ? theme_.font_px : QFont().pixelSize() > 0 ? QFont().pixelSize() : 13);
  const std::array<QWidget*, 4> chrome{title_, bar_, tabs_->tabBar(), open_};
  // Out of a presentation the chrome takes the window's type again, as before it.
  for (QWidget* w : chrome) w->setFont(theme_.presentation ? f : QFont());
  // The room needs no file button, and one line of title.
  open_->setVisible(!theme_.presentation);
  if (doc_) show_title();
  QFont mono = source_->font();
  if (theme_.presentation) {
    if (split_->orientation() == Qt::Horizontal) beside_source_font_ = mono;
    mono.setPixelSize(theme_.font_px);
  } else if (split_->orientation() == Qt::Vertical) {
    mono = beside_source_font_;  // the type it had beside the views
  }
  source_->setFont(mono);
  source_->set_highlight_colour(okabe_ito::kYellow);
  lay_out_source();
}

void TraceViewsWidget::lay_out_source() {
  // In a presentation the source is a strip under the views, as wide as the
  // screen: two lines, the line being discussed read whole (wrapped onto
  // the second if it must be). Otherwise it is a column beside the views.
  const bool strip = theme_.presentation;
  if (strip == (split_->orientation() == Qt::Vertical)) return;
  if (strip) {
    beside_sizes_ = split_->sizes();
    beside_width_ = split_->width();
    split_->setOrientation(Qt::Vertical);
    source_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    const int strip_h =
        static_cast<int>(std::ceil(2.2 * QFontMetricsF(source_->font()).lineSpacing())) + 2 * source_->frameWidth() + 4;
    source_->setFixedHeight(strip_h);
    split_->setSizes({std::max(1, split_->height() - strip_h), strip_h});
  } else {
    source_->setMinimumHeight(0);
    source_->setMaximumHeight(QWIDGETSIZE_MAX);
    source_->setLineWrapMode(QPlainTextEdit::NoWrap);
    split_->setOrientation(Qt::Horizontal);
    split_->setSizes(beside_sizes_.isEmpty() ? QList<int>{720, 300} : beside_sizes_);
    give_back_beside_sizes();
  }
  source_->highlight_line(source_->highlighted_line());
}

// The sizes above are set while the splitter still has the presentation's
// width; where the window manager shrinks the window later (X11), the
// splitter would shrink by stretch factors. Once it has its old width
// again, the old sizes come back exactly.
void TraceViewsWidget::give_back_beside_sizes() {
  if (beside_width_ < 0 || split_->orientation() != Qt::Horizontal || split_->width() != beside_width_) return;
  split_->setSizes(beside_sizes_);
  beside_width_ = -1;
}

void TraceViewsWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  give_back_beside_sizes();  // the layout has already given the splitter its width
}

void TraceViewsWidget::highlight_source() {
  if (!doc_ || doc_->analysis.requests.empty()) return;
  // The Barrier view discusses its barrier's line; the others the request's.
  if (tabs_->currentWidget() == barrier_ && barrier_->frame().has_pass) {
    source_->highlight_line(barrier_->frame().line);
    return;
  }
  source_->highlight_line(
      doc_->analysis.requests[std::min(playback_->step(), doc_->analysis.requests.size() - 1)].line);
}

}  // namespace threadmap::views
