// Results as a table for people, CSV for spreadsheets and plots, JSON for programs. One row per
// variant run; the same fields in every format.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "opencl/device.hpp"
#include "problem/gemm_shape.hpp"
#include "registry/defines.hpp"
#include "report/kernel_figures.hpp"
#include "store/device_peak.hpp"

namespace clgemm {

struct ResultRow {
  std::string variant;
  // fp32 | tf32 | 3xtf32 (arithmeticName) for FP32 problems, fp64 for FP64 ones; empty for none.
  std::string arithmetic;
  int m = 0, n = 0, k = 0;     // the problem this row solved (a sweep has several)
  GemmShape shape;             // its layout, transposes and leading dimensions (all filled in)
  std::string device;          // where it ran: the OpenCL device or the host CPU
  std::optional<int> threads;  // host threads, for CPU paths and OpenBLAS
  std::vector<ResolvedDefine> defines;
  std::string plan;          // what the kernel's plan decided (KernelPlan::summary); "" for none
  std::string params_file;   // the tuned entry (user's store or data/params) defines came from
  std::string params_match;  // why that entry serves this device: "same architecture sm_90", ...
  std::optional<double> ms_median, ms_min, gflops, err_ratio;
  // OpenCL kernels with helpers (copies, packing passes): the median of the helpers' share of each
  // repetition, which ms_median includes.
  std::optional<double> helper_ms;
  std::optional<double> err_threshold;  // the error ratio this row had to stay under, when checked
  // This row's GFLOP/s over the baseline's, measured in the same run, when that baseline ran.
  // vs_cublas: over cuBLAS's FP32 SGEMM (`cublas`), the vendor's FP32 ceiling.
  std::optional<double> vs_clblast, vs_openblas, vs_cublas;
  // GFLOP/s over naive's in the same run, when naive ran (the ladder's speedup).
  std::optional<double> vs_naive;
  std::optional<KernelFigures> figures;  // OpenCL kernels: resources and occupancy
  // Flops per byte the variant's own access pattern loads from global memory, and the roofline
  // bound that implies where the device's peak figures are known.
  std::optional<double> intensity, roofline_gflops;
  std::string check;    // how C was verified: full | sampled (empty when not checked)
  std::string status;   // ok | FAIL | skipped | error | unchecked (--no-check)
  std::string message;  // why it failed or was skipped
};

struct RunInfo {
  std::optional<DeviceInfo> device;  // unset when only host paths ran
  std::string host_cpu;
  int threads = 1;
  std::string date;                // the day of the run, YYYY-MM-DD (UTC)
  double alpha = 1.0, beta = 0.0;  // FP64 runs take any finite double
  int warmup = 0, reps = 0;
  bool checked = true;
  std::string kernel_source;       // where kernels.cl came from
  std::optional<DevicePeak> peak;  // the device's roofline, where known
};

// The row's shape with every leading dimension filled in: the least (packed) where the row has 0,
// as rows made without a Problem have (the tuner's, --devices'). What CSV and JSON print.
GemmShape reportedShape(const ResultRow& row);
// The row's shape as shapeLabel words it, leading dimensions named only where they exceed the
// least ("col TN lda=40"); "row NN" for the default.
std::string reportedShapeLabel(const ResultRow& row);
// The six shape fields of CSV and JSON records, in this order: layout, trans_a, trans_b (row/col,
// n/t), lda, ldb, ldc (resolved), as text. Shared by every report that writes GEMM rows.
std::vector<std::pair<std::string, std::string>> shapeFields(int m, int n, int k,
                                                             const GemmShape& shape);

// The row's share of the device's FP32 peak, in percent, for rows that ran on the OpenCL device.
std::optional<double> percentOfPeak(const RunInfo& run, const ResultRow& row);

enum class Format { kTable, kCsv, kJson };

void writeReport(std::ostream& out, Format format, const RunInfo& run,
                 const std::vector<ResultRow>& rows);

}  // namespace clgemm
