#pragma once
// The packs the window has open (docs/packs.md): each one's variants join the
// catalog here, for the kernel tree and the parameter controls, and in the
// worker through WorkerClient::add_pack, which sends the pack's texts, so a
// worker through ssh runs them too. Packs stay open until the program ends
// (the catalog is the process's: a window made later gets them all).
#include <QObject>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

#include "app/gui/worker_client.h"

namespace threadmap::gui {

class PackLibrary : public QObject {
  Q_OBJECT
 public:
  explicit PackLibrary(WorkerClient& worker, QObject* parent = nullptr);

  // Where a user keeps packs that open at every start: `packs` in the
  // application's data folder (~/.local/share/ThreadMap/ThreadMap/packs).
  static QString user_folder();

  // Opens the pack in `folder`: "" on success, else the one message that says
  // why not (a manifest's mistake as pack.toml:LINE:COL: ...), and nothing of
  // the pack is added. The ids of its variants, in manifest order, are
  // appended to `variant_ids` when given.
  QString open(const QString& folder, std::vector<std::string>* variant_ids = nullptr);
  // The bundled packs (pack::bundled_packs_folder), then every folder with a
  // pack.toml in user_folder(), each by name: the problems, one message each
  // (the good packs open either way). A pack open already is left as it is.
  QStringList open_user_packs();
  // Every open pack read again from its folder (its files edited): the
  // variants keep their places and show the new texts, and the worker gets
  // them. The problems, one message each (a pack that fails keeps its old
  // texts; one whose variants were added or removed needs a restart).
  QStringList reload();
  // Exercise > New kernel: a working one-kernel pack (pack_template.h) in
  // the user's packs folder under `name`, opened. "" on success, else why not.
  QString create(const QString& name, std::vector<std::string>* variant_ids, QString* folder);

 private:
  WorkerClient& worker_;
};

}  // namespace threadmap::gui
