// Results as a table for people, CSV for spreadsheets and plots, JSON for programs. One row per
// variant run; the same fields in every format.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "defines.hpp"
#include "device.hpp"

namespace clgemm {

struct ResultRow {
  std::string variant;
  std::vector<ResolvedDefine> defines;
  std::optional<double> ms_median, ms_min, gflops, err_ratio;
  std::string status;   // ok | FAIL | skipped | error | unchecked (--no-check)
  std::string message;  // why it failed or was skipped
};

struct RunInfo {
  DeviceInfo device;
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  int warmup = 0, reps = 0;
  bool checked = true;
  std::string kernel_source;  // where kernels.cl came from
};

enum class Format { kTable, kCsv, kJson };

void writeReport(std::ostream& out, Format format, const RunInfo& run,
                 const std::vector<ResultRow>& rows);

}  // namespace clgemm
