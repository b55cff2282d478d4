#include "commands/blas_threshold_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "blas/blas_device.hpp"
#include "blas/blas_threshold.hpp"
#include "blas/system_blas.hpp"
#include "opencl/device.hpp"
#include "run/timing.hpp"
#include "store/user_store.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/run_date.hpp"

namespace clgemm {

namespace {

struct Row {
  int n = 0;
  double system_ms = 0, device_ms = 0, err_ratio = 0;
  bool verified = false;
  bool device_wins() const { return verified && device_ms < system_ms; }
};

void systemGemm(int n, const float* a, const float* b, float* c) {
  const float one = 1, zero = 0;
  blas::systemBlas().sgemm("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
}
void systemGemm(int n, const double* a, const double* b, double* c) {
  const double one = 1, zero = 0;
  blas::systemBlas().dgemm("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
}

// One size: both paths on the same column-major operands, beta = 0, as the shim runs a call.
template <typename T>
Row measure(blas::BlasDevice& device, int n, int warmup, int reps, std::mt19937_64& rng) {
  const std::size_t elements = std::size_t(n) * std::size_t(n);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> a(elements), b(elements), c_system(elements), c_device(elements);
  for (auto& x : a) x = T(uniform(rng));
  for (auto& x : b) x = T(uniform(rng));
  Row row;
  row.n = n;
  std::string failure;
  const auto onDevice = [&] {
    const blas::DeviceGemmResult r =
        blas::deviceGemm<T>(device, clgemmLayoutColMajor, clgemmTransposeNo, clgemmTransposeNo, n,
                            n, n, T(1), a.data(), n, b.data(), n, T(0), c_device.data(), n);
    if (!r.ok())
      throw RuntimeError("the device path failed at n = " + std::to_string(n) + ": " + r.message);
  };
  // Host-clock medians, as the CLI times the CPU paths and libraries (nothing to reset: beta = 0).
  row.system_ms =
      timeHostCalls(
          warmup, reps, [] {}, [&] { systemGemm(n, a.data(), b.data(), c_system.data()); })
          .median();
  row.device_ms = timeHostCalls(
                      warmup, reps, [] {}, onDevice)
                      .median();
  // |a|, |b| < 1: every element of C is a sum of n products below 1 in magnitude.
  double worst = 0;
  for (std::size_t i = 0; i < elements; ++i)
    worst = std::max(worst, std::abs(double(c_device[i]) - double(c_system[i])));
  row.err_ratio = worst / (double(std::numeric_limits<T>::epsilon()) * n);
  row.verified = std::isfinite(row.err_ratio) && row.err_ratio < 16;
  return row;
}

// The smallest n^3 from which the device wins at every measured size, or null: the last run of
// wins reaching the end of the table.
nlohmann::json thresholdOf(const std::vector<Row>& rows, int* threshold_n) {
  *threshold_n = 0;
  for (auto it = rows.rbegin(); it != rows.rend() && it->device_wins(); ++it) *threshold_n = it->n;
  if (!*threshold_n) return nullptr;
  return std::uint64_t(*threshold_n) * std::uint64_t(*threshold_n) * std::uint64_t(*threshold_n);
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

int runBlasThreshold(const Options& o, const std::string& command_line, std::ostream& out,
                     std::ostream& err) {
  const blas::SystemBlas& system = blas::systemBlas();
  if (!system.sgemm || !system.dgemm)
    throw RuntimeError("no system BLAS to measure against: " + system.error +
                       " (Debian: libblas3 or libopenblas0)");
  std::vector<int> sizes;
  for (const Shape& s : o.sizes) {
    if (s.m != s.n || s.n != s.k)
      throw UsageError("clgemm blas-threshold times square sizes: give --sizes as N,N,... (" +
                       std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                       " is not square)");
    sizes.push_back(s.m);
  }
  const bool sizes_given = !sizes.empty();
  if (!sizes_given) sizes.assign(std::begin(kBlasThresholdSizes), std::end(kBlasThresholdSizes));

  const std::string dir = userStoreSubdir(userStoreDir(o.store), "blas");
  const SelectedDevice selected = selectDevice(o.platform, o.device);
  ensureStoreDir(dir, "--store");
  blas::BlasDevice device = blas::openBlasDevice(selected);
  const DeviceInfo& info = device.info;
  out << "device: " << info.name << " (" << info.type << ", " << info.platform_name << ", driver "
      << info.driver_version << ")\n"
      << "system BLAS: " << system.library << "\n"
      << "square GEMMs, column-major NN, beta = 0; device times include the copies in and out, as "
         "the shim runs them; medians of "
      << o.reps << " runs after " << o.warmup << " warm-up\n";

  int status = kExitOk;
  std::mt19937_64 rng(o.seed);
  for (const Precision precision : o.precisions) {
    if (precision == Precision::kFp64 && !info.has_fp64) {
      out << "\nfp64: the device has no cl_khr_fp64; the shim sends every DGEMM to the system "
             "BLAS\n";
      continue;
    }
    std::vector<Row> rows;
    int wins_in_a_row = 0;
    for (const int n : sizes) {
      err << "clgemm blas-threshold: " << precisionName(precision) << " n = " << n << "\n";
      rows.push_back(precision == Precision::kFp32
                         ? measure<float>(device, n, o.warmup, o.reps, rng)
                         : measure<double>(device, n, o.warmup, o.reps, rng));
      if (!rows.back().verified) status = kExitVerifyFailed;
      wins_in_a_row = rows.back().device_wins() ? wins_in_a_row + 1 : 0;
      if (wins_in_a_row == 2) break;  // from here on the device keeps winning
    }
    int threshold_n = 0;
    const nlohmann::json threshold = thresholdOf(rows, &threshold_n);
    nlohmann::json measured = nlohmann::json::array();
    out << "\n"
        << precisionName(precision) << ":\n"
        << "       n   system ms   device ms  device/system  err ratio  faster\n";
    for (const Row& r : rows) {
      measured.push_back({{"n", r.n},
                          {"system_ms", r.system_ms},
                          {"device_ms", r.device_ms},
                          {"device_wins", r.device_wins()},
                          {"err_ratio", r.err_ratio},
                          {"verified", r.verified}});
      char line[160];
      std::snprintf(line, sizeof line, "%8d  %10s  %10s  %13s  %9s  %s\n", r.n,
                    fixed(r.system_ms, 4).c_str(), fixed(r.device_ms, 4).c_str(),
                    (fixed(r.device_ms / r.system_ms, 2) + "x").c_str(),
                    fixed(r.err_ratio, 3).c_str(),
                    !r.verified       ? "FAIL (device result differs)"
                    : r.device_wins() ? "device"
                                      : "system BLAS");
      out << line;
    }
    const nlohmann::json record = {
        {"device", info.name},
        {"driver", info.driver_version},
        {"platform", info.platform_name},
        {"precision", precisionName(precision)},
        {"threshold", threshold},
        {"threshold_n", threshold_n ? nlohmann::json(threshold_n) : nlohmann::json(nullptr)},
        {"system_blas", system.library},
        {"date", runDate()},
        {"command", command_line},
        {"measured", measured}};
    const std::string path = dir + "/" + blas::thresholdRecordName(info.name, precision);
    writeFileAtomically(path, "--store", [&](std::ostream& f) { f << record.dump(2) << "\n"; });
    out << "threshold: "
        << (threshold_n ? std::to_string(threshold_n) + "^3 = " + threshold.dump() +
                              " (m*n*k from which the shim uses the device)"
                        : std::string("never (the system BLAS was faster at ") +
                              (rows.empty() ? "no size" : "n = " + std::to_string(rows.back().n)) +
                              "): the shim keeps every call on the system BLAS")
        << "\nstored in " << path << "\n";
  }
  return status;
}

}  // namespace clgemm
