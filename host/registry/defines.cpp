#include "registry/defines.hpp"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "registry/kernels.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

bool parseDefineInt(const std::string& text, int& value) {
  // The text goes to the compiler as it is while the host sizes the launch from the value, so both
  // must read the same number: an optional sign and decimal digits, nothing else (strtol alone
  // would take " 16", which splits the compiler options, and "16\0x" from a tuned entry's JSON),
  // and no leading zero, which makes 010 octal 8 to the compiler.
  const std::size_t digits = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (digits == text.size() || text.find_first_not_of("0123456789", digits) != std::string::npos ||
      (text[digits] == '0' && text.size() > digits + 1))
    return false;
  errno = 0;
  const long parsed = std::strtol(text.c_str(), nullptr, 10);
  if (errno != 0 || parsed < INT_MIN || parsed > INT_MAX) return false;
  value = int(parsed);
  return true;
}

UserDefine parseDefine(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos) throw UsageError("-D '" + arg + "' has no '=': write -D NAME=VALUE");
  UserDefine d{arg.substr(0, eq), arg.substr(eq + 1)};
  if (d.name.empty()) throw UsageError("-D '" + arg + "' has an empty name: write -D NAME=VALUE");
  if (!isIdentifier(d.name))
    throw UsageError("-D '" + arg + "': '" + d.name + "' is not a valid macro name");
  if (d.value.empty()) throw UsageError("-D '" + arg + "' has an empty value");
  for (char c : d.value) {
    // The value goes into one compiler option string; whitespace or quotes would split it.
    if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'')
      throw UsageError("-D '" + arg + "': the value may not contain spaces or quotes");
  }
  return d;
}

ResolvedDefines::ResolvedDefines(const std::vector<Param>& params,
                                 const std::vector<UserDefine>& user,
                                 const std::map<std::string, std::string>& tuned,
                                 const std::string& tuned_source) {
  std::map<std::string, std::string> given;
  for (const auto& d : user) given[d.name] = d.value;  // the last -D for a name wins, as in cc

  for (const auto& p : params) {
    ResolvedDefine r{p.name, std::to_string(p.default_value), "default"};
    const auto found = given.find(p.name);
    const auto from_data = tuned.find(p.name);
    if (found != given.end()) {
      r.value = found->second;
      r.source = "cli";
    } else if (from_data != tuned.end()) {
      r.value = from_data->second;
      r.source = tuned_source;
    }
    int value = 0;
    if (!parseDefineInt(r.value, value)) {
      throw UsageError((r.source == "cli" ? "-D " : "tuned entry: ") + p.name + "=" + r.value +
                       ": " + p.name + " must be an integer (decimal, no leading zeros)");
    }
    params_[p.name] = value;
    defines_.push_back(r);
  }
  for (const auto& [name, value] : given) {
    if (!params_.count(name)) defines_.push_back({name, value, "cli"});
  }
}

int ResolvedDefines::param(const std::string& name) const {
  const auto found = params_.find(name);
  if (found == params_.end()) throw std::logic_error("no parameter " + name);
  return found->second;
}

ResolvedDefines ResolvedDefines::withParam(const std::string& name, int value,
                                           const std::string& source) const {
  ResolvedDefines out = *this;
  param(name);  // a parameter of the variant, or a logic error
  out.params_[name] = value;
  for (auto& d : out.defines_)
    if (d.name == name) d = ResolvedDefine{name, std::to_string(value), source};
  return out;
}

std::string ResolvedDefines::compilerOptions() const {
  std::string out;
  for (const auto& d : defines_) out += (out.empty() ? "" : " ") + ("-D " + d.name + "=" + d.value);
  return out;
}

std::string ResolvedDefines::summary() const {
  std::string out;
  for (const auto& d : defines_) out += (out.empty() ? "" : " ") + (d.name + "=" + d.value);
  return out;
}

}  // namespace clgemm
