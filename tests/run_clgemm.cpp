#include "run_clgemm.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace clgemm_test {

namespace fs = std::filesystem;

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

namespace {

// The build bakes in where clgemm and the sources are; the environment can say otherwise, for a
// test binary copied to another machine (e.g. a GPU host).
std::string fromEnvironment(const char* name, const char* built_in) {
  const char* value = std::getenv(name);
  return value && *value ? value : built_in;
}

// The user's store (peaks, tuned parameters) changes what a run reports and which defines it
// uses, so the tests never see the developer's: unless a test sets CLGEMM_STORE itself, clgemm
// runs with a store folder that does not exist (a CLGEMM_STORE of the shell is replaced too).
// The entries shipped in data/params would make a run's defines depend on the machine (an entry
// for this CPU's pocl device, or for its class): CLGEMM_DATA=none hides them, and the tests that
// read shipped data say so. Likewise a CLGEMM_CPU_ISA of the shell would quietly test another CPU
// micro-kernel than the one the machine picks: tests that want one set it themselves.
const bool kHermeticStore = [] {
  const std::string none =
      (fs::temp_directory_path() / ("clgemm-test-no-store-" + std::to_string(::getpid()))).string();
  setenv("CLGEMM_STORE", none.c_str(), /*overwrite=*/1);
  setenv("CLGEMM_DATA", "none", /*overwrite=*/1);
  unsetenv("CLGEMM_CPU_ISA");
  return true;
}();

}  // namespace

ScopedEnv::ScopedEnv(std::string name, const std::optional<std::string>& value)
    : name_(std::move(name)) {
  if (const char* old = std::getenv(name_.c_str())) old_ = old;
  if (value)
    setenv(name_.c_str(), value->c_str(), /*overwrite=*/1);
  else
    unsetenv(name_.c_str());
}

ScopedEnv::~ScopedEnv() {
  if (old_)
    setenv(name_.c_str(), old_->c_str(), /*overwrite=*/1);
  else
    unsetenv(name_.c_str());
}

std::string clgemmExecutable() { return fromEnvironment("CLGEMM_EXE", CLGEMM_EXE); }

std::string sourceDir() { return fromEnvironment("CLGEMM_SOURCE_DIR", CLGEMM_SOURCE_DIR); }

std::string sourceKernels() { return readText(sourceDir() + "/kernels.cl"); }

nlohmann::json parseReport(const RunResult& r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err;
    return nlohmann::json::object();
  }
}

std::string plantedKernels(const std::string& entry, const std::string& code) {
  std::string text = sourceKernels();
  const auto at = text.find("void " + entry + "(");
  const auto body = text.find("{\n", at);
  if (at == std::string::npos || body == std::string::npos)
    throw std::runtime_error("kernels.cl has no kernel " + entry);
  return text.insert(body + 2, code);
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "clgemm-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::vector<std::string> TempDir::files() const {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(path_)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

RunResult runClgemm(const std::vector<std::string>& args) {
  std::vector<std::string> command = {clgemmExecutable()};
  command.insert(command.end(), args.begin(), args.end());
  return runProgram(command);
}

namespace {

// Starts `command` with stdout and stderr going to the two files.
pid_t spawnTo(const std::vector<std::string>& command, const std::string& out_path,
              const std::string& err_path) {
  const std::string& exe = command.at(0);
  std::vector<std::string> argv_storage = command;
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot start " + exe);
  return pid;
}

}  // namespace

RunResult runProgram(const std::vector<std::string>& command) {
  TempDir capture;
  const std::string out_path = capture.file("stdout"), err_path = capture.file("stderr");
  const pid_t pid = spawnTo(command, out_path, err_path);
  int status = 0;
  waitpid(pid, &status, 0);
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = readText(out_path);
  result.err = readText(err_path);
  return result;
}

RunningClgemm::RunningClgemm(const std::vector<std::string>& args) {
  std::string pattern = (fs::temp_directory_path() / "clgemm-bg-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  out_path_ = dir_ + "/stdout";
  err_path_ = dir_ + "/stderr";
  std::vector<std::string> command = {clgemmExecutable()};
  command.insert(command.end(), args.begin(), args.end());
  pid_ = spawnTo(command, out_path_, err_path_);
}

RunningClgemm::~RunningClgemm() {
  if (!reaped_) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void RunningClgemm::signal(int number) {
  if (!reaped_) ::kill(pid_, number);
}

bool RunningClgemm::running() {
  if (reaped_) return false;
  if (waitpid(pid_, &status_, WNOHANG) == pid_) reaped_ = true;
  return !reaped_;
}

RunResult RunningClgemm::wait() {
  if (!reaped_) {
    waitpid(pid_, &status_, 0);
    reaped_ = true;
  }
  RunResult result;
  result.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
  result.out = readText(out_path_);
  result.err = readText(err_path_);
  return result;
}

}  // namespace clgemm_test
