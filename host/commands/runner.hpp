// One clgemm benchmark run from parsed options to the report: pick the device, set up the problem,
// prepare every variant (constraints, build, launch checks) before running any, then time, verify
// and report each. Returns the exit code.
#pragma once

#include <ostream>

#include "commands/run_options.hpp"

namespace clgemm {

int runBenchmark(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace clgemm
