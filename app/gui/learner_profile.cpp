#include "app/gui/learner_profile.h"

#include "app/gui/chart_export.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace threadmap::gui {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxAttempts = 100;

// Into the profile's folder, made when first needed; atomically (export_text).
QString write_atomically(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  return export_text(bytes.toStdString(), path);
}

// {"exercises": {ID: {"state": "...", "attempts": [{...}, ...]}, ...}}: every
// part the profile reads has the type it reads it as.
bool well_formed(const json& data) {
  if (!data.is_object()) return false;
  if (!data.contains("exercises")) return true;
  const json& all = data["exercises"];
  if (!all.is_object()) return false;
  for (const auto& [id, entry] : all.items()) {
    if (!entry.is_object()) return false;
    if (entry.contains("state") && !entry["state"].is_string()) return false;
    if (entry.contains("attempts") && !entry["attempts"].is_array()) return false;
    if (entry.contains("attempts"))
      for (const json& a : entry["attempts"])
        if (!a.is_object()) return false;
  }
  return true;
}

}  // namespace

LearnerProfile::LearnerProfile(QString folder) : folder_(std::move(folder)) {
  if (folder_.isEmpty()) folder_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  QFile file(profile_path());
  if (file.open(QIODevice::ReadOnly)) {
    // A damaged profile is set aside, not lost: the next save writes a new one.
    data_ = json::parse(file.readAll().toStdString(), nullptr, false);
    if (!well_formed(data_)) {
      file.close();
      QString aside = profile_path() + ".damaged";
      for (int n = 2; QFile::exists(aside); ++n) aside = profile_path() + QString(".damaged-%1").arg(n);
      QFile::rename(profile_path(), aside);
      data_ = json::object();
    }
  }
  if (!data_.is_object()) data_ = json::object();
  if (!data_.contains("exercises")) data_["exercises"] = json::object();
}

QString LearnerProfile::profile_path() const { return QDir(folder_).filePath("profile.json"); }

QString LearnerProfile::edit_path(const QString& key) const {
  QString safe = key;
  safe.replace(QRegularExpression("[^A-Za-z0-9._/-]"), "_").replace("..", "_");
  return QDir(folder_).filePath("edits/" + safe);
}

LearnerProfile::State LearnerProfile::state(const std::string& exercise) const {
  const json& all = data_["exercises"];
  if (!all.contains(exercise) || !all[exercise].is_object()) return State::NotStarted;
  const std::string s = all[exercise].value("state", "");
  return s == "goal met" ? State::GoalMet : s == "attempted" ? State::Attempted : State::NotStarted;
}

json LearnerProfile::attempts(const std::string& exercise) const {
  const json& all = data_["exercises"];
  if (!all.contains(exercise) || !all[exercise].is_object()) return json::array();
  const json a = all[exercise].value("attempts", json::array());
  return a.is_array() ? a : json::array();
}

QString LearnerProfile::add_attempt(const std::string& exercise, json attempt) {
  const json before = data_;
  json& entry = data_["exercises"][exercise];
  if (!entry.is_object()) entry = json::object();
  attempt["at"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
  json list = attempts(exercise);
  list.push_back(attempt);
  if (list.size() > kMaxAttempts) list.erase(list.begin(), list.end() - kMaxAttempts);
  entry["attempts"] = list;
  // Once met, a goal stays met: a later experiment does not undo it.
  if (state(exercise) != State::GoalMet) entry["state"] = attempt.value("goal_met", false) ? "goal met" : "attempted";
  // Text that is not valid UTF-8 (a compiler's echo of a line cut short) is
  // written with replacement characters, never refused.
  try {
    return write_atomically(
        profile_path(), QByteArray::fromStdString(data_.dump(2, ' ', false, json::error_handler_t::replace) + "\n"));
  } catch (const std::exception& e) {
    data_ = before;  // the attempt that could not be written does not spoil the next
    return QObject::tr("cannot save the learner profile: %1").arg(QString::fromUtf8(e.what()));
  }
}

QString LearnerProfile::edit(const QString& key) const {
  QFile file(edit_path(key));
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

QString LearnerProfile::save_edit(const QString& key, const QString& text) {
  return write_atomically(edit_path(key), text.toUtf8());
}

void LearnerProfile::forget_edit(const QString& key) { QFile::remove(edit_path(key)); }

}  // namespace threadmap::gui
