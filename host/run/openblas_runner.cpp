// OpenBLAS's cblas_sgemm (cblas_dgemm for FP64) as the CPU baseline, with the problem's layout,
// transposes and leading dimensions.
#include "run/variant_runner.hpp"

#ifdef CLGEMM_HAVE_OPENBLAS
#include <cblas.h>

#include <cstdlib>

#include "util/host_info.hpp"

namespace clgemm {
namespace {

class OpenblasRunner : public HostRunner {
 public:
  OpenblasRunner(const Problem& problem, int threads) : problem_(problem), threads_(threads) {}

  Timings run(int warmup, int reps, std::vector<double>& result) override {
    HostOperands& ops = freshOperands(problem_);
    openblas_set_num_threads(threads_);
    // The call a BLAS user makes for this problem: the operands are the stored matrices
    // (gemm_shape.hpp), whose leading dimensions are BLAS's lda, ldb and ldc in either layout.
    const GemmShape& shape = problem_.shape;
    const GemmStorage storage = problem_.storage();
    const CBLAS_ORDER layout = shape.layout == Layout::kCol ? CblasColMajor : CblasRowMajor;
    const CBLAS_TRANSPOSE trans_a = shape.trans_a == Trans::kT ? CblasTrans : CblasNoTrans;
    const CBLAS_TRANSPOSE trans_b = shape.trans_b == Trans::kT ? CblasTrans : CblasNoTrans;
    // The first call starts OpenBLAS's thread pool and allocates its buffers: never timed.
    const Timings t = timeHostCalls(
        std::max(warmup, 1), reps, [&] { ops.resetC(); },
        [&] {
          if (problem_.precision == Precision::kFp64)
            cblas_dgemm(layout, trans_a, trans_b, problem_.m, problem_.n, problem_.k,
                        problem_.alpha, ops.a<double>(), storage.a.ld, ops.b<double>(),
                        storage.b.ld, problem_.beta, ops.c<double>(), storage.c.ld);
          else
            cblas_sgemm(layout, trans_a, trans_b, problem_.m, problem_.n, problem_.k,
                        float(problem_.alpha), ops.a<float>(), storage.a.ld, ops.b<float>(),
                        storage.b.ld, float(problem_.beta), ops.c<float>(), storage.c.ld);
        });
    ops.copyCTo(result);
    return t;
  }

  std::string deviceName() const override { return hostCpuName(); }
  std::optional<int> threads() const override { return threads_; }
  // The micro-kernel OpenBLAS picked for this CPU, which decides its speed more than anything.
  std::vector<ResolvedDefine> derivedDefines() const override {
    return {{"core", openblas_get_corename(), "library"}};
  }
  // OpenBLAS falls back to its SSE3 kernel on CPUs newer than it knows (Debian's 0.3.21 on an
  // Emerald Rapids Xeon ran 5x below its AVX-512 kernel), which would make a weak baseline.
  std::string note() const override {
    const char* forced = std::getenv("OPENBLAS_CORETYPE");
    if ((forced && *forced) || std::string(openblas_get_corename()) != "Prescott" ||
        !__builtin_cpu_supports("avx2"))
      return "";
    return "OpenBLAS does not recognise this CPU and runs its SSE3 kernel (Prescott); set "
           "OPENBLAS_CORETYPE (e.g. Haswell, SkylakeX, Cooperlake) to the nearest CPU it knows";
  }

 private:
  const Problem& problem_;
  int threads_;
};

}  // namespace

std::unique_ptr<VariantRunner> makeOpenblasRunner(const Problem& problem, int threads) {
  return std::make_unique<OpenblasRunner>(problem, threads);
}

}  // namespace clgemm

#else

namespace clgemm {
std::unique_ptr<VariantRunner> makeOpenblasRunner(const Problem&, int) { return nullptr; }
}  // namespace clgemm

#endif
