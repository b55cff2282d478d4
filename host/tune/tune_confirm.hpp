// The confirmation round of `clgemm tune`. A search ranks each candidate by the median of a few
// runs taken once, so on a shared or noisy device (pocl on a loaded CPU, a GPU beside other jobs)
// the fastest of hundreds is often the luckiest: on a 2-core EPYC the stored winners of two pocl
// searches ran 0.9-1.0x the defaults when timed again side by side. Before anything is stored, the
// few fastest and the start are therefore built again and timed side by side in interleaved
// rounds, each round in a rotated order, and the best median over the rounds wins.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "check/result_check.hpp"
#include "problem/problem.hpp"
#include "registry/kernels.hpp"
#include "session/cl_session.hpp"
#include "tune/tune_cache.hpp"
#include "tune/tune_space.hpp"

namespace clgemm {

// How many of the search's fastest are confirmed, besides the start.
inline constexpr std::size_t kConfirmedCandidates = 3;

struct ConfirmedCandidate {
  std::size_t result = 0;           // its search result: an index into the search's results
  std::vector<double> rounds;       // GFLOP/s of each round (the median of its timed runs)
  std::optional<double> gflops;     // the median over the rounds
  std::optional<double> ms_median;  // the same in milliseconds
  std::string status = "ok";        // ok | FAIL (wrong result) | invalid (did not build or run)
  std::string reason;
};

// Which search results to confirm: the `count` fastest that verified (`ranked`, fastest first) and
// the start, where it verified and is not among them. Fewer than two: nothing to compare.
std::vector<std::size_t> confirmationCandidates(const std::vector<CandidateResult>& results,
                                                const std::vector<std::size_t>& ranked,
                                                const Config& start, std::size_t count);

// What a confirmation needs to build and time a candidate as the search did.
struct ConfirmationRun {
  const Variant& variant;
  const TuneSpace& space;
  const std::vector<UserDefine>& user_defines;
  const std::string& cl_options;
  int warmup = 0, reps = 0;
  unsigned build_threads = 1;  // kernels compiled at once
  ClSession& session;
  const Problem& problem;
  const ResultCheck& check;
};

// Builds each candidate once, verifies its first run, then times them in `rounds` interleaved
// rounds. The first round always runs; a later one starts only while `may_start_round(seconds one
// round took)` allows (the tuner's time limit) and no interrupt was requested. A candidate that
// fails to build, run or verify is marked so and never wins.
std::vector<ConfirmedCandidate> confirmCandidates(
    const ConfirmationRun& run, const std::vector<CandidateResult>& results,
    const std::vector<std::size_t>& candidates, int rounds,
    const std::function<bool(double round_seconds)>& may_start_round,
    const std::function<void(const std::string& what)>& on_step);

// The index (into `confirmed`) of the best confirmed candidate that stayed correct; nothing when
// none did.
std::optional<std::size_t> confirmedWinner(const std::vector<ConfirmedCandidate>& confirmed);

}  // namespace clgemm
