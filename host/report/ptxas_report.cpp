#include "report/ptxas_report.hpp"

#include <charconv>
#include <map>
#include <regex>
#include <sstream>

namespace clgemm {
namespace {

struct Properties {
  int stack_bytes = 0;
  int spill_store_bytes = 0;
  int spill_load_bytes = 0;
};

// A decimal count; 0 if it does not fit an int (no real report has such a number).
int toInt(const std::string& digits) {
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return error == std::errc() && end == digits.data() + digits.size() ? value : 0;
}

// The first capture of `pattern` in `line`, if it matches.
std::optional<std::string> capture(const std::string& line, const std::regex& pattern) {
  std::smatch m;
  if (!std::regex_search(line, m, pattern)) return std::nullopt;
  return m[1].str();
}

// Names may be quoted ('name', `name', "name") or bare, depending on the ptxas version.
const std::regex kEntry(R"(Compiling\s+entry\s+function\s+['"`]?([^'"`\s]+))");
const std::regex kPropertiesFor(R"(Function\s+properties\s+for\s+['"`]?([^'"`\s]+))");
const std::regex kRegisters(R"(\bUsed\s+(\d+)\s+registers\b)");
const std::regex kStack(R"((\d+)\s+bytes\s+stack\s+frame)");
const std::regex kSpillStores(R"((\d+)\s+bytes\s+spill\s+stores)");
const std::regex kSpillLoads(R"((\d+)\s+bytes\s+spill\s+loads)");

Properties parseProperties(const std::string& line) {
  Properties p;
  if (auto v = capture(line, kStack)) p.stack_bytes = toInt(*v);
  if (auto v = capture(line, kSpillStores)) p.spill_store_bytes = toInt(*v);
  if (auto v = capture(line, kSpillLoads)) p.spill_load_bytes = toInt(*v);
  return p;
}

}  // namespace

std::vector<PtxasFunction> parsePtxasReport(const std::string& log) {
  std::vector<PtxasFunction> entries;
  std::vector<bool> has_registers;
  // By function name, since a properties block may come before or after its entry's "Used" line
  // and may describe a called function that is no entry at all.
  std::map<std::string, Properties> properties;
  std::string properties_for;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (auto name = capture(line, kEntry)) {
      entries.push_back(PtxasFunction{*name});
      has_registers.push_back(false);
      properties_for.clear();
    } else if (auto name = capture(line, kPropertiesFor)) {
      properties_for = *name;
    } else if (std::regex_search(line, kStack)) {
      // A properties line with no "Function properties for" heading belongs to the entry.
      const std::string owner = !properties_for.empty() ? properties_for
                                : entries.empty()       ? ""
                                                        : entries.back().name;
      if (!owner.empty()) properties[owner] = parseProperties(line);
    } else if (auto registers = capture(line, kRegisters)) {
      if (!entries.empty()) {
        entries.back().registers = toInt(*registers);
        has_registers.back() = true;
      }
    }
  }
  std::vector<PtxasFunction> reported;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!has_registers[i]) continue;
    PtxasFunction f = entries[i];
    if (auto p = properties.find(f.name); p != properties.end()) {
      f.stack_bytes = p->second.stack_bytes;
      f.spill_store_bytes = p->second.spill_store_bytes;
      f.spill_load_bytes = p->second.spill_load_bytes;
    }
    reported.push_back(f);
  }
  return reported;
}

std::optional<PtxasFunction> findPtxasFunction(const std::vector<PtxasFunction>& functions,
                                               const std::string& entry) {
  for (const auto& f : functions) {
    if (f.name == entry) return f;
  }
  return std::nullopt;
}

}  // namespace clgemm
