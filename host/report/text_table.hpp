// Formatting shared by the reports: numbers with a fixed precision or as ratios, CSV fields, and
// plain-text tables with aligned columns.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace clgemm {

// "" for nothing, else the value with `precision` decimals.
std::string fixed(std::optional<double> value, int precision);
// "" for nothing, else 4 significant digits.
std::string general(std::optional<double> value);
// "1.23x"
std::string ratio(std::optional<double> value);
// RFC 4180: quote fields holding separators, quotes or newlines.
std::string csvField(const std::string& s);

// Columns padded to their widest cell; those from numeric_from to numeric_to right-aligned.
void writeAligned(std::ostream& out, const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& cells, std::size_t numeric_from,
                  std::size_t numeric_to);

}  // namespace clgemm
