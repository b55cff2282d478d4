// `clgemm blas-threshold`: where the BLAS shim should start using the device. For growing square
// sizes it times the system BLAS against the shim's own device path (copies in and out included,
// blas/blas_device.hpp), verifies the device's C against the system's, and stores the smallest
// m*n*k from which the device wins at every measured size (or null: never) in the user's store,
// <store>/blas/<device>-<precision>.json, where libclgemm_blas.so finds it.
#pragma once

#include <ostream>
#include <string>

#include "commands/run_options.hpp"

namespace clgemm {

// The square sizes measured without --sizes, in order; the sweep stops once the device has won at
// two sizes in a row.
inline constexpr int kBlasThresholdSizes[] = {16,  32,  48,  64,  96,  128,
                                              192, 256, 384, 512, 768, 1024};

// `command_line` is recorded with the result.
int runBlasThreshold(const Options& options, const std::string& command_line, std::ostream& out,
                     std::ostream& err);

}  // namespace clgemm
