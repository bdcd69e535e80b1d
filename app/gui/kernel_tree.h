#pragma once
// The catalog as a tree: lesson family -> kernels, each with its lesson section.
#include <QTreeWidget>

#include "kernels/catalog.h"

namespace threadmap::gui {

class KernelTree : public QTreeWidget {
  Q_OBJECT
 public:
  explicit KernelTree(QWidget* parent = nullptr);
  const Variant* current_variant() const;
  bool select(const std::string& kernel_id);
  static QString family_title(const std::string& family);

 signals:
  void variant_selected(const threadmap::Variant& variant);
};

}  // namespace threadmap::gui
