// Runner for clgemm's own CPU paths: host clock, C reset between runs outside the timed call.
#include <algorithm>
#include <limits>

#include "errors.hpp"
#include "host_info.hpp"
#include "variant_runner.hpp"

namespace clgemm {
namespace {

class CpuRunner : public VariantRunner {
 public:
  CpuRunner(const Variant& variant, const ResolvedDefines& defines, const Problem& problem,
            int threads)
      : variant_(variant), defines_(defines), problem_(problem), threads_(threads) {
    checkConstraints(variant, defines);
  }

  Timings run(int warmup, int reps, std::vector<float>& result) override {
    result.resize(std::size_t(problem_.m) * std::size_t(problem_.n));
    CpuGemm g;
    g.m = problem_.m;
    g.n = problem_.n;
    g.k = problem_.k;
    g.alpha = problem_.alpha;
    g.beta = problem_.beta;
    g.a = problem_.a.data();
    g.b = problem_.b.data();
    g.c = result.data();
    g.threads = threads_;
    return timeHostCalls(
        warmup, reps, [&] { resetHostC(problem_, result); }, [&] { variant_.cpu(g, defines_); });
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

void resetHostC(const Problem& problem, std::vector<float>& c) {
  if (problem.beta != 0.0f) {
    std::copy(problem.c0.begin(), problem.c0.end(), c.begin());
  } else {
    std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
  }
}

std::unique_ptr<VariantRunner> makeCpuRunner(const Variant& variant, const ResolvedDefines& defines,
                                             const Problem& problem, int threads) {
  return std::make_unique<CpuRunner>(variant, defines, problem, threads);
}

}  // namespace clgemm
