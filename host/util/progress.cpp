#include "util/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace clgemm {
namespace {

// Runs shorter than this finish before a progress line would help.
constexpr double kAutoDelaySeconds = 2.0;

}  // namespace

Progress::Progress(std::ostream& err, std::size_t total, ProgressMode mode, bool terminal)
    : err_(err),
      total_(total),
      mode_(mode),
      terminal_(terminal),
      start_(std::chrono::steady_clock::now()) {}

void Progress::step(const std::string& what) {
  ++done_;
  show(what);
}

void Progress::note(const std::string& what) { show(what); }

void Progress::showRemaining(std::optional<std::chrono::steady_clock::time_point> deadline) {
  show_remaining_ = true;
  deadline_ = deadline;
}

void Progress::show(const std::string& what) {
  if (mode_ == ProgressMode::kOff) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (mode_ == ProgressMode::kAuto && elapsed < kAutoDelaySeconds) return;
  std::ostringstream line;
  line << "clgemm: [" << done_ << "/" << total_ << ", " << std::fixed << std::setprecision(1)
       << elapsed << " s";
  // Steps before the one now starting are finished; the rest take the average so far.
  if (show_remaining_ && done_ > 1 && total_ >= done_) {
    const auto now = std::chrono::steady_clock::now();
    double left = elapsed / double(done_ - 1) * double(total_ - done_ + 1);
    if (deadline_)
      left = std::min(left, std::max(0.0, std::chrono::duration<double>(*deadline_ - now).count()));
    line << ", ~" << std::setprecision(0) << left << " s left";
  }
  line << "] " << what;
  if (terminal_) {
    // \r and erase-to-end-of-line rewrite the same line in place.
    err_ << "\r\033[K" << line.str() << std::flush;
    line_open_ = true;
  } else {
    err_ << line.str() << "\n" << std::flush;
  }
}

void Progress::finish() {
  if (!line_open_) return;
  err_ << "\r\033[K" << std::flush;
  line_open_ = false;
}

bool stderrIsTerminal() { return isatty(fileno(stderr)) != 0; }

}  // namespace clgemm
