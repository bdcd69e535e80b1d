#pragma once
// `threadmap-cli --remote [USER@]HOST[:PORT] COMMAND`: the device commands
// run by a worker on a GPU server reached through ssh (app/protocol/remote.h),
// their output here as if they had run here. A recording comes back over the
// same stream and is written on this machine.
#include <cstdint>
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
int remote_record_command(const RemoteArgs& remote, const std::string& kernel, const RunArgs& args,
                          const std::string& blocks, const std::string& output);

}  // namespace threadmap::cli
