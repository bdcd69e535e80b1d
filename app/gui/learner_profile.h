#pragma once
// The learner's local profile: for each exercise its state (not started,
// attempted, goal met) and every attempt with its prediction and what was
// measured; and the autosaved text of every kernel the learner edited. Kept
// under the user's data folder (QStandardPaths::AppDataLocation), written
// atomically (kernels/core/output_file.h), so a crash or a killed worker loses nothing.
#include <QString>

#include <nlohmann/json.hpp>

namespace threadmap::gui {

class LearnerProfile {
 public:
  enum class State { NotStarted, Attempted, GoalMet };

  // `folder`: where the profile and the edits live (empty: AppDataLocation).
  explicit LearnerProfile(QString folder = {});

  const QString& folder() const { return folder_; }
  State state(const std::string& exercise) const;
  // The attempts of one exercise, oldest first (at most 100 are kept).
  nlohmann::json attempts(const std::string& exercise) const;
  // Adds an attempt ({"goal_met": bool, "prediction": {...}, "measured": {...},
  // ...}), stamps it with the time and saves. "" or the reason it was not saved.
  QString add_attempt(const std::string& exercise, nlohmann::json attempt);

  // The autosaved text of an edit (key: "exercise/ID.cl", "kernel/transpose.cu"),
  // or a null string when there is none.
  QString edit(const QString& key) const;
  QString save_edit(const QString& key, const QString& text);  // "" or the reason
  void forget_edit(const QString& key);

 private:
  QString profile_path() const;
  QString edit_path(const QString& key) const;

  QString folder_;
  nlohmann::json data_;
  QString load_error_;
};

}  // namespace threadmap::gui
