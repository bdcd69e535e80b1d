#pragma once
// The window's controls: the kernel list, the Run box (device, repetitions,
// traced blocks), the selected kernel's parameters, the Run and Sweep
// buttons, and the run's status under them. Collapsed (F9), they are a
// narrow strip that brings them back. The window decides what a click does.
#include <QWidget>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/protocol/requests.h"
#include "kernels/pack/catalog.h"
#include "kernels/core/device.h"

class QComboBox;
class QLineEdit;
class QSettings;
class QSpinBox;
class QSplitter;
class QToolButton;

namespace threadmap::views {
class Retranslator;
}

namespace threadmap::gui {

class KernelTree;
class ParamPanel;
class StatusPanel;

class ControlsPage : public QWidget {
  Q_OBJECT
 public:
  // reps: the repetitions shown at first; size: N for N x N matrices and N*N
  // elements where a parameter takes it (0: the catalog's defaults).
  ControlsPage(int reps, std::int64_t size, QWidget* parent = nullptr);

  static constexpr int kMinWidth = 320;   // the controls, expanded
  static constexpr int kStripWidth = 28;  // the controls, collapsed

  KernelTree& tree() { return *tree_; }
  QComboBox& devices() { return *devices_; }
  ParamPanel& params() { return *params_; }
  StatusPanel& status() { return *status_; }
  QSplitter& split() { return *split_; }  // the controls over the run's status
  int reps() const;
  // The device picked: a device spec, or "auto" while none is listed.
  std::string chosen_device() const;
  // The language a listed device compiles; nullopt for one not listed.
  std::optional<threadmap::Dialect> listed_dialect(const std::string& spec) const;
  // The Traced blocks field as a request's blocks: empty for the default
  // blocks, "all", or block ids; nullopt with `error` set when it does not read.
  std::optional<protocol::TracedBlocks> traced_blocks(QString& error) const;
  // The variant's parameters (without a changed signal), and the ones a
  // sweep can vary: those with a small set of allowed values.
  void show_variant(const Variant& variant);
  QString sweep_parameter() const;
  // The backends' devices, a server's named after `host`; `previous` stays
  // picked where it is listed, else the first usable one. False when none is.
  bool list_devices(const std::vector<BackendReport>& backends, const QString& previous, const QString& host);

  void set_collapsed(bool collapsed);
  bool collapsed() const;

  // The run's settings: device, repetitions, traced blocks, and the kernel
  // with its parameters when one is selected.
  void save(QSettings& settings, const Variant* selected) const;
  void restore(const QSettings& settings);  // repetitions and traced blocks
  // The saved kernel selected with its parameters (no changed signal); false
  // when none was saved or it is not in the catalog.
  bool restore_kernel(const QSettings& settings);

 signals:
  void run_clicked();
  void sweep_clicked();
  void expand_clicked();  // the collapsed strip was clicked

 private:
  QWidget* build_run_box();
  QWidget* build_params_box(std::int64_t size);
  QLayout* build_buttons();

  views::Retranslator* texts_;
  KernelTree* tree_;
  QComboBox* devices_;
  std::map<std::string, threadmap::Dialect> dialects_;  // the listed devices', by spec
  QSpinBox* reps_;
  QLineEdit* traced_blocks_;
  ParamPanel* params_;
  QComboBox* sweep_parameter_;
  StatusPanel* status_;
  QSplitter* split_;
  QToolButton* strip_;
};

}  // namespace threadmap::gui
