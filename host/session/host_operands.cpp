#include "session/host_operands.hpp"

#include <algorithm>
#include <limits>

namespace clgemm {

GuardedHostMatrix::GuardedHostMatrix(std::string name, std::size_t count)
    : name_(std::move(name)), count_(count), storage_(count + 2 * kGuardFloats, canaryValue()) {}

void GuardedHostMatrix::checkGuards(MemoryCheck& out) const {
  checkGuard(storage_.data(), kGuardFloats, GuardSide::kBefore, name_, out);
  checkGuard(storage_.data() + kGuardFloats + count_, kGuardFloats, GuardSide::kAfter, name_, out);
}

HostOperands::HostOperands(const Problem& problem)
    : problem_(problem),
      storage_(problem.storage()),
      a_("A", problem.storedA().size()),
      b_("B", problem.storedB().size()),
      c_("C", storage_.c.count()),
      initial_c_(initialStoredC(problem)) {
  std::copy(problem.storedA().begin(), problem.storedA().end(), a_.data());
  std::copy(problem.storedB().begin(), problem.storedB().end(), b_.data());
}

void HostOperands::resetC() {
  if (!initial_c_.empty()) {
    std::copy(initial_c_.begin(), initial_c_.end(), c_.data());
  } else {
    std::fill(c_.data(), c_.data() + c_.size(), std::numeric_limits<float>::quiet_NaN());
  }
}

void HostOperands::copyCTo(std::vector<float>& result) {
  if (storage_.c.packedRowMajor())
    result.assign(c_.data(), c_.data() + c_.size());
  else
    gatherResult(c_.data(), storage_.c, result, c_gaps_);
}

MemoryCheck HostOperands::check() const {
  MemoryCheck out;
  a_.checkGuards(out);
  b_.checkGuards(out);
  c_.checkGuards(out);
  ChangedElements a_changed, b_changed;
  a_changed.scan(a_.data(), problem_.storedA().data(), a_.size(), 0);
  b_changed.scan(b_.data(), problem_.storedB().data(), b_.size(), 0);
  a_changed.report("A", std::size_t(storage_.a.ld), out);
  b_changed.report("B", std::size_t(storage_.b.ld), out);
  out.findings.insert(out.findings.end(), c_gaps_.findings.begin(), c_gaps_.findings.end());
  return out;
}

}  // namespace clgemm
