// How a run's C is judged: against the full double reference, or, where that would take minutes,
// against a sampled one (sampled_check.hpp). `--check auto` picks by size; the report says which.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/memory_check.hpp"
#include "check/reference.hpp"
#include "check/sampled_check.hpp"
#include "check/verify.hpp"
#include "problem/problem.hpp"

namespace clgemm {

enum class CheckMode { kAuto, kFull, kSampled };

// Beyond this many multiply-adds (2048^3) `--check auto` samples: the full reference then takes
// more than a few seconds per size on a few cores, minutes at 8192^3.
inline constexpr double kFullCheckMaxMacs = 8589934592.0;  // 2^33
inline constexpr std::size_t kSampledRows = 64;
inline constexpr std::size_t kSampledVectors = 2;

class ResultCheck {
 public:
  ResultCheck(const Problem& problem, CheckMode mode, std::uint64_t seed);

  // Judged by `threshold`: the variant's (errorThresholdFor its arithmetic).
  // `c`: the logical result; judged in units of the problem's precision's epsilon.
  Verification operator()(const std::vector<double>& c,
                          double threshold = kErrorRatioThreshold) const;
  // "full" or "sampled", the CSV's check column.
  std::string kind() const { return sampled_ ? "sampled" : "full"; }

 private:
  std::size_t n_;
  double eps_;
  std::optional<Reference> full_;
  std::optional<SampledReference> sampled_;
};

// A checked run's status and message: "ok", or "FAIL" with what the verification and the memory
// check found, a verification failure after `wrong` ("verification failed" in a run, "wrong
// result" in the tuner).
struct Verdict {
  std::string status, message;
};
Verdict judgeRun(const Verification& verification, const MemoryCheck& memory,
                 const std::string& wrong);

// What a check of this kind ("full" or "sampled") compares, for the report.
std::string describeCheck(const std::string& kind);

}  // namespace clgemm
