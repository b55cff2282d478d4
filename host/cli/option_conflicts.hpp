// Checks across options that no single option's parser can make: --cl-options against the
// defines the host owns, and output files against the inputs they could overwrite.
#pragma once

#include <string>

#include "commands/run_options.hpp"

namespace clgemm {

// --cl-options goes to the compiler after the host's own options. A define there would override a
// parameter behind the host's back (the launch sized for one value, the kernel built with another),
// and pocl crashes on a -D or -I with nothing after it. Throws UsageError for either.
void checkClOptions(const std::string& options);

// A file clgemm writes must not be one it reads, nor the other file it writes: the report over
// an input matrix or the kernels file would destroy it. --output-c over --input-c is allowed: C
// in, C out, as BLAS updates C in place. Throws UsageError naming both options.
void rejectOverwrites(const Options& o);

}  // namespace clgemm
