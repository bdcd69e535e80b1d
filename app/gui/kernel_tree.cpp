#include "app/gui/kernel_tree.h"

#include <QHeaderView>

#include "app/gui/catalog_text.h"
#include "app/gui/language.h"
#include "app/gui/lesson_pane.h"
#include "viz/views/retranslate.h"

namespace threadmap::gui {

KernelTree::KernelTree(QWidget* parent) : QTreeWidget(parent) {
  setObjectName("kernelTree");
  setColumnCount(2);
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  QTreeWidgetItem* family_item = nullptr;
  for (const Variant& v : catalog()) {
    const QString family = QString::fromStdString(v.family);
    if (!family_item || family_item->data(0, Qt::UserRole + 1).toString() != family) {
      family_item = new QTreeWidgetItem(this, {family_title(v.family)});
      family_item->setData(0, Qt::UserRole + 1, family);
      family_item->setFlags(Qt::ItemIsEnabled);
      QFont bold = family_item->font(0);
      bold.setBold(true);
      family_item->setFont(0, bold);
    }
    auto* item = new QTreeWidgetItem(
        family_item, {QString::fromStdString(v.id), QString::fromStdString(v.lesson.section)});
    item->setData(0, Qt::UserRole, QString::fromStdString(v.id));
  }
  expandAll();
  // Family titles, headers and the "corrected" note follow the language.
  (new views::Retranslator(this))->add([this] {
    setHeaderLabels({tr("Lesson / kernel"), tr("Lesson section")});
    for (int i = 0; i < topLevelItemCount(); ++i) {
      QTreeWidgetItem* family_item = topLevelItem(i);
      family_item->setText(0, family_title(family_item->data(0, Qt::UserRole + 1).toString().toStdString()));
      for (int j = 0; j < family_item->childCount(); ++j) {
        QTreeWidgetItem* item = family_item->child(j);
        const Variant* v = find_variant(item->data(0, Qt::UserRole).toString().toStdString());
        if (!v) continue;
        item->setToolTip(0, catalog_text::tooltip(*v));
        item->setText(1, LessonPane::section_title(v->lesson, language::current()) +
                             (v->lesson_original ? QString() : tr("  (corrected, not in the lesson)")));
      }
    }
  });
  connect(this, &QTreeWidget::currentItemChanged, this, [this] {
    if (const Variant* v = current_variant()) emit variant_selected(*v);
  });
}

QString KernelTree::family_title(const std::string& family) {
  if (family == "transpose") return tr("Matrix transpose (shared memory)");
  if (family == "coalescing") return tr("Memory coalescing (matrix add)");
  if (family == "reduction") return tr("Parallel reduction");
  if (family == "smem-layout") return tr("Shared-memory data layout");
  return QString::fromStdString(family);
}

const Variant* KernelTree::current_variant() const {
  const QTreeWidgetItem* item = currentItem();
  return item ? find_variant(item->data(0, Qt::UserRole).toString().toStdString()) : nullptr;
}

bool KernelTree::select(const std::string& kernel_id) {
  const auto found = findItems(QString::fromStdString(kernel_id), Qt::MatchExactly | Qt::MatchRecursive);
  if (found.isEmpty()) return false;
  setCurrentItem(found.front());
  return true;
}

}  // namespace threadmap::gui
