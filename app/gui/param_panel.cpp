#include "app/gui/param_panel.h"

#include <QEvent>

#include "app/gui/catalog_text.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>

namespace threadmap::gui {

namespace {

// A slider whose positions are the indices of the allowed values, so a
// disallowed value (tile 12) has no position to land on.
class ValueSlider : public QWidget {
 public:
  ValueSlider(const ParamSpec& spec, QWidget* parent) : QWidget(parent), values_(spec.valid_values()) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, static_cast<int>(values_.size()) - 1);
    slider_->setPageStep(1);
    slider_->setTickPosition(QSlider::TicksBelow);
    slider_->setTickInterval(1);
    slider_->setObjectName(QString::fromStdString("slider_" + spec.name));
    label_ = new QLabel(this);
    label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance("00000"));
    layout->addWidget(slider_, 1);
    layout->addWidget(label_);
    connect(slider_, &QSlider::valueChanged, this, [this] { update_label(); });
    setFocusProxy(slider_);
  }
  QSlider* slider() const { return slider_; }
  std::int64_t value() const { return values_[static_cast<std::size_t>(slider_->value())]; }
  bool set(std::int64_t v) {
    auto it = std::find(values_.begin(), values_.end(), v);
    if (it == values_.end()) return false;
    slider_->setValue(static_cast<int>(it - values_.begin()));
    update_label();
    return true;
  }

 private:
  void update_label() { label_->setText(QString::number(value())); }
  std::vector<std::int64_t> values_;
  QSlider* slider_;
  QLabel* label_;
};

}  // namespace

ParamPanel::ParamPanel(QWidget* parent) : QWidget(parent) {
  form_ = new QFormLayout(this);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void ParamPanel::show_variant(const Variant& variant) {
  while (form_->rowCount() > 0) form_->removeRow(0);
  controls_.clear();
  for (const ParamSpec& spec : variant.params) {
    const QString name = QString::fromStdString(spec.name);
    const QString tip = catalog_text::parameter_tip(spec);
    QWidget* widget = nullptr;
    if (spec.is_choice()) {
      auto* combo = new QComboBox(this);
      for (const std::string& choice : spec.choices) combo->addItem(QString::fromStdString(choice));
      combo->setCurrentIndex(static_cast<int>(spec.default_value));
      connect(combo, &QComboBox::currentIndexChanged, this, &ParamPanel::changed);
      widget = combo;
    } else if (!spec.valid_values().empty()) {
      auto* slider = new ValueSlider(spec, this);
      slider->set(spec.default_value);
      connect(slider->slider(), &QSlider::valueChanged, this, &ParamPanel::changed);
      widget = slider;
    } else {
      auto* spin = new QSpinBox(this);
      spin->setRange(static_cast<int>(spec.min), static_cast<int>(spec.max));
      spin->setValue(static_cast<int>(spec.default_value));
      if (auto it = size_overrides_.find(spec.name); it != size_overrides_.end())
        spin->setValue(static_cast<int>(std::clamp(it->second, spec.min, spec.max)));
      spin->setGroupSeparatorShown(true);
      // Runs when the edit is done, not on every keystroke.
      spin->setKeyboardTracking(false);
      spin->setAccelerated(true);
      connect(spin, &QSpinBox::valueChanged, this, &ParamPanel::changed);
      widget = spin;
    }
    widget->setObjectName("param_" + name);
    widget->setToolTip(tip);
    auto* label = new QLabel(name, this);
    label->setToolTip(tip);
    label->setBuddy(widget);
    form_->addRow(label, widget);
    controls_.push_back({&spec, widget});
  }
}

std::map<std::string, std::string> ParamPanel::values() const {
  std::map<std::string, std::string> out;
  for (const Control& c : controls_) {
    if (auto* combo = qobject_cast<QComboBox*>(c.widget)) out[c.spec->name] = combo->currentText().toStdString();
    else if (auto* spin = qobject_cast<QSpinBox*>(c.widget)) out[c.spec->name] = std::to_string(spin->value());
    else out[c.spec->name] = std::to_string(static_cast<ValueSlider*>(c.widget)->value());
  }
  return out;
}

bool ParamPanel::set_value(const std::string& name, const std::string& value) {
  for (const Control& c : controls_) {
    if (c.spec->name != name) continue;
    if (auto* combo = qobject_cast<QComboBox*>(c.widget)) {
      const int index = combo->findText(QString::fromStdString(value));
      if (index < 0) return false;
      combo->setCurrentIndex(index);
      return true;
    }
    bool ok = false;
    const qlonglong number = QString::fromStdString(value).toLongLong(&ok);
    if (!ok) return false;
    if (auto* spin = qobject_cast<QSpinBox*>(c.widget)) {
      if (number < spin->minimum() || number > spin->maximum()) return false;
      spin->setValue(static_cast<int>(number));
      return true;
    }
    return static_cast<ValueSlider*>(c.widget)->set(number);
  }
  return false;
}

QWidget* ParamPanel::control(const std::string& name) const {
  for (const Control& c : controls_)
    if (c.spec->name == name) return c.widget;
  return nullptr;
}

// A new language: the tooltips again (the controls keep their values).
void ParamPanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() != QEvent::LanguageChange) return;
  for (const Control& c : controls_) {
    const QString tip = catalog_text::parameter_tip(*c.spec);
    c.widget->setToolTip(tip);
    if (QWidget* label = form_->labelForField(c.widget)) label->setToolTip(tip);
  }
}

}  // namespace threadmap::gui
