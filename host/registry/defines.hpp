// -D NAME=VALUE handling: parsing the user's defines and resolving a variant's parameters from the
// places they can come from, remembering which place each came from for the report.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clgemm {

struct UserDefine {
  std::string name;
  std::string value;
};

// Parses "NAME=VALUE" as given to -D. NAME must be a C identifier and VALUE non-empty; anything
// else is a usage error quoting the argument.
UserDefine parseDefine(const std::string& arg);

// A define's value as an integer: decimal, within int, nothing before or after it, and no leading
// zero (the compiler, which gets the text, would read it as octal).
bool parseDefineInt(const std::string& text, int& value);

struct Param;  // kernels.hpp

// One define as it will be passed to the compiler, with where its value came from.
struct ResolvedDefine {
  std::string name;
  std::string value;
  // "cli", "store" (the user's store, written by clgemm tune), "data" (an entry shipped in
  // data/params), "problem" or "default". An entry tuned on another device of this one's class
  // adds what they share: "data:architecture", "store:vendor" (param_store.hpp).
  std::string source;

  // Whether the value came from a tuned entry (the user's store or data/params).
  bool fromTunedEntry() const {
    return source.rfind("store", 0) == 0 || source.rfind("data", 0) == 0;
  }
  // Whether that entry was tuned on another device (of the same architecture or vendor).
  bool fromBorrowedEntry() const {
    return fromTunedEntry() && source.find(':') != std::string::npos;
  }
};

class ResolvedDefines {
 public:
  // The variant's parameters take the user's value where given, else the tuned value for this
  // device (`tuned`, reported with source `tuned_source`), else their default; the user's other
  // defines are passed through unchanged. Parameter values must be integers: the host sizes the
  // launch with them.
  ResolvedDefines(const std::vector<Param>& params, const std::vector<UserDefine>& user,
                  const std::map<std::string, std::string>& tuned = {},
                  const std::string& tuned_source = "data");

  const std::vector<ResolvedDefine>& all() const { return defines_; }
  // The integer value of one of the variant's parameters.
  int param(const std::string& name) const;
  // A copy with one of the variant's parameters set to `value` from `source` (a plan's choice for
  // its problem, e.g. "problem").
  ResolvedDefines withParam(const std::string& name, int value, const std::string& source) const;
  // "-D A=1 -D B=2" for the compiler.
  std::string compilerOptions() const;
  // "A=1 B=2" for people and CSV.
  std::string summary() const;

 private:
  std::vector<ResolvedDefine> defines_;
  std::map<std::string, int> params_;
};

}  // namespace clgemm
