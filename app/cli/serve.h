#pragma once
// `threadmap-cli serve`: a worker speaking JSON lines over stdin/stdout, the
// GUI's only door to a device (docs/cli.md, "serve"). Devices stay open
// between requests so a re-run pays no context start.
#include <istream>
#include <ostream>

namespace CLI {
class App;
}

namespace threadmap::cli {

// Adds the subcommand; main() calls serve_command() when it was given.
CLI::App* add_serve_subcommand(CLI::App& app);

// Answers requests from `in` on `out` until "quit" or end of input: exactly one
// final reply per line, whatever its bytes. Returns the exit code (0); its
// reading thread has ended when it returns, so it can be called again in the
// same process (as a fuzz target does). It ends the process itself (exit 5)
// in two cases only: a learner's kernel ran past its request's
// source_timeout (answered "stopped" first), and, where `output_fd` is the
// descriptor behind `out`, the reader of the replies went away (a dropped
// ssh connection): the one way to stop a kernel looping on a device.
int serve_command(std::istream& in, std::ostream& out, int output_fd = -1);

}  // namespace threadmap::cli
