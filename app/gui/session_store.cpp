#include "app/gui/session_store.h"

#include <QDateTime>
#include <QFile>
#include <QObject>

#include <span>

namespace threadmap::gui {

QString SessionStore::save(const QString& path, const Session& session) {
  try {
    save_session(session, path.toStdString());
  } catch (const std::exception& e) {
    return QObject::tr("could not save %1: %2").arg(path, QString::fromStdString(e.what()));
  }
  return {};
}

// Read through QFile so that embedded recordings (":/...") load like files.
QString SessionStore::load(const QString& path, Session& session) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return QObject::tr("could not open %1: %2").arg(path, file.errorString());
  if (static_cast<std::uint64_t>(file.size()) > kMaxSessionBytes)
    return QObject::tr("%1 is not a ThreadMap session: %2 bytes is larger than any session (%3)")
        .arg(path)
        .arg(file.size())
        .arg(kMaxSessionBytes);
  const QByteArray bytes = file.readAll();
  try {
    session = decode_session(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.constData()), static_cast<std::size_t>(bytes.size())));
  } catch (const std::exception& e) {
    return QObject::tr("%1 is not a readable ThreadMap session: %2").arg(path, QString::fromStdString(e.what()));
  }
  return {};
}

QString SessionStore::file_filter() { return QObject::tr("ThreadMap sessions (*.threadmap)"); }

Session SessionStore::from_report(const RunReport& report) {
  Session s;
  s.created_by = std::string("threadmap ") + THREADMAP_VERSION;
  s.created_at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
  s.kernel_id = report.kernel;
  for (const auto& [name, value] : report.parameters) s.params[name] = value_text(value);
  s.device = to_json(report.device);
  s.run = to_json(report);
  return s;
}

}  // namespace threadmap::gui
