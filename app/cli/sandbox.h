#pragma once
// Learner code is untrusted: a kernel from --source may loop forever, read
// or write out of bounds, trap, or never finish compiling. Its device work
// runs in a child process that the CLI can kill; nothing it does reaches the
// parent beyond its output and exit code.
#include <functional>
#include <string>

namespace threadmap::cli {

// Runs body in a forked child, whose output is the program's, and returns the
// child's exit code. A child that runs past timeout_s is killed; one that dies
// from a signal is reported; both print a line saying what happened (naming
// `what`) and return kExitStopped.
int run_isolated(double timeout_s, const std::string& what, const std::function<int()>& body);

}  // namespace threadmap::cli
