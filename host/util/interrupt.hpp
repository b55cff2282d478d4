// Ctrl-C for long commands that must stop cleanly: while an InterruptGuard lives, the first SIGINT
// (or SIGTERM) only sets a flag the command checks between steps, so it finishes the step at hand,
// leaves its files consistent and reports what it has; a second one ends the process at once.
#pragma once

namespace clgemm {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // Whether an interrupt has arrived since the guard was made.
  static bool requested();
};

// The shell's convention for a process ended by SIGINT.
inline constexpr int kExitInterrupted = 130;

}  // namespace clgemm
