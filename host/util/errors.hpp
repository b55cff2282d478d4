// Error types that carry clgemm's documented exit codes, so every layer can fail with the right
// code and main() only has to print and return.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace clgemm {

enum ExitCode : int {
  kExitOk = 0,            // everything ran and verified
  kExitVerifyFailed = 1,  // a result failed verification
  kExitUsage = 2,         // bad option, unknown kernel/device, bad define, bad input file
  kExitRuntime = 3,       // an OpenCL runtime error (out of resources, allocation too large)
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// A problem with what the user asked for: fix the command line and try again (exit 2).
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(kExitUsage, message) {}
};

// A kernel that did not compile (a usage error: a define broke it); the message carries the
// compiler's log. The library reports it as clgemmBuildFailed.
class BuildError : public UsageError {
 public:
  explicit BuildError(const std::string& message) : UsageError(message) {}
};

// The device or runtime refused something that was well-formed (exit 3).
class RuntimeError : public Error {
 public:
  explicit RuntimeError(const std::string& message) : Error(kExitRuntime, message) {}
};

// A finished run's exit code from its rows' statuses: an "error" row makes it kExitRuntime, else a
// "FAIL" row kExitVerifyFailed, else kExitOk.
inline ExitCode exitCodeFor(const std::vector<std::string>& statuses) {
  bool any_failure = false;
  for (const auto& s : statuses) {
    if (s == "error") return kExitRuntime;
    any_failure = any_failure || s == "FAIL";
  }
  return any_failure ? kExitVerifyFailed : kExitOk;
}

}  // namespace clgemm
