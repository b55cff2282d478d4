// `clgemm tune`: search one OpenCL kernel's parameters on the user's device at one problem size.
// Every candidate is built, run, verified against the reference and timed; results go to a cache
// as they come, so an interrupted search resumes; the fastest verified one is written to the
// user's store, where every later run of that kernel on the device finds it.
#pragma once

#include <ostream>

#include "commands/run_options.hpp"

namespace clgemm {

int runTune(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace clgemm
