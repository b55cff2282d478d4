#include "check/memory_check.hpp"

#include <cstring>
#include <sstream>

namespace clgemm {

float canaryValue() {
  float value;
  std::memcpy(&value, &kCanaryBits, sizeof value);
  return value;
}

bool isCanary(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits == kCanaryBits;
}

namespace {

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

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

void ChangedElements::scan(const float* now, const float* original, std::size_t count,
                           std::size_t offset) {
  for (std::size_t i = 0; i < count; ++i) {
    if (sameBits(now[i], original[i])) continue;
    if (count_ == 0) {
      first_ = offset + i;
      first_now_ = now[i];
      first_original_ = original[i];
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
