// The report of a GEMM split across devices (--devices): for each size, one row per device alone
// on the whole problem (the baseline), one per device's panel of rows, and a total row. Table,
// CSV and JSON carry the same fields.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "registry/defines.hpp"
#include "report/report.hpp"

namespace clgemm {

struct PartRow {
  std::string part;    // "alone" (one device, the whole problem), "panel" or "total"
  std::string label;   // PLATFORM:DEVICE, or "N devices" for the total
  std::string device;  // the device's name (empty for the total)
  std::string platform, driver;
  std::string variant;
  std::string precision;  // the arithmetic: fp32 | tf32 | 3xtf32 (arithmeticName)
  // The whole problem; its shape is always the default (--devices refuses the others), which the
  // CSV and JSON records say like every clgemm record.
  int m = 0, n = 0, k = 0;
  int row_start = 0, rows = 0;  // the rows of C this part computed
  // Panels: how many chunks its transfers were streamed in, each chunk's GEMM starting once its
  // rows of A are written while the next chunk's are written (1: the whole panel, then the GEMM).
  std::optional<int> chunks;
  std::vector<ResolvedDefine> defines;
  std::string params_file;  // the tuned entry the defines came from, if any
  // Kernel time: profiling events around the helper kernels and the GEMM, transfers excluded.
  // For the total, each repetition's slowest device (they run at once).
  std::optional<double> ms_median, ms_min, gflops;
  // One more repetition with its transfers, every device at once: B, A's panel (and C0) written
  // without blocking, the GEMM, C's panel read back, in chunks where the panel allows. in/out: the
  // transfers' own time, their events summed; with transfers: from the first write to the end of
  // the last read (for the total, the host clock over all devices), and GFLOP/s over that time.
  // Streamed, it is less than in + kernel + out by what the chunks hid.
  std::optional<double> in_ms, out_ms, e2e_ms, e2e_gflops;
  // The total: its kernel GFLOP/s over the best device's alone, and over the sum of every
  // device's alone (1 when devices add up perfectly).
  std::optional<double> speedup, efficiency;
  std::optional<double> err_ratio;
  std::string check;
  std::string status;  // ok | FAIL | error | unchecked
  std::string message;
};

struct MultiRunInfo {
  std::vector<std::string> devices;  // "0:1 NAME (TYPE, PLATFORM, driver D)", in --devices order
  std::string date, host_cpu;
  float alpha = 1.0f, beta = 0.0f;
  int warmup = 0, reps = 0;
  bool checked = true;
  std::string kernel_source;
  std::string split_from;  // how the rows were shared: "--split" or measured speeds
};

void writeMultiReport(std::ostream& out, Format format, const MultiRunInfo& run,
                      const std::vector<PartRow>& rows);

}  // namespace clgemm
