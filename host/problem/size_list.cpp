#include "problem/size_list.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "util/errors.hpp"

namespace clgemm {
namespace {

[[noreturn]] void bad(const std::string& item, const std::string& why) {
  throw UsageError("--sizes item '" + item + "' " + why +
                   " (forms: 256,512,1000 or 8192x8192x256, 256:8192:x2, 128:2048:+128)");
}

// A whole positive decimal integer that fits in int; `what` names it in the message.
long positive(const std::string& item, const std::string& text, const char* what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    bad(item, std::string("has ") + what + " '" + text + "', not a positive integer");
  errno = 0;
  const long value = std::strtol(text.c_str(), nullptr, 10);
  if (errno != 0 || value > INT_MAX) bad(item, std::string("has ") + what + " beyond 2^31-1");
  if (value < 1) bad(item, std::string("has ") + what + " " + text + ", which must be at least 1");
  return value;
}

void add(std::vector<Shape>& shapes, const std::string& item, Shape shape) {
  if (shapes.size() >= kMaxSweepSizes)
    bad(item, "makes the sweep longer than " + std::to_string(kMaxSweepSizes) + " sizes");
  shapes.push_back(shape);
}

void addRange(std::vector<Shape>& shapes, const std::string& item) {
  const std::size_t first = item.find(':'), second = item.find(':', first + 1);
  if (second == std::string::npos || item.find(':', second + 1) != std::string::npos)
    bad(item, "is a range but not FROM:TO:xFACTOR or FROM:TO:+STEP");
  const long from = positive(item, item.substr(0, first), "FROM");
  const long to = positive(item, item.substr(first + 1, second - first - 1), "TO");
  const std::string step = item.substr(second + 1);
  if (from > to) bad(item, "runs backwards: FROM is larger than TO");
  if (step.empty() || (step[0] != 'x' && step[0] != '+'))
    bad(item, "has step '" + step + "': write xFACTOR (geometric) or +STEP (arithmetic)");
  const long by = positive(item, step.substr(1), step[0] == 'x' ? "FACTOR" : "STEP");
  if (step[0] == 'x' && by < 2) bad(item, "has FACTOR 1, which never advances");
  // long long: the last step may pass INT_MAX before the loop sees it is beyond TO.
  for (long long s = from; s <= to; s = step[0] == 'x' ? s * by : s + by)
    add(shapes, item, Shape{int(s), int(s), int(s)});
}

void addShape(std::vector<Shape>& shapes, const std::string& item) {
  const std::size_t first = item.find('x'), second = item.find('x', first + 1);
  if (second == std::string::npos || item.find('x', second + 1) != std::string::npos)
    bad(item, "is not MxNxK");
  add(shapes, item,
      Shape{int(positive(item, item.substr(0, first), "M")),
            int(positive(item, item.substr(first + 1, second - first - 1), "N")),
            int(positive(item, item.substr(second + 1), "K"))});
}

}  // namespace

std::vector<Shape> parseSizeList(const std::string& text) {
  if (text.empty()) throw UsageError("--sizes needs a list of sizes, e.g. 256:8192:x2");
  std::vector<Shape> shapes;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    if (item.empty()) throw UsageError("--sizes '" + text + "' has an empty item");
    if (item.find(':') != std::string::npos) {
      addRange(shapes, item);
    } else if (item.find('x') != std::string::npos) {
      addShape(shapes, item);
    } else {
      const int s = int(positive(item, item, "size"));
      add(shapes, item, Shape{s, s, s});
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return shapes;
}

std::string shapeText(const Shape& s) {
  if (s.m == s.n && s.n == s.k) return std::to_string(s.m);
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::string shapeDims(const Shape& s) {
  return "M=" + std::to_string(s.m) + " N=" + std::to_string(s.n) + " K=" + std::to_string(s.k);
}

}  // namespace clgemm
