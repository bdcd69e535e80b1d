#pragma once
// Open/Save behind one small interface. For now a session is the GUI's run
// reports as JSON (RunHistory::to_json); the session file format of
// kernels/session.h replaces the body of these two functions, not their callers.
#include <QString>

#include "app/gui/run_history.h"

namespace threadmap::gui {

class SessionStore {
 public:
  // Empty on success, else the reason.
  static QString save(const QString& path, const RunHistory& history);
  // Fills `history` on success; empty on success, else the reason (history untouched).
  static QString load(const QString& path, RunHistory& history);
  static QString file_filter();
};

}  // namespace threadmap::gui
