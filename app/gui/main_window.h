#pragma once
// The main window: catalog tree, device picker, generated parameter controls,
// status, charts and the lesson pane. Device work goes through RunController
// to the worker process; nothing here waits on a device.
#include <QMainWindow>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

#include "app/gui/learner_profile.h"
#include "app/gui/pack_library.h"
#include "app/gui/run_controller.h"
#include "app/gui/window_layout.h"
#include "kernels/pack/catalog.h"
#include "kernels/core/session.h"
#include "kernels/analysis/exercises.h"
#include "kernels/analysis/document.h"

class QAction;
class QComboBox;
class QKeySequence;
class QMenu;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace threadmap::views {
class Retranslator;
class TraceViewsWidget;
}  // namespace threadmap::views

namespace threadmap::gui {

class CompareView;
class ControlsPage;
class ExercisePanel;
class FamilyChart;
class KernelTree;
class LessonPane;
class ParamPanel;
class Presentation;
class RecordingPanel;
class StatusPanel;
class SweepChart;

struct WindowOptions {
  QString worker;  // the threadmap-cli to serve
  // [USER@]HOST[:PORT]: the worker runs on that GPU server, through ssh
  // (app/protocol/remote.h); empty: on this machine.
  QString remote;
  QString ssh_command;  // --ssh-command (else $THREADMAP_SSH, else ssh)
  // A run with no reply for this long counts as a hung worker (a large matrix
  // on a CPU device takes seconds; a deadlocked device never answers).
  int worker_timeout_ms = 120000;
  std::int64_t size = 0;  // N: N x N matrices, N*N elements (0: catalog defaults)
  int reps = 10;
  int debounce_ms = 150;  // a dragged slider settles before a run starts
  // No file or kernel was asked for: once the worker lists the devices, open
  // a bundled H100 recording when there is no CUDA device, else select a kernel.
  bool first_start = false;
  // Restore what the last session left (QSettings): the window layout and
  // device always, the kernel and its parameters when nothing else was asked
  // for (first_start). The window saves them when it closes either way.
  bool restore_settings = false;
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const WindowOptions& options, QWidget* parent = nullptr);
  // The worker's last replies, delivered while it is stopped, reach no one:
  // the members they would touch go first.
  ~MainWindow() override;

  // The pieces, for tests and the benchmark.
  ControlsPage& controls() { return *controls_; }
  KernelTree& kernel_tree();
  ParamPanel& params();
  StatusPanel& status();
  FamilyChart& family_chart() { return *family_chart_; }
  SweepChart& sweep_chart() { return *sweep_chart_; }
  LessonPane& lesson() { return *lesson_; }
  QComboBox& device_picker();
  WorkerClient& worker() { return worker_; }
  RunController& runs() { return runs_; }
  QTabWidget& chart_tabs() { return *chart_tabs_; }
  RecordingPanel& recording() { return *recording_panel_; }
  views::TraceViewsWidget& trace_views() { return *trace_views_; }
  CompareView& compare_view() { return *compare_view_; }
  ExercisePanel& exercise_panel() { return *exercise_panel_; }
  LearnerProfile& profile() { return profile_; }

  // The open recording (a session with a trace, opened or recorded), or null.
  std::shared_ptr<const analysis::TraceDocument> trace_document() const { return document_; }

  // Each returns an empty string on success, else the message also shown to the user.
  // On the Trace and Side by side tabs: the animation (.gif, .webm, .png
  // frames) of the view shown; elsewhere the chart or its data.
  QString export_to(const QString& path);
  QString save_to(const QString& path);
  QString open_from(const QString& path);
  // Two session files (or bundled recordings) of one family side by side in
  // the Side by side tab; "" or the message also shown.
  QString compare_files(const QString& first, const QString& second);
  // Opens the pack (docs/packs.md) in `folder` (File ▸ Open pack…, or a folder
  // dropped on the window): its kernels join the tree and the worker's
  // catalog, and its first is selected. "" or the message also shown.
  QString open_pack(const QString& folder);
  // Every open pack read again from its folder (File ▸ Reload packs): the
  // tree's kernels show their edited texts. The problems, or empty.
  QString reload_packs();
  // Exercise ▸ New kernel…: a working one-kernel pack named `name` in the
  // user's packs folder, opened and its first kernel selected; the status
  // area says where its files are. "" or the message also shown.
  QString new_kernel(const QString& name);
  // Runs the kernels on that GPU server from now on (File ▸ Connect to a GPU
  // server…), or on this machine for an empty target. The problem, or empty.
  QString connect_to_server(const QString& target);
  // One of the real H100 recordings embedded in the binary, by kernel id (the
  // one in `dialect` where one was bundled); the other bundled recordings of
  // its family and folder fill the variants chart.
  QString open_bundled_recording(const std::string& kernel_id = "transpose.shared",
                                 std::optional<Dialect> dialect = std::nullopt);
  // Switches the interface (and the lessons) to "en", "pt_BR" or "es" and
  // remembers it; every open window retranslates at once.
  void set_language(const QString& code);
  // File ▸ Reset layout: the default window size, splitters and tab, and the
  // saved layout forgotten.
  void reset_layout();
  // F9: the controls (kernels, run, parameters, status) become a narrow
  // strip, the charts and trace views take the width; again brings them back.
  void set_controls_collapsed(bool collapsed);
  bool controls_collapsed() const;
  // F11: one screen for a room (app/gui/presentation.h). The trace views'
  // keys step (Right, Left, PageDown, PageUp), play (Space) and switch views
  // (V, Shift+V); C hides or shows the chart; Esc or F11 leaves.
  void set_presentation(bool on);
  bool presenting() const;
  // The presentation's body text: 24 px on a 768-pixel-high screen, more on larger ones.
  int presentation_font_px() const;
  // The size a new window opens at: 1600 x 1000, bounded by its screen's free
  // area, at least the layout's minimum.
  QSize default_size() const;
  // Writes the layout, device, kernel, parameters and repetitions to QSettings
  // (done on close).
  void save_settings() const;

 signals:
  // A session with a trace was opened or recorded: the views draw this.
  void traceDocumentChanged(std::shared_ptr<const threadmap::analysis::TraceDocument> doc);
  void presentationChanged(bool on);

 public slots:
  void run_now();
  void sweep_now();
  void record_now();
  void compare_now();  // Compare… (F7): the dialog, then compare_files
  // Exercise ▸ Edit this kernel: the selected kernel's text, editable, in the Exercise tab.
  void edit_kernel();
  // An exercise (null: free editing of the selected kernel) in the Exercise tab.
  void open_exercise(const threadmap::Exercise* exercise);
  // F5 in the Exercise tab: the edited text compiled, verified, timed and traced.
  void run_learner();
  QString export_animation_to(const QString& path);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void changeEvent(QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  // The window's pieces, built and wired by the constructor in this order.
  QWidget* build_tabs();  // the chart tabs over the lesson
  void build_pages(QWidget* right);
  void connect_controls();
  void connect_runs();
  void connect_exercise();
  void start_worker();
  void build_actions();
  QAction* add_action(QMenu* menu, const char* text, const QKeySequence& key, const std::function<void()>& slot);
  QMenu* titled_menu(QMenu* menu, const char* title);
  void build_file_menu();
  void build_run_menu();
  void build_view_menu();
  void build_scale_menu(QMenu* view);
  void build_language_menu(QMenu* view);
  void build_exercise_menu();
  // Each shows its tab and hands it the keys.
  std::function<void()> show_tab(QWidget* page);
  void title_tabs();            // the chart tabs' titles, in the current language
  void focus_tab_page();        // the keys go to what the current tab shows
  QWidget* shown_page() const;  // the presented views, else the current tab's page
  void select_variant(const Variant& variant);
  void show_devices(const std::vector<BackendReport>& backends);
  void refresh_family_chart();
  void refresh_sweep_chart();
  void report(const QString& message, bool is_problem);
  std::string device_spec() const;
  threadmap::Dialect dialect() const;  // the chosen device's
  protocol::KernelRun request_for(const Variant& variant) const;
  std::vector<std::string> family_kernels() const;
  std::vector<std::string> chart_kernels() const;
  // origin: where the session comes from ("Bundled recording"), in the current language.
  QString load_session_file(const QString& path, const std::function<QString()>& origin, bool remember);
  QString show_session(Session session, const std::function<QString()>& origin);
  void remember_recent(const QString& path);
  void open_first_start(const std::vector<BackendReport>& backends);
  void open_user_packs();
  bool restore_kernel();  // the saved kernel and parameters; false when none was saved

  WindowOptions options_;
  views::Retranslator* texts_;            // the window's fixed texts, set again on a language change
  std::function<QString()> origin_line_;  // the status area's line on the shown session, if any
  WorkerClient worker_;
  PackLibrary packs_;
  RunController runs_;
  const Variant* variant_ = nullptr;
  ControlsPage* controls_;
  QTabWidget* chart_tabs_;
  FamilyChart* family_chart_;
  SweepChart* sweep_chart_;
  LessonPane* lesson_;
  QTimer debounce_;
  RecordingPanel* recording_panel_;
  views::TraceViewsWidget* trace_views_;
  CompareView* compare_view_;
  QString shown_path_;  // the file of the shown session, if it came from one
  // What the traced threads did, fed by traceDocumentChanged.
  std::shared_ptr<const analysis::TraceDocument> document_;
  std::optional<Session> current_session_;  // what Save writes: the run shown
  std::string shown_device_;                // the recording's device while its run is shown; empty for live runs
  std::optional<threadmap::Dialect> shown_dialect_;  // its dialect then
  bool devices_listed_before_ = false;
  bool shown_before_ = false;
  QSplitter* main_split_;   // the controls beside right_split_
  QSplitter* right_split_;  // the chart tabs over the lesson
  QStackedWidget* pages_;   // the window's layout, or the presentation's
  std::unique_ptr<WindowLayout> layout_;
  Presentation* presentation_;
  QList<int> expanded_sizes_;     // main_split_ before the controls were collapsed
  QTemporaryDir recordings_dir_;  // the worker's recordings of this session
  LearnerProfile profile_;
  ExercisePanel* exercise_panel_;
  QString learner_session_;  // the last recording of the learner's text
  QString compare_with_;     // set while the catalog variant is recorded to stand beside it
};

}  // namespace threadmap::gui
