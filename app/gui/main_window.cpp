#include "app/gui/main_window.h"

#include <QGuiApplication>
#include <QScreen>

#include <QAction>
#include <QApplication>
#include <QActionGroup>

#include <algorithm>
#include <array>
#include <cmath>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QInputDialog>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

#include "app/gui/chart_export.h"
#include "app/gui/compare_dialog.h"
#include "app/gui/compare_view.h"
#include "app/gui/controls_page.h"
#include "app/gui/presentation.h"
#include "app/gui/code_editor.h"
#include "app/gui/exercise_panel.h"
#include "app/gui/export_animation.h"
#include "app/gui/side_by_side.h"
#include "app/gui/charts.h"
#include "app/gui/kernel_tree.h"
#include "app/gui/language.h"
#include "app/gui/lesson_pane.h"
#include "app/gui/param_panel.h"
#include "app/gui/recording_panel.h"
#include "app/gui/session_store.h"
#include "app/gui/status_panel.h"
#include "kernels/core/error.h"
#include "kernels/core/report.h"
#include "viz/views/playback_controller.h"
#include "viz/views/retranslate.h"
#include "viz/views/bank_view.h"
#include "viz/views/coalescing_view.h"
#include "viz/views/trace_views_widget.h"

// The bundled recordings live in a static library; nothing else references
// them, so they are registered by hand (as lesson_pane.cpp does for lessons).
static void init_recording_resources() { Q_INIT_RESOURCE(recordings); }

namespace threadmap::gui {

namespace {

constexpr int kMaxRecentFiles = 8;

// The bundled recordings (resources/recordings.qrc), a folder for each GPU
// they were made on, and for a dialect other than the seed's CUDA its key
// after the GPU's: the seed lessons' on an H100 ("h100", "h100-openmp"),
// the bundled packs' on an H200. Every one of `kernel_id`, in folder order.
QStringList bundled_recordings(const std::string& kernel_id) {
  QStringList paths;
  for (const QString& folder : QDir(":/recordings").entryList(QDir::Dirs, QDir::Name)) {
    const QString path = QString(":/recordings/%1/%2.threadmap").arg(folder, QString::fromStdString(kernel_id));
    if (QFileInfo::exists(path)) paths.push_back(path);
  }
  return paths;
}

// The dialect a bundled recording's folder names, if any.
std::optional<Dialect> bundled_recording_dialect(const QString& path) {
  const QString folder = QFileInfo(path).dir().dirName();
  const qsizetype dash = folder.indexOf('-');
  if (dash < 0) return std::nullopt;
  return dialect_from_key(folder.mid(dash + 1).toStdString());
}

// The one of `kernel_id` in `dialect` where one was bundled, else the
// first; "" when none was.
QString bundled_recording(const std::string& kernel_id, std::optional<Dialect> dialect = std::nullopt) {
  const QStringList paths = bundled_recordings(kernel_id);
  for (const QString& path : paths)
    if (dialect && bundled_recording_dialect(path) == dialect) return path;
  return paths.isEmpty() ? QString() : paths.front();
}

// The GPU a bundled recording was made on, from its folder, and the
// dialect where the folder names one: "NVIDIA H100", "NVIDIA H100, OpenMP C".
QString bundled_recording_gpu(const QString& path) {
  const QString folder = QFileInfo(path).dir().dirName();
  QString gpu = "NVIDIA " + folder.section('-', 0, 0).toUpper();
  if (const std::optional<Dialect> d = bundled_recording_dialect(path))
    gpu += ", " + QString::fromUtf8(dialect_title(*d).data(), static_cast<qsizetype>(dialect_title(*d).size()));
  return gpu;
}

}  // namespace

std::string learner_bar_name(const Session& session);

MainWindow::MainWindow(const WindowOptions& options, QWidget* parent)
    : QMainWindow(parent),
      options_(options),
      worker_(options.worker.isEmpty() ? WorkerClient::locate_worker() : options.worker, options.worker_timeout_ms),
      packs_(worker_),
      runs_(worker_) {
  texts_ = new views::Retranslator(this);
  texts_->add([this] { setWindowTitle(tr("ThreadMap")); });
  setAcceptDrops(true);
  controls_ = new ControlsPage(options.reps, options.size);
  statusBar()->addPermanentWidget(&controls_->status().headline());
  build_pages(build_tabs());
  connect_controls();
  connect_runs();
  connect_exercise();
  init_recording_resources();
  build_actions();
  start_worker();
  open_user_packs();  // after the worker's line: a bad pack's message is the one shown
  resize(default_size());
  // The chart and the trace views get most of the width: the controls about
  // a quarter, within what their widgets need.
  const int controls_width = std::clamp(width() / 4, ControlsPage::kMinWidth, 440);
  main_split_->setSizes({controls_width, width() - controls_width});
  if (options_.restore_settings) controls_->restore(QSettings());
}

MainWindow::~MainWindow() { worker_.blockSignals(true); }

KernelTree& MainWindow::kernel_tree() { return controls_->tree(); }
ParamPanel& MainWindow::params() { return controls_->params(); }
StatusPanel& MainWindow::status() { return controls_->status(); }
QComboBox& MainWindow::device_picker() { return controls_->devices(); }

QWidget* MainWindow::build_tabs() {
  chart_tabs_ = new QTabWidget;
  // Six tabs on a 1024-pixel projector: every one in sight. Their short
  // titles fit whole; only a window narrower still elides them.
  chart_tabs_->setUsesScrollButtons(false);
  chart_tabs_->setElideMode(Qt::ElideRight);
  // A click on a tab, as Ctrl+1…6 do, hands the keys to the page (queued:
  // the bar reports the click before it changes the page).
  connect(chart_tabs_->tabBar(), &QTabBar::tabBarClicked, this, [this] {
    QMetaObject::invokeMethod(
        this, [this] { focus_tab_page(); }, Qt::QueuedConnection);
  });
  family_chart_ = new FamilyChart;
  sweep_chart_ = new SweepChart;
  recording_panel_ = new RecordingPanel;
  trace_views_ = new views::TraceViewsWidget;
  compare_view_ = new CompareView;
  exercise_panel_ = new ExercisePanel(worker_, profile_);
  for (QWidget* page : {static_cast<QWidget*>(family_chart_), static_cast<QWidget*>(sweep_chart_),
                        static_cast<QWidget*>(recording_panel_), static_cast<QWidget*>(trace_views_),
                        static_cast<QWidget*>(compare_view_), static_cast<QWidget*>(exercise_panel_)})
    chart_tabs_->addTab(page, QString());
  texts_->add([this] { title_tabs(); });
  connect(this, &MainWindow::traceDocumentChanged, trace_views_, &views::TraceViewsWidget::set_document);
  lesson_ = new LessonPane;
  right_split_ = new QSplitter(Qt::Vertical);
  right_split_->addWidget(chart_tabs_);
  right_split_->addWidget(lesson_);
  right_split_->setStretchFactor(0, 3);
  right_split_->setStretchFactor(1, 2);
  return right_split_;
}

// The window's layout (the controls beside the tabs and lesson) on one page,
// the presentation's on the other.
void MainWindow::build_pages(QWidget* right) {
  main_split_ = new QSplitter(Qt::Horizontal);
  main_split_->setObjectName("mainSplitter");
  main_split_->addWidget(controls_);
  main_split_->addWidget(right);
  main_split_->setStretchFactor(1, 1);
  main_split_->setCollapsible(0, false);
  main_split_->setCollapsible(1, false);
  pages_ = new QStackedWidget;
  pages_->addWidget(main_split_);
  setCentralWidget(pages_);
  layout_ = std::make_unique<WindowLayout>(
      *this, WindowLayout::Splitters{main_split_, right_split_, &controls_->split(), lesson_}, *chart_tabs_);
  presentation_ = new Presentation(
      {this, pages_, main_split_, chart_tabs_, family_chart_, trace_views_, compare_view_, layout_.get()});
}

void MainWindow::connect_controls() {
  debounce_.setSingleShot(true);
  debounce_.setInterval(options_.debounce_ms);
  connect(&debounce_, &QTimer::timeout, this, &MainWindow::run_now);
  connect(&controls_->params(), &ParamPanel::changed, &debounce_, qOverload<>(&QTimer::start));
  connect(controls_, &ControlsPage::run_clicked, this, &MainWindow::run_now);
  connect(controls_, &ControlsPage::sweep_clicked, this, &MainWindow::sweep_now);
  connect(controls_, &ControlsPage::expand_clicked, this, [this] { set_controls_collapsed(false); });
  connect(&controls_->tree(), &KernelTree::variant_selected, this, &MainWindow::select_variant);
  connect(&controls_->devices(), &QComboBox::currentIndexChanged, this, [this] {
    exercise_panel_->follow_device(dialect());
    if (variant_) lesson_->show_variant(*variant_, dialect());
    refresh_family_chart();
    debounce_.start();
  });
}

void MainWindow::connect_runs() {
  connect(&runs_, &RunController::devices_listed, this, &MainWindow::show_devices);
  connect(&runs_, &RunController::run_finished, this, [this](const RunReport& r) {
    controls_->status().show_report(r);
    controls_->status().set_origin({});
    origin_line_ = nullptr;
    current_session_ = SessionStore::from_report(r);
    if (!shown_device_.empty()) {
      shown_device_.clear();
      shown_dialect_.reset();
      if (variant_) lesson_->show_variant(*variant_, dialect());
      refresh_family_chart();
    }
  });
  connect(&runs_, &RunController::recorded, this, [this](const QString& path) {
    // The lesson's kernel recorded to stand beside the learner's.
    if (!compare_with_.isEmpty()) {
      compare_files(path, std::exchange(compare_with_, QString()));
      return;
    }
    load_session_file(
        path, [] { return tr("Recorded just now"); }, false);
  });
  connect(&runs_, &RunController::refused, this, [this](const QString& message) {
    compare_with_.clear();  // a refused recording puts nothing beside the learner's
    controls_->status().show_refused(message);
  });
  connect(&runs_, &RunController::history_changed, this, &MainWindow::refresh_family_chart);
  connect(&runs_, &RunController::sweep_changed, this, &MainWindow::refresh_sweep_chart);
  connect(&runs_, &RunController::worker_state, this, &MainWindow::report);
}

void MainWindow::connect_exercise() {
  connect(exercise_panel_, &ExercisePanel::recorded, this, [this](const QString& path) {
    learner_session_ = path;
    const QString error = load_session_file(
        path, [] { return tr("Your kernel, run just now"); }, false);
    exercise_panel_->show_result(error.isEmpty() ? document_ : nullptr);
  });
  connect(exercise_panel_, &ExercisePanel::exercise_chosen, this, &MainWindow::open_exercise);
  connect(exercise_panel_, &ExercisePanel::run_requested, this, &MainWindow::run_learner);
  connect(exercise_panel_, &ExercisePanel::message, this, &MainWindow::report);
  connect(exercise_panel_, &ExercisePanel::step_to, this, [this](std::size_t request, Space space, bool show) {
    trace_views_->tabs().setCurrentWidget(space == Space::Shared ? static_cast<QWidget*>(&trace_views_->banks())
                                                                 : static_cast<QWidget*>(&trace_views_->coalescing()));
    trace_views_->playback().seek(request);
    if (show) chart_tabs_->setCurrentWidget(trace_views_);
  });
  connect(exercise_panel_, &ExercisePanel::compare_requested, this, [this] {
    const LearnerRun& last = exercise_panel_->last_run();
    const Variant* v = learner_session_.isEmpty() ? nullptr : find_variant(last.kernel);
    if (!v || !recordings_dir_.isValid()) return;
    if (runs_.recording()) {
      report(tr("a recording is already in progress; Side by side waits for it to end"), true);
      return;
    }
    // The lesson's kernel as the learner's ran: same device, same parameters, same blocks.
    protocol::KernelRun request = request_for(*v);
    request.device = last.device;
    request.params = last.params;
    compare_with_ = learner_session_;
    runs_.record(request, recordings_dir_.path(), last.blocks);
  });
}

void MainWindow::start_worker() {
  if (!options_.remote.isEmpty()) {
    if (const QString problem = connect_to_server(options_.remote); !problem.isEmpty()) report(problem, true);
    return;
  }
  worker_.start();
  report(tr("worker %1 starting …").arg(WorkerClient::locate_worker()), false);
  runs_.list_devices();
}

// 1600 x 1000, or the screen's free area where it is smaller (a 1024 x 768
// projector), but never below what the layout needs.
QSize MainWindow::default_size() const {
  const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
  const QSize wanted(1600, 1000);
  const QSize fitted = s ? wanted.boundedTo(s->availableGeometry().size()) : wanted;
  return fitted.expandedTo(minimumSizeHint());
}

// The first show lays the window out at its default size: that layout is what
// File > Reset layout brings back; then the saved layout, if any, replaces it.
void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (std::exchange(shown_before_, true)) return;
  layout_->keep_defaults();
  if (options_.restore_settings) layout_->restore(QSettings());
}

void MainWindow::save_settings() const {
  QSettings settings;
  layout_->save(settings);
  controls_->save(settings, variant_);
}

void MainWindow::reset_layout() {
  QSettings settings;
  WindowLayout::forget(settings);
  set_presentation(false);
  if (isFullScreen() || isMaximized()) showNormal();
  set_controls_collapsed(false);
  resize(default_size());
  layout_->restore_defaults();
  report(tr("The window is back to its default layout."), false);
}

void MainWindow::set_controls_collapsed(bool collapsed) {
  if (collapsed == controls_collapsed()) return;
  if (collapsed) {
    expanded_sizes_ = main_split_->sizes();
    controls_->set_collapsed(true);
    const int total = expanded_sizes_.value(0) + expanded_sizes_.value(1);
    main_split_->setSizes({ControlsPage::kStripWidth, total - ControlsPage::kStripWidth});
  } else {
    controls_->set_collapsed(false);
    if (expanded_sizes_.size() == 2) main_split_->setSizes(expanded_sizes_);
  }
}

bool MainWindow::controls_collapsed() const { return controls_->collapsed(); }

void MainWindow::title_tabs() {
  const std::pair<QWidget*, QString> titles[] = {
      {family_chart_, tr("Variants (Ctrl+1)")},     {sweep_chart_, tr("Sweep (Ctrl+2)")},
      {recording_panel_, tr("Recording (Ctrl+3)")}, {trace_views_, tr("Trace (Ctrl+4)")},
      {compare_view_, tr("Side by side (Ctrl+5)")}, {exercise_panel_, tr("Exercise (Ctrl+6)")}};
  // The tab shows the name alone, so six fit a projector's width in every
  // language; the tooltip keeps the whole text with its key (one string to translate).
  static const QRegularExpression key(QStringLiteral("\\s*\\(Ctrl\\+\\d\\)$"));
  for (const auto& [page, title] : titles)
    if (const int i = chart_tabs_->indexOf(page); i >= 0) {
      chart_tabs_->setTabText(i, QString(title).remove(key));
      chart_tabs_->setTabToolTip(i, title);
    }
}

// Without this the focus stays in the controls after Ctrl+1…6 or Esc, where
// Right and Left scroll them and the trace cannot be stepped by keys.
void MainWindow::focus_tab_page() {
  QWidget* page = chart_tabs_->currentWidget();
  if (page == exercise_panel_) exercise_panel_->editor().setFocus();
  else if (page == trace_views_ || page == compare_view_) page->setFocus();
  else chart_tabs_->tabBar()->setFocus();  // the arrows then go from tab to tab
}

QWidget* MainWindow::shown_page() const {
  return presenting() ? presentation_->presented() : chart_tabs_->currentWidget();
}

int MainWindow::presentation_font_px() const { return presentation_->font_px(); }

void MainWindow::set_presentation(bool on) {
  if (on == presenting()) return;
  if (on) {
    debounce_.stop();
    presentation_->enter();
  } else {
    presentation_->leave();
    title_tabs();
    focus_tab_page();
  }
  emit presentationChanged(on);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  presentation_->give_back_layout();
}

bool MainWindow::presenting() const { return presentation_->on(); }

bool MainWindow::restore_kernel() {
  if (!controls_->restore_kernel(QSettings())) return false;
  debounce_.start();  // the restored configuration runs on the restored device
  return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  set_presentation(false);  // the window's own layout is what the next start restores
  save_settings();
  QMainWindow::closeEvent(event);
}

// Texts are marked with QT_TR_NOOP and translated each time the language changes.
QAction* MainWindow::add_action(QMenu* menu, const char* text, const QKeySequence& key,
                                const std::function<void()>& slot) {
  QAction* action = menu->addAction(QString());
  texts_->add([action, text] { action->setText(tr(text)); });
  action->setShortcut(key);
  connect(action, &QAction::triggered, this, slot);
  addAction(action);
  return action;
}

QMenu* MainWindow::titled_menu(QMenu* menu, const char* title) {
  texts_->add([menu, title] { menu->setTitle(tr(title)); });
  return menu;
}

void MainWindow::build_actions() {
  build_file_menu();
  build_run_menu();
  build_view_menu();
  build_exercise_menu();
  QMenu* help = titled_menu(menuBar()->addMenu(QString()), QT_TR_NOOP("&Help"));
  add_action(help, QT_TR_NOOP("&Keyboard shortcuts"), QKeySequence(Qt::Key_F1), [this] {
    QString text;
    for (QAction* a : actions())
      text += a->shortcut().toString(QKeySequence::NativeText) + "\t" + a->text().remove('&') + "\n";
    QMessageBox::information(this, tr("Keyboard shortcuts"), text);
  });
}

void MainWindow::build_file_menu() {
  QMenu* file = titled_menu(menuBar()->addMenu(QString()), QT_TR_NOOP("&File"));
  add_action(file, QT_TR_NOOP("&Open session…"), QKeySequence::Open, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), {}, SessionStore::file_filter());
    if (!path.isEmpty()) open_from(path);
  });
  QMenu* recent = titled_menu(file->addMenu(QString()), QT_TR_NOOP("Open &recent"));
  connect(recent, &QMenu::aboutToShow, this, [this, recent] {
    recent->clear();
    for (const QString& path : QSettings().value("recentFiles").toStringList())
      recent->addAction(path, this, [this, path] { open_from(path); });
    if (recent->isEmpty()) recent->addAction(tr("(none)"))->setEnabled(false);
  });
  add_action(file, QT_TR_NOOP("Open &bundled recording"), QKeySequence(), [this] {
    open_bundled_recording(variant_ && !bundled_recording(variant_->id).isEmpty() ? variant_->id : "transpose.shared",
                           dialect());
  });
  add_action(file, QT_TR_NOOP("Open &pack…"), QKeySequence(), [this] {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open pack (a folder with a pack.toml)"),
                                                             PackLibrary::user_folder());
    if (!folder.isEmpty()) open_pack(folder);
  });
  add_action(file, QT_TR_NOOP("Reloa&d packs"), QKeySequence(), [this] { reload_packs(); });
  add_action(file, QT_TR_NOOP("&Compare two recordings…"), QKeySequence(Qt::Key_F7), [this] { compare_now(); });
  add_action(file, QT_TR_NOOP("Connect to a &GPU server…"), QKeySequence(), [this] {
    bool ok = false;
    const QString target =
        QInputDialog::getText(this, tr("Connect to a GPU server"),
                              tr("The server's [user@]host[:port], reached with ssh (your keys and ssh config); "
                                 "ThreadMap must be installed there. Empty: this computer."),
                              QLineEdit::Normal, worker_.remote_host(), &ok);
    if (ok)
      if (const QString problem = connect_to_server(target.trimmed()); !problem.isEmpty()) report(problem, true);
  });
  add_action(file, QT_TR_NOOP("&Save session…"), QKeySequence::Save, [this] {
    const QString name = current_session_ ? QString::fromStdString(current_session_->kernel_id) + ".threadmap"
                                          : QString("threadmap.threadmap");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save session"), name, SessionStore::file_filter());
    if (!path.isEmpty()) save_to(path);
  });
  add_action(file, QT_TR_NOOP("&Export chart or data…"), QKeySequence(Qt::CTRL | Qt::Key_E), [this] {
    // The Trace and Side by side tabs export their animation, the others a chart or its data.
    const QWidget* shown = shown_page();
    const bool animation = shown == trace_views_ || shown == compare_view_;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export"), animation ? "threadmap-animation.gif" : "threadmap-chart.png",
        animation ? tr("GIF animation (*.gif);;WebM video (*.webm);;Numbered PNG frames (*.png)") : export_filters());
    if (!path.isEmpty()) export_to(path);
    activateWindow();  // back from the file and progress dialogs
  });
  file->addSeparator();
  add_action(file, QT_TR_NOOP("Reset &layout"), QKeySequence(), [this] { reset_layout(); });
  file->addSeparator();
  add_action(file, QT_TR_NOOP("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), [this] { close(); });
}

void MainWindow::build_run_menu() {
  QMenu* run = titled_menu(menuBar()->addMenu(QString()), QT_TR_NOOP("&Run"));
  // F5 runs what is shown: the learner's text in the Exercise tab, else the selected kernel.
  add_action(run, QT_TR_NOOP("&Run the selected kernel"), QKeySequence(Qt::Key_F5), [this] {
    if (!presenting() && chart_tabs_->currentWidget() == exercise_panel_) run_learner();
    else run_now();
  });
  add_action(run, QT_TR_NOOP("&Sweep the family over the chosen parameter"), QKeySequence(Qt::Key_F6),
             [this] { sweep_now(); });
  // Esc leaves the presentation mode, else cancels a sweep.
  add_action(run, QT_TR_NOOP("&Cancel the sweep"), QKeySequence(Qt::Key_Escape), [this] {
    if (presenting()) set_presentation(false);
    else runs_.cancel_sweep();
  });
  add_action(run, QT_TR_NOOP("Record &trace of the selected kernel"), QKeySequence(Qt::CTRL | Qt::Key_R),
             [this] { record_now(); });
}

// A presentation hides the tabs (and took pages out of them): the keys stay
// with the presented views.
std::function<void()> MainWindow::show_tab(QWidget* page) {
  return [this, page] {
    if (presenting()) return;
    chart_tabs_->setCurrentWidget(page);
    focus_tab_page();
  };
}

void MainWindow::build_view_menu() {
  QMenu* view = titled_menu(menuBar()->addMenu(QString()), QT_TR_NOOP("&View"));
  add_action(view, QT_TR_NOOP("&Variants chart"), QKeySequence(Qt::CTRL | Qt::Key_1), show_tab(family_chart_));
  add_action(view, QT_TR_NOOP("S&weep chart"), QKeySequence(Qt::CTRL | Qt::Key_2), show_tab(sweep_chart_));
  add_action(view, QT_TR_NOOP("&Recording"), QKeySequence(Qt::CTRL | Qt::Key_3), show_tab(recording_panel_));
  add_action(view, QT_TR_NOOP("&Trace views"), QKeySequence(Qt::CTRL | Qt::Key_4), show_tab(trace_views_));
  add_action(view, QT_TR_NOOP("Side &by side"), QKeySequence(Qt::CTRL | Qt::Key_5), show_tab(compare_view_));
  add_action(view, QT_TR_NOOP("&Exercise"), QKeySequence(Qt::CTRL | Qt::Key_6), show_tab(exercise_panel_));
  add_action(view, QT_TR_NOOP("&Kernel list"), QKeySequence(Qt::CTRL | Qt::Key_K),
             [this] { controls_->tree().setFocus(); });
  add_action(view, QT_TR_NOOP("&Device picker"), QKeySequence(Qt::CTRL | Qt::Key_D),
             [this] { controls_->devices().setFocus(); });
  add_action(view, QT_TR_NOOP("&Parameters"), QKeySequence(Qt::CTRL | Qt::Key_P), [this] {
    if (variant_ && !variant_->params.empty())
      if (QWidget* first = controls_->params().control(variant_->params.front().name)) first->setFocus();
  });
  add_action(view, QT_TR_NOOP("&Hide or show the controls"), QKeySequence(Qt::Key_F9),
             [this] { set_controls_collapsed(!controls_collapsed()); });
  add_action(view, QT_TR_NOOP("Presentatio&n mode"), QKeySequence(Qt::Key_F11),
             [this] { set_presentation(!presenting()); });
  build_scale_menu(view);
  build_language_menu(view);
}

void MainWindow::build_scale_menu(QMenu* view) {
  // The bandwidth axis: automatic (logarithmic when a bar would vanish under
  // the ceiling), or linear or logarithmic by hand; exports draw the same.
  QMenu* scale = titled_menu(view->addMenu(QString()), QT_TR_NOOP("Chart &scale"));
  scale->setObjectName("chartScaleMenu");
  auto* scale_group = new QActionGroup(scale);
  const std::pair<FamilyChart::Scale, const char*> scales[] = {
      {FamilyChart::Scale::Automatic, QT_TR_NOOP("&Automatic")},
      {FamilyChart::Scale::Linear, QT_TR_NOOP("&Linear")},
      {FamilyChart::Scale::Logarithmic, QT_TR_NOOP("L&ogarithmic")}};
  for (const auto& [choice, text] : scales) {
    QAction* action = scale->addAction(QString());
    texts_->add([action, text = text] { action->setText(tr(text)); });
    action->setCheckable(true);
    action->setChecked(choice == family_chart_->scale());
    action->setObjectName(QString("chartScale%1").arg(static_cast<int>(choice)));
    scale_group->addAction(action);
    connect(action, &QAction::triggered, this, [this, choice = choice] { family_chart_->set_scale(choice); });
  }
}

// Each language is named in itself, so a learner finds theirs whatever is shown.
void MainWindow::build_language_menu(QMenu* view) {
  view->addSeparator();
  QMenu* languages = titled_menu(view->addMenu(QString()), QT_TR_NOOP("&Language"));
  languages->setObjectName("languageMenu");
  auto* language_group = new QActionGroup(languages);
  for (const QString& code : language::codes()) {
    QAction* action = languages->addAction(language::native_name(code));
    action->setObjectName("language_" + code);
    action->setCheckable(true);
    action->setData(code);
    language_group->addAction(action);
    connect(action, &QAction::triggered, this, [this, code] { set_language(code); });
    texts_->add([action, code] { action->setChecked(language::current() == code); });
  }
}

void MainWindow::build_exercise_menu() {
  QMenu* exercise = titled_menu(menuBar()->addMenu(QString()), QT_TR_NOOP("E&xercise"));
  add_action(exercise, QT_TR_NOOP("&Edit this kernel"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
             [this] { edit_kernel(); });
  QMenu* list = titled_menu(exercise->addMenu(QString()), QT_TR_NOOP("E&xercises"));
  list->setObjectName("exercisesMenu");
  connect(list, &QMenu::aboutToShow, this, [this, list] {
    list->clear();
    const std::string lang = language::current().toStdString();
    for (const Exercise& e : exercises()) {
      const LearnerProfile::State state = profile_.state(e.id);
      QAction* a = list->addAction(QString::fromStdString(e.in(lang).title), this,
                                   [this, id = e.id] { open_exercise(find_exercise(id)); });
      a->setCheckable(true);
      a->setChecked(state == LearnerProfile::State::GoalMet);
    }
  });
  add_action(exercise, QT_TR_NOOP("&Run your kernel"), QKeySequence(Qt::CTRL | Qt::Key_F5), [this] { run_learner(); });
  add_action(exercise, QT_TR_NOOP("&New kernel…"), QKeySequence(), [this] {
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("New kernel"),
        tr("A pack of your own, with a kernel to start from (CUDA and OpenCL C), in your packs folder. "
           "Its name (lowercase letters, digits, '_' or '-'):"),
        QLineEdit::Normal, QString("mykernel"), &ok);
    if (ok) new_kernel(name.trimmed());
  });
  add_action(exercise, QT_TR_NOOP("Re&set to the lesson's version"), QKeySequence(),
             [this] { exercise_panel_->reset_text(); });
}

void MainWindow::select_variant(const Variant& variant) {
  const bool same_family = variant_ && variant_->family == variant.family;
  variant_ = &variant;
  controls_->show_variant(variant);
  lesson_->show_variant(variant, dialect());
  if (!same_family) refresh_family_chart();
  debounce_.start();
}

// The user's packs folder's packs, each beside the built-in catalog; a bad
// one is named in the status area and the others open.
void MainWindow::open_user_packs() {
  const QStringList problems = packs_.open_user_packs();
  controls_->tree().follow_catalog();
  exercise_panel_->fill_picker();
  if (!problems.isEmpty()) report(problems.join('\n'), true);
  connect(&worker_, &WorkerClient::pack_refused, this,
          [this](const QString& reason) { report(tr("The worker refused a pack: %1").arg(reason), true); });
}

QString MainWindow::open_pack(const QString& folder) {
  std::vector<std::string> ids;
  if (const QString problem = packs_.open(folder, &ids); !problem.isEmpty()) {
    report(problem, true);
    return problem;
  }
  controls_->tree().follow_catalog();
  exercise_panel_->fill_picker();
  report(tr("Pack %1 opened: %n kernel(s)", nullptr, static_cast<int>(ids.size())).arg(folder), false);
  if (!ids.empty()) controls_->tree().select(ids.front());
  return {};
}

QString MainWindow::reload_packs() {
  const QStringList problems = packs_.reload();
  controls_->tree().follow_catalog();
  // The lesson pane shows the text read anew; a kernel its pack no longer
  // has (removed, renamed) gives way to its family's first, where one is left.
  if (variant_) {
    const Variant* now = find_variant(variant_->id);
    for (const Variant& v : catalog())
      if (!now && v.family == variant_->family) now = &v;
    if (now && now != variant_) controls_->tree().select(now->id);
    else if (now) select_variant(*now);
  }
  exercise_panel_->fill_picker();
  if (!problems.isEmpty()) {
    report(problems.join('\n'), true);
    return problems.join('\n');
  }
  report(tr("Packs read again from their folders"), false);
  return {};
}

QString MainWindow::new_kernel(const QString& name) {
  std::vector<std::string> ids;
  QString folder;
  if (const QString problem = packs_.create(name, &ids, &folder); !problem.isEmpty()) {
    report(problem, true);
    return problem;
  }
  controls_->tree().follow_catalog();
  if (!ids.empty()) controls_->tree().select(ids.front());
  report(tr("New kernel %1: edit %2/scale.cl or scale.cu and its lesson scale.md, then File ▸ Reload packs").arg(name, folder), false);
  return {};
}

QString MainWindow::connect_to_server(const QString& target) {
  try {
    worker_.connect_to(target, options_.ssh_command);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  worker_.start();
  report(target.isEmpty() ? tr("kernels run on this computer") : tr("connecting to %1 …").arg(target), false);
  runs_.list_devices();
  return {};
}

void MainWindow::show_devices(const std::vector<BackendReport>& backends) {
  const QString previous = !devices_listed_before_ && options_.restore_settings
                               ? QSettings().value("run/device").toString()
                               : controls_->devices().currentData().toString();
  const bool any = controls_->list_devices(backends, previous, worker_.remote_host());
  exercise_panel_->follow_device(dialect());  // the picker sends no signal while it lists
  if (!any) report(tr("no device is available: see the reasons in the device list"), true);
  if (!std::exchange(devices_listed_before_, true) && options_.first_start)
    if (!options_.restore_settings || !restore_kernel()) open_first_start(backends);
}

// A lecturer without a GPU sees real data at once: the H100 recording.
void MainWindow::open_first_start(const std::vector<BackendReport>& backends) {
  bool cuda = false;
  for (const BackendReport& b : backends) cuda |= b.backend == "cuda" && b.available && !b.devices.empty();
  if (cuda || !open_bundled_recording().isEmpty()) controls_->tree().select("transpose.naive");
}

std::string MainWindow::device_spec() const {
  const std::string spec = controls_->chosen_device();
  if (!spec.empty() && spec != "auto") return spec;
  const auto& runs = runs_.history().runs();
  return runs.empty() || runs.back().device.spec.empty() ? "auto" : runs.back().device.spec;
}

Dialect MainWindow::dialect() const {
  const std::string spec = device_spec();
  return controls_->listed_dialect(spec).value_or(named_dialect(spec));
}

std::vector<std::string> MainWindow::family_kernels() const {
  std::vector<std::string> ids;
  if (!variant_) return ids;
  for (const Variant& v : catalog())
    if (v.family == variant_->family) ids.push_back(v.id);
  return ids;
}

// The bars the variants chart draws: the family's kernels, and after them
// the learner's runs of any of them.
std::vector<std::string> MainWindow::chart_kernels() const {
  std::vector<std::string> ids = family_kernels();
  const std::size_t catalog_count = ids.size();
  for (const RunReport& r : runs_.history().runs()) {
    const std::string& kernel = r.kernel;
    const std::size_t open = kernel.find(" (");
    if (open == std::string::npos || std::find(ids.begin(), ids.end(), kernel) != ids.end()) continue;
    if (std::find(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(catalog_count), kernel.substr(0, open)) !=
        ids.begin() + static_cast<std::ptrdiff_t>(catalog_count))
      ids.push_back(kernel);
  }
  return ids;
}

std::string learner_bar_name(const Session& session) { return session.kernel_id + " (" + session.source_name + ")"; }

// The panel's values where the variant has the parameter and takes the value;
// the variant's defaults elsewhere (a sweep runs siblings with other ranges).
protocol::KernelRun MainWindow::request_for(const Variant& variant) const {
  protocol::KernelRun r;
  r.kernel = variant.id;
  r.device = controls_->chosen_device();
  if (r.device.empty()) r.device = "auto";
  r.reps = controls_->reps();
  r.warmup = 1;
  for (const auto& [name, value] : controls_->params().values()) {
    const ParamSpec* spec = variant.param(name);
    if (!spec) continue;
    try {
      parse_param_value(*spec, value, variant.id);
      r.params[name] = value;
    } catch (const InvalidRequest&) {
    }
  }
  return r;
}

void MainWindow::run_now() {
  debounce_.stop();
  if (!variant_) {
    report(tr("pick a kernel first (Ctrl+K)"), true);
    return;
  }
  runs_.run(request_for(*variant_));
}

void MainWindow::record_now() {
  if (!variant_) {
    report(tr("pick a kernel first (Ctrl+K)"), true);
    return;
  }
  if (!recordings_dir_.isValid()) {
    report(tr("no temporary folder for recordings: %1").arg(recordings_dir_.errorString()), true);
    return;
  }
  QString error;
  const std::optional<protocol::TracedBlocks> blocks = controls_->traced_blocks(error);
  if (!blocks) {
    report(error, true);
    return;
  }
  runs_.record(request_for(*variant_), recordings_dir_.path(), *blocks);
}

void MainWindow::edit_kernel() {
  if (!variant_) {
    report(tr("pick a kernel first (Ctrl+K)"), true);
    return;
  }
  exercise_panel_->open_kernel(*variant_, dialect());
  chart_tabs_->setCurrentWidget(exercise_panel_);
  exercise_panel_->editor().setFocus();
}

void MainWindow::open_exercise(const Exercise* exercise) {
  if (!exercise) {
    edit_kernel();
    return;
  }
  // The exercise's kernel with its parameters in the controls, so the lesson
  // pane and the catalog's run show what the learner starts from.
  if (controls_->tree().select(exercise->kernel_id)) {
    const QSignalBlocker block(&controls_->params());
    for (const auto& [name, value] : exercise->sets) controls_->params().set_value(name, value);
  }
  exercise_panel_->open_exercise(*exercise, dialect());
  chart_tabs_->setCurrentWidget(exercise_panel_);
  exercise_panel_->editor().setFocus();
}

void MainWindow::run_learner() {
  if (!recordings_dir_.isValid()) {
    report(tr("no temporary folder for recordings: %1").arg(recordings_dir_.errorString()), true);
    return;
  }
  if (!exercise_panel_->variant()) {
    edit_kernel();
    if (!exercise_panel_->variant()) return;
  }
  chart_tabs_->setCurrentWidget(exercise_panel_);
  LearnerRun run;
  run.device = device_spec();
  run.device_dialect = dialect();
  run.reps = controls_->reps();
  run.folder = recordings_dir_.path();
  const protocol::KernelRun request = request_for(*exercise_panel_->variant());
  run.params = request.params;
  if (const Exercise* e = exercise_panel_->exercise()) {
    // An exercise's goal is counted over every block at its own size.
    run.params = e->sets;
    run.blocks.all = true;
  } else {
    QString error;
    const std::optional<protocol::TracedBlocks> blocks = controls_->traced_blocks(error);
    if (!blocks) {
      report(error, true);
      return;
    }
    run.blocks = *blocks;
  }
  exercise_panel_->run(run);
}

void MainWindow::sweep_now() {
  if (!variant_ || controls_->sweep_parameter().isEmpty()) {
    report(tr("this kernel has no parameter with a small set of values to sweep"), true);
    return;
  }
  const std::string parameter = controls_->sweep_parameter().toStdString();
  std::vector<protocol::KernelRun> requests;
  std::map<std::string, std::vector<std::int64_t>> values;
  for (const Variant& v : catalog()) {
    const ParamSpec* spec = v.param(parameter);
    if (v.family != variant_->family || !spec || spec->valid_values().empty()) continue;
    requests.push_back(request_for(v));
    values[v.id] = spec->valid_values();
  }
  runs_.sweep(parameter, requests, values);
  chart_tabs_->setCurrentWidget(sweep_chart_);
}

void MainWindow::refresh_family_chart() {
  if (!variant_) return;
  const auto kernels = chart_kernels();
  const std::string device = shown_device_.empty() ? device_spec() : shown_device_;
  const std::string recorded_on = current_session_ ? device_or_default(current_session_->device).name : "";
  const QString title = shown_device_.empty()
                            ? KernelTree::family_title(variant_->family)
                            : tr("%1\nrecorded on %2")
                                  .arg(KernelTree::family_title(variant_->family),
                                       QString::fromStdString(recorded_on.empty() ? shown_device_ : recorded_on));
  family_chart_->show_family(title, runs_.history().latest_bars(kernels, device),
                             runs_.history().device_copy_gbps(kernels, device));
}

void MainWindow::refresh_sweep_chart() {
  const SweepData& data = runs_.sweep_data();
  sweep_chart_->show_sweep(
      variant_ ? tr("%1: bandwidth over %2")
                     .arg(KernelTree::family_title(variant_->family), QString::fromStdString(data.parameter()))
               : QString(),
      data);
}

void MainWindow::report(const QString& message, bool is_problem) {
  controls_->status().set_worker_state(message, is_problem);
  statusBar()->showMessage(message);
}

QString MainWindow::export_to(const QString& path) {
  const QWidget* shown = shown_page();
  if (shown == trace_views_ || shown == compare_view_) return export_animation_to(path);
  const bool sweep = chart_tabs_->currentWidget() == sweep_chart_;
  QString error;
  if (is_chart_format(path)) {
    error = export_chart(sweep ? static_cast<QCustomPlot&>(*sweep_chart_) : *family_chart_, path);
  } else {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const auto& history = runs_.history();
    if (suffix == "csv") error = export_text(sweep ? runs_.sweep_data().to_csv() : history.to_csv(), path);
    else if (suffix == "json")
      error = export_text((sweep ? runs_.sweep_data().to_json() : history.to_json()).dump(2) + "\n", path);
    else error = tr("%1: export as .png, .pdf, .svg, .csv or .json").arg(path);
  }
  report(error.isEmpty() ? tr("exported %1").arg(path) : error, !error.isEmpty());
  return error;
}

// The Trace or Side by side tab as `threadmap export` writes it: the view
// shown, at the playback's speed, 1920 x 1080; a progress dialog can cancel.
QString MainWindow::export_animation_to(const QString& path) {
  const bool pair = shown_page() == compare_view_;
  std::vector<std::shared_ptr<const analysis::TraceDocument>> docs;
  AnimationRequest request;
  request.output = path;
  request.format = QFileInfo(path).suffix().toLower();
  if (pair) {
    if (!compare_view_->empty()) docs = {compare_view_->document(0), compare_view_->document(1)};
    request.view = compare_view_->view_name();
    request.fps = static_cast<int>(std::lround(compare_view_->playback().speed()));
  } else {
    if (trace_views_->document()) docs = {trace_views_->document()};
    request.view = view_names()[static_cast<std::size_t>(trace_views_->tabs().currentIndex())];
    request.fps = static_cast<int>(std::lround(trace_views_->playback().speed()));
  }
  request.fps = std::clamp(request.fps, 1, 50);
  QString error;
  if (docs.empty())
    error = pair ? tr("nothing to export: Compare… (F7) picks two recordings first")
                 : tr("nothing to export: open a recording (Ctrl+O) or record a trace (Ctrl+R) first");
  else if (request.format != "gif" && request.format != "webm" && request.format != "png")
    error = tr("%1: export an animation as .gif, .webm or .png (numbered frames)").arg(path);
  if (error.isEmpty()) {
    QProgressDialog progress(tr("Writing %1 …").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    const AnimationResult result = write_animation(docs, request, [&progress](int done, int total) {
      progress.setMaximum(total);
      progress.setValue(done);
      QCoreApplication::processEvents();
      return !progress.wasCanceled();
    });
    if (result.exit_code == 4) error = tr("export of %1 cancelled").arg(path);
    else if (result.exit_code != 0) error = result.message;
  }
  report(error.isEmpty() ? tr("exported %1").arg(path) : error, !error.isEmpty());
  return error;
}

QString MainWindow::save_to(const QString& path) {
  const QString error = current_session_ ? SessionStore::save(path, *current_session_)
                                         : tr("nothing to save yet: run a kernel (F5) or record its trace (Ctrl+R)");
  report(error.isEmpty() ? tr("saved %1").arg(path) : error, !error.isEmpty());
  return error;
}

QString MainWindow::open_from(const QString& path) {
  const QString name = QFileInfo(path).fileName();
  const QString error = load_session_file(
      path, [name] { return tr("Opened %1").arg(name); }, true);
  // A session made from a learner's text (a handed-in exercise) brings that
  // text to the Exercise tab.
  if (error.isEmpty() && !current_session_->source_text.empty())
    exercise_panel_->open_session_source(*current_session_);
  return error;
}

QString MainWindow::open_bundled_recording(const std::string& kernel_id, std::optional<Dialect> dialect) {
  const Variant* chosen = find_variant(kernel_id);
  if (!chosen) return tr("no kernel '%1' in the catalog").arg(QString::fromStdString(kernel_id));
  const QString path = bundled_recording(kernel_id, dialect);
  if (path.isEmpty()) return tr("no bundled recording of %1").arg(QString::fromStdString(kernel_id));
  // Its family's other recordings: bars beside it, all measured on the same GPU.
  const QDir folder = QFileInfo(path).dir();
  for (const QString& name : folder.entryList({"*.threadmap"}, QDir::Files)) {
    const Variant* v = find_variant(QFileInfo(name).completeBaseName().toStdString());
    if (!v || v == chosen || v->family != chosen->family) continue;
    Session sibling;
    if (!SessionStore::load(folder.filePath(name), sibling).isEmpty()) continue;
    if (std::optional<RunReport> run = report_if_any(sibling.run)) runs_.history().add(std::move(*run));
  }
  return load_session_file(path, [] { return tr("Bundled recording"); }, false);
}

void MainWindow::remember_recent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  settings.setValue("recentFiles", recent.mid(0, kMaxRecentFiles));
}

QString MainWindow::load_session_file(const QString& path, const std::function<QString()>& origin, bool remember) {
  Session session;
  QString error = SessionStore::load(path, session);
  if (error.isEmpty()) error = show_session(std::move(session), origin);
  if (!error.isEmpty()) {
    report(error, true);
    return error;
  }
  shown_path_ = path;
  if (remember) remember_recent(path);
  // "transpose.shared on NVIDIA H100 80GB HBM3, 4 traced blocks"
  const Session& s = *current_session_;
  const QString kernel = QString::fromStdString(s.kernel_id);
  const std::string device_name = device_or_default(s.device).name;
  const QString device = QString::fromStdString(device_name.empty() ? "?" : device_name);
  const QString summary =
      s.trace ? tr("%1 on %2, %Ln traced block(s)", nullptr, static_cast<int>(s.trace->traced_blocks.size()))
                    .arg(kernel, device)
              : tr("%1 on %2").arg(kernel, device);
  report(tr("%1: %2").arg(origin(), summary), false);
  return {};
}

// Shows what the session holds: its run in the status area and the chart, its
// parameters in the controls (so F5 re-runs it live here), its trace in the
// Recording tab and for the views. Empty on success, else the reason.
QString MainWindow::show_session(Session session, const std::function<QString()>& origin) {
  const Variant* variant = find_variant(session.kernel_id);
  if (!variant)
    return tr("the session's kernel '%1' is not in this catalog").arg(QString::fromStdString(session.kernel_id));
  const bool has_run = session.run.is_object() && !session.run.empty();
  if (has_run)
    if (const std::string problem = report_problem(session.run); !problem.empty())
      return tr("the session's timed run is malformed: %1").arg(QString::fromStdString(problem));
  std::shared_ptr<const analysis::TraceDocument> doc;
  if (session.trace) {
    try {
      doc = analysis::make_document(session, origin().toStdString());
    } catch (const std::exception& e) {
      return tr("the session's trace cannot be analysed: %1").arg(QString::fromStdString(e.what()));
    }
  }

  controls_->tree().select(session.kernel_id);
  {
    const QSignalBlocker block(&controls_->params());
    for (const auto& [name, value] : session.params) controls_->params().set_value(name, value);
  }
  debounce_.stop();  // opening shows a recorded run; it does not start a new one
  const DeviceInfo device = device_or_default(session.device);
  shown_device_ = device.spec;
  shown_dialect_ = device.dialect;
  // The source the trace's line numbers refer to (.cu for a CUDA recording).
  lesson_->show_variant(*variant, device.dialect);
  if (const std::optional<RunReport> run = report_if_any(session.run)) {
    // A learner's run is its own bar beside the catalog's: "setRowReadCol (mine.cl)".
    RunReport bar = *run;
    if (!session.source_text.empty()) bar.kernel = learner_bar_name(session);
    runs_.history().add(std::move(bar));
    controls_->status().show_report(*run);
  }
  // Rebuilt when the language changes, like the rest of the window's text.
  origin_line_ = [origin, device = device.name.empty() ? std::string("?") : device.name, spec = shown_device_,
                  created = session.created_at, by = session.created_by] {
    return tr("%1: a recording made on %2 (%3) at %4 by %5. F5 runs it live on the device picked above.")
        .arg(origin(), QString::fromStdString(device), QString::fromStdString(spec), language::date_time(created),
             QString::fromStdString(by));
  };
  controls_->status().set_origin(origin_line_());
  current_session_ = std::move(session);
  refresh_family_chart();
  if (doc) {
    document_ = doc;
    recording_panel_->show_document(*doc);
    emit traceDocumentChanged(doc);
  }
  return {};
}

QString MainWindow::compare_files(const QString& first, const QString& second) {
  std::array<std::shared_ptr<const analysis::TraceDocument>, 2> docs;
  QString error;
  for (int i = 0; i < 2 && error.isEmpty(); ++i) {
    const QString path = i == 0 ? first : second;
    const QString name =
        path.startsWith(":/") ? tr("the bundled %1").arg(QFileInfo(path).fileName()) : QFileInfo(path).fileName();
    Session session;
    error = SessionStore::load(path, session);
    if (!error.isEmpty()) break;
    try {
      docs[i] = analysis::make_document(std::move(session), name.toStdString());
      if (!docs[i]) error = tr("%1 holds no trace to compare: record one with Ctrl+R").arg(name);
    } catch (const std::exception& e) {
      error = tr("the trace of %1 cannot be analysed: %2").arg(name, QString::fromStdString(e.what()));
    }
  }
  if (error.isEmpty()) error = compare_view_->set_documents(docs[0], docs[1]);
  if (!error.isEmpty()) {
    report(error, true);
    return error;
  }
  chart_tabs_->setCurrentWidget(compare_view_);
  compare_view_->setFocus();
  report(
      tr("Side by side: %1 and %2")
          .arg(QString::fromStdString(docs[0]->session.kernel_id), QString::fromStdString(docs[1]->session.kernel_id)),
      false);
  return {};
}

// The selected kernel's family: its bundled recordings, then the shown and
// recent session files; the selected kernel's recording against the next
// variant's.
void MainWindow::compare_now() {
  const std::string family = variant_ ? variant_->family : "smem-layout";
  std::vector<CompareDialog::Choice> choices;
  int first = 0;
  for (const Variant& v : catalog()) {
    if (v.family != family) continue;
    for (const QString& path : bundled_recordings(v.id)) {
      if (variant_ && v.id == variant_->id && path == bundled_recording(v.id, dialect()))
        first = static_cast<int>(choices.size());
      choices.push_back(
          {tr("%1 · bundled recording (%2)").arg(QString::fromStdString(v.id), bundled_recording_gpu(path)), path});
    }
  }
  QStringList files = QSettings().value("recentFiles").toStringList();
  if (!shown_path_.isEmpty() && !shown_path_.startsWith(":/")) files.prepend(shown_path_);
  files.removeDuplicates();
  for (const QString& path : files)
    if (QFileInfo::exists(path)) choices.push_back({QFileInfo(path).fileName(), path});
  const int second = choices.empty() ? 0 : (first + 1) % static_cast<int>(choices.size());
  CompareDialog dialog(choices, first, second, this);
  const bool accepted = dialog.exec() == QDialog::Accepted;
  activateWindow();  // the keys go back to the window (without a window manager too)
  if (accepted) compare_files(dialog.first_path(), dialog.second_path());
}

void MainWindow::set_language(const QString& code) { QSettings().setValue("language", language::apply(code)); }

// The fixed texts follow through texts_; what was computed from a run, a
// session or the catalog is computed again in the new language.
void MainWindow::changeEvent(QEvent* event) {
  QMainWindow::changeEvent(event);
  if (event->type() != QEvent::LanguageChange) return;
  if (variant_)
    lesson_->show_variant(*variant_, shown_dialect_.value_or(dialect()));
  refresh_family_chart();
  if (!runs_.sweep_data().parameter().empty()) refresh_sweep_chart();
  if (origin_line_) controls_->status().set_origin(origin_line_());
  if (document_) recording_panel_->show_document(*document_);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) {
      // A folder is a pack; a file, a session.
      const QString path = url.toLocalFile();
      if (QFileInfo(path).isDir()) open_pack(path);
      else open_from(path);
      break;
    }
}

}  // namespace threadmap::gui
