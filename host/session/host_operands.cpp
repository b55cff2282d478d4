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
      a_("A", problem.a.size()),
      b_("B", problem.b.size()),
      c_("C", std::size_t(problem.m) * std::size_t(problem.n)) {
  std::copy(problem.a.begin(), problem.a.end(), a_.data());
  std::copy(problem.b.begin(), problem.b.end(), b_.data());
}

void HostOperands::resetC() {
  if (problem_.beta != 0.0f) {
    std::copy(problem_.c0.begin(), problem_.c0.end(), c_.data());
  } else {
    std::fill(c_.data(), c_.data() + c_.size(), std::numeric_limits<float>::quiet_NaN());
  }
}

void HostOperands::copyCTo(std::vector<float>& result) const {
  result.assign(c_.data(), c_.data() + c_.size());
}

MemoryCheck HostOperands::check() const {
  MemoryCheck out;
  a_.checkGuards(out);
  b_.checkGuards(out);
  c_.checkGuards(out);
  ChangedElements a_changed, b_changed;
  a_changed.scan(a_.data(), problem_.a.data(), a_.size(), 0);
  b_changed.scan(b_.data(), problem_.b.data(), b_.size(), 0);
  a_changed.report("A", std::size_t(problem_.k), out);
  b_changed.report("B", std::size_t(problem_.n), out);
  return out;
}

}  // namespace clgemm
