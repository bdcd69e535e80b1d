#pragma once
// Turns GUI intents (run this, sweep that, cancel) into worker requests and
// worker replies into RunHistory/SweepData updates. One run is in flight at a
// time: a change that arrives meanwhile re-runs once when it lands, so a
// slider dragged across five values costs two runs, not five.
#include <QObject>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/gui/run_history.h"
#include "app/gui/worker_client.h"
#include "app/protocol/replies.h"
#include "app/protocol/requests.h"
#include "kernels/core/output_file.h"

namespace threadmap::gui {

class RunController : public QObject {
  Q_OBJECT
 public:
  RunController(WorkerClient& worker, QObject* parent = nullptr);

  void list_devices();
  void run(const protocol::KernelRun& request);
  // Runs each request's kernel over `values` of `parameter`.
  void sweep(const std::string& parameter, const std::vector<protocol::KernelRun>& requests,
             const std::map<std::string, std::vector<std::int64_t>>& values_by_kernel);
  void cancel_sweep();
  // Asks the worker to run the kernel timed and record its trace into a
  // session file in `folder`; recorded() names the file. A remote worker
  // streams the file's bytes back and they are written into `folder` here.
  void record(const protocol::KernelRun& request, const QString& folder, const protocol::TracedBlocks& blocks = {});
  bool recording() const { return record_id_ != 0; }
  bool sweeping() const { return !sweep_ids_.empty(); }
  bool running() const { return run_id_ != 0; }

  RunHistory& history() { return history_; }
  const RunHistory& history() const { return history_; }
  const SweepData& sweep_data() const { return sweep_; }

 signals:
  void devices_listed(const std::vector<threadmap::BackendReport>& backends);
  void run_finished(const threadmap::RunReport& report);
  void refused(const QString& message);
  void history_changed();
  void sweep_changed();
  void sweep_finished(bool cancelled);
  void recorded(const QString& session_path);
  void worker_state(const QString& text, bool is_problem);

 private:
  void send_run(const protocol::KernelRun& request);
  QString ready_text() const;
  void on_reply(const WorkerReply& reply);
  void on_progress(int id, const protocol::Progress& progress);
  void on_run_reply(const WorkerReply& reply);
  void measure_copy_for(const RunReport& report);
  void receive_chunk(const protocol::SessionChunk& chunk);
  void finish_streamed_recording(const protocol::RecordResult& result);

  WorkerClient& worker_;
  RunHistory history_;
  SweepData sweep_;
  int devices_id_ = 0;
  int run_id_ = 0;
  int record_id_ = 0;
  // A remote worker's recording, written here as it arrives (whole or not at all).
  std::unique_ptr<OutputFile> incoming_;
  std::uint64_t incoming_bytes_ = 0;
  bool streaming_ = false;  // the recording in flight comes back in the replies
  std::optional<protocol::KernelRun> queued_run_;
  std::map<int, std::pair<std::string, std::uint64_t>> copy_ids_;  // id -> (device, bytes)
  std::set<int> sweep_ids_;
  bool sweep_cancelled_ = false;
};

}  // namespace threadmap::gui
