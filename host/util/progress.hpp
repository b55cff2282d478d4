// The progress line on stderr: what is running, how many of the run's steps are done, and the time
// elapsed. On a terminal it is one line rewritten in place; in a log it is a line per step. With
// `auto` nothing is shown until the run has lasted a couple of seconds, so quick runs stay quiet.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

namespace clgemm {

enum class ProgressMode { kAuto, kOn, kOff };

class Progress {
 public:
  // `terminal`: stderr is a terminal (rewrite the line in place).
  Progress(std::ostream& err, std::size_t total, ProgressMode mode, bool terminal);
  ~Progress() { finish(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Step done()+1 of total begins; `what` says what runs.
  void step(const std::string& what);
  // Work between steps (building, the reference) shown without counting a step.
  void note(const std::string& what);
  // Clears the rewritten line so the report starts on a clean one.
  void finish();

  std::size_t done() const { return done_; }

  // Also show the time left, estimated from the average step so far, for runs whose steps cost
  // about the same (the tuner's candidates); never beyond `deadline` when one is set.
  void showRemaining(std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
  // The run's total changed (the tuner learns how many candidates it will try).
  void setTotal(std::size_t total) { total_ = total; }

 private:
  void show(const std::string& what);

  std::ostream& err_;
  std::size_t total_;
  std::size_t done_ = 0;
  ProgressMode mode_;
  bool terminal_;
  bool line_open_ = false;  // a rewritten line is on the terminal
  bool show_remaining_ = false;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::chrono::steady_clock::time_point start_;
};

// Whether standard error is a terminal.
bool stderrIsTerminal();

}  // namespace clgemm
