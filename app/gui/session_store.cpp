#include "app/gui/session_store.h"

#include <QFile>
#include <QObject>

#include "app/gui/chart_export.h"

namespace threadmap::gui {

QString SessionStore::save(const QString& path, const RunHistory& history) {
  return export_text(history.to_json().dump(2) + "\n", path);
}

QString SessionStore::load(const QString& path, RunHistory& history) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return QObject::tr("could not open %1: %2").arg(path, file.errorString());
  const auto j = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
  if (j.is_discarded()) return QObject::tr("%1 is not valid JSON").arg(path);
  try {
    history = RunHistory::from_json(j);
  } catch (const std::exception& e) {
    return QObject::tr("%1: %2").arg(path, QString::fromStdString(e.what()));
  }
  return {};
}

QString SessionStore::file_filter() { return QObject::tr("ThreadMap runs (*.json)"); }

}  // namespace threadmap::gui
