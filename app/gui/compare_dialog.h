#pragma once
// Compare… (F7): picks the two recordings the Compare tab shows, from a
// family's bundled H100 recordings, the open and recent session files, or
// any other file. Keyboard first: Tab between the lists, Enter compares.
#include <QDialog>

#include <utility>
#include <vector>

class QComboBox;

namespace threadmap::gui {

class CompareDialog : public QDialog {
  Q_OBJECT
 public:
  struct Choice {
    QString label;  // "smem.setRowReadCol · bundled H100 recording"
    QString path;   // a file or a Qt resource
  };
  CompareDialog(const std::vector<Choice>& choices, int first, int second, QWidget* parent = nullptr);
  QString first_path() const;
  QString second_path() const;
  QComboBox& first() { return *first_; }
  QComboBox& second() { return *second_; }

 private:
  QComboBox* first_;
  QComboBox* second_;
};

}  // namespace threadmap::gui
