// clgemm --devices: one GEMM split across several OpenCL devices. C is cut into row panels, one
// per device, each computed by the chosen kernel with that device's own tuned parameters; the
// panels are sized in proportion to each device's speed alone on the whole problem (or --split).
// Every device has its own context and queue, so they compute at once; one more repetition with
// its host-device transfers gives the figure with transfers, and its C is verified.
#pragma once

#include <ostream>

#include "commands/run_options.hpp"

namespace clgemm {

// Runs the --devices report; returns the exit code (3 when a device failed, naming it).
int runMultiDevice(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace clgemm
