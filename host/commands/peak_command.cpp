#include "commands/peak_command.hpp"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "opencl/device.hpp"
#include "opencl/kernel_source.hpp"
#include "run/peak_probe.hpp"
#include "session/cl_session.hpp"
#include "store/user_store.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/progress.hpp"
#include "util/run_date.hpp"

namespace clgemm {
namespace {

std::string rounded(double value) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << value;
  return s.str();
}

// The stored entry: what findDevicePeak reads, plus how it was measured.
nlohmann::json peakEntry(const DeviceInfo& info, const PeakMeasurement& m) {
  const auto byWidth = [](const std::map<int, double>& gflops) {
    nlohmann::json widths = nlohmann::json::object();
    for (const auto& [width, value] : gflops) widths[std::to_string(width)] = value;
    return widths;
  };
  const bool fp64 = !m.fp64_fma_gflops.empty();
  return {{"device", info.name},
          {"driver", info.driver_version},
          {"fp32_gflops", m.gflops},
          // null: the device has no FP64 (cl_khr_fp64).
          {"fp64_gflops", fp64 ? nlohmann::json(m.fp64_gflops) : nlohmann::json()},
          {"bandwidth_gbs", m.gbps},
          {"measured",
           {{"tool", "clgemm peak"},
            {"date", runDate()},
            {"platform", info.platform_name},
            {"fma_gflops_by_width", byWidth(m.fma_gflops)},
            {"best_width", m.best_width},
            {"fp64_fma_gflops_by_width", byWidth(m.fp64_fma_gflops)},
            {"fp64_best_width", fp64 ? nlohmann::json(m.fp64_best_width) : nlohmann::json()},
            {"fma_work_items", m.fma_items},
            {"fma_iterations_widest", m.fma_iterations},
            {"read_bytes", m.read_bytes},
            {"reps", m.reps},
            {"statistic", "median of the timed launches (profiling events)"}}}};
}

void writeTable(std::ostream& out, const DeviceInfo& info, const PeakMeasurement& m,
                const std::string& stored) {
  out << "device: " << info.name << " (" << info.type << ", " << info.platform_name << ", driver "
      << info.driver_version << ")\n"
      << "FP32 multiply-add throughput: " << m.fma_items
      << " work-items, four chains of dependent mad()s each, median of " << m.reps << " launches\n";
  for (const auto& [width, gflops] : m.fma_gflops)
    out << "  float" << (width == 1 ? std::string("  ") : std::to_string(width))
        << (width < 10 ? " " : "") << "  " << std::setw(12) << rounded(gflops) << " GFLOP/s\n";
  out << "peak FP32: " << rounded(m.gflops) << " GFLOP/s (float"
      << (m.best_width == 1 ? std::string() : std::to_string(m.best_width)) << ")\n";
  if (m.fp64_fma_gflops.empty()) {
    out << "FP64: the device does not report cl_khr_fp64\n";
  } else {
    out << "FP64 multiply-add throughput, the same chains in double:\n";
    for (const auto& [width, gflops] : m.fp64_fma_gflops)
      out << "  double" << (width == 1 ? std::string("  ") : std::to_string(width))
          << (width < 10 ? " " : "") << " " << std::setw(12) << rounded(gflops) << " GFLOP/s\n";
    out << "peak FP64: " << rounded(m.fp64_gflops) << " GFLOP/s (double"
        << (m.fp64_best_width == 1 ? std::string() : std::to_string(m.fp64_best_width)) << ")\n";
  }
  out << "global memory read bandwidth: " << rounded(m.gbps) << " GB/s (" << (m.read_bytes >> 20)
      << " MiB read with float4 loads, "
      << (info.is_gpu ? "coalesced" : "a contiguous block per work-item") << ", median of "
      << m.reps << " launches)\n"
      << "stored in " << stored << "\n";
}

}  // namespace

int runPeak(const Options& o, std::ostream& out, std::ostream& err) {
  if (!o.out.empty()) checkWritable(o.out, "--out");
  const std::string store = userStoreDir(o.store);
  const std::string dir = userStoreSubdir(store, "peaks");

  const SelectedDevice device = selectDevice(o.platform, o.device);
  // The store must be writable before a measurement that would otherwise be lost, and is made
  // only once the device exists, so a bad --device leaves nothing behind.
  ensureStoreDir(dir, "--store");
  if (!device.info.has_profiling)
    throw RuntimeError(device.info.name + " does not support profiling events, which timing needs");
  ClSession session(device, loadKernelSource(""));
  Progress progress(err, std::size_t(peakSteps(device.info.has_fp64)), o.progress,
                    stderrIsTerminal());
  const PeakMeasurement m =
      measurePeak(session, o.reps, [&](const std::string& what) { progress.step(what); });
  progress.finish();

  const nlohmann::json entry = peakEntry(device.info, m);
  const std::string path = dir + "/" + fileSlug(device.info.name) + ".json";
  writeFileAtomically(path, "--store", [&](std::ostream& file) { file << entry.dump(2) << "\n"; });

  auto report = [&](std::ostream& stream) {
    if (o.format == Format::kJson) {
      nlohmann::json doc = entry;
      doc["stored"] = path;
      stream << doc.dump(2) << "\n";
    } else {
      writeTable(stream, device.info, m, path);
    }
  };
  if (o.out.empty())
    report(out);
  else
    writeFileAtomically(o.out, "--out", report);
  return kExitOk;
}

}  // namespace clgemm
