#pragma once
// The GUI's one door to a device: `threadmap-cli serve` in a QProcess, kept
// warm, spoken to in JSON lines (docs/cli.md, "serve"). A worker that dies or
// stops answering is restarted; its pending requests fail with the reason.
#include <QObject>
#include <QElapsedTimer>
#include <QProcess>
#include <QTimer>

#include <map>
#include <nlohmann/json.hpp>

namespace threadmap::gui {

struct WorkerReply {
  int id = 0;
  bool ok = false;            // "result" (true) or "error" (false)
  nlohmann::json result;      // the reply's "result" when ok
  std::string status;         // the error's status ("invalid", "worker-restarted", ...)
  std::string error;          // the error's message
};

class WorkerClient : public QObject {
  Q_OBJECT
 public:
  // `timeout_ms`: how long a request may go without any reply line before the
  // worker counts as hung.
  explicit WorkerClient(QString program, int timeout_ms = 60000, QObject* parent = nullptr);
  ~WorkerClient() override;

  static QString locate_worker();  // $THREADMAP_WORKER, next to the executable, the build tree, PATH

  void start();
  // Sends one request (its "id" is filled in) and returns that id.
  // `timeout_ms` (0: the client's) bounds how long it may go without a reply
  // line once the worker is running it (requests are answered in order);
  // past it the worker is killed and restarted, and `on_timeout` (if given)
  // is the reason this request fails with (status "timeout"; the others
  // pending fail as restarted): a learner's kernel that loops forever gets a
  // shorter leash, and its own message, than a large sweep.
  int send(nlohmann::json request, int timeout_ms = 0, QString on_timeout = {});
  void cancel(int id);
  qint64 pid() const { return process_.processId(); }
  int restarts() const { return restarts_; }

 signals:
  void replied(const threadmap::gui::WorkerReply& reply);
  void progressed(int id, const nlohmann::json& line);
  void restarted(const QString& reason);

 private:
  void write(const nlohmann::json& request);
  void read_lines();
  void handle_line(const QByteArray& line);
  void on_finished();
  // Kills and restarts the worker; every pending request fails with `reason`,
  // except `timed_out`, which fails with its own on_timeout words.
  void restart(const QString& reason, int timed_out = 0);
  void arm_watchdog();

  QString program_;
  int timeout_ms_;
  QProcess process_;
  QTimer watchdog_;
  QByteArray buffer_;
  struct Pending {
    nlohmann::json request;
    int timeout_ms = 0;
    QString on_timeout;
  };
  std::map<int, Pending> pending_;  // by id, in send order
  const Pending* current() const;  // the oldest pending request: the one the worker runs
  int next_id_ = 1;
  int restarts_ = 0;
  QElapsedTimer since_restart_;
  bool stopping_ = false;
  bool restarting_ = false;
  bool delayed_start_ = false;
};

}  // namespace threadmap::gui
