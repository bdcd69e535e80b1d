#pragma once
// Open and Save of session files (kernels/core/session.h: one run with its device,
// parameters, timings and, when recorded, its trace; CBOR). Errors come back
// as messages, never as exceptions, so Qt slots can call these directly.
#include <QString>

#include "kernels/core/report.h"
#include "kernels/core/session.h"

namespace threadmap::gui {

class SessionStore {
 public:
  // Empty on success, else the reason. save_session writes atomically.
  static QString save(const QString& path, const Session& session);
  // A file or a Qt resource (":/recordings/..."). Fills `session` on success;
  // empty on success, else the reason (session untouched).
  static QString load(const QString& path, Session& session);
  static QString file_filter();
  // The session of one live run report (kernels/core/report.h): no trace.
  static Session from_report(const RunReport& report);
};

}  // namespace threadmap::gui
