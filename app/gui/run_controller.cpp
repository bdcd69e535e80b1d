#include "app/gui/run_controller.h"

namespace threadmap::gui {

RunController::RunController(WorkerClient& worker, QObject* parent) : QObject(parent), worker_(worker) {
  connect(&worker_, &WorkerClient::replied, this, &RunController::on_reply);
  connect(&worker_, &WorkerClient::progressed, this, &RunController::on_progress);
  connect(&worker_, &WorkerClient::progress_malformed, this, [this](int id, const QString& problem) {
    if (sweep_ids_.count(id)) emit refused(tr("the worker sent a malformed report: %1").arg(problem));
  });
  connect(&worker_, &WorkerClient::restarted, this, [this](const QString& reason) {
    emit worker_state(tr("Worker restarted (%1 so far): %2").arg(worker_.restarts()).arg(reason), true);
    list_devices();
  });
  connect(&worker_, &WorkerClient::incompatible, this,
          [this](const QString& reason) { emit worker_state(reason, true); });
}

// Says how often the worker was restarted, so a flaky device stays visible
// after the next good run replaces the restart message.
QString RunController::ready_text() const {
  const QString ready = worker_.remote_host().isEmpty()
                            ? tr("worker ready (pid %1)").arg(worker_.pid())
                            : tr("worker ready on %1: the kernels run there").arg(worker_.remote_host());
  return worker_.restarts() == 0 ? ready
                                 : tr("%1; restarted %n time(s) this session", nullptr, worker_.restarts()).arg(ready);
}

void RunController::list_devices() { devices_id_ = worker_.send(protocol::DevicesRequest{}); }

void RunController::run(const protocol::KernelRun& request) {
  if (run_id_ != 0) {
    queued_run_ = request;
    return;
  }
  send_run(request);
}

void RunController::send_run(const protocol::KernelRun& request) {
  run_id_ = worker_.send(protocol::RunRequest{request});
  emit worker_state(tr("running %1 …").arg(QString::fromStdString(request.kernel)), false);
}

void RunController::sweep(const std::string& parameter, const std::vector<protocol::KernelRun>& requests,
                          const std::map<std::string, std::vector<std::int64_t>>& values_by_kernel) {
  cancel_sweep();
  sweep_ids_.clear();
  sweep_cancelled_ = false;
  sweep_.reset(parameter);
  emit sweep_changed();
  for (const protocol::KernelRun& r : requests) {
    protocol::SweepRequest over{r};
    over.params.erase(parameter);
    SweepAxis axis{parameter, {}};
    for (const std::int64_t value : values_by_kernel.at(r.kernel)) axis.values.push_back(std::to_string(value));
    over.vary = {axis};
    sweep_ids_.insert(worker_.send(over));
  }
}

void RunController::cancel_sweep() {
  if (sweep_ids_.empty()) return;
  sweep_cancelled_ = true;
  for (int id : sweep_ids_) worker_.cancel(id);
  emit worker_state(tr("cancelling the sweep after the current point …"), false);
}

void RunController::record(const protocol::KernelRun& request, const QString& folder,
                           const protocol::TracedBlocks& blocks) {
  if (record_id_ != 0) {
    emit worker_state(tr("a recording is already in progress"), true);
    return;
  }
  protocol::RecordRequest recording{request};
  recording.blocks = blocks;
  recording.folder = folder.toStdString();
  recording.scratch = true;  // the window's temporary recordings folder
  if (!worker_.remote_host().isEmpty()) {
    // The server's folders are not ours: the file comes back in the replies.
    recording.folder.reset();
    recording.stream = true;
    try {
      incoming_ = std::make_unique<OutputFile>(
          std::filesystem::path(folder.toStdString()) / (request.kernel + ".remote.threadmap"), Durability::Scratch);
    } catch (const std::exception& e) {
      emit refused(tr("cannot write the recording here: %1").arg(QString::fromUtf8(e.what())));
      return;
    }
    incoming_bytes_ = 0;
    streaming_ = true;
  }
  record_id_ = worker_.send(recording);
  emit worker_state(tr("recording the trace of %1 …").arg(QString::fromStdString(request.kernel)), false);
}

void RunController::on_progress(int id, const protocol::Progress& progress) {
  if (const auto* notice = std::get_if<protocol::CompileNotice>(&progress)) {
    emit worker_state(QString::fromStdString(notice->message) + " …", false);
    return;
  }
  if (const auto* wait = std::get_if<protocol::WaitNotice>(&progress)) {
    emit worker_state(QString::fromStdString(wait->message) + " …", false);
    return;
  }
  if (const auto* chunk = std::get_if<protocol::SessionChunk>(&progress)) {
    if (id == record_id_) receive_chunk(*chunk);
    return;
  }
  if (!sweep_ids_.count(id)) return;
  const auto& point = std::get<protocol::SweepPoint>(progress);
  history_.add(point.result);
  sweep_.add(point.result);
  emit history_changed();
  emit sweep_changed();
  emit worker_state(tr("sweep: %1 of %2 points of %3")
                        .arg(point.done)
                        .arg(point.total)
                        .arg(QString::fromStdString(point.result.kernel)),
                    false);
}

void RunController::on_reply(const WorkerReply& reply) {
  if (reply.id == devices_id_) {
    if (const auto* backends = std::get_if<protocol::DevicesResult>(&reply.result); reply.ok && backends)
      emit devices_listed(*backends);
    return;
  }
  if (auto copy = copy_ids_.find(reply.id); copy != copy_ids_.end()) {
    const auto* measured = std::get_if<CopyReport>(&reply.result);
    if (reply.ok && measured && measured->error.empty()) {
      history_.add_copy(copy->second.first, copy->second.second, measured->bandwidth_gbps);
      emit history_changed();
    }
    copy_ids_.erase(copy);
    return;
  }
  if (sweep_ids_.erase(reply.id)) {
    if (!reply.ok && reply.status != protocol::kCancelled) emit refused(QString::fromStdString(reply.error));
    if (sweep_ids_.empty()) {
      emit worker_state(sweep_cancelled_ ? tr("sweep cancelled") : tr("sweep done"), false);
      emit sweep_finished(sweep_cancelled_);
    }
    return;
  }
  if (reply.id == record_id_) {
    record_id_ = 0;
    const auto* recorded_file = std::get_if<protocol::RecordResult>(&reply.result);
    if (std::exchange(streaming_, false)) {
      if (reply.ok && recorded_file) finish_streamed_recording(*recorded_file);
      else incoming_.reset();  // what had come is removed
      if (!reply.ok) emit refused(QString::fromStdString(reply.error));
    } else if (reply.ok && recorded_file) {
      emit worker_state(ready_text(), false);
      emit recorded(QString::fromStdString(recorded_file->session));
    } else {
      emit refused(reply.status == protocol::kMalformedReply ? tr("the worker's record reply names no session file")
                                                             : QString::fromStdString(reply.error));
    }
    return;
  }
  if (reply.id == run_id_) on_run_reply(reply);
}

void RunController::on_run_reply(const WorkerReply& reply) {
  run_id_ = 0;
  if (const auto* report = std::get_if<RunReport>(&reply.result); reply.ok && report) {
    history_.add(*report);
    measure_copy_for(*report);
    emit worker_state(ready_text(), false);
    emit history_changed();
    emit run_finished(*report);
  } else if (reply.status == protocol::kMalformedReply) {
    emit refused(tr("the worker sent a malformed report: %1").arg(QString::fromStdString(reply.error)));
  } else {
    emit refused(QString::fromStdString(reply.error));
    // A refused worker stays the news: "running …" must not outlive the refusal.
    if (reply.status == kIncompatible) emit worker_state(QString::fromStdString(reply.error), true);
    else if (reply.status != kWorkerRestarted) emit worker_state(ready_text(), false);
  }
  if (queued_run_) {
    const protocol::KernelRun next = *queued_run_;
    queued_run_.reset();
    send_run(next);
  }
}

void RunController::receive_chunk(const protocol::SessionChunk& chunk) {
  if (!incoming_) return;
  if (chunk.offset != incoming_bytes_) {
    incoming_.reset();  // removes what had come
    emit refused(tr("the recording from %1 arrived out of order").arg(worker_.remote_host()));
    return;
  }
  incoming_->stream().write(chunk.bytes.data(), static_cast<std::streamsize>(chunk.bytes.size()));
  incoming_bytes_ += chunk.bytes.size();
  emit worker_state(tr("receiving the recording from %1: %2 of %3 kB")
                        .arg(worker_.remote_host())
                        .arg(incoming_bytes_ / 1000)
                        .arg(chunk.total / 1000),
                    false);
}

void RunController::finish_streamed_recording(const protocol::RecordResult& result) {
  std::unique_ptr<OutputFile> file = std::move(incoming_);
  if (!file) return;  // it failed while arriving, and said so
  if (incoming_bytes_ != result.bytes) {
    emit refused(tr("the recording from %1 came incomplete: %2 of %3 bytes")
                     .arg(worker_.remote_host())
                     .arg(incoming_bytes_)
                     .arg(result.bytes));
    return;
  }
  try {
    file->commit();
  } catch (const std::exception& e) {
    emit refused(tr("cannot write the recording here: %1").arg(QString::fromUtf8(e.what())));
    return;
  }
  emit worker_state(ready_text(), false);
  emit recorded(QString::fromStdString(file->target().string()));
}

// The ceiling line: a device copy moving the same bytes, measured once per size.
void RunController::measure_copy_for(const RunReport& report) {
  const std::string& device = report.device.spec;
  const std::uint64_t bytes = report.ideal_bytes / 2;
  if (!report.ok() || bytes == 0 || history_.has_copy(device, bytes)) return;
  protocol::CopyRequest copy;
  copy.device = device;
  copy.bytes = bytes;
  copy.reps = 5;
  copy.warmup = 1;
  copy_ids_[worker_.send(copy)] = {device, bytes};
}

}  // namespace threadmap::gui
