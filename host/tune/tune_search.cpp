#include "tune/tune_search.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

namespace clgemm {
namespace {

// std::uniform_int_distribution differs between standard libraries; this does not, so the order of
// a search is the same wherever the cache is resumed.
std::size_t below(std::mt19937_64& rng, std::size_t n) { return std::size_t(rng() % n); }

// The seeds in their order, each once, those outside the space dropped: what every strategy
// proposes first.
std::vector<std::size_t> distinctSeeds(const std::vector<std::size_t>& seeds, std::size_t n) {
  std::vector<bool> taken(n, false);
  std::vector<std::size_t> distinct;
  for (std::size_t i : seeds)
    if (i < n && !taken[i]) {
      distinct.push_back(i);
      taken[i] = true;
    }
  return distinct;
}

// A fixed order: the (distinct) seeds first, then the rest as given.
class OrderedSearch : public TuneSearch {
 public:
  OrderedSearch(const std::vector<std::size_t>& order, const std::vector<std::size_t>& seeds)
      : order_(seeds) {
    std::vector<bool> taken(order.size(), false);
    for (std::size_t i : seeds) taken[i] = true;
    for (std::size_t i : order)
      if (!taken[i]) order_.push_back(i);
  }
  std::optional<std::size_t> next() override {
    if (at_ >= order_.size()) return std::nullopt;
    return order_[at_++];
  }
  void record(std::size_t, double) override {}

 private:
  std::vector<std::size_t> order_;
  std::size_t at_ = 0;
};

std::vector<std::size_t> inOrder(std::size_t n) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  return order;
}

std::vector<std::size_t> shuffled(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> order = inOrder(n);
  std::mt19937_64 rng(seed);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[below(rng, i)]);
  return order;
}

// Simulated annealing: the seeds first (the walk starts from the best of them), then from the
// current configuration, step one parameter to a neighbouring candidate value (now and then to any
// value); a better score is always taken, a worse one with a probability that shrinks as the search
// cools over its budget (or its time). Configurations already proposed are not proposed again; when
// no unseen neighbour turns up, the walk restarts from a random unseen configuration.
class AnnealSearch : public TuneSearch {
 public:
  // `seeds`: distinct indices in the space (distinctSeeds).
  AnnealSearch(const TuneSpace& space, const std::vector<std::size_t>& seeds, std::size_t budget,
               std::uint64_t seed, std::function<double()> cooling)
      : space_(space),
        seen_(space.valid.size(), false),
        is_seed_(space.valid.size(), false),
        seeds_(seeds),
        movable_(movableParams(space)),
        budget_(budget == 0 ? 1 : budget),
        rng_(seed),
        cooling_(std::move(cooling)) {
    for (std::size_t i : seeds_) is_seed_[i] = true;
  }

  std::optional<std::size_t> next() override {
    if (proposed_ >= space_.valid.size()) return std::nullopt;
    std::optional<std::size_t> pick;
    if (seed_at_ < seeds_.size()) {
      pick = seeds_[seed_at_++];  // distinct and proposed before anything else: never seen
    } else if (current_) {
      pick = neighbour(*current_);
    } else {
      pick = below(rng_, space_.valid.size());  // no seed: start anywhere
    }
    if (!pick || seen_[*pick]) pick = randomUnseen();
    seen_[*pick] = true;
    ++proposed_;
    return pick;
  }

  void record(std::size_t index, double score) override {
    ++recorded_;
    // A seed is a starting point, never a step: the walk starts from the best one.
    const bool take = is_seed_[index] ? (!current_ || score > current_score_)
                                      : (!current_ || score >= current_score_ || accept(score));
    if (take) {
      current_ = index;
      current_score_ = score;
    }
  }

 private:
  // Worse scores are relative: losing 5% is the same step at 10 or 10000 GFLOP/s.
  bool accept(double score) {
    const double progress =
        std::clamp(cooling_ ? cooling_() : double(recorded_) / double(budget_), 0.0, 1.0);
    const double temperature = kStartTemperature * (1.0 - progress) + 1e-3;
    if (current_score_ <= 0.0) return true;
    const double loss = (current_score_ - score) / current_score_;
    const double draw = double(rng_() >> 11) * 0x1.0p-53;
    return draw < std::exp(-loss / temperature);
  }

  std::optional<std::size_t> neighbour(std::size_t from) {
    const std::vector<std::size_t>& movable = movable_;
    if (movable.empty()) return std::nullopt;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      Config config = space_.valid[from];
      const std::size_t p = movable[below(rng_, movable.size())];
      const auto& values = space_.values[p];
      std::size_t at =
          std::size_t(std::lower_bound(values.begin(), values.end(), config[p]) - values.begin());
      if (below(rng_, kJumpOneIn) == 0) {
        at = below(rng_, values.size());
      } else if (at == 0 || (at + 1 < values.size() && below(rng_, 2) == 0)) {
        ++at;
      } else {
        --at;
      }
      config[p] = values[at];
      // Two parameters that must move together (a tile and its per-item share) need a second step.
      if (below(rng_, 3) == 0) {
        const std::size_t q = movable[below(rng_, movable.size())];
        const auto& qv = space_.values[q];
        config[q] = qv[below(rng_, qv.size())];
      }
      const auto index = space_.find(config);
      if (index && !seen_[*index]) return index;
    }
    return std::nullopt;
  }

  std::size_t randomUnseen() {
    std::vector<std::size_t> unseen;
    for (std::size_t i = 0; i < seen_.size(); ++i)
      if (!seen_[i]) unseen.push_back(i);
    return unseen[below(rng_, unseen.size())];
  }

  // The parameters with more than one candidate value: the only ones a step can change.
  static std::vector<std::size_t> movableParams(const TuneSpace& space) {
    std::vector<std::size_t> movable;
    for (std::size_t p = 0; p < space.values.size(); ++p)
      if (space.values[p].size() > 1) movable.push_back(p);
    return movable;
  }

  static constexpr int kAttempts = 64;
  static constexpr std::size_t kJumpOneIn = 8;
  static constexpr double kStartTemperature = 0.05;  // a 5% loss is taken with p = 1/e at first

  const TuneSpace& space_;
  std::vector<bool> seen_, is_seed_;
  std::vector<std::size_t> seeds_;
  std::size_t seed_at_ = 0;
  std::vector<std::size_t> movable_;
  std::size_t budget_;
  std::mt19937_64 rng_;
  std::function<double()> cooling_;
  std::optional<std::size_t> current_;
  double current_score_ = 0.0;
  std::size_t proposed_ = 0, recorded_ = 0;
};

}  // namespace

std::string strategyName(TuneStrategy strategy) {
  switch (strategy) {
    case TuneStrategy::kAuto:
      return "auto";
    case TuneStrategy::kFull:
      return "full";
    case TuneStrategy::kRandom:
      return "random";
    case TuneStrategy::kAnneal:
      return "anneal";
  }
  return "auto";
}

std::unique_ptr<TuneSearch> makeTuneSearch(TuneStrategy strategy, const TuneSpace& space,
                                           const std::vector<std::size_t>& seeds,
                                           std::size_t budget, std::uint64_t seed,
                                           std::function<double()> cooling) {
  if (strategy == TuneStrategy::kAuto)
    strategy = budget >= space.valid.size() ? TuneStrategy::kFull : TuneStrategy::kAnneal;
  const std::vector<std::size_t> first = distinctSeeds(seeds, space.valid.size());
  switch (strategy) {
    case TuneStrategy::kRandom:
      return std::make_unique<OrderedSearch>(shuffled(space.valid.size(), seed), first);
    case TuneStrategy::kAnneal:
      return std::make_unique<AnnealSearch>(space, first, budget, seed, std::move(cooling));
    default:
      return std::make_unique<OrderedSearch>(inOrder(space.valid.size()), first);
  }
}

std::unique_ptr<TuneSearch> makeTuneSearch(TuneStrategy strategy, const TuneSpace& space,
                                           std::optional<std::size_t> start, std::size_t budget,
                                           std::uint64_t seed) {
  std::vector<std::size_t> seeds;
  if (start) seeds.push_back(*start);
  return makeTuneSearch(strategy, space, seeds, budget, seed);
}

}  // namespace clgemm
