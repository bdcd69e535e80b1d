#pragma once
// The catalog as a tree: lesson family -> kernels, each with its lesson section.
#include <QTreeWidget>

#include "kernels/pack/catalog.h"

namespace threadmap::gui {

class KernelTree : public QTreeWidget {
  Q_OBJECT
 public:
  explicit KernelTree(QWidget* parent = nullptr);
  const Variant* current_variant() const;
  bool select(const std::string& kernel_id);
  static QString family_title(const std::string& family);
  // A pack's family: "rowsum (pack rowsum)".
  static QString family_title(const std::string& family, const std::string& pack);
  // Lists the catalog's variants the tree does not show yet (a pack's, once
  // opened), under their family.
  void add_new_variants();

 signals:
  void variant_selected(const threadmap::Variant& variant);

 private:
  void list_new_variants();
  QTreeWidgetItem* family_item(const Variant& v);
  void texts_of(QTreeWidgetItem& item, const Variant& v);
  void retranslate();
};

}  // namespace threadmap::gui
