// Runner for the kernels in kernels.cl.
#include <deque>
#include <utility>

#include "opencl/cl_check.hpp"
#include "run/kernel_plan.hpp"
#include "run/launch.hpp"
#include "run/variant_runner.hpp"

namespace clgemm {
namespace {

// The command line's run of one kernel: its KernelPlan (kernel_plan.hpp) on the session's A, B
// and C (or the caller's ClOperands), scratch matrices between canaries, timed by profiling events.
class ClKernelRunner : public ClGemmRunner {
 public:
  ClKernelRunner(const Variant& variant, const ResolvedDefines& defines, ClSession& session,
                 const Problem& problem, const std::string& extra_options, std::ostream* log,
                 std::optional<ClOperands> operands)
      : session_(session),
        problem_(problem),
        plan_(variant, defines, {session.info(), session.device(), session.programs()},
              problem.precision, problem.rowMajor(), extra_options, log),
        operands_(std::move(operands)) {}

  Timings run(int warmup, int reps, std::vector<double>& result) override {
    const std::vector<Launch> launches = bind();
    const Timings t =
        timeKernels(session_.queue(), launches, warmup, reps, [&] { session_.resetC(); });
    session_.readC(result);
    return t;
  }

  std::pair<cl::Event, cl::Event> enqueueGemm(const std::vector<cl::Event>* wait) override {
    const std::vector<Launch> launches = bind();
    try {
      return enqueueLaunches(operands_ ? operands_->queue : session_.queue(), launches, wait);
    } catch (const cl::Error& e) {
      rethrowClError(e);
    }
  }

  MemoryCheck checkMemory() override {
    MemoryCheck out = session_.checkMemory();
    for (GuardedClBuffer& scratch : scratch_) scratch.checkGuards(session_.queue(), out);
    return out;
  }

  std::string deviceName() const override { return session_.info().name; }
  std::vector<ResolvedDefine> derivedDefines() const override { return plan_.derived(); }
  std::string plan() const override { return plan_.summary(); }
  std::optional<KernelFigures> figures() const override { return plan_.figures(); }

 private:
  std::vector<Launch> bind() {
    const PlanOperands operands = operands_
                                      ? PlanOperands{operands_->a, operands_->b, operands_->c}
                                      : PlanOperands{session_.a(), session_.b(), session_.c()};
    return plan_.bind(operands, problem_.alpha, problem_.beta,
                      [&](std::size_t count, const std::string& name, bool zeroed) {
                        scratch_.push_back(session_.scratch(count, name));
                        // Finished before the GEMM's queue (which may be another) reads it.
                        if (zeroed) {
                          scratch_.back().fill(session_.queue(), 0.0);
                          session_.queue().finish();
                        }
                        return scratch_.back().view();
                      });
  }

  ClSession& session_;
  const Problem& problem_;
  KernelPlan plan_;
  std::optional<ClOperands> operands_;
  std::deque<GuardedClBuffer> scratch_;  // the plan's scratch matrices, whose guards are checked
};

}  // namespace

std::string clKernelBuildOptions(const Variant& variant, const ResolvedDefines& defines,
                                 const Problem& problem, const DeviceInfo& device,
                                 const std::string& extra_options,
                                 std::vector<ResolvedDefine>* derived) {
  return kernelBuildOptions(variant, defines, problem.precision, problem.rowMajor(), device,
                            extra_options, derived);
}

std::unique_ptr<ClGemmRunner> makeClKernelRunner(const Variant& variant,
                                                 const ResolvedDefines& defines, ClSession& session,
                                                 const Problem& problem,
                                                 const std::string& extra_options,
                                                 std::ostream* log,
                                                 std::optional<ClOperands> operands) {
  return std::make_unique<ClKernelRunner>(variant, defines, session, problem, extra_options, log,
                                          std::move(operands));
}

}  // namespace clgemm
