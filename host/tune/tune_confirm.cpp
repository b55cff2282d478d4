#include "tune/tune_confirm.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "run/timing.hpp"
#include "run/variant_runner.hpp"
#include "util/errors.hpp"
#include "util/interrupt.hpp"

namespace clgemm {
namespace {

void markFailed(ConfirmedCandidate& c, const std::string& status, const std::string& reason) {
  c.status = status;
  c.reason = reason.substr(0, reason.find('\n'));
  c.gflops.reset();
  c.ms_median.reset();
}

}  // namespace

std::vector<std::size_t> confirmationCandidates(const std::vector<CandidateResult>& results,
                                                const std::vector<std::size_t>& ranked,
                                                const Config& start, std::size_t count) {
  std::vector<std::size_t> chosen(ranked.begin(), ranked.begin() + std::min(count, ranked.size()));
  const bool start_chosen = std::any_of(chosen.begin(), chosen.end(),
                                        [&](std::size_t i) { return results[i].config == start; });
  if (!start_chosen)
    for (std::size_t i : ranked)
      if (results[i].config == start) {
        chosen.push_back(i);
        break;
      }
  if (chosen.size() < 2) chosen.clear();
  return chosen;
}

std::vector<ConfirmedCandidate> confirmCandidates(
    const ConfirmationRun& run, const std::vector<CandidateResult>& results,
    const std::vector<std::size_t>& candidates, int rounds,
    const std::function<bool(double round_seconds)>& may_start_round,
    const std::function<void(const std::string& what)>& on_step) {
  std::vector<ConfirmedCandidate> confirmed(candidates.size());
  std::vector<std::unique_ptr<ClGemmRunner>> runners(candidates.size());
  std::vector<double> c;
  std::vector<std::string> to_build;
  for (std::size_t i : candidates)
    if (auto options =
            configBuildOptions(run.variant, run.space, results[i].config, run.user_defines,
                               run.problem, run.session.info(), run.cl_options))
      to_build.push_back(std::move(*options));
  run.session.programs().prebuild(to_build, run.build_threads);
  // Built once each, and checked on the first run: a kernel that verified once in the search and
  // fails now (a race, a fault that depends on timing) must not be stored.
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    ConfirmedCandidate& entry = confirmed[i];
    entry.result = candidates[i];
    const Config& config = results[candidates[i]].config;
    try {
      const ResolvedDefines defines =
          configDefines(run.variant, run.space, config, run.user_defines);
      runners[i] = makeClKernelRunner(run.variant, defines, run.session, run.problem,
                                      run.cl_options, nullptr);
      runners[i]->run(0, 1, c);
      const Verdict judged = judgeRun(run.check(c, errorThresholdFor(run.variant.arithmetic)),
                                      runners[i]->checkMemory(), "wrong result");
      if (judged.status != "ok") markFailed(entry, judged.status, judged.message);
    } catch (const Error& e) {  // a build or launch error (ClError among them)
      markFailed(entry, "invalid", e.what());
    }
    if (entry.status != "ok") runners[i].reset();
  }
  run.session.programs().clear();  // the kernels keep what they need

  using Clock = std::chrono::steady_clock;
  for (int round = 0; round < rounds; ++round) {
    if (InterruptGuard::requested()) break;
    const auto began = Clock::now();
    // A rotated order each round, so no candidate always runs first (after an idle device) or
    // last (after the others warmed it).
    for (std::size_t step = 0; step < candidates.size(); ++step) {
      const std::size_t i = (step + std::size_t(round)) % candidates.size();
      if (!runners[i]) continue;
      on_step(run.space.describe(results[candidates[i]].config) + ", round " +
              std::to_string(round + 1) + "/" + std::to_string(rounds));
      try {
        const Timings t = runners[i]->run(run.warmup, run.reps, c);
        confirmed[i].rounds.push_back(run.problem.gflopsAt(t.median()));
      } catch (const Error& e) {
        markFailed(confirmed[i], "invalid", e.what());
        runners[i].reset();
      }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - began).count();
    if (round + 1 < rounds && !may_start_round(seconds)) break;
  }
  for (auto& entry : confirmed)
    if (entry.status == "ok" && !entry.rounds.empty()) {
      entry.gflops = medianOf(entry.rounds);
      entry.ms_median = run.problem.flops() / (*entry.gflops * 1e9) * 1e3;
    }
  return confirmed;
}

std::optional<std::size_t> confirmedWinner(const std::vector<ConfirmedCandidate>& confirmed) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < confirmed.size(); ++i)
    if (confirmed[i].gflops && (!best || *confirmed[i].gflops > *confirmed[*best].gflops)) best = i;
  return best;
}

}  // namespace clgemm
