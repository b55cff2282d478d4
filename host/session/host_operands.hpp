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

// One matrix of `count` elements of `precision` with kGuardBytes of canaries (the float pattern,
// whatever the precision) on each side.
class GuardedHostMatrix {
 public:
  GuardedHostMatrix(std::string name, std::size_t count, Precision precision);

  void* data() { return base() + kGuardBytes; }
  const void* data() const { return base() + kGuardBytes; }
  template <typename T>
  T* as() {
    return static_cast<T*>(data());
  }
  template <typename T>
  const T* as() const {
    return static_cast<const T*>(data());
  }
  std::size_t size() const { return count_; }
  Precision precision() const { return precision_; }
  // Adds a finding for each guard that is no longer all canaries.
  void checkGuards(MemoryCheck& out) const;

 private:
  unsigned char* base() { return reinterpret_cast<unsigned char*>(storage_.data()); }
  const unsigned char* base() const {
    return reinterpret_cast<const unsigned char*>(storage_.data());
  }

  std::string name_;
  std::size_t count_;
  Precision precision_;
  std::vector<double> storage_;  // doubles, so that the matrix is aligned for either type
};

class HostOperands {
 public:
  // Copies A and B of `problem`; C is sized and left for resetC.
  explicit HostOperands(const Problem& problem);

  // The stored matrices (Problem::storage() says how they lie), as the problem's element type.
  template <typename T>
  const T* a() const {
    return a_.as<T>();
  }
  template <typename T>
  const T* b() const {
    return b_.as<T>();
  }
  template <typename T>
  T* c() {
    return c_.as<T>();
  }
  // C before a run: C0 when beta != 0, else NaN, so an element never written cannot pass; the
  // canary in C's gaps.
  void resetC();
  // C as the logical matrix (M x N, row-major); what was written into its gaps goes to check().
  void copyCTo(std::vector<double>& result);
  // The guards of all three, A and B against the problem's, and C's gaps.
  MemoryCheck check() const;

 private:
  const Problem& problem_;
  GemmStorage storage_;
  GuardedHostMatrix a_, b_, c_;
  HostMatrix initial_c_;  // initialStoredC, or empty (a NaN fill)
  MemoryCheck c_gaps_;
};

}  // namespace clgemm
