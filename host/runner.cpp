#include "runner.hpp"

#include <climits>
#include <limits>
#include <sstream>

#include "atomic_file.hpp"
#include "cl_check.hpp"
#include "device.hpp"
#include "errors.hpp"
#include "kernel_source.hpp"
#include "kernels.hpp"
#include "launch.hpp"
#include "npy.hpp"
#include "problem.hpp"
#include "program.hpp"
#include "reference.hpp"
#include "verify.hpp"

namespace clgemm {
namespace {

// Big enough to time meaningfully, small enough that run and reference take seconds.
constexpr int kDefaultGpuSize = 2048;
constexpr int kDefaultOtherSize = 512;

struct PreparedVariant {
  const Variant* variant;
  ResolvedDefines defines;
  LaunchShape shape;
  cl::Kernel kernel;
};

std::string dims(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// A size set on the command line must agree with the one a .npy file implies.
void requireSame(const std::optional<int>& given, std::size_t from_file, const std::string& option,
                 const std::string& file_option) {
  if (given && std::size_t(*given) != from_file) {
    throw UsageError(option + " " + std::to_string(*given) + " conflicts with " + file_option +
                     ", which implies " + std::to_string(from_file));
  }
}

Problem loadProblem(const Options& o) {
  const NpyMatrix a = readNpy(o.input_a, "--input-a");
  NpyMatrix b = readNpy(o.input_b, "--input-b");
  if (b.rows != a.cols) {
    throw UsageError("--input-b '" + o.input_b + "' is " + dims(b.rows, b.cols) +
                     " but --input-a is " + dims(a.rows, a.cols) + ": B needs " +
                     std::to_string(a.cols) + " rows");
  }
  requireSame(o.m, a.rows, "-m", "--input-a");
  requireSame(o.k, a.cols, "-k", "--input-a");
  requireSame(o.n, b.cols, "-n", "--input-b");
  Problem p;
  p.m = int(a.rows);
  p.k = int(a.cols);
  p.n = int(b.cols);
  p.alpha = o.alpha;
  p.beta = o.beta;
  p.a = a.data;
  p.b = std::move(b.data);
  if (!o.input_c.empty()) {
    NpyMatrix c = readNpy(o.input_c, "--input-c");
    if (c.rows != a.rows || c.cols != std::size_t(p.n)) {
      throw UsageError("--input-c '" + o.input_c + "' is " + dims(c.rows, c.cols) +
                       " but A * B is " + dims(a.rows, std::size_t(p.n)));
    }
    if (p.beta != 0.0f) p.c0 = std::move(c.data);
  } else if (p.beta != 0.0f) {
    // beta != 0 without a C: start from random C like a generated problem does.
    p.c0 = makeRandomProblem(p.m, p.n, 1, 0.0f, 1.0f, o.seed).c0;
  }
  return p;
}

// Sizes the device cannot hold are refused before anything is allocated on host or device.
void checkProblemFits(const DeviceInfo& device, int m, int n, int k) {
  const std::uint64_t largest = largestMatrixBytes(m, n, k);
  if (largest > device.max_alloc_bytes) {
    throw RuntimeError("CL_INVALID_BUFFER_SIZE: M=" + std::to_string(m) +
                       " N=" + std::to_string(n) + " K=" + std::to_string(k) +
                       " needs a buffer of " + formatBytes(largest) +
                       ", more than the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                       formatBytes(device.max_alloc_bytes) + "); choose smaller sizes");
  }
  const std::uint64_t total =
      (std::uint64_t(m) * std::uint64_t(k) + std::uint64_t(k) * std::uint64_t(n) +
       std::uint64_t(m) * std::uint64_t(n)) *
      sizeof(float);
  if (total > device.global_mem_bytes) {
    throw RuntimeError("CL_MEM_OBJECT_ALLOCATION_FAILURE: A, B and C need " + formatBytes(total) +
                       ", more than the device's global memory (" +
                       formatBytes(device.global_mem_bytes) + "); choose smaller sizes");
  }
  // The kernels index with 32-bit ints, which keeps the address arithmetic cheap on GPUs.
  const std::uint64_t limit = std::uint64_t(INT_MAX);
  if (largest / sizeof(float) > limit) {
    throw UsageError("a matrix of M=" + std::to_string(m) + " N=" + std::to_string(n) +
                     " K=" + std::to_string(k) +
                     " has more than 2^31-1 elements, beyond the kernels' "
                     "32-bit indexing; choose smaller sizes");
  }
}

PreparedVariant prepare(const Variant& v, const Options& o, const SelectedDevice& device,
                        ProgramCache& programs, int m, int n) {
  ResolvedDefines defines(v.params, o.defines);
  const auto violations = v.constraints(defines);
  if (!violations.empty()) {
    std::string message = v.name + ": ";
    for (std::size_t i = 0; i < violations.size(); ++i) message += (i ? "; " : "") + violations[i];
    throw UsageError(message);
  }
  const LaunchShape shape = v.shape(defines, m, n);
  checkVariantConfig(device.info, v, defines, shape);
  const std::string options =
      "-D CLGEMM_ONE_KERNEL -D KERNEL_" + v.entry + " " + defines.compilerOptions();
  const BuiltProgram& built = programs.get(options);
  cl::Kernel kernel;
  try {
    kernel = cl::Kernel(built.program, v.entry.c_str());
  } catch (const cl::Error& e) {
    if (e.err() == CL_INVALID_KERNEL_NAME) {
      throw UsageError(v.name + ": the kernels file has no kernel '" + v.entry + "'");
    }
    rethrowClError(e);
  }
  checkBuiltKernel(kernel, device.device, device.info, v, shape);
  return {&v, std::move(defines), shape, std::move(kernel)};
}

}  // namespace

int runBenchmark(const Options& o, std::ostream& out, std::ostream& err) {
  const std::vector<const Variant*> chosen = parseVariantList(o.kernels);
  if (!o.out.empty()) checkWritable(o.out, "--out");
  if (!o.output_c.empty()) checkWritable(o.output_c, "--output-c");

  const SelectedDevice device = selectDevice(o.platform, o.device);
  if (!device.info.has_profiling)
    throw RuntimeError(device.info.name + " does not support profiling events, which timing needs");

  Problem problem;
  if (!o.input_a.empty()) {
    problem = loadProblem(o);
    checkProblemFits(device.info, problem.m, problem.n, problem.k);
  } else {
    const int fallback = device.info.is_gpu ? kDefaultGpuSize : kDefaultOtherSize;
    const int m = o.m.value_or(fallback), n = o.n.value_or(fallback), k = o.k.value_or(fallback);
    checkProblemFits(device.info, m, n, k);
    problem = makeRandomProblem(m, n, k, o.alpha, o.beta, o.seed);
  }
  if (!o.input_c.empty() && problem.beta == 0.0f)
    err << "clgemm: note: --input-c is not read because beta is 0\n";

  const KernelSource source = loadKernelSource(o.kernel_file);
  std::vector<PreparedVariant> prepared;
  std::vector<ResultRow> rows;
  bool any_error = false, any_failure = false;
  try {
    cl::Context context(device.device);
    cl::CommandQueue queue(context, device.device, CL_QUEUE_PROFILING_ENABLE);
    ProgramCache programs(context, device.device, source.text, source.origin);
    // Every variant is checked and built before any runs, so a bad define fails in seconds.
    for (const Variant* v : chosen)
      prepared.push_back(prepare(*v, o, device, programs, problem.m, problem.n));

    Reference reference;
    if (o.check) reference = computeReference(problem);

    const std::size_t c_count = std::size_t(problem.m) * std::size_t(problem.n);
    cl::Buffer a(context, CL_MEM_READ_ONLY, problem.a.size() * sizeof(float));
    cl::Buffer b(context, CL_MEM_READ_ONLY, problem.b.size() * sizeof(float));
    cl::Buffer c(context, CL_MEM_READ_WRITE, c_count * sizeof(float));
    queue.enqueueWriteBuffer(a, CL_TRUE, 0, problem.a.size() * sizeof(float), problem.a.data());
    queue.enqueueWriteBuffer(b, CL_TRUE, 0, problem.b.size() * sizeof(float), problem.b.data());

    // Before every run C is reset to C0 (beta != 0) or poisoned with NaN, so a run never sees the
    // previous one's result and an element the kernel fails to write cannot pass.
    const auto reset_c = [&] {
      if (problem.beta != 0.0f) {
        queue.enqueueWriteBuffer(c, CL_FALSE, 0, c_count * sizeof(float), problem.c0.data());
      } else {
        queue.enqueueFillBuffer(c, std::numeric_limits<float>::quiet_NaN(), 0,
                                c_count * sizeof(float));
      }
    };

    std::vector<float> result(c_count);
    bool output_written = false;
    for (auto& p : prepared) {
      ResultRow row;
      row.variant = p.variant->name;
      row.defines = p.defines.all();
      try {
        p.kernel.setArg(0, problem.m);
        p.kernel.setArg(1, problem.n);
        p.kernel.setArg(2, problem.k);
        p.kernel.setArg(3, problem.alpha);
        p.kernel.setArg(4, problem.beta);
        p.kernel.setArg(5, a);
        p.kernel.setArg(6, b);
        p.kernel.setArg(7, c);
        const Timings t = timeKernel(queue, p.kernel, p.shape, o.warmup, o.reps, reset_c);
        row.ms_median = t.median();
        row.ms_min = t.min();
        row.gflops = problem.flops() / (t.median() * 1e-3) * 1e-9;
        queue.enqueueReadBuffer(c, CL_TRUE, 0, c_count * sizeof(float), result.data());
        if (o.check) {
          const Verification v = verify(reference, result, std::size_t(problem.n));
          row.err_ratio = v.max_ratio;
          row.status = v.passed ? "ok" : "FAIL";
          if (!v.passed) {
            row.message = "verification failed: " + v.describe();
            err << "clgemm: " << row.variant << ": " << row.message << "\n";
            any_failure = true;
          } else if (!o.output_c.empty() && !output_written) {
            writeNpy(o.output_c, "--output-c", std::size_t(problem.m), std::size_t(problem.n),
                     result);
            output_written = true;
          }
        } else {
          row.status = "unchecked";
        }
      } catch (const cl::Error& e) {
        row.status = "error";
        row.message = ClError(e.what(), e.err()).what();
      } catch (const ClError& e) {
        row.status = "error";
        row.message = e.what();
      }
      if (row.status == "error") {
        err << "clgemm: error: " << row.variant << ": " << row.message << "\n";
        any_error = true;
      }
      rows.push_back(std::move(row));
    }
    if (!o.output_c.empty() && !output_written)
      err << "clgemm: no variant passed verification; --output-c '" << o.output_c
          << "' not written\n";
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }

  RunInfo info;
  info.device = device.info;
  info.m = problem.m;
  info.n = problem.n;
  info.k = problem.k;
  info.alpha = problem.alpha;
  info.beta = problem.beta;
  info.warmup = o.warmup;
  info.reps = o.reps;
  info.checked = o.check;
  info.kernel_source = source.origin;
  if (o.out.empty()) {
    writeReport(out, o.format, info, rows);
  } else {
    writeFileAtomically(o.out, "--out",
                        [&](std::ostream& file) { writeReport(file, o.format, info, rows); });
  }
  if (any_error) return kExitRuntime;
  if (any_failure) return kExitVerifyFailed;
  return kExitOk;
}

}  // namespace clgemm
