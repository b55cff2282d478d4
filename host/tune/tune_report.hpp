// What `clgemm tune` found: the space, the search, the candidates ranked by speed, the ones that
// were wrong or would not build, and where the winner went. A table for people, CSV (one row per
// candidate, one column per parameter) and JSON for programs.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "problem/size_list.hpp"
#include "report/report.hpp"
#include "tune/tune_cache.hpp"
#include "tune/tune_confirm.hpp"
#include "tune/tune_space.hpp"

namespace clgemm {

struct TuneSummary {
  std::string variant;
  DeviceInfo device;
  Shape size;
  GemmShape shape;           // the caller's layout, transposes and leading dimensions (0: packed)
  std::string trans = "NN";  // the kernel's transposes, the entry's key (param_store.hpp)
  std::string precision;     // the kernel's arithmetic: fp32 | tf32 | 3xtf32
  double alpha = 1.0, beta = 0.0;
  int warmup = 0, reps = 0;
  std::string date;
  std::string check;     // full | sampled
  std::string strategy;  // the one used (auto resolved)
  std::size_t budget = 0;
  const TuneSpace* space = nullptr;
  Config start;              // the parameters a run used before this search
  std::string start_source;  // where they came from, for the report
  bool start_in_space = false;
  std::vector<CandidateResult> results;          // in the order evaluated
  int confirm_rounds = 0;                        // --confirm: rounds asked for (0: no confirmation)
  std::vector<ConfirmedCandidate> confirmation;  // the fastest and the start, timed side by side
  // The candidate stored (an index into results): the confirmation's winner, or without one the
  // search's fastest.
  std::optional<std::size_t> winner;
  double seconds = 0.0;          // wall time of the search
  double confirm_seconds = 0.0;  // and of the confirmation after it
  std::string cache_file;
  std::string stored_file;  // where the winner was written; empty when it was not
  bool interrupted = false;
};

// The candidates that verified, fastest first (median GFLOP/s), as indices into `results`.
std::vector<std::size_t> rankCandidates(const std::vector<CandidateResult>& results);

// How many configurations the table lists.
inline constexpr std::size_t kTuneTableRows = 10;

void writeTuneReport(std::ostream& out, Format format, const TuneSummary& summary);

}  // namespace clgemm
