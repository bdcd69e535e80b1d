#include "app/gui/worker_client.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>

#include "app/protocol/remote.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace threadmap::gui {

namespace {

// The handshake's id: each worker started is asked "ping" first, under an id
// no request gets (they count from 1), and its protocol version is checked.
constexpr int kHandshakeId = 0;
// A pack's id: kFirstPackId - its index, below every request's.
constexpr int kFirstPackId = -1;

WorkerReply failed(int id, std::string status, std::string error) {
  WorkerReply out;
  out.id = id;
  out.status = std::move(status);
  out.error = std::move(error);
  return out;
}

}  // namespace

WorkerClient::WorkerClient(QString program, int timeout_ms, QObject* parent)
    : QObject(parent), program_(std::move(program)), local_program_(program_), timeout_ms_(timeout_ms) {
  process_.setProgram(program_);
  process_.setArguments({"serve"});
  // The worker (or the ssh that reaches it) ends with the window, however
  // the window ends: a worker whose client is gone stops what it runs.
  process_.setChildProcessModifier([parent = ::getpid()] {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);
  });
  connect(&process_, &QProcess::readyReadStandardError, this, [this] {
    remote_stderr_ += process_.readAllStandardError();
    if (remote_stderr_.size() > 4096) remote_stderr_ = remote_stderr_.right(4096);
  });
  // The worker's stderr (PoCL notes, crash messages) goes to ours.
  process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
  connect(&process_, &QProcess::readyReadStandardOutput, this, &WorkerClient::read_lines);
  connect(&process_, &QProcess::finished, this, &WorkerClient::on_finished);
  connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart)
      restart(tr("the worker %1 could not start: %2").arg(program_, process_.errorString()));
  });
  watchdog_.setSingleShot(true);
  connect(&watchdog_, &QTimer::timeout, this, [this] {
    const Pending* p = current();
    restart(tr("the worker gave no answer for %1 s").arg((p ? p->timeout_ms : timeout_ms_) / 1000.0),
            p ? pending_.begin()->first : 0);
  });
}

WorkerClient::~WorkerClient() {
  stopping_ = true;
  if (process_.state() != QProcess::NotRunning) {
    write(protocol::QuitRequest{}, next_id_++);
    if (!process_.waitForFinished(1000)) process_.kill();
    process_.waitForFinished(1000);
  }
}

QString WorkerClient::locate_worker() {
  const QString from_env = qEnvironmentVariable("THREADMAP_WORKER");
  if (!from_env.isEmpty()) return from_env;
  const QDir here(QCoreApplication::applicationDirPath());
  for (const QString& candidate : {here.filePath("threadmap-cli"), here.filePath("../cli/threadmap-cli"),
                                   here.filePath("../app/cli/threadmap-cli")})
    if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
  const QString on_path = QStandardPaths::findExecutable("threadmap-cli");
  return on_path.isEmpty() ? here.filePath("threadmap-cli") : on_path;
}

void WorkerClient::connect_to(const QString& remote_target, const QString& ssh_command) {
  QString program = local_program_;
  QStringList arguments{"serve"};
  QString host;
  if (!remote_target.isEmpty()) {
    const protocol::RemoteTarget target = protocol::parse_remote_target(remote_target.toStdString());
    const std::vector<std::string> argv = protocol::ssh_argv(target, ssh_command.toStdString());
    program = QString::fromStdString(argv.front());
    arguments.clear();
    for (std::size_t i = 1; i < argv.size(); ++i) arguments << QString::fromStdString(argv[i]);
    host = QString::fromStdString(target.host);
  }
  restarting_ = true;
  if (process_.state() != QProcess::NotRunning) {
    process_.kill();
    process_.waitForFinished(2000);
  }
  restarting_ = false;
  auto dropped = std::move(pending_);
  pending_.clear();
  watchdog_.stop();
  buffer_.clear();
  incompatible_.clear();
  remote_stderr_.clear();
  program_ = program;
  remote_host_ = host;
  process_.setProgram(program);
  process_.setArguments(arguments);
  // A local worker's notes (PoCL's) go to our stderr; ssh's are kept to say
  // why a remote one ended.
  process_.setProcessChannelMode(host.isEmpty() ? QProcess::ForwardedErrorChannel : QProcess::SeparateChannels);
  const std::string why =
      host.isEmpty() ? "the window went back to its local worker" : "the window connected to " + host.toStdString();
  for (const auto& [id, pending] : dropped) emit replied(failed(id, kWorkerRestarted, why));
}

// Requests sent while no worker ran are written as soon as one starts.
void WorkerClient::start() {
  if (!incompatible_.isEmpty()) return;
  buffer_.clear();
  answered_ = false;
  process_.start();
  write(protocol::PingRequest{}, kHandshakeId);
  for (std::size_t i = 0; i < packs_.size(); ++i) write_pack(i);
  for (const auto& [id, pending] : pending_) write(pending.request, id);
}

void WorkerClient::write_pack(std::size_t index) { write(packs_[index], kFirstPackId - static_cast<int>(index)); }

void WorkerClient::add_pack(protocol::PackRequest pack) {
  packs_.push_back(std::move(pack));
  if (process_.state() != QProcess::NotRunning && incompatible_.isEmpty()) write_pack(packs_.size() - 1);
}

void WorkerClient::update_pack(protocol::PackRequest pack) {
  const auto same = std::find_if(packs_.begin(), packs_.end(),
                                 [&](const protocol::PackRequest& p) { return p.folder == pack.folder; });
  if (same == packs_.end()) return add_pack(std::move(pack));
  *same = std::move(pack);
  if (process_.state() != QProcess::NotRunning && incompatible_.isEmpty())
    write_pack(static_cast<std::size_t>(same - packs_.begin()));
}

void WorkerClient::write(const protocol::Request& request, int id) {
  process_.write(QByteArray::fromStdString(protocol::encode_line(protocol::to_json(request, id)) + "\n"));
}

int WorkerClient::send(protocol::Request request, int timeout_ms, QString on_timeout) {
  const int id = next_id_++;
  if (!incompatible_.isEmpty()) {
    // Answered later, as a worker would be: the caller has its id first.
    QTimer::singleShot(0, this, [this, id] { emit replied(failed(id, kIncompatible, incompatible_.toStdString())); });
    return id;
  }
  pending_.emplace(id, Pending{std::move(request), timeout_ms > 0 ? timeout_ms : timeout_ms_, std::move(on_timeout)});
  if (process_.state() != QProcess::NotRunning) write(pending_.at(id).request, id);
  else if (!delayed_start_) start();
  arm_watchdog();
  return id;
}

void WorkerClient::cancel(int id) {
  if (!pending_.count(id)) return;
  if (process_.state() != QProcess::NotRunning) write(protocol::CancelRequest{id}, next_id_++);
}

// The worker answers in order: the oldest pending request is the one it is
// running, and the watchdog gives it its own time.
const WorkerClient::Pending* WorkerClient::current() const {
  return pending_.empty() ? nullptr : &pending_.begin()->second;
}

void WorkerClient::arm_watchdog() {
  if (const Pending* p = current()) watchdog_.start(p->timeout_ms);
  else watchdog_.stop();
}

void WorkerClient::read_lines() {
  buffer_ += process_.readAllStandardOutput();
  for (qsizetype end; (end = buffer_.indexOf('\n')) >= 0;) {
    const QByteArray line = buffer_.left(end);
    buffer_.remove(0, end + 1);
    // The boundary of every slot fed from a reply: nothing thrown below gets into Qt.
    try {
      handle_line(line);
    } catch (const std::exception& e) {
      restart(tr("the worker sent a reply the GUI cannot read (%1): %2")
                  .arg(QString::fromUtf8(line.left(120)), QString::fromUtf8(e.what())));
      return;
    }
  }
}

void WorkerClient::handle_line(const QByteArray& line) {
  const std::optional<protocol::ReplyLine> reply = protocol::read_reply_line(line.toStdString());
  if (!reply || !reply->id.is_number_integer())
    return;  // cancel acknowledgements and foreign lines carry no pending id
  const int id = reply->id.get<int>();
  if (id == kHandshakeId) {
    handle_handshake(*reply);
    return;
  }
  if (id <= kFirstPackId) {
    if (reply->kind == protocol::ReplyKind::Error) emit pack_refused(QString::fromStdString(reply->error.message));
    return;
  }
  const auto pending = pending_.find(id);
  if (pending == pending_.end()) return;
  if (reply->kind == protocol::ReplyKind::Progress) {
    arm_watchdog();
    try {
      emit progressed(id, protocol::read_progress(reply->body));
    } catch (const protocol::ProtocolError& e) {
      emit progress_malformed(id, QString::fromStdString(e.what()));
    }
    return;
  }
  const protocol::Request request = std::move(pending->second.request);
  pending_.erase(pending);
  arm_watchdog();
  WorkerReply out = failed(id, reply->error.status, reply->error.message);
  if (reply->kind == protocol::ReplyKind::Result) {
    try {
      out.result = protocol::read_result(request, reply->body);
      out.ok = true;
    } catch (const protocol::ProtocolError& e) {
      out = failed(id, e.status(), e.what());
    }
  }
  emit replied(out);
}

// A worker that speaks another protocol would misread every request: it is
// stopped before it answers any, and not started again.
void WorkerClient::handle_handshake(const protocol::ReplyLine& reply) {
  std::string problem = reply.kind == protocol::ReplyKind::Result ? "" : reply.error.message;
  if (problem.empty()) {
    try {
      problem = protocol::version_problem(
          std::get<protocol::PingResult>(protocol::read_result(protocol::PingRequest{}, reply.body)));
    } catch (const protocol::ProtocolError& e) {
      problem = e.what();
    }
  }
  answered_ = problem.empty();
  if (!problem.empty())
    refuse_worker(QString("%1 (%2)").arg(QString::fromStdString(problem),
                                         remote_host_.isEmpty() ? program_ : tr("on %1").arg(remote_host_)));
}

void WorkerClient::refuse_worker(const QString& reason) {
  incompatible_ = reason;
  watchdog_.stop();
  if (process_.state() != QProcess::NotRunning) {
    process_.kill();
    process_.waitForFinished(2000);
  }
  buffer_.clear();
  auto refused = std::move(pending_);
  pending_.clear();
  emit incompatible(reason);
  for (const auto& [id, pending] : refused) emit replied(failed(id, kIncompatible, reason.toStdString()));
}

void WorkerClient::on_finished() {
  if (stopping_ || restarting_ || !incompatible_.isEmpty()) return;
  if (!remote_host_.isEmpty()) {
    remote_stderr_ += process_.readAllStandardError();
    const auto text = answered_ ? protocol::lost_connection_text : protocol::remote_failure_text;
    restart(QString::fromStdString(
        text(remote_host_.toStdString(), remote_stderr_.toStdString(), process_.exitCode() << 8)));
    remote_stderr_.clear();
    return;
  }
  restart(process_.exitStatus() == QProcess::CrashExit
              ? tr("the worker stopped unexpectedly (%1)").arg(process_.errorString())
              : tr("the worker exited with code %1").arg(process_.exitCode()));
}

// Pending requests are answered with the reason rather than resent: a request
// that killed the worker would kill the next one too.
void WorkerClient::restart(const QString& reason, int timed_out) {
  if (stopping_ || restarting_ || !incompatible_.isEmpty()) return;
  restarting_ = true;
  watchdog_.stop();
  if (process_.state() != QProcess::NotRunning) {
    process_.kill();
    process_.waitForFinished(2000);
  }
  ++restarts_;
  auto stopped = std::move(pending_);
  pending_.clear();
  restarting_ = false;
  // A worker that dies at once (missing library, bad driver) is not restarted
  // in a tight loop: the second restart within two seconds waits two seconds.
  const bool recent = since_restart_.isValid() && since_restart_.elapsed() < 2000;
  since_restart_.start();
  if (recent) {
    delayed_start_ = true;
    QTimer::singleShot(2000, this, [this] {
      delayed_start_ = false;
      if (process_.state() == QProcess::NotRunning) start();
    });
  } else {
    start();
  }
  // The request that ran past its time fails with its own words (a
  // learner's endless loop); the others with the reason.
  const auto culprit = stopped.find(timed_out);
  const bool own_words = culprit != stopped.end() && !culprit->second.on_timeout.isEmpty();
  emit restarted(own_words ? culprit->second.on_timeout : reason);
  for (const auto& [id, pending] : stopped) {
    if (id == timed_out && own_words) emit replied(failed(id, kTimedOut, pending.on_timeout.toStdString()));
    else emit replied(failed(id, kWorkerRestarted, reason.toStdString() + "; the worker was restarted"));
  }
}

}  // namespace threadmap::gui
