// The command line, parsed into plain values. Parsing checks only the form of each option (numbers,
// names, conflicts); what depends on the device is checked later.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "defines.hpp"
#include "report.hpp"

namespace clgemm {

struct Options {
  bool help = false;
  bool list = false;
  std::optional<int> platform, device;
  std::string kernels;  // the --kernel list as given
  std::vector<UserDefine> defines;
  std::optional<int> m, n, k;  // unset: the default size for the device, or the .npy shapes
  float alpha = 1.0f, beta = 0.0f;
  int warmup = 2;
  int reps = 10;
  bool check = true;
  Format format = Format::kTable;
  std::string out;  // report file; empty: stdout
  std::string input_a, input_b, input_c, output_c;
  std::string kernel_file;
  std::uint64_t seed = 42;
};

// Throws UsageError for unknown options, malformed values and conflicting options.
Options parseOptions(int argc, const char* const argv[]);

// The full --help text: options, then every variant with its parameters.
std::string helpText();

}  // namespace clgemm
