#include "app/gui/controls_page.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/gui/kernel_tree.h"
#include "app/gui/param_panel.h"
#include "app/gui/status_panel.h"
#include "viz/views/retranslate.h"

namespace threadmap::gui {

namespace {

std::map<std::string, std::int64_t> size_overrides(std::int64_t size) {
  if (size <= 0) return {};
  return {{"width", size}, {"height", size}, {"n", size * size}};
}

QScrollArea* scrolling(QWidget* content) {
  auto* scroll = new QScrollArea;
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

}  // namespace

ControlsPage::ControlsPage(int reps, std::int64_t size, QWidget* parent) : QWidget(parent) {
  texts_ = new views::Retranslator(this);
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  tree_ = new KernelTree(left);
  tree_->setMinimumHeight(260);
  auto* kernels_label = new QLabel(left);
  texts_->add([kernels_label] { kernels_label->setText(tr("&Kernels (Ctrl+K)")); });
  kernels_label->setBuddy(tree_);
  left_layout->addWidget(kernels_label);
  left_layout->addWidget(tree_, 2);
  left_layout->addWidget(build_run_box());
  reps_->setValue(reps);
  left_layout->addWidget(build_params_box(size));
  left_layout->addLayout(build_buttons());
  left_layout->addStretch(1);

  auto* left_scroll = scrolling(left);
  left_scroll->setMinimumWidth(kMinWidth);
  // The run's status under the controls, in a pane of its own: the badge
  // and GB/s head it and never fall below the controls' fold.
  split_ = new QSplitter(Qt::Vertical);
  split_->setObjectName("controls");
  status_ = new StatusPanel;
  auto* status_scroll = scrolling(status_);
  status_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  split_->addWidget(left_scroll);
  split_->addWidget(status_scroll);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 2);
  split_->setCollapsible(0, false);
  split_->setCollapsible(1, false);

  // Collapsed, the controls are this strip: a click or F9 brings them back.
  strip_ = new QToolButton;
  strip_->setObjectName("controlsStrip");
  strip_->setText(QStringLiteral("»"));
  strip_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
  strip_->setFixedWidth(kStripWidth);
  strip_->setFocusPolicy(Qt::NoFocus);
  strip_->hide();
  texts_->add([this] { strip_->setToolTip(tr("Show the controls (F9)")); });
  connect(strip_, &QToolButton::clicked, this, &ControlsPage::expand_clicked);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(split_, 1);
  layout->addWidget(strip_);
}

QWidget* ControlsPage::build_run_box() {
  auto* box = new QGroupBox;
  texts_->add([box] { box->setTitle(tr("Run")); });
  auto* form = new QFormLayout(box);
  devices_ = new QComboBox(box);
  devices_->setObjectName("devicePicker");
  // Long device names and reasons must not widen the panel: the popup shows them whole.
  devices_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  devices_->setMinimumContentsLength(16);
  devices_->addItem(QString(), "auto");
  form->addRow(new QLabel, devices_);
  reps_ = new QSpinBox(box);
  reps_->setObjectName("reps");
  reps_->setRange(1, 1000);
  form->addRow(new QLabel, reps_);
  traced_blocks_ = new QLineEdit(box);
  traced_blocks_->setObjectName("tracedBlocks");
  form->addRow(new QLabel, traced_blocks_);
  texts_->add([this, form] {
    auto label = [form](QWidget* field, const QString& text) {
      auto* l = qobject_cast<QLabel*>(form->labelForField(field));
      l->setText(text);
      l->setBuddy(field);
    };
    label(devices_, tr("&Device"));
    label(reps_, tr("&Repetitions"));
    label(traced_blocks_, tr("&Traced blocks"));
    if (devices_->count() == 1 && devices_->itemData(0).toString() == "auto")
      devices_->setItemText(0, tr("auto (asking the worker …)"));
    reps_->setToolTip(tr("timed repetitions: the median, min and max are shown"));
    traced_blocks_->setPlaceholderText(tr("default"));
    traced_blocks_->setToolTip(
        tr("blocks Record trace (Ctrl+R) follows: empty for the first two blocks of the first two "
           "grid rows, \"all\", or linear block ids such as 0, 1, 64 (id = x + grid width * y)"));
  });
  return box;
}

QWidget* ControlsPage::build_params_box(std::int64_t size) {
  auto* box = new QGroupBox;
  texts_->add([box] { box->setTitle(tr("Parameters (Ctrl+P)")); });
  auto* layout = new QVBoxLayout(box);
  params_ = new ParamPanel(box);
  params_->setObjectName("paramPanel");
  params_->set_size_overrides(size_overrides(size));
  layout->addWidget(params_);
  return box;
}

QLayout* ControlsPage::build_buttons() {
  auto* buttons = new QHBoxLayout;
  auto* run_button = new QPushButton;
  run_button->setObjectName("runButton");
  auto* sweep_button = new QPushButton;
  sweep_parameter_ = new QComboBox;
  sweep_parameter_->setObjectName("sweepParameter");
  texts_->add([this, run_button, sweep_button] {
    run_button->setText(tr("Run (F5)"));
    sweep_button->setText(tr("Sweep (F6)"));
    sweep_parameter_->setToolTip(tr("the parameter a sweep varies, over all its allowed values"));
  });
  connect(run_button, &QPushButton::clicked, this, &ControlsPage::run_clicked);
  connect(sweep_button, &QPushButton::clicked, this, &ControlsPage::sweep_clicked);
  buttons->addWidget(run_button);
  buttons->addWidget(sweep_button);
  buttons->addWidget(sweep_parameter_);
  return buttons;
}

int ControlsPage::reps() const { return reps_->value(); }

std::string ControlsPage::chosen_device() const { return devices_->currentData().toString().toStdString(); }

std::optional<Dialect> ControlsPage::listed_dialect(const std::string& spec) const {
  const auto listed = dialects_.find(spec);
  return listed != dialects_.end() ? std::optional(listed->second) : std::nullopt;
}

std::optional<protocol::TracedBlocks> ControlsPage::traced_blocks(QString& error) const {
  const QString t = traced_blocks_->text().trimmed();
  if (t.isEmpty()) return protocol::TracedBlocks{};
  if (t.compare("all", Qt::CaseInsensitive) == 0) return protocol::TracedBlocks{true, {}};
  protocol::TracedBlocks blocks;
  for (const QString& part : t.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts)) {
    bool ok = false;
    const uint id = part.toUInt(&ok);
    if (!ok) {
      error = QObject::tr(
                  "traced blocks: \"%1\" is not a block id; give \"all\", or ids "
                  "such as 0, 1, 64, or leave the field empty for the default blocks")
                  .arg(part);
      return std::nullopt;
    }
    blocks.ids.push_back(id);
  }
  return blocks;
}

void ControlsPage::show_variant(const Variant& variant) {
  {
    const QSignalBlocker block(params_);
    params_->show_variant(variant);
  }
  sweep_parameter_->clear();
  for (const ParamSpec& spec : variant.params)
    if (!spec.is_choice() && !spec.valid_values().empty()) sweep_parameter_->addItem(QString::fromStdString(spec.name));
}

QString ControlsPage::sweep_parameter() const { return sweep_parameter_->currentText(); }

bool ControlsPage::list_devices(const std::vector<BackendReport>& backends, const QString& previous,
                                const QString& host) {
  const QSignalBlocker block(devices_);
  devices_->clear();
  dialects_.clear();
  auto* model = qobject_cast<QStandardItemModel*>(devices_->model());
  for (const BackendReport& b : backends) {
    const QString name = QString::fromStdString(b.backend);
    if (!b.available) {
      devices_->addItem(tr("%1: unavailable (%2)").arg(name, QString::fromStdString(b.reason)));
      model->item(devices_->count() - 1)->setEnabled(false);
      continue;
    }
    // A server's devices are listed under its name.
    const QString where = host.isEmpty() ? QString() : tr(" on %1").arg(host);
    for (const DeviceInfo& d : b.devices) {
      dialects_[d.spec] = d.dialect;
      devices_->addItem(QString::fromStdString(d.spec + "  " + d.name) + where, QString::fromStdString(d.spec));
    }
  }
  int index = devices_->findData(previous);
  for (int i = 0; index < 0 && i < devices_->count(); ++i)
    if (model->item(i)->isEnabled()) index = i;
  devices_->setCurrentIndex(index);
  return index >= 0;
}

void ControlsPage::set_collapsed(bool collapsed) {
  split_->setVisible(!collapsed);
  strip_->setVisible(collapsed);
  if (!collapsed) tree_->setFocus();
}

bool ControlsPage::collapsed() const { return split_->isHidden(); }

void ControlsPage::save(QSettings& settings, const Variant* selected) const {
  const QString device = devices_->currentData().toString();
  if (device.contains(':')) settings.setValue("run/device", device);
  settings.setValue("run/reps", reps_->value());
  settings.setValue("run/tracedBlocks", traced_blocks_->text());
  if (!selected) return;
  settings.setValue("run/kernel", QString::fromStdString(selected->id));
  QVariantMap values;
  for (const auto& [name, value] : params_->values())
    values.insert(QString::fromStdString(name), QString::fromStdString(value));
  settings.setValue("run/parameters", values);
}

void ControlsPage::restore(const QSettings& settings) {
  if (settings.contains("run/reps")) reps_->setValue(settings.value("run/reps").toInt());
  traced_blocks_->setText(settings.value("run/tracedBlocks").toString());
}

bool ControlsPage::restore_kernel(const QSettings& settings) {
  const std::string id = settings.value("run/kernel").toString().toStdString();
  if (id.empty() || !find_variant(id) || !tree_->select(id)) return false;
  const QVariantMap values = settings.value("run/parameters").toMap();
  const QSignalBlocker block(params_);
  for (auto it = values.begin(); it != values.end(); ++it)
    params_->set_value(it.key().toStdString(), it.value().toString().toStdString());
  return true;
}

}  // namespace threadmap::gui
