#pragma once
// Controls generated from a variant's ParamSpecs: a slider over the allowed
// values only, a combo box for a named choice, a spin box bounded by the range
// for sizes. A value outside the spec cannot be entered.
#include <QWidget>

#include <map>
#include <string>

#include "kernels/pack/catalog.h"

class QFormLayout;

namespace threadmap::gui {

class ParamPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ParamPanel(QWidget* parent = nullptr);
  void show_variant(const Variant& variant);
  // NAME -> value text as the worker takes it ("32", "float").
  std::map<std::string, std::string> values() const;
  // Sets a control by name (sessions, tests); false when the value is not allowed.
  bool set_value(const std::string& name, const std::string& value);
  // The controls for tests: object names are "param_<name>".
  QWidget* control(const std::string& name) const;
  // Overrides the sizes of the current and later variants (width, height, n, blocks).
  void set_size_overrides(std::map<std::string, std::int64_t> overrides) { size_overrides_ = std::move(overrides); }

 signals:
  void changed();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  struct Control {
    const ParamSpec* spec;
    QWidget* widget;
  };
  QFormLayout* form_;
  std::vector<Control> controls_;
  std::map<std::string, std::int64_t> size_overrides_;
};

}  // namespace threadmap::gui
