// Runner for the kernels in kernels.cl.
#include "cl_check.hpp"
#include "errors.hpp"
#include "launch.hpp"
#include "variant_runner.hpp"

namespace clgemm {
namespace {

class ClKernelRunner : public VariantRunner {
 public:
  ClKernelRunner(const Variant& variant, const ResolvedDefines& defines, ClSession& session,
                 const Problem& problem, const std::string& extra_options, std::ostream* log)
      : session_(session), problem_(problem) {
    checkConstraints(variant, defines);
    shape_ = variant.shape(defines, problem.m, problem.n);
    checkVariantConfig(session.info(), variant, defines, shape_);
    // Only this variant's section of kernels.cl is compiled (see the file's header).
    std::string options =
        "-D CLGEMM_ONE_KERNEL -D KERNEL_" + variant.entry + " " + defines.compilerOptions();
    if (variant.problem_defines) {
      for (const auto& d : variant.problem_defines(defines, problem.m, problem.n, problem.k)) {
        options += " -D " + d.name + "=" + d.value;
        derived_.push_back(d);
      }
    }
    if (!extra_options.empty()) options += " " + extra_options;
    const BuiltProgram& built = session.programs().get(options);
    if (log)
      *log << "clgemm: build log of " << variant.name << " (" << options << "):\n"
           << built.log << "\n";
    try {
      kernel_ = cl::Kernel(built.program, variant.entry.c_str());
    } catch (const cl::Error& e) {
      if (e.err() == CL_INVALID_KERNEL_NAME)
        throw UsageError(variant.name + ": the kernels file has no kernel '" + variant.entry + "'");
      rethrowClError(e);
    }
    checkBuiltKernel(kernel_, session.device(), session.info(), variant, shape_);
  }

  Timings run(int warmup, int reps, std::vector<float>& result) override {
    try {
      kernel_.setArg(0, problem_.m);
      kernel_.setArg(1, problem_.n);
      kernel_.setArg(2, problem_.k);
      kernel_.setArg(3, problem_.alpha);
      kernel_.setArg(4, problem_.beta);
      kernel_.setArg(5, session_.a());
      kernel_.setArg(6, session_.b());
      kernel_.setArg(7, session_.c());
    } catch (const cl::Error& e) {
      rethrowClError(e);
    }
    const Timings t =
        timeKernel(session_.queue(), kernel_, shape_, warmup, reps, [&] { session_.resetC(); });
    session_.readC(result);
    return t;
  }

  std::string deviceName() const override { return session_.info().name; }
  std::vector<ResolvedDefine> derivedDefines() const override { return derived_; }

 private:
  ClSession& session_;
  const Problem& problem_;
  LaunchShape shape_;
  cl::Kernel kernel_;
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
