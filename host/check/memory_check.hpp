// The memory half of a run's check. A kernel that writes past the end of C, or into A or B, can
// still leave a C that verifies (the stray writes land where the check does not look), so every
// matrix a variant touches sits between canaries, and after the run the canaries are read back and
// the inputs compared with their originals. guarded_cl_buffer.hpp and host_operands.hpp apply it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "problem/gemm_shape.hpp"

namespace clgemm {

// Canary bytes before and after each matrix. A wrong stride or a missing edge test writes within a
// few rows of the end; 64 KiB covers two rows of an 8192-wide matrix and costs nothing beside it.
inline constexpr std::size_t kGuardBytes = 64 * 1024;
inline constexpr std::size_t kGuardFloats = kGuardBytes / sizeof(float);

// The canary (kCanaryBits, canaryValue, isCanary) is problem/gemm_shape.hpp's: the gaps between
// stored lines hold it too.

// What the memory check found after one run; clean when nothing.
struct MemoryCheck {
  std::vector<std::string> findings;
  bool clean() const { return findings.empty(); }
  // "memory check failed: " and the findings joined by "; ".
  std::string describe() const;
};

// Which side of its matrix a guard region lies on.
enum class GuardSide { kBefore, kAfter };

// Adds a finding when any of the `count` floats of one guard of `matrix` is no longer the canary,
// e.g. "3 floats written after the end of C (the first 1 past it)".
void checkGuard(const float* guard, std::size_t count, GuardSide side, const std::string& matrix,
                MemoryCheck& out);

// Adds a finding when a gap of stored matrix `matrix` (the elements between the end of a line and
// the next, when ld is larger than a line) no longer holds the precision's canary, e.g. "C: 3
// elements written into the gaps between its stored rows (ld 40, rows of 33), the first at row 2,
// offset 35" (tests/test_shapes_host.cpp holds it to that wording).
void checkGaps(const void* stored, Precision precision, const MatrixStorage& storage,
               const std::string& matrix, MemoryCheck& out);

// Reads a run's stored C back as the logical matrix `result`, with checkGaps' findings for C in
// `gaps`.
void gatherResult(const void* stored, Precision precision, const MatrixStorage& storage,
                  std::vector<double>& result, MemoryCheck& gaps);
inline void gatherResult(const HostMatrix& stored, const MatrixStorage& storage,
                         std::vector<double>& result, MemoryCheck& gaps) {
  gatherResult(stored.data(), stored.precision(), storage, result, gaps);
}

// Elements of a matrix that differ (bit for bit) from the original, counted over one or several
// chunks, so a device buffer can be compared without a second full copy on the host.
class ChangedElements {
 public:
  // Compares `count` elements of `precision` starting at element `offset` of the matrix.
  void scan(const void* now, const void* original, std::size_t count, std::size_t offset,
            Precision precision = Precision::kFp32);
  std::size_t count() const { return count_; }
  // Adds "A changed: 2 elements differ, the first A[3,0] = 7 instead of 0.25" when any did.
  void report(const std::string& matrix, std::size_t cols, MemoryCheck& out) const;

 private:
  std::size_t count_ = 0, first_ = 0;
  double first_now_ = 0.0, first_original_ = 0.0;
};

}  // namespace clgemm
