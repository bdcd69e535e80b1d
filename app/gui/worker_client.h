#pragma once
// The GUI's one door to a device: `threadmap-cli serve` in a QProcess, kept
// warm, spoken to in the worker protocol's typed requests and replies
// (app/protocol, docs/cli.md "serve"). A worker that dies or stops answering
// is restarted; its pending requests fail with the reason. A worker that
// speaks another protocol version is refused, and says so.
#include <QObject>
#include <QElapsedTimer>
#include <QProcess>
#include <QTimer>

#include <map>
#include <vector>

#include "app/protocol/replies.h"
#include "app/protocol/requests.h"

namespace threadmap::gui {

// Statuses the client gives a request itself, beside the worker's own
// (protocol::kInvalid, ...).
inline constexpr char kWorkerRestarted[] = "worker-restarted";  // the worker died or hung meanwhile
inline constexpr char kTimedOut[] = "timeout";                  // this request ran past its own time
inline constexpr char kIncompatible[] = "incompatible-worker";  // the worker speaks another protocol
// protocol::kMalformedReply: the worker's result does not read as the request's.

struct WorkerReply {
  int id = 0;
  bool ok = false;          // a result (true) or an error (false)
  protocol::Result result;  // when ok: the result of the request sent
  std::string status;       // the error's status
  std::string error;        // the error's message
};

class WorkerClient : public QObject {
  Q_OBJECT
 public:
  // `timeout_ms`: how long a request may go without any reply line before the
  // worker counts as hung.
  explicit WorkerClient(QString program, int timeout_ms = 60000, QObject* parent = nullptr);
  ~WorkerClient() override;

  static QString locate_worker();  // $THREADMAP_WORKER, next to the executable, the build tree, PATH

  // The worker on a GPU server through ssh (app/protocol/remote.h), or, with
  // an empty target, the local one again. The running worker is stopped; its
  // pending requests fail saying so; the next request starts the new one.
  // Throws InvalidRequest for a target or ssh command that cannot work.
  void connect_to(const QString& remote_target, const QString& ssh_command = {});
  // The [USER@]HOST of the remote worker, or empty for the local one.
  QString remote_host() const { return remote_host_; }

  void start();
  // Sends one request and returns its id; replied() answers it.
  // `timeout_ms` (0: the client's) bounds how long it may go without a reply
  // line once the worker is running it (requests are answered in order);
  // past it the worker is killed and restarted, and `on_timeout` (if given)
  // is the reason this request fails with (status kTimedOut; the others
  // pending fail as restarted): a learner's kernel that loops forever gets a
  // shorter leash, and its own message, than a large sweep.
  int send(protocol::Request request, int timeout_ms = 0, QString on_timeout = {});
  void cancel(int id);
  // A pack's variants join the worker's catalog: sent now to a running
  // worker and again to every worker started later (a restart, another
  // server), before any request; the files travel in the request, so a
  // worker through ssh needs none of them. A worker's refusal is
  // pack_refused().
  void add_pack(protocol::PackRequest pack);
  // The same pack (by folder) read again, its files edited: kept for later
  // workers in the place of the old, and sent now to a running one, whose
  // catalog then holds the new texts.
  void update_pack(protocol::PackRequest pack);
  qint64 pid() const { return process_.processId(); }
  int restarts() const { return restarts_; }

 signals:
  void replied(const threadmap::gui::WorkerReply& reply);
  void progressed(int id, const threadmap::protocol::Progress& progress);
  // A progress line of request `id` that does not read as progress.
  void progress_malformed(int id, const QString& problem);
  void restarted(const QString& reason);
  // The worker answered the handshake in another protocol version: it is
  // stopped and every request fails with `reason` until the window closes.
  void incompatible(const QString& reason);
  // The worker refused a pack add_pack sent (its manifest's message).
  void pack_refused(const QString& reason);

 private:
  void write(const protocol::Request& request, int id);
  void read_lines();
  void handle_line(const QByteArray& line);
  void handle_handshake(const protocol::ReplyLine& reply);
  void write_pack(std::size_t index);
  void on_finished();
  // Kills and restarts the worker; every pending request fails with `reason`,
  // except `timed_out`, which fails with its own on_timeout words.
  void restart(const QString& reason, int timed_out = 0);
  void refuse_worker(const QString& reason);
  void arm_watchdog();

  QString program_;
  QString local_program_;  // the local threadmap-cli, for connect_to("")
  QString remote_host_;
  QByteArray remote_stderr_;  // ssh's last words: why a remote worker ended
  int timeout_ms_;
  QProcess process_;
  QTimer watchdog_;
  QByteArray buffer_;
  struct Pending {
    protocol::Request request;
    int timeout_ms = 0;
    QString on_timeout;
  };
  std::map<int, Pending> pending_;            // by id, in send order
  std::vector<protocol::PackRequest> packs_;  // every worker gets them, in order
  const Pending* current() const;             // the oldest pending request: the one the worker runs
  int next_id_ = 1;
  int restarts_ = 0;
  QElapsedTimer since_restart_;
  bool stopping_ = false;
  bool restarting_ = false;
  bool answered_ = false;  // this worker answered the handshake: an end is a lost connection
  bool delayed_start_ = false;
  QString incompatible_;  // why the worker was refused; empty while it is not
};

}  // namespace threadmap::gui
