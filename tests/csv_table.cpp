#include "csv_table.hpp"

#include <gtest/gtest.h>

namespace clgemm_test {
namespace {

std::vector<std::vector<std::string>> csvRecords(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        field += ch;
      }
      continue;
    }
    any = true;
    if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      record.push_back(field);
      field.clear();
    } else if (ch == '\n' || ch == '\r') {
      if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      record.push_back(field);
      field.clear();
      records.push_back(record);
      record.clear();
      any = false;
    } else {
      field += ch;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted CSV field";
  if (any || !field.empty()) {
    record.push_back(field);
    records.push_back(record);
  }
  return records;
}

}  // namespace

std::size_t Csv::column(const std::string& name) const {
  for (std::size_t c = 0; c < header.size(); ++c)
    if (header[c] == name) return c;
  ADD_FAILURE() << "no CSV column '" << name << "'";
  return header.size();
}

std::string Csv::at(std::size_t row, const std::string& name) const {
  const std::size_t c = column(name);
  if (row >= rows.size() || c >= rows[row].size()) return "<missing>";
  return rows[row][c];
}

std::optional<std::size_t> Csv::find(const std::string& variant) const {
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (at(r, "variant") == variant) return r;
  return std::nullopt;
}

Csv parseCsv(const std::string& text) {
  Csv csv;
  auto records = csvRecords(text);
  if (records.empty()) {
    ADD_FAILURE() << "empty CSV";
    return csv;
  }
  csv.header = records.front();
  csv.rows.assign(records.begin() + 1, records.end());
  for (const auto& row : csv.rows)
    EXPECT_EQ(row.size(), csv.header.size()) << "a CSV row with the wrong number of fields";
  return csv;
}

}  // namespace clgemm_test
