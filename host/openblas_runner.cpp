// OpenBLAS's cblas_sgemm as the CPU baseline.
#include "variant_runner.hpp"

#ifdef CLGEMM_HAVE_OPENBLAS
#include <cblas.h>

#include "host_info.hpp"

namespace clgemm {
namespace {

class OpenblasRunner : public VariantRunner {
 public:
  OpenblasRunner(const Problem& problem, int threads) : problem_(problem), threads_(threads) {}

  Timings run(int warmup, int reps, std::vector<float>& result) override {
    result.resize(std::size_t(problem_.m) * std::size_t(problem_.n));
    openblas_set_num_threads(threads_);
    // The first call starts OpenBLAS's thread pool and allocates its buffers: never timed.
    return timeHostCalls(
        std::max(warmup, 1), reps, [&] { resetHostC(problem_, result); },
        [&] {
          cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, problem_.m, problem_.n, problem_.k,
                      problem_.alpha, problem_.a.data(), problem_.k, problem_.b.data(), problem_.n,
                      problem_.beta, result.data(), problem_.n);
        });
  }

  std::string deviceName() const override { return hostCpuName(); }
  std::optional<int> threads() const override { return threads_; }

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
