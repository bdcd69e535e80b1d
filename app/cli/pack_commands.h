#pragma once
// `threadmap-cli pack check DIR` and `threadmap-cli pack new NAME`
// (docs/packs.md). Each returns the process exit code.
#include <string>

namespace threadmap::cli {

// Loads the pack, adds its variants to the catalog, runs every variant at its
// defaults and at each check point, verified: a variant must verify at every
// one, a known_wrong variant must fail at one at least. Exit 0 when all is as
// expected, 1 when not, 2 for a manifest's mistake or bad usage, 3 when the
// device fails. device: a spec, or "auto" for the first OpenCL device.
// architectures ("sm_75,sm_90"): instead of running, compiles every CUDA
// kernel of the pack at every check point, timed, traced and clock pass, for
// each (no GPU needed).
int pack_check_command(const std::string& folder, const std::string& device, const std::string& architectures = "");

// Writes a working one-kernel pack into the new folder NAME (its last
// component is the pack's name): pack.toml, scale.cl and scale.cu.
int pack_new_command(const std::string& folder);

}  // namespace threadmap::cli
