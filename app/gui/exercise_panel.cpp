#include "app/gui/exercise_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "app/gui/code_editor.h"
#include "app/gui/language.h"
#include "app/gui/lesson_pane.h"
#include "app/gui/status_panel.h"
#include "kernels/core/learner_source.h"
#include "kernels/core/report.h"

namespace threadmap::gui {

using nlohmann::json;

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// Marks the picker's entry for an open exercise its pack no longer has.
constexpr int kWithdrawnRole = Qt::UserRole + 1;

QString mark(bool ok) {
  return ok ? QStringLiteral("<span style='color:#009E73'>✔</span>")
            : QStringLiteral("<span style='color:#D55E00'>✘</span>");
}

// "32 on 50 % of the requests, 1 on 50 %"
QString distribution(const PerRequest& p) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_count;
  for (const auto& [value, count] : p.requests_by_value) by_count.emplace_back(count, value);
  std::sort(by_count.rbegin(), by_count.rend());
  QStringList parts;
  for (std::size_t i = 0; i < by_count.size() && i < 3; ++i)
    parts << QObject::tr("%1 on %2 % of them")
                 .arg(by_count[i].second)
                 .arg(std::lround(100.0 * static_cast<double>(by_count[i].first) / static_cast<double>(p.requests)));
  return parts.join(", ");
}

}  // namespace

ExercisePanel::ExercisePanel(WorkerClient& worker, LearnerProfile& profile, QWidget* parent)
    : QWidget(parent), worker_(worker), profile_(profile) {
  setObjectName("exercisePanel");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* bar = new QHBoxLayout;
  picker_ = new QComboBox(this);
  picker_->setObjectName("exercisePicker");
  picker_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  picker_->setMinimumContentsLength(10);
  run_button_ = new QPushButton(this);
  run_button_->setObjectName("exerciseRun");
  reset_button_ = new QPushButton(this);
  reset_button_->setObjectName("exerciseReset");
  compare_button_ = new QPushButton(this);
  compare_button_->setObjectName("exerciseCompare");
  compare_button_->setEnabled(false);
  dialect_ = new QLabel(this);
  dialect_->setObjectName("exerciseDialect");
  dialect_->setTextFormat(Qt::PlainText);
  bar->addWidget(picker_, 1);
  bar->addWidget(dialect_);
  bar->addWidget(run_button_);
  bar->addWidget(reset_button_);
  bar->addWidget(compare_button_);
  layout->addLayout(bar);
  verdict_ = new QLabel(this);
  verdict_->setObjectName("exerciseVerdict");
  verdict_->setWordWrap(true);
  verdict_->setTextFormat(Qt::PlainText);
  layout->addWidget(verdict_);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split->setObjectName("exerciseSplit");
  split->setChildrenCollapsible(false);
  auto* code_side = new QSplitter(Qt::Vertical, split);
  editor_ = new CodeEditor(code_side);
  messages_ = new QListWidget(code_side);
  messages_->setObjectName("compilerMessages");
  messages_->setWordWrap(true);
  messages_->hide();
  code_side->setStretchFactor(0, 4);
  code_side->setStretchFactor(1, 1);

  // Task, prediction and result as three pages: each readable whole on a
  // 1024 x 768 projector; a finished run brings the result to the front.
  info_tabs_ = new QTabWidget(split);
  info_tabs_->setObjectName("exerciseInfo");
  info_tabs_->setMinimumWidth(220);
  auto page = [this](QWidget* content) {
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    info_tabs_->addTab(scroll, QString());
  };
  auto* task_page = new QWidget;
  auto* task_layout = new QVBoxLayout(task_page);
  task_ = new QLabel(task_page);
  task_->setObjectName("exerciseTask");
  task_->setWordWrap(true);
  task_->setTextFormat(Qt::RichText);
  hint_button_ = new QToolButton(task_page);
  hint_button_->setObjectName("exerciseHint");
  hints_ = new QLabel(task_page);
  hints_->setWordWrap(true);
  hints_->hide();
  progress_ = new QLabel(task_page);
  progress_->setObjectName("exerciseProgress");
  progress_->setWordWrap(true);
  task_layout->addWidget(task_);
  task_layout->addWidget(hint_button_, 0, Qt::AlignLeft);
  task_layout->addWidget(hints_);
  task_layout->addWidget(progress_);
  task_layout->addStretch(1);
  page(task_page);

  auto* predict_page = new QWidget;
  auto* predict_layout = new QVBoxLayout(predict_page);
  prediction_heading_ = new QLabel(predict_page);
  prediction_heading_->setWordWrap(true);
  auto* form = new QFormLayout;
  form->setRowWrapPolicy(QFormLayout::WrapAllRows);
  shared_prediction_ = new QSpinBox(predict_page);
  shared_prediction_->setObjectName("predictShared");
  shared_prediction_->setRange(0, 32);
  global_prediction_ = new QSpinBox(predict_page);
  global_prediction_->setObjectName("predictGlobal");
  global_prediction_->setRange(0, 32);
  speed_prediction_ = new QComboBox(predict_page);
  speed_prediction_->setObjectName("predictSpeed");
  speed_prediction_->addItems({QString(), QString(), QString()});
  timeout_ = new QSpinBox(predict_page);
  timeout_->setObjectName("exerciseTimeout");
  timeout_->setRange(2, 600);
  timeout_->setValue(10);
  shared_label_ = new QLabel(predict_page);
  global_label_ = new QLabel(predict_page);
  speed_label_ = new QLabel(predict_page);
  timeout_label_ = new QLabel(predict_page);
  for (QLabel* l : {shared_label_, global_label_, speed_label_, timeout_label_}) l->setWordWrap(true);
  shared_label_->setBuddy(shared_prediction_);
  global_label_->setBuddy(global_prediction_);
  speed_label_->setBuddy(speed_prediction_);
  timeout_label_->setBuddy(timeout_);
  form->addRow(shared_label_, shared_prediction_);
  form->addRow(global_label_, global_prediction_);
  form->addRow(speed_label_, speed_prediction_);
  form->addRow(timeout_label_, timeout_);
  predict_layout->addWidget(prediction_heading_);
  predict_layout->addLayout(form);
  predict_layout->addStretch(1);
  page(predict_page);

  auto* result_page = new QWidget;
  auto* result_layout = new QVBoxLayout(result_page);
  result_ = new QLabel(result_page);
  result_->setObjectName("exerciseResult");
  result_->setWordWrap(true);
  result_->setTextFormat(Qt::RichText);
  result_->setTextInteractionFlags(Qt::TextBrowserInteraction);
  result_layout->addWidget(result_);
  result_layout->addStretch(1);
  page(result_page);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({3000, 2000});
  layout->addWidget(split, 1);

  autosave_ = new QTimer(this);
  autosave_->setSingleShot(true);
  autosave_->setInterval(800);
  connect(autosave_, &QTimer::timeout, this, [this] {
    if (autosave_key_.isEmpty()) return;
    if (const QString error = profile_.save_edit(autosave_key_, editor_->toPlainText()); !error.isEmpty())
      emit message(error, true);
  });
  connect(editor_, &QPlainTextEdit::textChanged, this, [this] {
    if (!loading_) autosave_->start();
  });
  connect(messages_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    if (const int line = item->data(Qt::UserRole).toInt(); line > 0)
      editor_->go_to_line(line, item->data(Qt::UserRole + 1).toInt());
  });
  connect(messages_, &QListWidget::itemClicked, messages_, &QListWidget::itemActivated);
  connect(picker_, &QComboBox::activated, this, [this](int index) {
    const std::string id = picker_->itemData(index).toString().toStdString();
    if (picker_->itemData(index, kWithdrawnRole).toBool()) return;  // the open one, already shown
    emit exercise_chosen(id.empty() ? nullptr : find_exercise(id));
  });
  connect(run_button_, &QPushButton::clicked, this, &ExercisePanel::run_requested);
  connect(reset_button_, &QPushButton::clicked, this, &ExercisePanel::reset_text);
  connect(compare_button_, &QPushButton::clicked, this, &ExercisePanel::compare_requested);
  connect(hint_button_, &QToolButton::clicked, this, [this] {
    ++hints_shown_;
    show_task();
  });
  connect(&worker_, &WorkerClient::replied, this, &ExercisePanel::on_reply);
  retranslate();  // fills the picker too
}

Dialect ExercisePanel::dialect() const { return dialect_of_file(file_name_.toStdString()).value_or(Dialect::OpenCL); }

int ExercisePanel::timeout_seconds() const { return timeout_->value(); }

QString ExercisePanel::result_text() const { return result_->text(); }

QString ExercisePanel::task_text() const { return task_->text(); }

QString ExercisePanel::verdict_text() const { return verdict_->text(); }

void ExercisePanel::set_verdict(const QString& text, int tone) {
  not_run_ = false;
  verdict_->setText(text);
  verdict_->setStyleSheet(badge_style(tone, true));
  verdict_->setVisible(!text.isEmpty());
}

void ExercisePanel::show_not_run() {
  set_verdict(tr("Not run yet: F5 compiles and runs it on the picked device."), 0);
  not_run_ = true;
}

QString ExercisePanel::prediction_text() const { return last_result_; }

void ExercisePanel::set_prediction(int shared_wavefronts, int global_sectors, int faster) {
  shared_prediction_->setValue(shared_wavefronts);
  global_prediction_->setValue(global_sectors);
  speed_prediction_->setCurrentIndex(faster > 0 ? 1 : faster < 0 ? 2 : 0);
}

QString ExercisePanel::profile_key() const {
  return exercise_ ? q(exercise_->id) : variant_ ? "kernel:" + q(variant_->id) : QString();
}

void ExercisePanel::retranslate() {
  run_button_->setText(tr("Run (F5)"));
  run_button_->setToolTip(tr("compile the text for the picked device, verify, time and trace it"));
  reset_button_->setText(tr("Reset"));
  reset_button_->setToolTip(tr("back to the lesson's version of the text (Ctrl+Z undoes it)"));
  compare_button_->setText(tr("Side by side"));
  compare_button_->setToolTip(tr("record the lesson's kernel too and show both recordings side by side"));
  prediction_heading_->setText(
      tr("Before you press F5: what will the trace show? Leave a field at \"none\" to skip it."));
  shared_label_->setText(tr("&Wavefronts per shared-memory request"));
  global_label_->setText(tr("&Sectors per global-memory request"));
  speed_label_->setText(tr("Against the starting &kernel"));
  timeout_label_->setText(tr("Stop the run &after (s)"));
  shared_prediction_->setSpecialValueText(tr("none"));
  global_prediction_->setSpecialValueText(tr("none"));
  speed_prediction_->setItemText(0, tr("no prediction"));
  speed_prediction_->setItemText(1, tr("faster"));
  speed_prediction_->setItemText(2, tr("slower"));
  timeout_->setToolTip(tr("a kernel that runs longer is stopped: the worker is restarted, your text stays"));
  info_tabs_->setTabText(0, tr("Task"));
  info_tabs_->setTabText(1, tr("Prediction"));
  info_tabs_->setTabText(2, tr("Result"));
  show_dialect();
  if (not_run_) show_not_run();
  if (result_->text().isEmpty() || !result_doc_)
    result_->setText(tr("Press F5 to compile and run your kernel on the picked device."));
  fill_picker();  // and the task
  if (result_doc_ && !result_pending_) finish_result();
}

void ExercisePanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::LanguageChange) retranslate();
}

void ExercisePanel::fill_picker() {
  const QSignalBlocker block(picker_);
  picker_->clear();
  picker_->addItem(variant_ && !exercise_ ? tr("Free editing: %1").arg(q(variant_->id)) : tr("Free editing"),
                   QString());
  const QString lang = language::current();
  for (const Exercise& e : exercises()) {
    const LearnerProfile::State s = profile_.state(e.id);
    const QString state = s == LearnerProfile::State::GoalMet     ? QStringLiteral("✔ ")
                          : s == LearnerProfile::State::Attempted ? QStringLiteral("… ")
                                                                  : QString();
    picker_->addItem(state + q(e.in(lang.toStdString()).title), q(e.id));
  }
  if (withdrawn()) {
    picker_->addItem(tr("%1 (removed)").arg(q(exercise_->in(lang.toStdString()).title)), q(exercise_->id));
    picker_->setItemData(picker_->count() - 1, true, kWithdrawnRole);
    picker_->setItemData(picker_->count() - 1, tr("no longer in its pack: your text stays open here"),
                         Qt::ToolTipRole);
    picker_->setCurrentIndex(picker_->count() - 1);
  } else {
    picker_->setCurrentIndex(exercise_ ? picker_->findData(q(exercise_->id)) : 0);
  }
  picker_->setToolTip(tr("an exercise (✔ goal met, … attempted), or free editing of the selected kernel"));
  show_task();  // a pack read again may have changed the open exercise's text, or withdrawn it
}

bool ExercisePanel::withdrawn() const { return exercise_ && find_exercise(exercise_->id) != exercise_; }

void ExercisePanel::show_task() {
  if (!exercise_) {
    task_->setText(variant_ ? tr("<b>Your copy of %1</b> (%2). Change it, press F5, and see what your "
                                 "threads did: the Trace tab (Ctrl+4) shows the recording. The catalog's "
                                 "version is not touched.")
                                  .arg(q(variant_->id), file_name_.toHtmlEscaped())
                            : tr("Select a kernel, then Exercise ▸ Edit this kernel."));
    hint_button_->hide();
    hints_->hide();
    progress_->clear();
    return;
  }
  const std::string lang = language::current().toStdString();
  const ExerciseText& t = exercise_->in(lang);
  QString section = q(exercise_->lesson_section);
  if (const Variant* v = find_variant(exercise_->kernel_id); v && v->lesson.file == exercise_->lesson_file) {
    LessonRef ref = v->lesson;  // a pack's lesson brings its texts (every `pack new` lesson is scale.md)
    ref.section = exercise_->lesson_section;
    section = LessonPane::section_title(ref, language::current());
  }
  QStringList goal;
  for (const GoalTerm& term : exercise_->goal) goal << goal_term_text(term);
  task_->setText((withdrawn() ? tr("<i>This exercise is no longer in its pack (the pack was read again): your "
                                   "text stays here. Pick another exercise, or free editing.</i><br>")
                              : QString()) +
                 QStringLiteral("<b>%1</b><br>%2<br>").arg(q(t.title).toHtmlEscaped(), q(t.task).toHtmlEscaped()) +
                 (section.isEmpty() ? QString() : tr("<i>Lesson: %1</i><br>").arg(section.toHtmlEscaped())) +
                 tr("<b>Goal:</b> %1").arg(goal.join(tr(", and "))));
  const int total = static_cast<int>(t.hints.size());
  hints_shown_ = std::min(hints_shown_, total);
  QStringList shown;
  for (int i = 0; i < hints_shown_; ++i) shown << "• " + q(t.hints[static_cast<std::size_t>(i)]).toHtmlEscaped();
  hints_->setText(shown.join("<br>"));
  hints_->setVisible(hints_shown_ > 0);
  hint_button_->setVisible(hints_shown_ < total);
  hint_button_->setText(tr("Show a hint (%1 of %2)").arg(hints_shown_ + 1).arg(total));
  const LearnerProfile::State s = profile_.state(exercise_->id);
  const int attempts = static_cast<int>(profile_.attempts(exercise_->id).size());
  progress_->setText(s == LearnerProfile::State::GoalMet ? tr("Goal met (%n attempt(s)).", nullptr, attempts)
                     : s == LearnerProfile::State::Attempted
                         ? tr("Attempted %n time(s); the goal is not met yet.", nullptr, attempts)
                         : tr("Not started."));
}

QString ExercisePanel::metric_name(const std::string& metric) const {
  if (metric == "shared_ld_conflicts") return tr("bank conflicts on loads");
  if (metric == "shared_st_conflicts") return tr("bank conflicts on stores");
  if (metric == "global_ld_excess_sectors") return tr("extra sectors read");
  if (metric == "global_st_excess_sectors") return tr("extra sectors written");
  return q(metric);
}

QString ExercisePanel::dialect_label(Dialect dialect) const {
  switch (dialect) {
    case Dialect::OpenCL: return tr("OpenCL C");
    case Dialect::Cuda: return tr("CUDA");
    case Dialect::OpenMP: return tr("OpenMP C");
  }
  return q(std::string(dialect_title(dialect)));
}

void ExercisePanel::show_dialect() {
  const QString suffix = q(std::string(dialect_extension(dialect())));
  dialect_->setText(variant_ ? QStringLiteral("%1 (%2)").arg(dialect_label(dialect()), suffix) : QString());
  dialect_->setToolTip(tr("%1 is written in %2: a CUDA device runs an exercise's .cu text, an OpenCL device its "
                          ".cl text, and an exercise opens in the picked device's")
                           .arg(file_name_, dialect_label(dialect())));
  dialect_->setVisible(variant_ != nullptr);
}

QString ExercisePanel::goal_term_text(const GoalTerm& term) const {
  const QString at_most = QString::number(term.at_most);
  if (term.metric == "verified") return tr("the output is verified");
  if (term.metric == "shared_ld_conflicts") return tr("at most %1 bank conflicts on shared-memory loads").arg(at_most);
  if (term.metric == "shared_st_conflicts") return tr("at most %1 bank conflicts on shared-memory stores").arg(at_most);
  if (term.metric == "global_ld_excess_sectors")
    return tr("at most %1 sectors read beyond the fewest the loaded bytes need").arg(at_most);
  if (term.metric == "global_st_excess_sectors")
    return tr("at most %1 sectors written beyond the fewest the stored bytes need").arg(at_most);
  // Structural terms (request counts, bounds per another count) in the
  // engine's words, as check prints them (escaped: "<=" is no markup); their
  // reasons are translated in the exercise's own file.
  return q(describe_term(term)).toHtmlEscaped();
}

void ExercisePanel::load_text(const QString& original, const QString& autosave_key) {
  original_text_ = original;
  autosave_key_ = autosave_key;
  const QString saved = profile_.edit(autosave_key);
  loading_ = true;
  editor_->setPlainText(saved.isNull() ? original : saved);
  loading_ = false;
  clear_compiler_output();
  result_doc_.reset();
  last_result_.clear();
  compare_button_->setEnabled(false);
  show_not_run();
  info_tabs_->setCurrentIndex(0);
  result_->setText(saved.isNull() || saved == original
                       ? tr("Press F5 to compile and run your kernel on the picked device.")
                       : tr("Your last edit of this text is back (it is saved as you type). Reset brings "
                            "the lesson's version."));
  // A kernel's definition where a file holds several.
  if (variant_ && !exercise_) {
    QTextCursor found = editor_->document()->find(QRegularExpression("\\b" + q(variant_->kernel) + "\\s*[(<]"));
    if (!found.isNull()) {
      editor_->go_to_line(found.blockNumber() + 1);
      editor_->clearFocus();
    }
  }
  fill_picker();  // and the task
  show_dialect();
}

void ExercisePanel::open_kernel(const Variant& variant, Dialect dialect) {
  exercise_ = nullptr;
  variant_ = &variant;
  file_name_ = q(dialect_file(variant.source, dialect));
  QString text;
  try {
    text = q(learner_source(file_name_.toStdString()));
  } catch (const std::exception& e) {
    text = QString("// %1\n").arg(q(e.what()));
  }
  load_text(text, "kernel/" + file_name_);
}

void ExercisePanel::open_exercise(const Exercise& exercise, Dialect dialect) {
  exercise_ = &exercise;
  variant_ = find_variant(exercise.kernel_id);
  const ExerciseFile& start = exercise.start_in(dialect);
  // The learner's file is the exercise's id in the start's dialect
  // (smem-conflict-free.cl), wherever its pack keeps the start.
  file_name_ = q(dialect_file(exercise.id, dialect_of_file(start.name).value_or(Dialect::OpenCL)));
  hints_shown_ = 0;
  load_text(q(start.text), "exercise/" + file_name_);
}

bool ExercisePanel::edited() const { return editor_->toPlainText() != original_text_; }

void ExercisePanel::follow_device(Dialect device) {
  if (!exercise_) return;
  const Dialect wanted = dialect_of_file(exercise_->start_in(device).name).value_or(Dialect::OpenCL);
  if (wanted == dialect()) return;
  if (edited() || running()) {
    // The learner's text is never replaced: it stays, in its own dialect.
    set_verdict(tr("Your edited %1 stays open: it is %2, and the picked device runs %3; pick a device that "
                   "runs %2 to run it")
                    .arg(file_name_, dialect_label(dialect()), dialect_label(wanted)),
                0);
    return;
  }
  const int hints = hints_shown_;
  open_exercise(*exercise_, device);
  hints_shown_ = hints;
  show_task();
}

void ExercisePanel::open_session_source(const Session& session) {
  const Variant* v = find_variant(session.kernel_id);
  if (!v || session.source_text.empty()) return;
  // The exercise it answers, when the kernel and the exercise's parameters match.
  const Exercise* answered = nullptr;
  const Dialect dialect = dialect_of_file(session.source_name).value_or(Dialect::OpenCL);
  for (const Exercise& e : exercises()) {
    if (answered || e.kernel_id != session.kernel_id || e.sets.empty() || !e.starts.count(dialect)) continue;
    bool same = true;
    for (const auto& [name, value] : e.sets) {
      const auto it = session.params.find(name);
      same = same && it != session.params.end() && it->second == value;
    }
    if (same) answered = &e;
  }
  exercise_ = answered;
  variant_ = v;
  file_name_ = q(session.source_name.empty() ? dialect_file(v->source, device_or_default(session.device).dialect)
                                             : session.source_name);
  original_text_ = answered ? q(answered->start_in(dialect).text) : q(session.source_text);
  // A handed-in text is not the learner's own draft: edits to it are kept
  // apart, per session file name, so reopening the exercise finds the draft.
  autosave_key_ = "session/" + file_name_;
  loading_ = true;
  editor_->setPlainText(q(session.source_text));
  loading_ = false;
  clear_compiler_output();
  hints_shown_ = 0;
  fill_picker();  // and the task
  result_doc_.reset();
  compare_button_->setEnabled(false);
  show_dialect();
  result_->setText(tr("The text this session was recorded with."));
  set_verdict(tr("A recorded session's text: F5 runs it again here."), 0);
}

void ExercisePanel::clear_compiler_output() {
  editor_->set_marks({});
  messages_->clear();
  messages_->hide();
}

void ExercisePanel::reset_text() {
  editor_->replace_text(original_text_);
  clear_compiler_output();
}

QString ExercisePanel::run(const LearnerRun& run) {
  QString error;
  if (!variant_) error = tr("nothing to run: select a kernel and choose Exercise ▸ Edit this kernel");
  else if (running()) error = tr("your kernel is still running");
  else if (editor_->toPlainText().trimmed().isEmpty()) error = tr("the text is empty");
  if (error.isEmpty() && run.device_dialect != dialect())
    error = dialect() == Dialect::Cuda
                ? tr("%1 is CUDA: pick a CUDA device, or edit the OpenCL version on this one").arg(file_name_)
                : tr("%1 is OpenCL C: pick an OpenCL device (NVIDIA's OpenCL runs it on the GPU too)").arg(file_name_);
  if (!error.isEmpty()) {
    show_problem(error);
    return error;
  }
  if (autosave_->isActive()) {  // an edit the autosave has not written yet
    autosave_->stop();
    if (!autosave_key_.isEmpty()) profile_.save_edit(autosave_key_, editor_->toPlainText());
  }
  last_run_ = run;
  last_run_.kernel = variant_->id;
  // What this run is measured against, whatever is opened while it runs.
  run_exercise_ = exercise_;
  run_key_ = profile_key();
  run_file_ = file_name_;
  predicted_ = {shared_prediction_->value(), global_prediction_->value(),
                speed_prediction_->currentIndex() == 1   ? 1
                : speed_prediction_->currentIndex() == 2 ? -1
                                                         : 0};
  baseline_gbps_.reset();
  result_doc_.reset();
  clear_compiler_output();
  const QString on_timeout =
      tr("your kernel did not finish within %1 s (an endless loop, or a size too large for the device?); it "
         "was stopped and the worker restarted. Your text is kept.")
          .arg(timeout_->value());
  protocol::KernelRun kernel_run;
  kernel_run.kernel = variant_->id;
  kernel_run.device = run.device;
  kernel_run.params = run.params;
  kernel_run.reps = run.reps;
  kernel_run.warmup = 1;
  // An exercise is graded as `check` grades it: on inputs of a fresh seed,
  // and at each of its other sizes (the worker runs those: record.exercise),
  // so a kernel fitted to one seed's inputs or to one size is not verified.
  run_sizes_.reset();
  if (exercise_) kernel_run.seed = fresh_grading_seed();
  run_seed_ = kernel_run.seed.value_or(RunOptions{}.seed);
  // The starting kernel's bandwidth, for a faster-or-slower prediction.
  if (predicted_.faster != 0) {
    protocol::RunRequest baseline{kernel_run};
    if (exercise_)
      baseline.source = protocol::LearnerSource{exercise_->start_in(dialect()).text, file_name_.toStdString()};
    baseline_id_ = worker_.send(baseline, timeout_->value() * 1000, on_timeout);
  }
  protocol::RecordRequest record{kernel_run};
  record.source = protocol::LearnerSource{editor_->toPlainText().toStdString(), file_name_.toStdString()};
  record.blocks = run.blocks;
  record.folder = run.folder.toStdString();  // the window's temporary recordings folder
  record.scratch = true;
  if (exercise_) record.exercise = exercise_->id;
  record_id_ = worker_.send(record, timeout_->value() * 1000, on_timeout);
  run_button_->setEnabled(false);
  result_->setText(tr("Compiling and running %1 on %2 …").arg(file_name_, q(run.device)));
  set_verdict(tr("Compiling and running %1 on %2 …").arg(file_name_, q(run.device)), 0);
  emit message(tr("running your %1 on %2 …").arg(file_name_, q(run.device)), false);
  return {};
}

void ExercisePanel::on_reply(const WorkerReply& reply) {
  if (reply.id == baseline_id_) {
    baseline_id_ = 0;
    if (const auto* report = std::get_if<RunReport>(&reply.result); reply.ok && report && report->ok())
      baseline_gbps_ = report->bandwidth_gbps;
    if (result_pending_ && record_id_ == 0) finish_result();
    run_button_->setEnabled(!running());
    return;
  }
  if (reply.id != record_id_) return;
  record_id_ = 0;
  run_button_->setEnabled(!running());
  const auto* recorded_file = std::get_if<protocol::RecordResult>(&reply.result);
  if (reply.ok && recorded_file) {
    run_sizes_ = recorded_file->sizes;
    emit recorded(q(recorded_file->session));
    return;
  }
  if (reply.status == protocol::kMalformedReply) {
    show_problem(tr("the worker's record reply names no session file"));
    return;
  }
  const QString text = q(reply.error);
  if (reply.status == protocol::kInvalid && !compiler_messages(reply.error).empty()) show_compile_error(text);
  else show_problem(text);
  if (!run_key_.isEmpty()) {
    json attempt = {{"goal_met", false}, {"device", last_run_.device}, {"outcome", reply.status}};
    attempt["error"] = QString::fromStdString(reply.error).left(400).toStdString();
    profile_.add_attempt(run_key_.toStdString(), attempt);
    fill_picker();  // and the task
  }
}

void ExercisePanel::show_compile_error(const QString& text) {
  std::vector<CodeEditor::Mark> marks;
  messages_->clear();
  const std::string own = run_file_.toStdString();
  for (const CompilerMessage& m : compiler_messages(text.toStdString())) {
    const bool ours = m.file == own || m.file.ends_with("/" + own);
    const QString line = ours ? tr("line %1: %2").arg(m.line).arg(q(m.text))
                              : QString("%1:%2: %3").arg(q(m.file)).arg(m.line).arg(q(m.text));
    auto* item = new QListWidgetItem((m.severity == "error" ? "✘ " : "⚠ ") + line, messages_);
    if (ours) {
      item->setData(Qt::UserRole, m.line);
      item->setData(Qt::UserRole + 1, m.column);
      if (m.severity != "note") marks.push_back({m.line, m.column, m.severity == "error", q(m.text)});
    }
  }
  editor_->set_marks(marks);
  messages_->setVisible(messages_->count() > 0);
  const auto first = std::find_if(marks.begin(), marks.end(), [](const CodeEditor::Mark& m) { return m.error; });
  const CodeEditor::Mark* first_error = first != marks.end() ? &*first : marks.empty() ? nullptr : &marks.front();
  const int first_line = first_error ? first_error->line : 0;
  result_->setText(mark(false) + " " +
                   (first_line > 0 ? tr("Not compiled: the compiler stopped at line %1. Its messages are under "
                                        "the text; the marked lines show them too.")
                                         .arg(first_line)
                                   : tr("Not compiled: %1").arg(text.toHtmlEscaped())));
  if (first_error) editor_->go_to_line(first_line, first_error->column);
  set_verdict(
      first_error ? tr("✘ Not compiled: line %1: %2").arg(first_line).arg(first_error->message) : tr("✘ Not compiled"),
      -1);
  emit message(tr("%1 does not compile (line %2)").arg(run_file_).arg(first_line), true);
}

void ExercisePanel::show_problem(const QString& text) {
  result_->setText(mark(false) + " " + text.toHtmlEscaped());
  set_verdict("✘ " + text, -1);
  info_tabs_->setCurrentIndex(2);
  emit message(text, true);
}

void ExercisePanel::show_result(const std::shared_ptr<const analysis::TraceDocument>& doc) {
  if (!doc) {
    show_problem(tr("the recording of your kernel could not be opened; the status bar says why"));
    return;
  }
  result_doc_ = doc;
  result_pending_ = true;
  compare_button_->setEnabled(doc != nullptr);
  if (baseline_id_ == 0) finish_result();
  else result_->setText(tr("Recorded; timing the starting kernel for your speed prediction …"));
}

void ExercisePanel::finish_result() {
  if (!result_doc_) return;
  const bool first_time = std::exchange(result_pending_, false);
  const Session& s = result_doc_->session;
  const analysis::Analysis& a = result_doc_->analysis;
  const std::optional<RunReport> run = report_if_any(s.run);
  // The grade is grade_exercise's, as `check` gives it: every run verified
  // (the traced, the timed and one at each other size), then the goal.
  GradedRuns runs;
  if (s.trace_verification.is_object()) runs.traced = verification_from_json(s.trace_verification);
  if (run && run->verification) runs.timed = *run->verification;
  if (run_sizes_) runs.sizes = *run_sizes_;
  const std::optional<Grade> grade =
      run_exercise_ ? std::optional(grade_exercise(*run_exercise_, a, result_doc_->trace(), runs)) : std::nullopt;
  const bool run_verified = run && run->verified();
  const bool verified = grade ? grade->verified : run_verified && (!s.trace_verification.is_object() || runs.traced.verified);
  const std::string device = device_or_default(s.device).name;
  QStringList lines;
  lines << mark(true) + " " + tr("compiled for %1").arg(q(device.empty() ? "?" : device).toHtmlEscaped());
  // A pack's kernels are compared with the pack's reference kernel, run on the same device.
  const Variant* ran = find_variant(s.kernel_id);
  const bool pack = ran && !ran->pack.empty();
  lines << mark(verified) + " " +
               (verified ? (pack ? tr("verified against the pack's reference kernel")
                                 : tr("verified against the CPU reference"))
                         : (pack ? tr("<b>not verified</b>: the output differs from the pack's reference kernel")
                                 : tr("<b>not verified</b>: the output differs from the CPU reference")));
  if (grade) {
    for (const SizeCheck& size : runs.sizes)
      lines << mark(size.verified) + " " +
                   (size.verified ? tr("verified at %1 too").arg(q(size.set).toHtmlEscaped())
                                  : tr("<b>not verified</b> at %1: %2")
                                        .arg(q(size.set).toHtmlEscaped(),
                                             q(size.error.value_or(size.mismatch.value_or(""))).toHtmlEscaped()));
    if (grade->failed_at)
      lines << mark(false) + " " +
                   tr("first failed at %1 (seed %2)").arg(q(*grade->failed_at).toHtmlEscaped()).arg(run_seed_);
  }
  json measured = json::object();
  const GoalCheck* goal = grade ? &grade->goal : nullptr;
  const bool met = grade && grade->goal_met;
  if (goal) {
    // What the trace shows wrong first: it fails the goal whatever the counts.
    for (const analysis::ProblemReport& p : goal->problems)
      lines << mark(false) + " " + tr("the trace shows a problem: %1").arg(q(p.message).toHtmlEscaped());
    for (const std::string& why : goal->untraced) lines << mark(false) + " " + q(why).toHtmlEscaped();
    for (const GoalCheck::Term& t : goal->terms) {
      if (t.term.metric == "verified") continue;
      // A bound per another count is said resolved too: "measured 128, bound 1,024".
      const QString measured_text = t.term.per.empty() ? tr("measured %1").arg(QLocale().toString(t.value))
                                                       : tr("measured %1, bound %2")
                                                             .arg(QLocale().toString(t.value))
                                                             .arg(QLocale().toString(t.bound));
      QString line = mark(t.met) + " " + goal_term_text(t.term) + ": " + measured_text;
      if (!t.met && !t.term.reason.empty())
        line += " — " + q(t.term.reason_in(language::current().toStdString())).toHtmlEscaped();
      lines << line;
      measured[t.term.metric] = t.value;
    }
    if (!goal->problems.empty()) measured["problems"] = goal->problems.size();
    lines << (met ? "<b>" + tr("Goal met.") + "</b>" : "<b>" + tr("Goal not met yet.") + "</b>");
  }
  const double gbps = run ? run->bandwidth_gbps : 0.0;
  const double median_ms = run && run->timing ? run->timing->kernel_ms.median : 0.0;
  if (run && run->timing)
    lines
        << tr("median %1 ms, %2 GB/s").arg(QLocale().toString(median_ms, 'g', 4)).arg(QLocale().toString(gbps, 'f', 2));
  measured["median_ms"] = median_ms;
  measured["gbps"] = gbps;

  // The prediction, revealed.
  QStringList reveal;
  json prediction = json::object();
  std::optional<std::pair<std::size_t, Space>> step;
  const auto reveal_space = [&](int predicted, Space space, const QString& what, const char* key) {
    if (predicted <= 0) return;
    prediction[key] = predicted;
    const PerRequest p = per_request(a, space);
    measured[std::string(key)] = p.mean;
    if (p.requests == 0) {
      reveal << tr("%1: you predicted %2; the trace has no such requests.").arg(what).arg(predicted);
      return;
    }
    const auto unlike = first_request_unlike(a, space, static_cast<std::uint32_t>(predicted));
    if (!unlike) {
      reveal << mark(true) + " " +
                    tr("%1: you predicted %2; every one of the %3 requests took %2.")
                        .arg(what)
                        .arg(predicted)
                        .arg(p.requests);
    } else {
      reveal << mark(false) + " " +
                    tr("%1: you predicted %2; measured %3 (mean %4). The trace views are at request %5, "
                       "the first that differs: <a href='trace'>see it (Ctrl+4)</a>.")
                        .arg(what)
                        .arg(predicted)
                        .arg(distribution(p))
                        .arg(QLocale().toString(p.mean, 'g', 3))
                        .arg(*unlike + 1);
      if (!step) step = std::make_pair(*unlike, space);
    }
  };
  reveal_space(predicted_.shared, Space::Shared, tr("Wavefronts per shared-memory request"),
               "shared_wavefronts_per_request");
  reveal_space(predicted_.global, Space::Global, tr("Sectors per global-memory request"), "global_sectors_per_request");
  if (predicted_.faster != 0) {
    prediction["faster"] = predicted_.faster > 0;
    if (baseline_gbps_ && *baseline_gbps_ > 0 && gbps > 0) {
      const double ratio = gbps / *baseline_gbps_;
      const bool faster = ratio > 1;
      measured["bandwidth_vs_start"] = ratio;
      reveal
          << mark(faster == (predicted_.faster > 0)) + " " +
                 tr("Against the starting kernel: you predicted %1; measured %2× its bandwidth (%3 against %4 GB/s).")
                     .arg(predicted_.faster > 0 ? tr("faster") : tr("slower"))
                     .arg(QLocale().toString(ratio, 'f', 2))
                     .arg(QLocale().toString(gbps, 'f', 2))
                     .arg(QLocale().toString(*baseline_gbps_, 'f', 2));
    } else {
      reveal << tr("The starting kernel could not be timed on this device, so the speed prediction stays open.");
    }
  }
  QString text = lines.join("<br>");
  if (!reveal.isEmpty()) text += "<br><br><b>" + tr("Prediction") + "</b><br>" + reveal.join("<br>");
  result_->setText(text);
  last_result_ = reveal.join("\n");
  // The verdict in one line; the details (and the prediction) scrolled into view.
  QStringList verdict;
  if (run_exercise_) verdict << (met ? tr("✔ Goal met") : tr("✘ Goal not met yet"));
  verdict << (verified ? tr("verified") : tr("not verified"));
  if (run_exercise_) {
    QStringList named;  // a counter two terms bound is said once
    for (const GoalCheck::Term& t : goal->terms) {
      const QString said = metric_name(t.term.metric) + ": " + QLocale().toString(t.value);
      if (t.term.metric != "verified" && !named.contains(said)) named << said;
    }
    verdict << named;
    if (!goal->problems.empty()) verdict << tr("%n problem(s) in the trace", nullptr, static_cast<int>(goal->problems.size()));
  }
  if (gbps > 0) verdict << tr("%1 GB/s").arg(QLocale().toString(gbps, 'f', 2));
  set_verdict(verdict.join(" · "), run_exercise_ ? (met ? 1 : -1) : (verified ? 1 : -1));
  info_tabs_->setCurrentIndex(2);
  disconnect(result_, &QLabel::linkActivated, nullptr, nullptr);
  if (step)
    connect(result_, &QLabel::linkActivated, this, [this, step] { emit step_to(step->first, step->second, true); });
  if (!first_time) return;  // a language change redraws; it records nothing
  if (!run_key_.isEmpty()) {
    json attempt = {{"goal_met", run_exercise_ ? met : verified},
                    {"verified", verified},
                    {"seed", run_seed_},
                    {"device", last_run_.device},
                    {"prediction", prediction},
                    {"measured", measured},
                    {"outcome", "ran"}};
    if (const QString error = profile_.add_attempt(run_key_.toStdString(), attempt); !error.isEmpty())
      emit message(error, true);
  }
  fill_picker();  // and the task
  if (step) emit step_to(step->first, step->second, false);
  emit message(run_exercise_ ? (met ? tr("%1: goal met").arg(run_file_) : tr("%1: goal not met yet").arg(run_file_))
                             : tr("%1 ran: %2").arg(run_file_, verified ? tr("verified") : tr("not verified")),
               !verified);
}

}  // namespace threadmap::gui
