#include "check/result_check.hpp"

namespace clgemm {

ResultCheck::ResultCheck(const Problem& problem, CheckMode mode, std::uint64_t seed)
    : n_(std::size_t(problem.n)), eps_(machineEpsilon(problem.precision)) {
  const double macs = double(problem.m) * double(problem.n) * double(problem.k);
  const bool sample =
      mode == CheckMode::kSampled || (mode == CheckMode::kAuto && macs > kFullCheckMaxMacs);
  if (sample)
    sampled_ = computeSampledReference(problem, kSampledRows, kSampledVectors, seed);
  else
    full_ = computeReference(problem);
}

Verification ResultCheck::operator()(const std::vector<double>& c, double threshold) const {
  return sampled_ ? verifySampled(*sampled_, c, threshold, eps_)
                  : verify(*full_, c, n_, threshold, eps_);
}

std::string describeCheck(const std::string& kind) {
  if (kind != "sampled")
    return "every element against the double reference (compensated for FP64 results)";
  return "verified on a sample at this size: " + std::to_string(kSampledRows) +
         " rows (the first, the last and random ones) element by element against the double "
         "reference, and every row through C*x = alpha*A*(B*x) + beta*C0*x for " +
         std::to_string(kSampledVectors) +
         " random sign vectors x (--check full compares every element, which takes minutes at "
         "large "
         "sizes)";
}

Verdict judgeRun(const Verification& verification, const MemoryCheck& memory,
                 const std::string& wrong) {
  Verdict v;
  v.status = verification.passed && memory.clean() ? "ok" : "FAIL";
  if (!verification.passed) v.message = wrong + ": " + verification.describe();
  if (!memory.clean()) v.message += (v.message.empty() ? "" : "; ") + memory.describe();
  return v;
}

}  // namespace clgemm
