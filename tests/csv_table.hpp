// clgemm's CSV reports read back by column name, for the end-to-end tests (RFC 4180: quoted fields
// may hold commas, doubled quotes and newlines). Malformed input is a test failure.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace clgemm_test {

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  // The index of column `name`; a test failure (and header.size()) when there is none.
  std::size_t column(const std::string& name) const;
  // The field of `row` in column `name`; "<missing>" when there is no such row or column.
  std::string at(std::size_t row, const std::string& name) const;
  // The first row whose `variant` is `name`.
  std::optional<std::size_t> find(const std::string& variant) const;
};

// Every record must have as many fields as the header.
Csv parseCsv(const std::string& text);

}  // namespace clgemm_test
