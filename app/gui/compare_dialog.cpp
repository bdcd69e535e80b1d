#include "app/gui/compare_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

#include "app/gui/session_store.h"

namespace threadmap::gui {

CompareDialog::CompareDialog(const std::vector<Choice>& choices, int first, int second, QWidget* parent)
    : QDialog(parent), first_(new QComboBox(this)), second_(new QComboBox(this)) {
  setWindowTitle(tr("Compare two recordings"));
  setObjectName("compareDialog");
  auto* form = new QFormLayout(this);
  form->addRow(new QLabel(tr("Two recordings of one lesson family, side by side in the same trace view, "
                             "stepping together by warp request."),
                          this));
  for (QComboBox* box : {first_, second_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(64);  // "smem.setRowReadColRectDynPad · grabación incluida (NVIDIA H100)"
    for (const Choice& c : choices) box->addItem(c.label, c.path);
    box->addItem(tr("Other file…"), QString());
    // "Other file…" asks for a file and adds it to both lists.
    connect(box, &QComboBox::activated, this, [this, box](int index) {
      if (!box->itemData(index).toString().isEmpty()) return;
      const QString path =
          QFileDialog::getOpenFileName(this, tr("Compare a recording"), {}, SessionStore::file_filter());
      if (path.isEmpty()) {
        box->setCurrentIndex(0);
        return;
      }
      for (QComboBox* b : {first_, second_}) b->insertItem(b->count() - 1, QFileInfo(path).fileName(), path);
      box->setCurrentIndex(box->count() - 2);
    });
  }
  first_->setCurrentIndex(std::clamp(first, 0, first_->count() - 2));
  second_->setCurrentIndex(std::clamp(second, 0, second_->count() - 2));
  auto* first_label = new QLabel(tr("&Left"), this);
  first_label->setBuddy(first_);
  auto* second_label = new QLabel(tr("&Right"), this);
  second_label->setBuddy(second_);
  form->addRow(first_label, first_);
  form->addRow(second_label, second_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
  buttons->button(QDialogButtonBox::Ok)->setDefault(true);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
  first_->setFocus();
}

QString CompareDialog::first_path() const { return first_->currentData().toString(); }
QString CompareDialog::second_path() const { return second_->currentData().toString(); }

}  // namespace threadmap::gui
