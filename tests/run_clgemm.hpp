// Runs the real clgemm binary as a user would and captures what it printed, for the end-to-end
// tests (exit codes, messages, files left behind).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace clgemm_test {

struct RunResult {
  int exit_code = -1;  // -1: did not exit normally (crash, signal)
  std::string out, err;
};

// The clgemm binary under test: $CLGEMM_EXE if set, else the one this build made.
std::string clgemmExecutable();

// Runs clgemmExecutable() with these arguments (no shell involved) and waits for it.
RunResult runClgemm(const std::vector<std::string>& args);

// The JSON report a run printed (--format json); when stdout is not JSON, a test failure showing
// what was printed, and an empty object.
nlohmann::json parseReport(const RunResult& r);

// Runs command[0] (looked up on PATH when it has no slash) with the rest as its arguments, e.g.
// oclgrind wrapping clgemm.
RunResult runProgram(const std::vector<std::string>& command);

// clgemm started in the background, for tests that interrupt it: its output goes to files until
// wait() collects it.
class RunningClgemm {
 public:
  explicit RunningClgemm(const std::vector<std::string>& args);
  ~RunningClgemm();  // kills and reaps a process never waited for
  RunningClgemm(const RunningClgemm&) = delete;
  RunningClgemm& operator=(const RunningClgemm&) = delete;
  void signal(int number);
  // Whether it is still running (not yet exited).
  bool running();
  RunResult wait();

 private:
  int pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  std::string out_path_, err_path_, dir_;
};

// An environment variable set (or, with no value, unset) for the clgemm runs of one scope, and put
// back as it was afterwards.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::optional<std::string>& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// A fresh, empty directory under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Names of the files in the directory, sorted.
  std::vector<std::string> files() const;

 private:
  std::string path_;
};

std::string readText(const std::string& path);
void writeText(const std::string& path, const std::string& text);

// The source tree this build came from ($CLGEMM_SOURCE_DIR if set, for a test binary copied to
// another machine).
std::string sourceDir();
// The repository's kernels.cl (in sourceDir()), for tests that build a modified copy.
std::string sourceKernels();
// sourceKernels() with `code` put first in the body of the kernel `entry` (e.g. "gemm_naive"), for
// tests that plant a bug and check that clgemm catches it.
std::string plantedKernels(const std::string& entry, const std::string& code);

}  // namespace clgemm_test
