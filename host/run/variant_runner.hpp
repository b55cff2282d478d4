// One variant made ready to run: an OpenCL kernel built and checked, a CPU path with its
// parameters, or a baseline library. The runner times it; the caller verifies and reports.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "check/memory_check.hpp"
#include "problem/problem.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "report/kernel_figures.hpp"
#include "run/timing.hpp"
#include "session/cl_session.hpp"
#include "session/host_operands.hpp"

namespace clgemm {

class VariantRunner {
 public:
  virtual ~VariantRunner() = default;
  // Runs `warmup` untimed and `reps` timed GEMMs, each from a reset C (C0, or NaN when
  // beta == 0), and leaves the last run's C in `result`.
  virtual Timings run(int warmup, int reps, std::vector<double>& result) = 0;
  // After run(): whether every matrix it touched kept its guards and the inputs are unchanged
  // (memory_check.hpp). Repairs what it finds, so the next variant starts clean.
  virtual MemoryCheck checkMemory() = 0;
  // Where it runs, for the report.
  virtual std::string deviceName() const = 0;
  // Host threads it uses, where that applies.
  virtual std::optional<int> threads() const { return std::nullopt; }
  // Defines derived from the problem rather than given (source "problem"), for the report.
  virtual std::vector<ResolvedDefine> derivedDefines() const { return {}; }
  // What its plan decided for the problem (KernelPlan::summary; OpenCL kernels only).
  virtual std::string plan() const { return ""; }
  // Something the reader should know about this row's result (shown with the row).
  virtual std::string note() const { return ""; }
  // What the built kernel costs on its device (OpenCL kernels only).
  virtual std::optional<KernelFigures> figures() const { return std::nullopt; }
};

// The CPU paths and OpenBLAS: each run works on fresh guarded copies of the operands, kept for
// checkMemory, which frees them (several CPU variants must not hold copies at once).
class HostRunner : public VariantRunner {
 public:
  MemoryCheck checkMemory() override {
    if (!operands_) return {};
    const MemoryCheck found = operands_->check();
    operands_.reset();
    return found;
  }

 protected:
  HostOperands& freshOperands(const Problem& problem) {
    operands_.reset();  // before the new copies, so two never coexist
    return operands_.emplace(problem);
  }

 private:
  std::optional<HostOperands> operands_;
};

// An OpenCL kernel's runner, which can also put one GEMM on its queue without waiting, so several
// devices compute (and transfer) at once (--devices).
class ClGemmRunner : public VariantRunner {
 public:
  // Enqueues one repetition as run() times it (helper kernels, then the GEMM; C not reset), after
  // the events in `wait` if given, and returns the events of its first and last launch.
  virtual std::pair<cl::Event, cl::Event> enqueueGemm(
      const std::vector<cl::Event>* wait = nullptr) = 0;
};

// What a runner's enqueueGemm works on in place of its session's A, B, C and queue: e.g. rows of
// them, so a panel can be computed in chunks while the next chunk's rows are written.
struct ClOperands {
  cl::Buffer a, b, c;
  cl::CommandQueue queue;
};

// The compiler options the runner builds `variant` with (its defines, those derived from the
// problem, which go to `derived` where given, the register report, `extra_options`): what the
// tuner prebuilds with ProgramCache::prebuild.
std::string clKernelBuildOptions(const Variant& variant, const ResolvedDefines& defines,
                                 const Problem& problem, const DeviceInfo& device,
                                 const std::string& extra_options,
                                 std::vector<ResolvedDefine>* derived = nullptr);

// Checks the constraints and the launch, builds the kernel and checks it against the device:
// every usage problem surfaces here, before anything runs.
// `extra_options` go to the compiler after the defines; with `log` set the build log is written
// there (e.g. ptxas's register report under -cl-nv-verbose).
std::unique_ptr<ClGemmRunner> makeClKernelRunner(const Variant& variant,
                                                 const ResolvedDefines& defines, ClSession& session,
                                                 const Problem& problem,
                                                 const std::string& extra_options,
                                                 std::ostream* log,
                                                 std::optional<ClOperands> operands = {});

std::unique_ptr<VariantRunner> makeCpuRunner(const Variant& variant, const ResolvedDefines& defines,
                                             const Problem& problem, int threads);

// Only called when backendBuilt() says the library is compiled in.
std::unique_ptr<VariantRunner> makeClblastRunner(ClSession& session, const Problem& problem);
std::unique_ptr<VariantRunner> makeOpenblasRunner(const Problem& problem, int threads);
// cuBLAS SGEMM on the CUDA device at `device`'s PCI address, FP32 or (`tf32`) on TF32 tensor
// cores. Always built: the CUDA libraries are loaded at run time (cuda_library.hpp), and the
// variant's `unsupported` has said they load. Nothing of CUDA is touched before run(), whose CUDA
// and cuBLAS failures throw CudaError.
std::unique_ptr<VariantRunner> makeCublasRunner(const DeviceInfo& device, const Problem& problem,
                                                bool tf32);

}  // namespace clgemm
