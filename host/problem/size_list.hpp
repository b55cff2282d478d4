// --sizes: the problem sizes of a sweep. A comma list whose items are one size N (M = N = K), a
// shape MxNxK, a geometric range FROM:TO:xFACTOR (256:8192:x2) or an arithmetic range
// FROM:TO:+STEP (128:2048:+128). Ranges include TO when the steps land on it.
#pragma once

#include <string>
#include <vector>

namespace clgemm {

struct Shape {
  int m = 0, n = 0, k = 0;
  bool operator==(const Shape& o) const { return m == o.m && n == o.n && k == o.k; }
};

// A sweep longer than this is almost certainly a typo (1:100000:+1) rather than a plan.
inline constexpr std::size_t kMaxSweepSizes = 1000;

// Throws UsageError naming the offending item for anything malformed: empty items, sizes below 1
// or beyond int, ranges that run backwards or never advance, more than kMaxSweepSizes sizes.
std::vector<Shape> parseSizeList(const std::string& text);

// "4096" for a square shape, "8192x8192x256" otherwise.
std::string shapeText(const Shape& shape);

// "M=8192 N=8192 K=256", for reports and progress lines.
std::string shapeDims(const Shape& shape);

}  // namespace clgemm
