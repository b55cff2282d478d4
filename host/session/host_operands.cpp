#include "session/host_operands.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace clgemm {

GuardedHostMatrix::GuardedHostMatrix(std::string name, std::size_t count, Precision precision)
    : name_(std::move(name)),
      count_(count),
      precision_(precision),
      storage_((count * elementBytes(precision) + 2 * kGuardBytes + sizeof(double) - 1) /
               sizeof(double)) {
  const float canary = canaryValue();
  auto* before = reinterpret_cast<float*>(base());
  auto* after = reinterpret_cast<float*>(base() + kGuardBytes + count * elementBytes(precision));
  std::fill(before, before + kGuardFloats, canary);
  std::fill(after, after + kGuardFloats, canary);
}

void GuardedHostMatrix::checkGuards(MemoryCheck& out) const {
  const auto* before = reinterpret_cast<const float*>(base());
  const auto* after =
      reinterpret_cast<const float*>(base() + kGuardBytes + count_ * elementBytes(precision_));
  checkGuard(before, kGuardFloats, GuardSide::kBefore, name_, out);
  checkGuard(after, kGuardFloats, GuardSide::kAfter, name_, out);
}

HostOperands::HostOperands(const Problem& problem)
    : problem_(problem),
      storage_(problem.storage()),
      a_("A", problem.storedA().size(), problem.precision),
      b_("B", problem.storedB().size(), problem.precision),
      c_("C", storage_.c.count(), problem.precision),
      initial_c_(initialStoredC(problem)) {
  std::memcpy(a_.data(), problem.storedA().data(), problem.storedA().bytes());
  std::memcpy(b_.data(), problem.storedB().data(), problem.storedB().bytes());
}

void HostOperands::resetC() {
  if (!initial_c_.empty()) {
    std::memcpy(c_.data(), initial_c_.data(), initial_c_.bytes());
  } else if (problem_.precision == Precision::kFp64) {
    std::fill(c_.as<double>(), c_.as<double>() + c_.size(),
              std::numeric_limits<double>::quiet_NaN());
  } else {
    std::fill(c_.as<float>(), c_.as<float>() + c_.size(), std::numeric_limits<float>::quiet_NaN());
  }
}

void HostOperands::copyCTo(std::vector<double>& result) {
  gatherResult(c_.data(), problem_.precision, storage_.c, result, c_gaps_);
}

MemoryCheck HostOperands::check() const {
  MemoryCheck out;
  a_.checkGuards(out);
  b_.checkGuards(out);
  c_.checkGuards(out);
  ChangedElements a_changed, b_changed;
  a_changed.scan(a_.data(), problem_.storedA().data(), a_.size(), 0, problem_.precision);
  b_changed.scan(b_.data(), problem_.storedB().data(), b_.size(), 0, problem_.precision);
  a_changed.report("A", std::size_t(storage_.a.ld), out);
  b_changed.report("B", std::size_t(storage_.b.ld), out);
  out.findings.insert(out.findings.end(), c_gaps_.findings.begin(), c_gaps_.findings.end());
  return out;
}

}  // namespace clgemm
