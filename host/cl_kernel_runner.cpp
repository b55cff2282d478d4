// Runner for the kernels in kernels.cl.
#include "cl_check.hpp"
#include "errors.hpp"
#include "kernel_figures.hpp"
#include "launch.hpp"
#include "variant_runner.hpp"

namespace clgemm {
namespace {

// The kernel `entry` of a built program; a kernels file without it is a usage error.
cl::Kernel kernelNamed(const BuiltProgram& built, const Variant& variant, const std::string& entry,
                       const std::string& origin) {
  try {
    return cl::Kernel(built.program, entry.c_str());
  } catch (const cl::Error& e) {
    if (e.err() == CL_INVALID_KERNEL_NAME)
      throw UsageError(variant.name + ": the kernels file (" + origin + ") has no kernel '" +
                       entry + "'");
    rethrowClError(e);
  }
}

class ClKernelRunner : public VariantRunner {
 public:
  ClKernelRunner(const Variant& variant, const ResolvedDefines& defines, ClSession& session,
                 const Problem& problem, const std::string& extra_options, std::ostream* log)
      : session_(session), problem_(problem) {
    checkConstraints(variant, defines);
    gemm_.shape = variant.shape(defines, problem.m, problem.n);
    checkVariantConfig(session.info(), variant, defines, gemm_.shape);
    LaunchShape transpose_shape;
    if (!variant.transpose_b_entry.empty()) {
      transpose_shape = variant.transpose_b_shape(defines, problem.k, problem.n);
      checkVariantConfig(session.info(), variant, defines, transpose_shape);
    }
    // Only this variant's section of kernels.cl is compiled (see the file's header).
    std::string options =
        "-D CLGEMM_ONE_KERNEL -D KERNEL_" + variant.entry + " " + defines.compilerOptions();
    if (variant.problem_defines) {
      for (const auto& d : variant.problem_defines(defines, problem.m, problem.n, problem.k)) {
        options += " -D " + d.name + "=" + d.value;
        derived_.push_back(d);
      }
    }
    const std::string report = registerReportOption(session.info());
    if (!report.empty()) options += " " + report;
    if (!extra_options.empty()) options += " " + extra_options;
    const BuiltProgram& built = session.programs().get(options);
    if (log)
      *log << "clgemm: build log of " << variant.name << " (" << options << "):\n"
           << built.log << "\n";
    gemm_.kernel = kernelNamed(built, variant, variant.entry, session.programs().origin());
    figures_ = kernelFigures(gemm_.kernel, session.device(), session.info(), gemm_.shape,
                             variant.entry, built.log);
    checkBuiltKernel(session.info(), variant, gemm_.shape, figures_);
    if (!variant.transpose_b_entry.empty()) {
      Launch transpose{
          kernelNamed(built, variant, variant.transpose_b_entry, session.programs().origin()),
          transpose_shape};
      checkBuiltKernel(session.info(), variant, transpose.shape,
                       kernelFigures(transpose.kernel, session.device(), session.info(),
                                     transpose.shape, variant.transpose_b_entry, built.log));
      transpose_ = std::move(transpose);
    }
  }

  Timings run(int warmup, int reps, std::vector<float>& result) override {
    try {
      cl::Buffer& b = transpose_ ? transposedB() : session_.b();
      gemm_.kernel.setArg(0, problem_.m);
      gemm_.kernel.setArg(1, problem_.n);
      gemm_.kernel.setArg(2, problem_.k);
      gemm_.kernel.setArg(3, problem_.alpha);
      gemm_.kernel.setArg(4, problem_.beta);
      gemm_.kernel.setArg(5, session_.a());
      gemm_.kernel.setArg(6, b);
      gemm_.kernel.setArg(7, session_.c());
    } catch (const cl::Error& e) {
      rethrowClError(e);
    }
    std::vector<Launch> launches;
    if (transpose_) launches.push_back(*transpose_);
    launches.push_back(gemm_);
    const Timings t =
        timeKernels(session_.queue(), launches, warmup, reps, [&] { session_.resetC(); });
    session_.readC(result);
    return t;
  }

  MemoryCheck checkMemory() override {
    MemoryCheck out = session_.checkMemory();
    if (bt_.allocated()) bt_.checkGuards(session_.queue(), out);
    return out;
  }

  std::string deviceName() const override { return session_.info().name; }
  std::vector<ResolvedDefine> derivedDefines() const override { return derived_; }
  std::optional<KernelFigures> figures() const override { return figures_; }

 private:
  // The scratch buffer for B transposed, allocated at the first run (after A, B and C, so a bad
  // define never waits for it) and filled by the helper kernel in every repetition.
  cl::Buffer& transposedB() {
    if (!bt_.allocated()) {
      bt_ = session_.scratch(std::size_t(problem_.k) * std::size_t(problem_.n), "B transposed");
      transpose_->kernel.setArg(0, problem_.k);
      transpose_->kernel.setArg(1, problem_.n);
      transpose_->kernel.setArg(2, session_.b());
      transpose_->kernel.setArg(3, bt_.view());
    }
    return bt_.view();
  }

  ClSession& session_;
  const Problem& problem_;
  Launch gemm_;
  std::optional<Launch> transpose_;
  GuardedClBuffer bt_;
  KernelFigures figures_;
  std::vector<ResolvedDefine> derived_;
};

}  // namespace

std::unique_ptr<VariantRunner> makeClKernelRunner(const Variant& variant,
                                                  const ResolvedDefines& defines,
                                                  ClSession& session, const Problem& problem,
                                                  const std::string& extra_options,
                                                  std::ostream* log) {
  return std::make_unique<ClKernelRunner>(variant, defines, session, problem, extra_options, log);
}

}  // namespace clgemm
