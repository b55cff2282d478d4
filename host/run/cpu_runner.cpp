// Runner for clgemm's own CPU paths: host clock, C reset between runs outside the timed call.

#include "run/variant_runner.hpp"
#include "util/errors.hpp"
#include "util/host_info.hpp"

namespace clgemm {
namespace {

// A stored matrix's strides: (r, c) lies at transposed ? c * ld + r : r * ld + c.
Strides stridesOf(const MatrixStorage& s) {
  const std::ptrdiff_t ld = s.ld;
  return s.transposed ? Strides{1, ld} : Strides{ld, 1};
}

class CpuRunner : public HostRunner {
 public:
  CpuRunner(const Variant& variant, const ResolvedDefines& defines, const Problem& problem,
            int threads)
      : variant_(variant), defines_(defines), problem_(problem), threads_(threads) {
    checkConstraints(variant, defines);
  }

  Timings run(int warmup, int reps, std::vector<double>& result) override {
    HostOperands& ops = freshOperands(problem_);
    CpuGemm g;
    g.m = problem_.m;
    g.n = problem_.n;
    g.k = problem_.k;
    // FP32 only: the variants are fp32_only, skipped for FP64 problems before they get here.
    g.alpha = float(problem_.alpha);
    g.beta = float(problem_.beta);
    g.a = ops.a<float>();
    g.b = ops.b<float>();
    g.c = ops.c<float>();
    g.threads = threads_;
    // The operands as stored (gemm_shape.hpp): cpu-packed reads them in place; the paths that
    // take only packed row-major ones are skipped for other shapes before they get here.
    const GemmStorage storage = problem_.storage();
    g.a_strides = stridesOf(storage.a);
    g.b_strides = stridesOf(storage.b);
    g.c_strides = stridesOf(storage.c);
    const Timings t = timeHostCalls(
        warmup, reps, [&] { ops.resetC(); }, [&] { variant_.cpu(g, defines_); });
    ops.copyCTo(result);
    return t;
  }

  std::string deviceName() const override { return hostCpuName(); }
  std::optional<int> threads() const override { return threads_; }

 private:
  const Variant& variant_;
  ResolvedDefines defines_;
  const Problem& problem_;
  int threads_;
};

}  // namespace

std::unique_ptr<VariantRunner> makeCpuRunner(const Variant& variant, const ResolvedDefines& defines,
                                             const Problem& problem, int threads) {
  return std::make_unique<CpuRunner>(variant, defines, problem, threads);
}

}  // namespace clgemm
