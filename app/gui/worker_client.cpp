#include "app/gui/worker_client.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace threadmap::gui {

using nlohmann::json;

WorkerClient::WorkerClient(QString program, int timeout_ms, QObject* parent)
    : QObject(parent), program_(std::move(program)), timeout_ms_(timeout_ms) {
  process_.setProgram(program_);
  process_.setArguments({"serve"});
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
    process_.write("{\"op\":\"quit\"}\n");
    if (!process_.waitForFinished(1000)) process_.kill();
    process_.waitForFinished(1000);
  }
}

QString WorkerClient::locate_worker() {
  const QString from_env = qEnvironmentVariable("THREADMAP_WORKER");
  if (!from_env.isEmpty()) return from_env;
  const QDir here(QCoreApplication::applicationDirPath());
  for (const QString& candidate :
       {here.filePath("threadmap-cli"), here.filePath("../cli/threadmap-cli"),
        here.filePath("../app/cli/threadmap-cli")})
    if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
  const QString on_path = QStandardPaths::findExecutable("threadmap-cli");
  return on_path.isEmpty() ? here.filePath("threadmap-cli") : on_path;
}

// Requests sent while no worker ran are written as soon as one starts.
void WorkerClient::start() {
  buffer_.clear();
  process_.start();
  for (const auto& [id, pending] : pending_) write(pending.request);
}

void WorkerClient::write(const json& request) {
  process_.write(QByteArray::fromStdString(request.dump() + "\n"));
}

int WorkerClient::send(json request, int timeout_ms, QString on_timeout) {
  const int id = next_id_++;
  request["id"] = id;
  pending_.emplace(id, Pending{request, timeout_ms > 0 ? timeout_ms : timeout_ms_, std::move(on_timeout)});
  if (process_.state() != QProcess::NotRunning)
    write(request);
  else if (!delayed_start_)
    start();
  arm_watchdog();
  return id;
}

void WorkerClient::cancel(int id) {
  if (!pending_.count(id)) return;
  if (process_.state() != QProcess::NotRunning)
    write({{"id", next_id_++}, {"op", "cancel"}, {"target", id}});
}

// The worker answers in order: the oldest pending request is the one it is
// running, and the watchdog gives it its own time.
const WorkerClient::Pending* WorkerClient::current() const {
  return pending_.empty() ? nullptr : &pending_.begin()->second;
}

void WorkerClient::arm_watchdog() {
  if (const Pending* p = current())
    watchdog_.start(p->timeout_ms);
  else
    watchdog_.stop();
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
  const json reply = json::parse(line.toStdString(), nullptr, false);
  if (reply.is_discarded() || !reply.is_object() || !reply.contains("id") ||
      !reply["id"].is_number_integer())
    return;  // cancel acknowledgements and foreign lines carry no pending id
  const int id = reply["id"].get<int>();
  const std::string type = reply.value("type", "");
  if (!pending_.count(id)) return;
  if (type == "progress") {
    arm_watchdog();
    emit progressed(id, reply);
    return;
  }
  pending_.erase(id);
  arm_watchdog();
  WorkerReply out;
  out.id = id;
  out.ok = type == "result";
  if (out.ok) {
    out.result = reply.value("result", json());
  } else {
    out.status = reply.value("status", "error");
    out.error = reply.value("error", "the worker sent an error without a message");
  }
  emit replied(out);
}

void WorkerClient::on_finished() {
  if (stopping_ || restarting_) return;
  restart(process_.exitStatus() == QProcess::CrashExit
              ? tr("the worker stopped unexpectedly (%1)").arg(process_.errorString())
              : tr("the worker exited with code %1").arg(process_.exitCode()));
}

// Pending requests are answered with the reason rather than resent: a request
// that killed the worker would kill the next one too.
void WorkerClient::restart(const QString& reason, int timed_out) {
  if (stopping_ || restarting_) return;
  restarting_ = true;
  watchdog_.stop();
  if (process_.state() != QProcess::NotRunning) {
    process_.kill();
    process_.waitForFinished(2000);
  }
  ++restarts_;
  auto failed = std::move(pending_);
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
  const auto culprit = failed.find(timed_out);
  const bool own_words = culprit != failed.end() && !culprit->second.on_timeout.isEmpty();
  emit restarted(own_words ? culprit->second.on_timeout : reason);
  for (const auto& [id, pending] : failed) {
    WorkerReply out;
    out.id = id;
    if (id == timed_out && own_words) {
      out.status = "timeout";
      out.error = pending.on_timeout.toStdString();
    } else {
      out.status = "worker-restarted";
      out.error = reason.toStdString() + "; the worker was restarted";
    }
    emit replied(out);
  }
}

}  // namespace threadmap::gui
