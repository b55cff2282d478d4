// libFuzzer target for the --sizes parser (host/problem/size_list.hpp). parseSizeList's answer is
// compared with a plain reading of the documented grammar: whatever one accepts the other must
// accept with the same sizes, in [1, 2^31-1] and at most kMaxSweepSizes of them. A refusal must be
// a UsageError; anything else, a sanitizer report or a disagreement is a finding.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "problem/size_list.hpp"
#include "util/errors.hpp"

namespace {

using clgemm::Shape;

void check(bool ok, const char* what, const std::string& input) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_size_list: %s, input '%s'\n", what, input.c_str());
  std::abort();
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// A size: decimal digits only, 1 to INT_MAX.
std::optional<long long> size(const std::string& text) {
  if (text.empty()) return std::nullopt;
  long long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
    if (value > INT_MAX) return std::nullopt;
  }
  if (value < 1) return std::nullopt;
  return value;
}

// The grammar of size_list.hpp, read the obvious way; nullopt where the list must be refused.
std::optional<std::vector<Shape>> reference(const std::string& text) {
  std::vector<Shape> shapes;
  for (const std::string& item : split(text, ',')) {
    if (item.find(':') != std::string::npos) {
      const auto parts = split(item, ':');
      if (parts.size() != 3 || parts[2].empty()) return std::nullopt;
      const auto from = size(parts[0]), to = size(parts[1]), by = size(parts[2].substr(1));
      const char kind = parts[2][0];
      if (!from || !to || !by || *from > *to || (kind != 'x' && kind != '+')) return std::nullopt;
      if (kind == 'x' && *by < 2) return std::nullopt;
      for (long long s = *from; s <= *to; s = kind == 'x' ? s * *by : s + *by) {
        if (shapes.size() == clgemm::kMaxSweepSizes) return std::nullopt;
        shapes.push_back({int(s), int(s), int(s)});
      }
    } else {
      const auto parts = split(item, 'x');
      if (parts.size() != 1 && parts.size() != 3) return std::nullopt;
      std::vector<int> dims;
      for (const auto& p : parts) {
        const auto d = size(p);
        if (!d) return std::nullopt;
        dims.push_back(int(*d));
      }
      if (shapes.size() == clgemm::kMaxSweepSizes) return std::nullopt;
      shapes.push_back(dims.size() == 1 ? Shape{dims[0], dims[0], dims[0]}
                                        : Shape{dims[0], dims[1], dims[2]});
    }
  }
  return shapes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A command-line argument, which ends at the first NUL.
  const std::string text(std::string(reinterpret_cast<const char*>(data), size).c_str());
  const auto expected = reference(text);
  std::vector<Shape> shapes;
  try {
    shapes = clgemm::parseSizeList(text);
  } catch (const clgemm::UsageError&) {
    check(!expected, "parseSizeList refused a valid list", text);
    return 0;
  }
  check(expected.has_value(), "parseSizeList accepted an invalid list", text);
  check(shapes == *expected, "parseSizeList's sizes differ from the grammar's", text);
  check(!shapes.empty() && shapes.size() <= clgemm::kMaxSweepSizes, "sweep length", text);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    check(s.m >= 1 && s.n >= 1 && s.k >= 1, "a size below 1", text);
    // Reports print shapes with shapeText; reading one back must give the same shape.
    if (i < 8) {
      check(clgemm::parseSizeList(clgemm::shapeText(s)) == std::vector<Shape>{s},
            "shapeText does not read back", text);
    }
  }
  return 0;
}
