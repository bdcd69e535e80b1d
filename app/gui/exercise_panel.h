#pragma once
// The Exercise tab: a learner's editable copy of a kernel, compiled and run
// on the picked device through the worker, with the result measured against
// the exercise's goal and the learner's prediction.
//
//   exercise picker  [Run (F5)] [Reset] [Side by side]
//   editor (line numbers, colouring,     | task, lesson section, hints, goal
//   compiler messages at their lines)    | prediction: wavefronts per shared
//   compiler messages list               |   request, sectors per global
//                                        |   request, faster or slower
//                                        | result: compiled, verified, goal
//                                        |   terms, time, prediction revealed
//
// A run is a worker record request with the edited text as its source: it is
// compiled for the device, verified against the catalog variant's CPU
// reference, timed and traced (every block for an exercise), and the
// session it writes carries the text. The worker is the process a runaway
// kernel takes down: past the timeout it is killed and restarted, and the
// edit stays here (autosaved in the learner's profile).
#include <QWidget>

#include <memory>
#include <optional>

#include "app/gui/learner_profile.h"
#include "app/gui/worker_client.h"
#include "app/protocol/requests.h"
#include "kernels/pack/catalog.h"
#include "kernels/analysis/document.h"
#include "kernels/analysis/exercises.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTabWidget;
class QSpinBox;
class QTimer;
class QToolButton;

namespace threadmap::gui {

class CodeEditor;

// What the window supplies for one run.
struct LearnerRun {
  std::string kernel;  // the catalog variant the text replaces (set by run())
  std::string device;  // a device spec ("opencl:0:0", "cuda:0")
  threadmap::Dialect device_dialect = threadmap::Dialect::OpenCL;  // the language it compiles
  std::map<std::string, std::string> params;
  int reps = 10;
  protocol::TracedBlocks blocks;  // none: the default traced blocks
  QString folder;                 // where the worker writes the session
};

class ExercisePanel : public QWidget {
  Q_OBJECT
 public:
  ExercisePanel(WorkerClient& worker, LearnerProfile& profile, QWidget* parent = nullptr);

  // Free editing: the variant's source in `dialect` (the device's), as the
  // learner reads it (no trace hooks); the autosaved edit of that file when
  // there is one.
  void open_kernel(const Variant& variant, threadmap::Dialect dialect);
  // An exercise: its starting kernel in `dialect` (else its OpenCL C one),
  // or the autosaved edit of it.
  void open_exercise(const Exercise& exercise, threadmap::Dialect dialect);
  // The window's device changed to one compiling `device`: an open exercise whose text the
  // learner has not edited switches to the start in that device's dialect; an
  // edited text stays, and the verdict says which dialect it needs.
  void follow_device(threadmap::Dialect device);
  // Whether the text differs from the start (or the kernel's file) it opened with.
  bool edited() const;
  // A session's own source (a handed-in session): the text as it was run.
  void open_session_source(const Session& session);

  const Exercise* exercise() const { return exercise_; }
  const Variant* variant() const { return variant_; }
  // The file name the text is compiled under ("smem-conflict-free.cl").
  QString file_name() const { return file_name_; }
  // The dialect the text is written in: "cuda" or "opencl".
  threadmap::Dialect dialect() const;
  CodeEditor& editor() { return *editor_; }
  QListWidget& messages() { return *messages_; }
  QString result_text() const;
  // The Task page's text (rich text: the title, task, lesson and goal).
  QString task_text() const;
  // The one-line verdict over the editor ("✔ Goal met · …", "✘ Not compiled: line 9").
  QString verdict_text() const;
  QString prediction_text() const;
  bool running() const { return record_id_ != 0 || baseline_id_ != 0; }
  // The last run's device and parameters (Side by side records the lesson's kernel with them).
  const LearnerRun& last_run() const { return last_run_; }
  int timeout_seconds() const;

  // The prediction fields (0: no prediction); faster: +1 faster, -1 slower, 0 none.
  void set_prediction(int shared_wavefronts, int global_sectors, int faster);

  // Compiles and runs the text; "" when sent, else why not (also shown).
  QString run(const LearnerRun& run);
  // The recorded session of the last run, shown by the window, measured
  // here against the goal and the prediction.
  void show_result(const std::shared_ptr<const analysis::TraceDocument>& doc);
  // Back to the lesson's (or exercise's) starting text, as one undoable edit.
  void reset_text();

  // The exercise list and the task again: packs opened or read anew bring
  // exercises, change them, or withdraw the open one (which stays open, marked).
  void fill_picker();

 signals:
  void recorded(const QString& session_path);                 // the window opens it, then calls show_result
  void exercise_chosen(const threadmap::Exercise* exercise);  // null: free editing
  // The first request unlike the prediction: the trace views step there;
  // `show`: the learner asked to see it (the Trace tab comes to the front).
  void step_to(std::size_t request, threadmap::Space space, bool show);
  void compare_requested();                            // side by side with the catalog variant
  void run_requested();                                // the Run button: the window gathers the device and parameters
  void message(const QString& text, bool is_problem);  // for the status bar

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void show_task();
  // Whether the open exercise left the list: its pack, read again, no longer has it.
  bool withdrawn() const;
  void load_text(const QString& original, const QString& autosave_key);
  void on_reply(const WorkerReply& reply);
  void show_compile_error(const QString& text);
  void clear_compiler_output();  // the marks and the message list
  void show_problem(const QString& text);
  void finish_result();
  QString profile_key() const;
  QString goal_term_text(const GoalTerm& term) const;
  QString metric_name(const std::string& metric) const;     // short, for the verdict
  QString dialect_label(threadmap::Dialect dialect) const;  // "CUDA", "OpenCL C"
  void show_dialect();                                      // the label naming the text's dialect and file

  WorkerClient& worker_;
  LearnerProfile& profile_;
  const Exercise* exercise_ = nullptr;
  const Variant* variant_ = nullptr;
  QString file_name_, original_text_, autosave_key_;
  bool loading_ = false;
  bool not_run_ = false;  // the verdict says the text was not run yet

  QComboBox* picker_;
  QLabel* dialect_;
  QPushButton* run_button_;
  QPushButton* reset_button_;
  QPushButton* compare_button_;
  CodeEditor* editor_;
  QListWidget* messages_;
  QLabel* task_;
  QToolButton* hint_button_;
  QLabel* hints_;
  int hints_shown_ = 0;
  QLabel* prediction_heading_;
  QLabel* shared_label_;
  QLabel* global_label_;
  QLabel* speed_label_;
  QLabel* timeout_label_;
  QSpinBox* shared_prediction_;
  QSpinBox* global_prediction_;
  QComboBox* speed_prediction_;
  QSpinBox* timeout_;
  void set_verdict(const QString& text, int tone);  // tone: 1 good, -1 bad, 0 neutral
  void show_not_run();                              // the verdict of a text not run yet (follows the language)

  QLabel* verdict_;
  QTabWidget* info_tabs_;
  QLabel* result_;
  QLabel* progress_;
  QTimer* autosave_;

  // The run in flight and what it will be measured against.
  int record_id_ = 0, baseline_id_ = 0;
  LearnerRun last_run_;
  const Exercise* run_exercise_ = nullptr;
  std::uint64_t run_seed_ = 0;                        // the inputs' seed of the last run
  std::optional<std::vector<SizeCheck>> run_sizes_;   // its runs at the exercise's other sizes
  QString run_key_, run_file_;
  struct Snapshot {
    int shared = 0, global = 0, faster = 0;
  } predicted_;
  std::optional<double> baseline_gbps_;
  std::shared_ptr<const analysis::TraceDocument> result_doc_;
  bool result_pending_ = false;
  QString last_result_;
};

}  // namespace threadmap::gui
