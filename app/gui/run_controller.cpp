#include "app/gui/run_controller.h"

namespace threadmap::gui {

using nlohmann::json;

namespace {

json params_json(const std::map<std::string, std::string>& params) {
  json j = json::object();
  for (const auto& [name, value] : params) j[name] = value;
  return j;
}

}  // namespace

RunController::RunController(WorkerClient& worker, QObject* parent)
    : QObject(parent), worker_(worker) {
  connect(&worker_, &WorkerClient::replied, this, &RunController::on_reply);
  connect(&worker_, &WorkerClient::progressed, this, [this](int id, const json& line) {
    if (line.contains("compiling") && line["compiling"].is_string()) {
      emit worker_state(QString::fromStdString(line["compiling"].get<std::string>()) + " …", false);
      return;
    }
    if (!sweep_ids_.count(id)) return;
    const json report = line.value("result", json::object());
    if (const std::string problem = report_problem(report); !problem.empty()) {
      emit refused(tr("the worker sent a malformed report: %1").arg(QString::fromStdString(problem)));
      return;
    }
    history_.add(report);
    sweep_.add(report);
    emit history_changed();
    emit sweep_changed();
    emit worker_state(tr("sweep: %1 of %2 points of %3")
                          .arg(line.value("done", 0))
                          .arg(line.value("total", 0))
                          .arg(QString::fromStdString(report.value("kernel", ""))),
                      false);
  });
  connect(&worker_, &WorkerClient::restarted, this, [this](const QString& reason) {
    emit worker_state(tr("Worker restarted (%1 so far): %2").arg(worker_.restarts()).arg(reason),
                      true);
    list_devices();
  });
}

// Says how often the worker was restarted, so a flaky device stays visible
// after the next good run replaces the restart message.
QString RunController::ready_text() const {
  const QString ready = tr("worker ready (pid %1)").arg(worker_.pid());
  return worker_.restarts() == 0 ? ready
                                 : tr("%1; restarted %n time(s) this session", nullptr, worker_.restarts())
                                       .arg(ready);
}

void RunController::list_devices() { devices_id_ = worker_.send({{"op", "devices"}}); }

void RunController::run(const RunRequest& request) {
  if (run_id_ != 0) {
    queued_run_ = request;
    return;
  }
  send_run(request);
}

void RunController::send_run(const RunRequest& request) {
  run_id_ = worker_.send({{"op", "run"},
                          {"kernel", request.kernel},
                          {"device", request.device},
                          {"params", params_json(request.params)},
                          {"reps", request.reps},
                          {"warmup", request.warmup}});
  emit worker_state(tr("running %1 …").arg(QString::fromStdString(request.kernel)), false);
}

void RunController::sweep(const std::string& parameter, const std::vector<RunRequest>& requests,
                          const std::map<std::string, std::vector<std::int64_t>>& values_by_kernel) {
  cancel_sweep();
  sweep_ids_.clear();
  sweep_cancelled_ = false;
  sweep_.reset(parameter);
  emit sweep_changed();
  for (const RunRequest& r : requests) {
    json params = params_json(r.params);
    params.erase(parameter);
    sweep_ids_.insert(worker_.send({{"op", "sweep"},
                                    {"kernel", r.kernel},
                                    {"device", r.device},
                                    {"params", params},
                                    {"vary", {{parameter, values_by_kernel.at(r.kernel)}}},
                                    {"reps", r.reps},
                                    {"warmup", r.warmup}}));
  }
}

void RunController::cancel_sweep() {
  if (sweep_ids_.empty()) return;
  sweep_cancelled_ = true;
  for (int id : sweep_ids_) worker_.cancel(id);
  emit worker_state(tr("cancelling the sweep after the current point …"), false);
}

void RunController::record(const RunRequest& request, const QString& folder,
                           const nlohmann::json& blocks) {
  if (record_id_ != 0) {
    emit worker_state(tr("a recording is already in progress"), true);
    return;
  }
  nlohmann::json op = {{"op", "record"},
                       {"kernel", request.kernel},
                       {"device", request.device},
                       {"params", params_json(request.params)},
                       {"reps", request.reps},
                       {"warmup", request.warmup},
                       {"folder", folder.toStdString()},
                       {"scratch", true}};  // the window's temporary recordings folder
  if (!blocks.is_null()) op["blocks"] = blocks;
  record_id_ = worker_.send(op);
  emit worker_state(tr("recording the trace of %1 …").arg(QString::fromStdString(request.kernel)), false);
}

void RunController::on_reply(const WorkerReply& reply) {
  if (reply.id == devices_id_) {
    if (reply.ok) emit devices_listed(reply.result);
    return;
  }
  if (auto copy = copy_ids_.find(reply.id); copy != copy_ids_.end()) {
    if (reply.ok && !reply.result.contains("error")) {
      history_.add_copy(copy->second.first, copy->second.second,
                        reply.result.value("bandwidth_gbps", 0.0));
      emit history_changed();
    }
    copy_ids_.erase(copy);
    return;
  }
  if (sweep_ids_.erase(reply.id)) {
    if (!reply.ok && reply.status != "cancelled")
      emit refused(QString::fromStdString(reply.error));
    if (sweep_ids_.empty()) {
      emit worker_state(sweep_cancelled_ ? tr("sweep cancelled") : tr("sweep done"), false);
      emit sweep_finished(sweep_cancelled_);
    }
    return;
  }
  if (reply.id == record_id_) {
    record_id_ = 0;
    const json path = reply.ok ? reply.result.value("session", json()) : json();
    if (path.is_string()) {
      emit worker_state(ready_text(), false);
      emit recorded(QString::fromStdString(path.get<std::string>()));
    } else {
      emit refused(reply.ok ? tr("the worker's record reply names no session file")
                            : QString::fromStdString(reply.error));
    }
    return;
  }
  if (reply.id != run_id_) return;
  run_id_ = 0;
  const std::string problem = reply.ok ? report_problem(reply.result) : std::string();
  if (!problem.empty()) {
    emit refused(tr("the worker sent a malformed report: %1").arg(QString::fromStdString(problem)));
  } else if (reply.ok) {
    const json& report = reply.result;
    history_.add(report);
    // The ceiling line: a device copy moving the same bytes, measured once per size.
    const std::string device = report.value("device", json::object()).value("spec", "");
    const std::uint64_t bytes = report.value("ideal_bytes", std::uint64_t{0}) / 2;
    if (report_ok(report) && bytes > 0 && !history_.has_copy(device, bytes))
      copy_ids_[worker_.send({{"op", "copy"}, {"device", device}, {"bytes", bytes},
                              {"reps", 5}, {"warmup", 1}})] = {device, bytes};
    emit worker_state(ready_text(), false);
    emit history_changed();
    emit run_finished(report);
  } else {
    emit refused(QString::fromStdString(reply.error));
    if (reply.status != "worker-restarted")
      emit worker_state(ready_text(), false);
  }
  if (queued_run_) {
    const RunRequest next = *queued_run_;
    queued_run_.reset();
    send_run(next);
  }
}

}  // namespace threadmap::gui
