#include "commands/runner.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "check/result_check.hpp"
#include "commands/multi_device.hpp"
#include "commands/problem_input.hpp"
#include "cuda/cuda_library.hpp"
#include "opencl/cl_check.hpp"
#include "opencl/device.hpp"
#include "opencl/kernel_source.hpp"
#include "opencl/program_save.hpp"
#include "problem/problem.hpp"
#include "registry/kernels.hpp"
#include "registry/param_lookup.hpp"
#include "report/report.hpp"
#include "run/variant_runner.hpp"
#include "session/cl_session.hpp"
#include "session/problem_limits.hpp"
#include "store/device_peak.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/host_info.hpp"
#include "util/progress.hpp"
#include "util/run_date.hpp"

namespace clgemm {
namespace {

// A variant ready to run, or the reason it will not (library not built).
struct Planned {
  const Variant* variant;
  std::optional<ResolvedDefines> defines;  // the parameters, once resolved (not for skipped ones)
  std::string tuned_file;                  // the tuned entry the parameters came from, if any
  std::string tuned_match;                 // why that entry serves this device
  std::unique_ptr<VariantRunner> runner;   // null when skipped
  std::string skip_reason;
};

// --kernel then --compare. With neither given, the default kernels and both baselines, as the
// design promises a bare `clgemm` shows. Baselines run last whatever the order given: OpenBLAS's
// worker threads keep spinning for a while after each call and would steal the cores from a CPU
// path timed after it.
std::vector<const Variant*> chooseVariants(const Options& o) {
  std::vector<const Variant*> chosen = parseVariantList(o.kernels);
  const std::string compare =
      o.compare_given ? o.compare : (o.kernels_given ? "" : "clblast,openblas");
  for (const Variant* v : parseCompareList(compare))
    if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) chosen.push_back(v);
  std::stable_partition(chosen.begin(), chosen.end(),
                        [](const Variant* v) { return !v->isBaseline(); });
  return chosen;
}

Planned plan(const Variant& v, const Options& o, ClSession* session, const Problem& problem,
             int threads, const SearchDirs& param_dirs, std::ostream& err) {
  Planned p{&v, std::nullopt, "", "", nullptr, ""};
  if (!backendBuilt(v.backend)) {
    p.skip_reason = "not built: " + v.name +
                    " was not found when clgemm was configured (see CLGEMM_WITH_CLBLAST / "
                    "CLGEMM_WITH_OPENBLAS in CMakeLists.txt)";
    return p;
  }
  if (problem.precision == Precision::kFp64) {
    if (const auto why = fp64Refusal(v, session ? &session->info() : nullptr)) {
      checkConstraints(v, ResolvedDefines(v.params, o.defines));
      p.skip_reason = *why;
      return p;
    }
  }
  if (v.default_shape_only && !problem.shape.isDefault()) {
    checkConstraints(v, ResolvedDefines(v.params, o.defines));
    p.skip_reason = defaultShapeOnlyReason(v, shapeLabel(problem.shape));
    return p;
  }
  if (session) {
    if (const auto why = unsupportedOn(v, session->info())) {
      // A -D no device could take is still the command line's mistake (exit 2).
      checkConstraints(v, ResolvedDefines(v.params, o.defines));
      p.skip_reason = *why;
      return p;
    }
  }
  // OpenCL kernels take tuned parameters for this device from the user's store or data/params
  // where an entry exists.
  if (v.backend == Backend::kOpenCl) {
    std::vector<std::string> warnings;
    VariantParams params = resolveVariantParams(
        v, o.defines, param_dirs, session->info(), Shape{problem.m, problem.n, problem.k},
        &warnings, tuningTransposes(v, problem.m, problem.n, problem.k, problem.shape),
        problem.precision, problem.rowMajor().swapped);
    for (const auto& w : warnings) err << "clgemm: note: " << w << "\n";
    p.defines = std::move(params.defines);
    p.tuned_file = params.tuned_file;
    p.tuned_match = params.tuned_match;
  } else {
    p.defines.emplace(v.params, definesReaching(v, o.defines));
  }
  const ResolvedDefines& defines = *p.defines;
  switch (v.backend) {
    case Backend::kOpenCl:
      p.runner = makeClKernelRunner(v, defines, *session, problem, o.cl_options,
                                    o.build_log ? &err : nullptr);
      break;
    case Backend::kCpu:
      p.runner = makeCpuRunner(v, defines, problem, threads);
      break;
    case Backend::kClblast:
      p.runner = makeClblastRunner(*session, problem);
      break;
    case Backend::kOpenblas:
      p.runner = makeOpenblasRunner(problem, threads);
      break;
    case Backend::kCublas:
      p.runner = makeCublasRunner(session->info(), problem, v.arithmetic == Arithmetic::kTf32);
      break;
  }
  return p;
}

// Flops per byte of the variant's global loads (C0 read once when beta != 0), and the roofline
// bound where the device's peak is known.
void addIntensity(ResultRow& row, const Planned& p, const Problem& problem,
                  const std::optional<DevicePeak>& peak) {
  if (!p.variant->global_bytes || !p.defines) return;
  // The kernel computes the row-major view (column-major swaps M and N).
  const RowMajorGemm view = problem.rowMajor();
  // In the problem's element type (kernels.cl's REAL; the libraries' S or D routine).
  const double element = double(elementBytes(problem.precision));
  double bytes =
      p.variant->global_bytes(*p.defines, view.m, view.n, view.k, elementBytes(problem.precision));
  const double c_bytes = element * problem.m * double(problem.n);
  if (problem.beta != 0.0) bytes += c_bytes;
  // A kernel that does not take the shape itself is timed with its copies: each reads the stored
  // matrix and writes the packed one (C: in where beta != 0, and out).
  if (p.variant->backend == Backend::kOpenCl && !p.variant->shapes_in_kernel) {
    if (!view.a.packedRowMajor()) bytes += 2.0 * element * problem.m * double(problem.k);
    if (!view.b.packedRowMajor()) bytes += 2.0 * element * problem.k * double(problem.n);
    if (!view.c.packedRowMajor()) bytes += (problem.beta != 0.0 ? 4.0 : 2.0) * c_bytes;
  }
  row.intensity = problem.flops() / bytes;
  // The roof is the FP32 peak, or for an FP64 problem the FP64 peak where the entry has one;
  // neither bounds the tensor cores.
  if (!peak || p.variant->arithmetic != Arithmetic::kFp32) return;
  if (problem.precision == Precision::kFp32) {
    row.roofline_gflops = rooflineBound(*peak, *row.intensity);
  } else if (const auto fp64 = fp64Roofline(*peak)) {
    row.roofline_gflops = rooflineBound(*fp64, *row.intensity);
  }
}

// Runs one planned variant and judges its result; OpenCL and CUDA errors become an "error" row.
ResultRow runAndVerify(Planned& p, const Options& o, const Problem& problem,
                       const std::optional<ResultCheck>& check,
                       const std::optional<DevicePeak>& peak, std::vector<double>& result) {
  ResultRow row;
  row.variant = p.variant->name;
  // The precision column: an FP64 problem's rows are fp64 whatever arithmetic the variant uses
  // in FP32 (its FP64 build has no tf32 or 3xtf32 mode), so the reader sees the unit of err ratio.
  row.arithmetic = problem.precision == Precision::kFp64 ? precisionName(Precision::kFp64)
                                                         : arithmeticName(p.variant->arithmetic);
  row.m = problem.m;
  row.n = problem.n;
  row.k = problem.k;
  row.shape = resolvedShape(problem);
  if (p.defines) row.defines = p.defines->all();
  row.params_file = p.tuned_file;
  row.params_match = p.tuned_match;
  if (!p.runner) {
    row.status = "skipped";
    row.message = p.skip_reason;
    return row;
  }
  row.device = p.runner->deviceName();
  row.threads = p.runner->threads();
  row.figures = p.runner->figures();
  addIntensity(row, p, problem, peak);
  try {
    const Timings t = p.runner->run(o.warmup, o.reps, result);
    row.ms_median = t.median();
    row.ms_min = t.min();
    row.helper_ms = t.helperMedian();
    row.gflops = problem.gflopsAt(t.median());
    if (check) {
      const Verification v = (*check)(result, errorThresholdFor(p.variant->arithmetic));
      const MemoryCheck memory = p.runner->checkMemory();
      row.check = check->kind();
      row.err_ratio = v.max_ratio;
      row.err_threshold = v.threshold;
      const Verdict judged = judgeRun(v, memory, "verification failed");
      row.status = judged.status;
      row.message = judged.message;
    } else {
      row.status = "unchecked";
    }
    // The note may explain a failure (NVIDIA_TF32_OVERRIDE=1 under cuBLAS's FP32 SGEMM fails it).
    if (const std::string note = p.runner->note(); !note.empty())
      row.message += (row.message.empty() ? "" : "; ") + note;
  } catch (const ClError& e) {
    row.status = "error";
    row.message = e.what();
  } catch (const CudaError& e) {  // the cuBLAS baseline's CUDA runtime or cuBLAS
    row.status = "error";
    row.message = e.what();
  }
  // After the run: some are known only once the library has started (cuBLAS's version).
  for (const auto& d : p.runner->derivedDefines()) row.defines.push_back(d);
  row.plan = p.runner->plan();
  return row;
}

// vs_clblast, vs_openblas, vs_cublas, vs_naive: each row's GFLOP/s over that variant's from this
// run.
void addRatios(std::vector<ResultRow>& rows) {
  auto baseline = [&](const std::string& name) -> std::optional<double> {
    for (const auto& r : rows)
      if (r.variant == name && r.status == "ok" && r.gflops) return r.gflops;
    return std::nullopt;
  };
  const auto clblast = baseline("clblast"), openblas = baseline("openblas");
  const auto cublas = baseline("cublas");
  const auto naive = baseline("naive");
  for (auto& r : rows) {
    if (!r.gflops) continue;
    if (clblast) r.vs_clblast = *r.gflops / *clblast;
    if (openblas) r.vs_openblas = *r.gflops / *openblas;
    if (cublas) r.vs_cublas = *r.gflops / *cublas;
    if (naive) r.vs_naive = *r.gflops / *naive;
  }
}

// The sizes to run: the --sizes sweep, else the .npy files' shape, else -m/-n/-k or the default
// for the device.
std::vector<Shape> chooseShapes(const Options& o, const std::optional<SelectedDevice>& device,
                                const std::optional<Problem>& loaded) {
  if (!o.sizes.empty()) return o.sizes;
  if (loaded) return {Shape{loaded->m, loaded->n, loaded->k}};
  const int fallback = defaultProblemSize(device && device->info.is_gpu);
  return {Shape{o.m.value_or(fallback), o.n.value_or(fallback), o.k.value_or(fallback)}};
}

// What one size of the run produced.
struct SizeOutcome {
  std::vector<ResultRow> rows;
  bool output_written = false;
};

// Builds every variant for this problem, verifies and times them in order.
SizeOutcome runSize(const Problem& problem, const std::vector<const Variant*>& chosen,
                    const Options& o, std::optional<ClSession>& session, int threads,
                    const SearchDirs& param_dirs, const std::optional<DevicePeak>& peak,
                    bool write_output, Progress& progress, std::ostream& err) {
  const std::string size = shapeDims(Shape{problem.m, problem.n, problem.k}) +
                           (problem.shape.isDefault() ? "" : " " + shapeLabel(problem.shape));
  // Every variant is checked and built before any runs, so a bad define fails in seconds.
  progress.note(size + ": building kernels");
  std::vector<Planned> planned;
  for (const Variant* v : chosen)
    planned.push_back(
        plan(*v, o, session ? &*session : nullptr, problem, threads, param_dirs, err));

  std::optional<ResultCheck> check;
  if (o.check) {
    progress.note(size + ": computing the reference");
    check.emplace(problem, o.check_mode, o.seed);
  }
  if (session) session->upload(problem);

  SizeOutcome outcome;
  std::vector<double> result;
  for (auto& p : planned) {
    progress.step(size + ": " + p.variant->name);
    outcome.rows.push_back(runAndVerify(p, o, problem, check, peak, result));
    const ResultRow& row = outcome.rows.back();
    if (row.status == "FAIL" || row.status == "error") progress.finish();
    // In a sweep over shapes the variant's name alone does not say which problem failed.
    const std::string which =
        row.variant + (problem.shape.isDefault() ? "" : " (" + shapeLabel(problem.shape) + ")");
    if (row.status == "FAIL") err << "clgemm: " << which << ": " << row.message << "\n";
    if (row.status == "error") err << "clgemm: error: " << which << ": " << row.message << "\n";
    if (row.status == "ok" && write_output && !outcome.output_written) {
      writeResultNpy(o.output_c, "--output-c", problem.m, problem.n, result, problem.shape.layout,
                     problem.precision);
      outcome.output_written = true;
    }
  }
  addRatios(outcome.rows);
  return outcome;
}

}  // namespace

int runBenchmark(const Options& o, std::ostream& out, std::ostream& err) {
  if (!o.devices.empty()) return runMultiDevice(o, out, err);
  const std::vector<const Variant*> chosen = chooseVariants(o);
  if (!o.out.empty()) checkWritable(o.out, "--out");
  if (!o.output_c.empty()) checkWritable(o.output_c, "--output-c");
  if (!o.save_programs.empty()) prepareSavedProgramsDir(o.save_programs);
  const int threads = o.threads.value_or(hostCores());

  // An OpenCL device only when something runs on one: `--kernel cpu` needs no OpenCL at all.
  bool needs_opencl = false;
  for (const Variant* v : chosen)
    needs_opencl = needs_opencl || (v->needsOpenCl() && backendBuilt(v->backend));
  std::optional<SelectedDevice> device;
  if (needs_opencl) {
    device = selectDevice(o.platform, o.device);
    if (!device->info.has_profiling)
      throw RuntimeError(device->info.name +
                         " does not support profiling events, which timing needs");
  }

  std::optional<Problem> loaded;
  if (!o.input_a.empty()) loaded = loadProblem(o, inputShape(o));
  const std::vector<Shape> shapes = chooseShapes(o, device, loaded);
  // Every size is checked before the first one runs: a sweep never fails at its last size.
  const std::vector<GemmShape> gemm_shapes =
      loaded ? std::vector<GemmShape>{loaded->shape} : gemmShapes(o);
  const std::vector<Precision> precisions =
      loaded ? std::vector<Precision>{loaded->precision} : o.precisions;
  for (const Shape& s : shapes) {
    for (const GemmShape& g : gemm_shapes) {
      for (const Precision precision : precisions) {
        if (device) checkProblemFits(device->info, s.m, s.n, s.k, g, precision);
        checkHostProblemFits(hostMemoryBytes(), s.m, s.n, s.k, g, precision);
      }
    }
  }
  if (!o.input_c.empty() && o.beta == 0.0)
    err << "clgemm: note: --input-c is not read because beta is 0\n";

  const KernelSource source = loadKernelSource(o.kernel_file);
  std::optional<ClSession> session;
  if (device) session.emplace(*device, source);
  if (session && !o.save_programs.empty()) session->programs().saveTo(o.save_programs);

  const SearchDirs param_dirs = paramDirs(o.store, source.origin);
  std::optional<DevicePeak> peak;
  if (device) {
    std::vector<std::string> warnings;
    peak = findDevicePeak(peakDirs(o.store, source.origin), device->info.name,
                          device->info.driver_version, &warnings);
    for (const auto& w : warnings) err << "clgemm: note: " << w << "\n";
  }

  RunInfo info;
  if (device) info.device = device->info;
  info.date = runDate();
  info.host_cpu = hostCpuName();
  info.threads = threads;
  info.alpha = o.alpha;
  info.beta = o.beta;
  info.warmup = o.warmup;
  info.reps = o.reps;
  info.checked = o.check;
  info.kernel_source = source.origin;
  info.peak = peak;

  Progress progress(err, shapes.size() * precisions.size() * gemm_shapes.size() * chosen.size(),
                    o.progress, stderrIsTerminal());
  std::vector<ResultRow> rows;
  bool output_written = false;
  for (const Shape& shape : shapes) {
    for (const Precision precision : precisions) {
      for (const GemmShape& gemm_shape : gemm_shapes) {
        const Problem problem = loaded ? std::move(*loaded)
                                       : makeRandomProblem(shape.m, shape.n, shape.k, o.alpha,
                                                           o.beta, o.seed, gemm_shape, precision);
        SizeOutcome outcome = runSize(problem, chosen, o, session, threads, param_dirs, peak,
                                      !o.output_c.empty(), progress, err);
        rows.insert(rows.end(), outcome.rows.begin(), outcome.rows.end());
        output_written = output_written || outcome.output_written;
      }
    }
  }
  progress.finish();
  if (!o.output_c.empty() && !output_written)
    err << "clgemm: no variant passed verification; --output-c '" << o.output_c
        << "' not written\n";

  writeReportTo(o.out, out, [&](std::ostream& s) { writeReport(s, o.format, info, rows); });
  std::vector<std::string> statuses;
  for (const auto& r : rows) statuses.push_back(r.status);
  return exitCodeFor(statuses);
}

}  // namespace clgemm
