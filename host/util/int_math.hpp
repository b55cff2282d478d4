// Integer rounding: the blocks of a size that cover a length, and a length rounded up to a
// multiple, for the registry's tile counts and the session's guard bytes. cpu/cpu_packed.cpp (int
// block sizes) and report/occupancy.cpp (signed and unsigned 64-bit occupancy units) keep their
// own, typed for their arithmetic: these would need a cast at each of their calls.
#pragma once

#include <cstddef>

namespace clgemm {

// The blocks of `divisor` that cover `value` (value >= 0, divisor > 0): value / divisor rounded up.
constexpr long long ceilDiv(long long value, long long divisor) {
  return (value + divisor - 1) / divisor;
}

// `value` rounded up to a multiple of `multiple` (> 0).
constexpr std::size_t roundUp(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace clgemm
