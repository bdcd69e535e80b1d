#include "app/gui/pack_library.h"

#include <QDir>
#include <algorithm>
#include <QFileInfo>
#include <QStandardPaths>

#include "kernels/analysis/exercises.h"
#include "kernels/pack/catalog.h"
#include "kernels/pack/manifest.h"
#include "kernels/pack/pack_template.h"
#include "kernels/pack/pack_variants.h"

namespace threadmap::gui {

namespace {

// The packs open in this process: the catalog is one per process, so a
// window made later (tests make many) lists them, and its worker gets them.
struct OpenPack {
  QString canonical;
  std::string name;  // the manifest's [pack] name: its exercises' key
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
      return tr("The pack in %1 is open already (File ▸ Reload packs reads its files anew).").arg(folder);
  pack::PackFiles files;
  std::vector<std::string> ids;
  std::string name;
  try {
    const pack::PackManifest manifest = pack::load_pack(folder.toStdString(), files);
    name = manifest.name;
    for (const OpenPack& p : open_packs())
      if (p.name == manifest.name)
        return tr("%1: a pack named '%2' is open already, from %3; give one of them another name in its "
                  "pack.toml")
            .arg(folder, QString::fromStdString(manifest.name), QString::fromStdString(p.request.folder));
    std::vector<Variant> variants = pack::pack_variants(manifest);
    for (const Variant& v : variants) ids.push_back(v.id);
    std::vector<Exercise> exercises = pack_exercises(manifest);
    check_new_exercises(exercises);  // before anything is added: all of the pack or none
    add_variants(std::move(variants));
    add_exercises(manifest.name, std::move(exercises));
  } catch (const InvalidRequest& e) {  // PackError too
    return QString::fromStdString(e.what());
  }
  open_packs().push_back({canonical, name, {folder.toStdString(), files.manifest, files.kernels}});
  worker_.add_pack(open_packs().back().request);
  if (variant_ids) variant_ids->insert(variant_ids->end(), ids.begin(), ids.end());
  return {};
}

QStringList PackLibrary::reload() {
  QStringList problems;
  for (OpenPack& p : open_packs()) {
    pack::PackFiles files;
    try {
      const pack::PackManifest manifest = pack::load_pack(p.request.folder, files);
      if (manifest.name != p.name) {
        problems << tr("%1: its pack's name is not the one read before ('%2', now '%3'); start ThreadMap "
                       "again to read it")
                        .arg(QString::fromStdString(p.request.folder), QString::fromStdString(p.name),
                             QString::fromStdString(manifest.name));
        continue;
      }
      std::vector<Exercise> exercises = pack_exercises(manifest);
      check_new_exercises(exercises);
      update_pack_variants(pack::pack_variants(manifest));
      add_exercises(manifest.name, std::move(exercises));
    } catch (const InvalidRequest& e) {  // PackError too
      // Each problem names its pack's folder.
      const std::string what = e.what();
      problems << QString::fromStdString(what.find(p.request.folder) == std::string::npos
                                             ? p.request.folder + ": " + what
                                             : what);
      continue;
    }
    p.request = {p.request.folder, files.manifest, files.kernels};
    worker_.update_pack(p.request);
  }
  return problems;
}

QString PackLibrary::create(const QString& name, std::vector<std::string>* variant_ids, QString* folder) {
  *folder = QDir(user_folder()).filePath(name);
  try {
    pack::write_pack_template(folder->toStdString());
  } catch (const InvalidRequest& e) {
    return QString::fromStdString(e.what());
  }
  return open(*folder, variant_ids);
}

QStringList PackLibrary::open_user_packs() {
  QStringList problems;
  for (const QString& folder : {QString::fromStdString(pack::bundled_packs_folder()), user_folder()}) {
    if (folder.isEmpty()) continue;
    const QDir packs(folder);
    for (const QString& name : packs.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
      if (!QFileInfo::exists(packs.filePath(name + "/pack.toml"))) continue;
      const QString canonical = QFileInfo(packs.filePath(name)).canonicalFilePath();
      if (std::any_of(open_packs().begin(), open_packs().end(),
                      [&](const OpenPack& p) { return p.canonical == canonical; }))
        continue;
      if (const QString problem = open(packs.filePath(name)); !problem.isEmpty()) problems << problem;
    }
  }
  return problems;
}

}  // namespace threadmap::gui
