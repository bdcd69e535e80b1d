#pragma once
// `threadmap-cli --remote [USER@]HOST[:PORT] COMMAND`: the device commands
// run by a worker on a GPU server reached through ssh (app/protocol/remote.h),
// their output here as if they had run here. A recording comes back over the
// same stream and is written on this machine.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.h"

namespace threadmap::cli {

struct RemoteArgs {
  std::string target;       // --remote
  std::string ssh_command;  // --ssh-command (else $THREADMAP_SSH, else ssh)
};

int remote_devices_command(const RemoteArgs& remote, const std::string& format);
int remote_run_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args);
int remote_bench_command(const RemoteArgs& remote, const RunArgs& args, std::int64_t size);
int remote_sweep_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args,
                         const std::vector<std::string>& vary);
int remote_counters_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args,
                            const std::string& blocks);
// The submission files are read here and their texts sent.
int remote_check_command(const RemoteArgs& remote, const std::string& exercise, const std::vector<std::string>& files,
                         const std::string& device, const std::string& format, double timeout, int reps,
                         std::optional<std::uint64_t> seed);
int remote_doctor_command(const RemoteArgs& remote, const std::string& architectures, const std::string& format);
int remote_record_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args,
                          const std::string& blocks, const std::string& output);

}  // namespace threadmap::cli
