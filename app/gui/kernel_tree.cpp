#include "app/gui/kernel_tree.h"

#include <QHeaderView>
#include <QSignalBlocker>

#include <algorithm>
#include <map>

#include "app/gui/catalog_text.h"
#include "app/gui/language.h"
#include "app/gui/lesson_pane.h"
#include "viz/views/retranslate.h"

namespace threadmap::gui {

KernelTree::KernelTree(QWidget* parent) : QTreeWidget(parent) {
  setObjectName("kernelTree");
  setColumnCount(2);
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  list_catalog();
  // Family titles, headers and the "corrected" note follow the language.
  (new views::Retranslator(this))->add([this] { retranslate(); });
  connect(this, &QTreeWidget::currentItemChanged, this, [this] {
    if (const Variant* v = current_variant()) emit variant_selected(*v);
  });
}

void KernelTree::follow_catalog() {
  list_catalog();
  retranslate();
}

void KernelTree::list_catalog() {
  const QSignalBlocker quiet(this);  // the selection is the window's to restore
  const QString current = currentItem() ? currentItem()->data(0, Qt::UserRole).toString() : QString();
  std::map<QString, int> order;  // each listed variant's place in the catalog
  for (const Variant& v : catalog()) {
    const QString id = QString::fromStdString(v.id);
    order.emplace(id, static_cast<int>(order.size()));
    if (!findItems(id, Qt::MatchExactly | Qt::MatchRecursive).isEmpty()) continue;
    auto* item = new QTreeWidgetItem(family_item(v), {id, QString::fromStdString(v.lesson.section)});
    item->setData(0, Qt::UserRole, id);
  }
  for (int f = topLevelItemCount() - 1; f >= 0; --f) {
    QTreeWidgetItem* family = topLevelItem(f);
    QList<QTreeWidgetItem*> kernels = family->takeChildren();
    QList<QTreeWidgetItem*> kept;
    for (QTreeWidgetItem* k : kernels) {
      if (order.count(k->data(0, Qt::UserRole).toString())) kept << k;
      else delete k;
    }
    std::stable_sort(kept.begin(), kept.end(), [&](QTreeWidgetItem* a, QTreeWidgetItem* b) {
      return order.at(a->data(0, Qt::UserRole).toString()) < order.at(b->data(0, Qt::UserRole).toString());
    });
    if (kept.isEmpty()) delete takeTopLevelItem(f);
    else family->addChildren(kept);
  }
  expandAll();
  if (const auto found = findItems(current, Qt::MatchExactly | Qt::MatchRecursive); !current.isEmpty() && !found.isEmpty())
    setCurrentItem(found.front());
}

// The family's branch, made the first time one of its kernels is listed.
QTreeWidgetItem* KernelTree::family_item(const Variant& v) {
  const QString family = QString::fromStdString(v.family);
  for (int i = 0; i < topLevelItemCount(); ++i)
    if (topLevelItem(i)->data(0, Qt::UserRole + 1).toString() == family) return topLevelItem(i);
  auto* item = new QTreeWidgetItem(this, {family_title(v.family, v.pack)});
  item->setData(0, Qt::UserRole + 1, family);
  item->setData(0, Qt::UserRole + 2, QString::fromStdString(v.pack));
  item->setFlags(Qt::ItemIsEnabled);
  QFont bold = item->font(0);
  bold.setBold(true);
  item->setFont(0, bold);
  return item;
}

void KernelTree::texts_of(QTreeWidgetItem& item, const Variant& v) {
  item.setToolTip(0, catalog_text::tooltip(v));
  if (!v.pack.empty()) return;  // a pack's kernel has no lesson section
  item.setText(1, LessonPane::section_title(v.lesson, language::current()) +
                      (v.lesson_original ? QString() : tr("  (corrected, not in the lesson)")));
}

void KernelTree::retranslate() {
  setHeaderLabels({tr("Lesson / kernel"), tr("Lesson section")});
  for (int i = 0; i < topLevelItemCount(); ++i) {
    QTreeWidgetItem* family = topLevelItem(i);
    family->setText(0, family_title(family->data(0, Qt::UserRole + 1).toString().toStdString(),
                                    family->data(0, Qt::UserRole + 2).toString().toStdString()));
    for (int j = 0; j < family->childCount(); ++j)
      if (const Variant* v = find_variant(family->child(j)->data(0, Qt::UserRole).toString().toStdString()))
        texts_of(*family->child(j), *v);
  }
}

QString KernelTree::family_title(const std::string& family, const std::string& pack) {
  if (!pack.empty()) return tr("%1 (pack %2)").arg(QString::fromStdString(family), QString::fromStdString(pack));
  return family_title(family);
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
