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
  // Lists what the catalog lists now: its variants the tree does not show
  // yet (a pack's, once opened or read again) under their family, each
  // family's in the catalog's order, and no variant the catalog no longer
  // lists (a pack read again without it, or with it renamed).
  void follow_catalog();

 signals:
  void variant_selected(const threadmap::Variant& variant);

 private:
  void list_catalog();
  QTreeWidgetItem* family_item(const Variant& v);
  void texts_of(QTreeWidgetItem& item, const Variant& v);
  void retranslate();
};

}  // namespace threadmap::gui
