// CLBlast's SGEMM (DGEMM for FP64) as a baseline, on the same context, queue and buffers as
// clgemm's kernels, called with the problem's layout, transposes and leading dimensions.
#include "run/variant_runner.hpp"

#ifdef CLGEMM_HAVE_CLBLAST
#include <clblast.h>

#include "opencl/cl_check.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

class ClblastRunner : public VariantRunner {
 public:
  ClblastRunner(ClSession& session, const Problem& problem)
      : session_(session), problem_(problem), storage_(problem.storage()) {}

  Timings run(int warmup, int reps, std::vector<double>& result) override {
    // CLBlast may launch several kernels per call (and the event it returns does not cover them
    // all), so the call is timed with a host clock up to clFinish. Its first call compiles its
    // kernels: at least one warm-up call, whatever --warmup says.
    const Timings t = timeHostCalls(
        std::max(warmup, 1), reps,
        [&] {
          session_.resetC();
          session_.queue().finish();
        },
        [&] { gemm(); });
    session_.readC(result);
    return t;
  }

  MemoryCheck checkMemory() override { return session_.checkMemory(); }

  std::string deviceName() const override { return session_.info().name; }

 private:
  // The call a BLAS user makes for this problem: the session's buffers hold the stored matrices
  // (gemm_shape.hpp), whose leading dimensions are BLAS's lda, ldb and ldc in either layout.
  void gemm() {
    cl_command_queue queue = session_.queue()();
    const std::size_t m = std::size_t(problem_.m), n = std::size_t(problem_.n),
                      k = std::size_t(problem_.k);
    const GemmShape& shape = problem_.shape;
    const auto op = [](Trans t) {
      return t == Trans::kT ? clblast::Transpose::kYes : clblast::Transpose::kNo;
    };
    const auto layout =
        shape.layout == Layout::kCol ? clblast::Layout::kColMajor : clblast::Layout::kRowMajor;
    const auto call = [&](auto alpha, auto beta) {
      return clblast::Gemm<decltype(alpha)>(
          layout, op(shape.trans_a), op(shape.trans_b), m, n, k, alpha, session_.a()(), 0,
          std::size_t(storage_.a.ld), session_.b()(), 0, std::size_t(storage_.b.ld), beta,
          session_.c()(), 0, std::size_t(storage_.c.ld), &queue, nullptr);
    };
    // SGEMM, or DGEMM for FP64 problems.
    const clblast::StatusCode status = problem_.precision == Precision::kFp64
                                           ? call(problem_.alpha, problem_.beta)
                                           : call(float(problem_.alpha), float(problem_.beta));
    if (status != clblast::StatusCode::kSuccess) {
      // CLBlast's codes include every OpenCL code; its own are below -1000.
      throw ClError("clblast::Gemm", int(status));
    }
    clCheck(clFinish(queue), "clFinish after clblast::Gemm");
  }

  ClSession& session_;
  const Problem& problem_;
  GemmStorage storage_;
};

}  // namespace

std::unique_ptr<VariantRunner> makeClblastRunner(ClSession& session, const Problem& problem) {
  return std::make_unique<ClblastRunner>(session, problem);
}

}  // namespace clgemm

#else

namespace clgemm {
std::unique_ptr<VariantRunner> makeClblastRunner(ClSession&, const Problem&) { return nullptr; }
}  // namespace clgemm

#endif
