#include "app/gui/pack_library.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "kernels/catalog.h"
#include "kernels/pack/manifest.h"
#include "kernels/pack/pack_variants.h"

namespace threadmap::gui {

namespace {

// The packs open in this process: the catalog is one per process, so a
// window made later (tests make many) lists them, and its worker gets them.
struct OpenPack {
  QString canonical;
  protocol::PackRequest request;
};
std::vector<OpenPack>& open_packs() {
  static std::vector<OpenPack> packs;
  return packs;
}

}  // namespace

PackLibrary::PackLibrary(WorkerClient& worker, QObject* parent) : QObject(parent), worker_(worker) {
  for (const OpenPack& p : open_packs()) worker_.add_pack(p.request);
}

QString PackLibrary::user_folder() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("packs");
}

QString PackLibrary::open(const QString& folder, std::vector<std::string>* variant_ids) {
  const QString canonical = QFileInfo(folder).canonicalFilePath();
  for (const OpenPack& p : open_packs())
    if (!canonical.isEmpty() && p.canonical == canonical)
      return tr("The pack in %1 is open already (start ThreadMap again to read it anew).").arg(folder);
  pack::PackFiles files;
  std::vector<std::string> ids;
  try {
    const pack::PackManifest manifest = pack::load_pack(folder.toStdString(), files);
    std::vector<Variant> variants = pack::pack_variants(manifest);
    for (const Variant& v : variants) ids.push_back(v.id);
    add_variants(std::move(variants));
  } catch (const InvalidRequest& e) {  // PackError too
    return QString::fromStdString(e.what());
  }
  open_packs().push_back({canonical, {folder.toStdString(), files.manifest, files.kernels}});
  worker_.add_pack(open_packs().back().request);
  if (variant_ids) variant_ids->insert(variant_ids->end(), ids.begin(), ids.end());
  return {};
}

QStringList PackLibrary::open_user_packs() {
  QStringList problems;
  const QDir packs(user_folder());
  for (const QString& name : packs.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
    if (QFileInfo::exists(packs.filePath(name + "/pack.toml")))
      if (const QString problem = open(packs.filePath(name)); !problem.isEmpty()) problems << problem;
  return problems;
}

}  // namespace threadmap::gui
