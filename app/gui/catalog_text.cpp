#include "app/gui/catalog_text.h"

#include <QCoreApplication>
#include <QLocale>

namespace threadmap::gui::catalog_text {

namespace {

// Every catalog text with words in it (titles that are kernel names, such as
// setRowReadCol, stay as they are). Kept in step with the built-in lessons'
// manifest, kernels/lessons/catalog.toml, by language_tests; lupdate reads the strings from here.
const char* const kTexts[] = {
    QT_TRANSLATE_NOOP("Catalog", "Copy (bandwidth ceiling)"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "A plain copy with the coalesced kernel's tiling and 16-byte strips: both sides coalesced. Every transpose chart measures against it."),
    QT_TRANSLATE_NOOP("Catalog", "Naive transpose"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "Thread x walks down the rows: every read is strided (one sector per thread), every write coalesced."),
    QT_TRANSLATE_NOOP("Catalog", "Shared-memory tile (lesson)"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "tile[T][T+P] with the lessons' mapping: i still comes from thread x, so BOTH global sides are strided and it runs slower than naive on a GPU. P=0 the OpenCL lesson (column reads conflict), P=1 the CUDA lesson (no conflicts)."),
    QT_TRANSLATE_NOOP("Catalog", "Dynamic shared-memory tile (lesson)"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "The CUDA lesson's extern __shared__ tile sized at launch (T*T elements, no padding): the same mapping and the same strided global accesses."),
    QT_TRANSLATE_NOOP("Catalog", "Coalesced transpose"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "The corrected mapping: thread x walks contiguous addresses on the read and on the write; the swap happens in the padded tile. Each thread moves 16-byte strips (4 ints or floats, 2 doubles), S of them, all loaded before the first store."),
    QT_TRANSLATE_NOOP("Catalog", "One thread per row"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "The CPU habit: each thread walks its own row, so a warp touches 32 rows at each step: uncoalesced."),
    QT_TRANSLATE_NOOP("Catalog", "One thread per column"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "Each thread walks down a column: a warp touches 32 neighbours of one row, coalesced, but there are only `width` threads."),
    QT_TRANSLATE_NOOP("Catalog", "K elements per thread"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "A 2-D grid, x fastest: coalesced and enough threads to fill the device. K=1 is one thread per element; with K=2 each thread loads two pairs before it stores, and twice the loads are in flight."),
    QT_TRANSLATE_NOOP("Catalog", "Columns, lanes sharing them (simd)"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "The column loop as `parallel for simd`: under GCC, whose OpenMP thread is a whole warp, the columns an OpenMP thread holds go to neighbouring lanes: as many lanes share a request as the thread holds columns (at most 32), few where the matrix is narrow."),
    QT_TRANSLATE_NOOP("Catalog", "Rows, each shared by a warp's lanes (simd)"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "The row loop over the OpenMP threads, each row's elements over the lanes of its warp (`omp simd`): coalesced under GCC, and every warp streams its own row."),
    QT_TRANSLATE_NOOP("Catalog", "Interleaved tree (lesson)"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "The lesson's tree: idx = 2*stride*lid. Active threads spread out and shared accesses conflict more at every step."),
    QT_TRANSLATE_NOOP("Catalog", "Divergent tree"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "if (lid % (2*stride) == 0): the same pairs, but the active threads are scattered over all warps, which diverge."),
    QT_TRANSLATE_NOOP("Catalog", "Sequential addressing"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "The stride halves from wg/2: active threads are contiguous, whole warps retire, no bank conflicts."),
    QT_TRANSLATE_NOOP("Catalog", "Grid-stride + warp shuffles"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "More work per thread (a grid-stride sum), a shared-memory tree down to one warp, then shuffles: the one to aim at."),
    QT_TRANSLATE_NOOP("Catalog", "Store and load along rows: 1 wavefront each."),
    QT_TRANSLATE_NOOP("Catalog", "Store and load along columns: 32-way conflicts both ways."),
    QT_TRANSLATE_NOOP("Catalog", "Store by rows (free), load by columns (32-way conflicts)."),
    QT_TRANSLATE_NOOP("Catalog", "setRowReadCol with a dynamically sized tile: the same conflicts."),
    QT_TRANSLATE_NOOP("Catalog", "One word of padding per row: the column load becomes conflict-free."),
    QT_TRANSLATE_NOOP("Catalog", "Padding in the dynamic tile's index arithmetic: conflict-free."),
    QT_TRANSLATE_NOOP("Catalog", "A 32 x 16 tile read by columns: 16-way conflicts."),
    QT_TRANSLATE_NOOP("Catalog", "The rectangular column read with a dynamic tile: 16-way conflicts."),
    QT_TRANSLATE_NOOP("Catalog", "Rectangular tile padded by P: pad 1 leaves 2-way conflicts, pad 2 none."),
    QT_TRANSLATE_NOOP("Catalog", "Dynamic rectangular tile padded by P in the index arithmetic."),
    QT_TRANSLATE_NOOP("Catalog", "matrix width (columns of the input)"),
    QT_TRANSLATE_NOOP("Catalog", "matrix height (rows of the input)"),
    QT_TRANSLATE_NOOP("Catalog", "tile edge T of the T x T tile one block moves"),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "16-byte strips S each thread moves (V = 4 ints or floats or 2 doubles per strip; a T/V x T/S block)"),
    QT_TRANSLATE_NOOP("Catalog", "element type (double shows 8-byte bank behaviour)"),
    QT_TRANSLATE_NOOP("Catalog", "tile edge T: a T x T block of threads per tile"),
    QT_TRANSLATE_NOOP("Catalog", "elements of padding P added to each tile row"),
    QT_TRANSLATE_NOOP("Catalog", "work-group size (threads per block)"),
    QT_TRANSLATE_NOOP("Catalog", "threads per block along x (the fastest index)"),
    QT_TRANSLATE_NOOP("Catalog", "threads per block along y"),
    QT_TRANSLATE_NOOP("Catalog", "elements K each thread adds, a block-width apart along the row"),
    QT_TRANSLATE_NOOP("Catalog", "number of elements to sum"),
    QT_TRANSLATE_NOOP("Catalog", "blocks in the first pass's grid"),
    QT_TRANSLATE_NOOP("Catalog", "blocks in the grid, each writing its own slice"),
};

}  // namespace

QString text(const std::string& english) { return QCoreApplication::translate("Catalog", english.c_str()); }

QString range(const ParamSpec& spec) {
  QStringList items;
  if (spec.is_choice())
    for (const std::string& choice : spec.choices) items << QString::fromStdString(choice);
  else if (!spec.allowed.empty())
    for (std::int64_t v : spec.allowed) items << QLocale().toString(static_cast<qlonglong>(v));
  else
    return QCoreApplication::translate("Catalog", "%1 to %2")
        .arg(QLocale().toString(static_cast<qlonglong>(spec.min)),
             QLocale().toString(static_cast<qlonglong>(spec.max)));
  QString list = items.value(0);
  if (items.size() > 1) {
    list = QStringList(items.mid(0, items.size() - 1)).join(", ");
    list = QCoreApplication::translate("Catalog", "%1 or %2").arg(list, items.back());
  }
  return spec.is_choice() ? list : QCoreApplication::translate("Catalog", "one of %1").arg(list);
}

QString tooltip(const Variant& variant) {
  return QCoreApplication::translate("Catalog", "%1: %2").arg(text(variant.title), text(variant.summary));
}

QString parameter_tip(const ParamSpec& spec) {
  return QCoreApplication::translate("Catalog", "%1 (%2)").arg(text(spec.meaning), range(spec));
}

QStringList known() {
  QStringList all;
  for (const char* t : kTexts) all << QString::fromUtf8(t);
  return all;
}

}  // namespace threadmap::gui::catalog_text
