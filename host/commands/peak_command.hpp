// `clgemm peak`: measure the device's FP32 peak and memory bandwidth, print them, and store them
// in the user's store (peaks/<device>.json, the format of data/peaks/) where every later run on
// that device finds them for pct_peak and the roofline bound.
#pragma once

#include <ostream>

#include "commands/run_options.hpp"

namespace clgemm {

int runPeak(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace clgemm
