// How `clgemm tune` walks its space: which configuration to evaluate next, given what the earlier
// ones scored. Every strategy starts with the parameters a run would use now (when they lie in the
// space), so the winner is never slower than what the user already had, and is deterministic for a
// given seed, so a resumed search proposes the same configurations again and finds them cached.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tune/tune_space.hpp"

namespace clgemm {

enum class TuneStrategy {
  kAuto,    // full when the budget covers the space, else anneal
  kFull,    // every valid configuration in order
  kRandom,  // a random order of the valid configurations
  kAnneal   // simulated annealing over neighbouring values, one parameter step at a time
};

std::string strategyName(TuneStrategy strategy);

class TuneSearch {
 public:
  virtual ~TuneSearch() = default;
  // The index in space.valid to evaluate next; nothing when every configuration has been proposed.
  virtual std::optional<std::size_t> next() = 0;
  // What the configuration last returned by next() scored: GFLOP/s, 0 when it failed.
  virtual void record(std::size_t index, double score) = 0;
};

// `seeds`: indices in space.valid proposed first, in order (the current parameters, then the
// nearest tuned entries and the defaults); annealing walks on from the best of them. `budget`: how
// many configurations the search will evaluate; annealing cools over it, or as `cooling` says
// where given (the fraction of the time used, for a search bounded by time alone).
std::unique_ptr<TuneSearch> makeTuneSearch(TuneStrategy strategy, const TuneSpace& space,
                                           const std::vector<std::size_t>& seeds,
                                           std::size_t budget, std::uint64_t seed,
                                           std::function<double()> cooling = {});
// One seed, or none.
std::unique_ptr<TuneSearch> makeTuneSearch(TuneStrategy strategy, const TuneSpace& space,
                                           std::optional<std::size_t> start, std::size_t budget,
                                           std::uint64_t seed);

}  // namespace clgemm
