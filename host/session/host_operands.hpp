// The host runners' own copies of A, B and C, each between canaries (memory_check.hpp): the CPU
// paths and OpenBLAS get pointers into these, so a write past C or into A or B is found after the
// run instead of corrupting the problem every later variant is checked against.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "check/memory_check.hpp"
#include "problem/problem.hpp"

namespace clgemm {

// One matrix with kGuardFloats canaries on each side.
class GuardedHostMatrix {
 public:
  GuardedHostMatrix(std::string name, std::size_t count);

  float* data() { return storage_.data() + kGuardFloats; }
  const float* data() const { return storage_.data() + kGuardFloats; }
  std::size_t size() const { return count_; }
  // Adds a finding for each guard that is no longer all canaries.
  void checkGuards(MemoryCheck& out) const;

 private:
  std::string name_;
  std::size_t count_;
  std::vector<float> storage_;
};

class HostOperands {
 public:
  // Copies A and B of `problem`; C is sized and left for resetC.
  explicit HostOperands(const Problem& problem);

  // The stored matrices (Problem::storage() says how they lie).
  const float* a() const { return a_.data(); }
  const float* b() const { return b_.data(); }
  float* c() { return c_.data(); }
  // C before a run: C0 when beta != 0, else NaN, so an element never written cannot pass; the
  // canary in C's gaps.
  void resetC();
  // C as the logical matrix (M x N, row-major); what was written into its gaps goes to check().
  void copyCTo(std::vector<float>& result);
  // The guards of all three, A and B against the problem's, and C's gaps.
  MemoryCheck check() const;

 private:
  const Problem& problem_;
  GemmStorage storage_;
  GuardedHostMatrix a_, b_, c_;
  std::vector<float> initial_c_;  // initialStoredC, or empty (a NaN fill)
  MemoryCheck c_gaps_;
};

}  // namespace clgemm
