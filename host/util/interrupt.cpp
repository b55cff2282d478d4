#include "util/interrupt.hpp"

#include <csignal>

namespace clgemm {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
struct sigaction g_old_int, g_old_term;

void onInterrupt(int) { g_interrupted = 1; }

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted = 0;
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the handler runs once, so a second Ctrl-C gets the default action and ends the
  // process even if the step at hand hangs.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &g_old_int);
  sigaction(SIGTERM, &action, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

bool InterruptGuard::requested() { return g_interrupted != 0; }

}  // namespace clgemm
