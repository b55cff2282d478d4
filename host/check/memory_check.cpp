#include "check/memory_check.hpp"

#include <cstring>
#include <sstream>

namespace clgemm {

std::string MemoryCheck::describe() const {
  std::string text = "memory check failed: ";
  for (std::size_t i = 0; i < findings.size(); ++i) text += (i ? "; " : "") + findings[i];
  return text;
}

void checkGuard(const float* guard, std::size_t count, GuardSide side, const std::string& matrix,
                MemoryCheck& out) {
  std::size_t written = 0, nearest = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (isCanary(guard[i])) continue;
    // The distance from the matrix, counting from 1: the element just past the end is 1.
    const std::size_t distance = side == GuardSide::kAfter ? i + 1 : count - i;
    if (written == 0 || distance < nearest) nearest = distance;
    ++written;
  }
  if (written == 0) return;
  std::ostringstream s;
  s << written << (written == 1 ? " float" : " floats") << " written "
    << (side == GuardSide::kAfter ? "after the end of " : "before the start of ") << matrix
    << " (the nearest " << nearest << (side == GuardSide::kAfter ? " past it)" : " before it)");
  out.findings.push_back(s.str());
}

void checkGaps(const void* stored, Precision precision, const MatrixStorage& s,
               const std::string& matrix, MemoryCheck& out) {
  const auto canaryAt = [&](std::size_t i) {
    return precision == Precision::kFp64 ? isCanary64(static_cast<const double*>(stored)[i])
                                         : isCanary(static_cast<const float*>(stored)[i]);
  };
  if (!s.hasGaps()) return;
  const std::size_t line = std::size_t(s.lineLength()), ld = std::size_t(s.ld);
  std::size_t written = 0, first_line = 0, first_offset = 0;
  for (std::size_t l = 0; l < s.lines(); ++l) {
    for (std::size_t i = line; i < ld; ++i) {
      if (canaryAt(l * ld + i)) continue;
      if (written++ == 0) {
        first_line = l;
        first_offset = i;
      }
    }
  }
  if (written == 0) return;
  const char* what = s.transposed ? "column" : "row";
  std::ostringstream text;
  text << matrix << ": " << written << (written == 1 ? " element" : " elements")
       << " written into the gaps between its stored " << what << "s (ld " << ld << ", " << what
       << "s of " << line << "), the first at " << what << " " << first_line << ", offset "
       << first_offset;
  out.findings.push_back(text.str());
}

void gatherResult(const void* stored, Precision precision, const MatrixStorage& storage,
                  std::vector<double>& result, MemoryCheck& gaps) {
  gatherMatrix(stored, precision, storage, result);
  checkGaps(stored, precision, storage, "C", gaps);
}

void ChangedElements::scan(const void* now, const void* original, std::size_t count,
                           std::size_t offset, Precision precision) {
  const std::size_t bytes = elementBytes(precision);
  const auto* n = static_cast<const unsigned char*>(now);
  const auto* o = static_cast<const unsigned char*>(original);
  const auto value = [&](const unsigned char* at) {
    if (precision == Precision::kFp64) {
      double d;
      std::memcpy(&d, at, sizeof d);
      return d;
    }
    float f;
    std::memcpy(&f, at, sizeof f);
    return double(f);
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (std::memcmp(n + i * bytes, o + i * bytes, bytes) == 0) continue;
    if (count_ == 0) {
      first_ = offset + i;
      first_now_ = value(n + i * bytes);
      first_original_ = value(o + i * bytes);
    }
    ++count_;
  }
}

void ChangedElements::report(const std::string& matrix, std::size_t cols, MemoryCheck& out) const {
  if (count_ == 0) return;
  std::ostringstream s;
  s << matrix << " changed: " << count_ << (count_ == 1 ? " element differs" : " elements differ")
    << ", the first " << matrix << "[" << first_ / cols << "," << first_ % cols
    << "] = " << first_now_ << " instead of " << first_original_;
  out.findings.push_back(s.str());
}

}  // namespace clgemm
