#include "report/text_table.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace clgemm {

std::string fixed(std::optional<double> value, int precision) {
  if (!value) return "";
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << *value;
  return s.str();
}

std::string general(std::optional<double> value) {
  if (!value) return "";
  std::ostringstream s;
  s << std::setprecision(4) << *value;
  return s.str();
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string ratio(std::optional<double> value) {
  if (!value) return "";
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << *value << "x";
  return s.str();
}

void writeAligned(std::ostream& out, const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& cells, std::size_t numeric_from,
                  std::size_t numeric_to) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string text;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool numeric = c >= numeric_from && c <= numeric_to;
      const std::size_t pad = width[c] - row[c].size();
      if (c + 1 == row.size()) {
        text += numeric ? std::string(pad, ' ') + row[c] : row[c];
      } else {
        text += numeric ? std::string(pad, ' ') + row[c] : row[c] + std::string(pad, ' ');
        text += "  ";
      }
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  };
  line(header);
  for (const auto& row : cells) line(row);
}

}  // namespace clgemm
