// The command line parsed with cxxopts into the plain Options the core's commands take
// (commands/run_options.hpp), and the --help text.
#pragma once

#include <string>

#include "commands/run_options.hpp"

namespace clgemm {

// Throws UsageError for unknown options, malformed values and conflicting options.
Options parseOptions(int argc, const char* const argv[]);

// The full --help text: options, then every variant with its parameters.
std::string helpText();

}  // namespace clgemm
