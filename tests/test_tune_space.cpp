// The tuner's parts that need no device: the search space a kernel's registry entry and a device's
// limits give, the three search strategies, and the per-candidate cache that makes a search
// resumable. The device here is a description (limits only); the end-to-end tests in test_tune run
// the real thing on pocl.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "tune/tune_cache.hpp"
#include "tune/tune_search.hpp"
#include "tune/tune_space.hpp"
#include "unsupported.hpp"
#include "util/errors.hpp"

namespace {

using clgemm::Config;
using clgemm::TuneSpace;
using clgemm_test::readText;
using clgemm_test::registryVariant;
using clgemm_test::TempDir;
using clgemm_test::writeText;

// A small GPU: 256 work-items per group, 16 KiB of local memory.
clgemm::DeviceInfo smallDevice() {
  clgemm::DeviceInfo d;
  d.name = "Small GPU";
  d.driver_version = "1.0";
  d.max_work_group_size = 256;
  d.max_work_item_sizes = {256, 256, 256};
  d.local_mem_bytes = 16384;
  return d;
}

// An H100's limits: NVIDIA's OpenCL gives __local arrays up to 227 KiB on compute capability 9.0,
// which the Hopper-only tensor-core kernels' defaults take.
clgemm::DeviceInfo hopperDevice() {
  clgemm::DeviceInfo d = smallDevice();
  d.max_work_group_size = 1024;
  d.max_work_item_sizes = {1024, 1024, 1024};
  d.local_mem_bytes = 49152;
  d.nv_cc_major = 9;
  d.nv_cc_minor = 0;
  return d;
}

const clgemm::Shape kSize{512, 512, 512};

Config defaultsOf(const clgemm::Variant& v) {
  Config c;
  for (const auto& p : v.params) c.push_back(p.default_value);
  return c;
}

TEST(TuneSpace, EveryOpenClKernelDeclaresASpaceItsDefaultsLieIn) {
  for (const auto& v : clgemm::variants()) {
    if (v.backend != clgemm::Backend::kOpenCl) continue;
    for (const auto& p : v.params) {
      EXPECT_GE(p.candidates.size(), 2u) << v.name << " " << p.name;
      EXPECT_TRUE(std::is_sorted(p.candidates.begin(), p.candidates.end())) << v.name;
    }
    const TuneSpace space = clgemm::buildTuneSpace(v, hopperDevice(), kSize, {}, {}, defaultsOf(v));
    EXPECT_GT(space.valid.size(), 1u) << v.name;
    EXPECT_TRUE(space.find(defaultsOf(v)).has_value()) << v.name << ": defaults not valid";
  }
}

TEST(TuneSpace, ValidConfigurationsKeepEveryLimitAndTheRestAreCounted) {
  const auto& v = registryVariant("regtile2d");
  const auto device = smallDevice();
  const TuneSpace space = clgemm::buildTuneSpace(v, device, kSize, {}, {}, defaultsOf(v));
  std::uint64_t total = 1;
  for (const auto& values : space.values) total *= values.size();
  EXPECT_EQ(space.total, total);
  std::size_t excluded = 0;
  std::set<std::string> kinds;
  for (const auto& e : space.excluded) {
    excluded += e.count;
    kinds.insert(e.kind);
    EXPECT_FALSE(e.example.empty());
  }
  EXPECT_EQ(space.valid.size() + excluded, space.total);
  EXPECT_TRUE(kinds.count("work-group size")) << "e.g. 128x128 tiles of 1x1 per work-item";
  EXPECT_TRUE(kinds.count("local memory")) << "e.g. TSK=32 with 128-wide tiles";
  ASSERT_FALSE(space.valid.empty());
  EXPECT_TRUE(std::is_sorted(space.valid.begin(), space.valid.end()));
  for (const Config& c : space.valid) {
    const auto d = clgemm::configDefines(v, space, c, {});
    EXPECT_TRUE(v.constraints(d).empty()) << space.describe(c);
    const auto shape = v.shape(d, kSize.m, kSize.n);
    EXPECT_LE(shape.local[0] * shape.local[1], device.max_work_group_size) << space.describe(c);
    EXPECT_LE(v.local_mem_bytes(d), device.local_mem_bytes) << space.describe(c);
  }
}

TEST(TuneSpace, ConstraintsOfTheKernelPrune) {
  // best needs its float4 loads to divide among the work-items: some combinations break that.
  const auto& v = registryVariant("best");
  clgemm::DeviceInfo device = smallDevice();
  device.max_work_group_size = 1024;
  device.max_work_item_sizes = {1024, 1024, 1024};
  device.local_mem_bytes = 1 << 20;
  const TuneSpace space = clgemm::buildTuneSpace(v, device, kSize, {}, {}, defaultsOf(v));
  const auto it =
      std::find_if(space.excluded.begin(), space.excluded.end(),
                   [](const TuneSpace::Exclusion& e) { return e.kind == "constraints"; });
  ASSERT_NE(it, space.excluded.end());
  EXPECT_NE(it->example.find("best: "), std::string::npos) << it->example;
}

TEST(TuneSpace, DefinesFixAndSpaceOverridesReplaceValues) {
  const auto& v = registryVariant("regtile2d");
  const TuneSpace space = clgemm::buildTuneSpace(
      v, smallDevice(), kSize, {{"TSK", "8"}, {"EXTRA", "1"}},
      {clgemm::parseSpaceOverride("TSM=32,16"), clgemm::parseSpaceOverride("PAD=0")},
      defaultsOf(v));
  EXPECT_EQ(space.values[0], (std::vector<int>{16, 32}));  // TSM, sorted
  EXPECT_EQ(space.values[2], (std::vector<int>{8}));       // TSK held by -D
  EXPECT_EQ(space.values[5], (std::vector<int>{0}));       // PAD
  for (const Config& c : space.valid) {
    EXPECT_EQ(c[2], 8);
    EXPECT_TRUE(c[0] == 16 || c[0] == 32);
  }
  // The user's other defines reach the compiler with every configuration.
  const auto d = clgemm::configDefines(v, space, space.valid.front(), {{"EXTRA", "1"}});
  EXPECT_NE(d.compilerOptions().find("-D EXTRA=1"), std::string::npos);
}

TEST(TuneSpace, TheStartingValuesJoinTheCandidates) {
  const auto& v = registryVariant("regtile2d");
  Config start = defaultsOf(v);
  start[0] = 48;  // TSM=48 is no registry candidate
  const TuneSpace space = clgemm::buildTuneSpace(v, smallDevice(), kSize, {}, {}, start);
  EXPECT_TRUE(std::count(space.values[0].begin(), space.values[0].end(), 48));
  EXPECT_TRUE(space.find(start).has_value());
}

std::size_t indexOf(const clgemm::Variant& v, const std::string& name) {
  for (std::size_t i = 0; i < v.params.size(); ++i)
    if (v.params[i].name == name) return i;
  throw std::runtime_error(v.name + " has no parameter " + name);
}

// simt-async's thresholds and edge and split rules decide nothing at a tile multiple: a search
// there held them at noise's choice, which the entry then applied to the odd sizes around it.
// They stay at the value a run would use unless --space or -D names them, and the entry records
// them only where that value is not the kernel's default.
TEST(TuneSpace, SizeRulesAreHeldAtTheRunsValueAndLeftOutOfTheEntryAtTheirDefault) {
  const auto& v = registryVariant("simt-async");
  const std::vector<std::string> rules = {
      "AT_FROM",          "PAD_FROM",    "PAD_FROM_UNALIGNED", "ALIGN_B_FROM",   "PAD_PEELED_FROM",
      "SPLIT_SLOTS",      "SPLIT_APART", "PEEL_MAX",           "MOVE_BACK_FILL", "MOVE_BACK_DEPTH",
      "MOVE_BACK_ROUNDS", "FUSE_STRIPS", "STRIPS_OWN_MAX"};
  std::uint64_t tile_combinations = 1;
  for (const auto& p : v.params) {
    const bool rule = std::find(rules.begin(), rules.end(), p.name) != rules.end();
    EXPECT_EQ(p.size_rule, rule) << p.name;
    if (!rule) tile_combinations *= p.candidates.size();
  }
  const clgemm::Shape size{4096, 4096, 4096};
  const Config defaults = defaultsOf(v);
  const TuneSpace space = clgemm::buildTuneSpace(v, hopperDevice(), size, {}, {}, defaults);
  EXPECT_EQ(space.total, tile_combinations);
  for (const auto& rule : rules) {
    const std::size_t i = indexOf(v, rule);
    EXPECT_TRUE(space.held_rule[i]) << rule;
    EXPECT_EQ(space.values[i], (std::vector<int>{v.params[i].default_value})) << rule;
  }
  ASSERT_TRUE(space.find(defaults).has_value());
  const auto stored = clgemm::entryDefines(v, space, defaults);
  for (const auto& rule : rules) EXPECT_FALSE(stored.count(rule)) << rule;
  EXPECT_EQ(stored.at("BM"), v.params[indexOf(v, "BM")].default_value);

  // Another entry's rule gives way to the held value when it seeds the search.
  Config other = defaults;
  other[indexOf(v, "SPLIT_SLOTS")] = 1;
  other[indexOf(v, "BK")] = 32;
  EXPECT_FALSE(space.find(other).has_value());
  const Config seed = clgemm::withHeldRules(space, other);
  EXPECT_EQ(seed[indexOf(v, "SPLIT_SLOTS")], 0);
  EXPECT_EQ(seed[indexOf(v, "BK")], 32);
  EXPECT_TRUE(space.find(seed).has_value());

  // Held at the start's value, and recorded where that is not the default: what was measured.
  Config start = defaults;
  start[indexOf(v, "PAD_FROM")] = 0;
  const TuneSpace from_entry = clgemm::buildTuneSpace(v, hopperDevice(), size, {}, {}, start);
  EXPECT_EQ(from_entry.values[indexOf(v, "PAD_FROM")], (std::vector<int>{0}));
  EXPECT_EQ(from_entry.total, tile_combinations);
  EXPECT_EQ(clgemm::entryDefines(v, from_entry, start).at("PAD_FROM"), 0);

  // Named with --space, a rule is searched; fixed with -D, held and recorded.
  const TuneSpace searched =
      clgemm::buildTuneSpace(v, hopperDevice(), size, {{"PEEL_MAX", "8"}},
                             {clgemm::parseSpaceOverride("AT_FROM=0,3000")}, defaults);
  EXPECT_EQ(searched.values[indexOf(v, "AT_FROM")], (std::vector<int>{0, 3000}));
  EXPECT_FALSE(searched.held_rule[indexOf(v, "AT_FROM")]);
  EXPECT_FALSE(searched.held_rule[indexOf(v, "PEEL_MAX")]);
  EXPECT_EQ(searched.total, 2 * tile_combinations);
  const auto named = clgemm::entryDefines(v, searched, defaults);
  EXPECT_EQ(named.at("AT_FROM"), v.params[indexOf(v, "AT_FROM")].default_value);
  EXPECT_EQ(named.at("PEEL_MAX"), 8);
  EXPECT_FALSE(named.count("PAD_FROM"));
}

void expectUsageError(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one naming " << needle;
  } catch (const clgemm::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(TuneSpace, BadOverridesAreUsageErrors) {
  const auto& v = registryVariant("regtile2d");
  const auto device = smallDevice();
  expectUsageError([] { clgemm::parseSpaceOverride("TSM"); }, "NAME=V1,V2");
  expectUsageError([] { clgemm::parseSpaceOverride("=1"); }, "NAME=V1,V2");
  expectUsageError([] { clgemm::parseSpaceOverride("TSM="); }, "lists no values");
  expectUsageError([] { clgemm::parseSpaceOverride("TSM=16,x"); }, "'x' is not an integer");
  expectUsageError([] { clgemm::parseSpaceOverride("TSM=16,,32"); }, "'' is not an integer");
  expectUsageError(
      [&] {
        clgemm::buildTuneSpace(v, device, kSize, {}, {clgemm::parseSpaceOverride("BOGUS=1")}, {});
      },
      "regtile2d has no parameter BOGUS; its parameters: TSM, TSN");
  expectUsageError(
      [&] {
        clgemm::buildTuneSpace(v, device, kSize, {{"TSM", "32"}},
                               {clgemm::parseSpaceOverride("TSM=16")}, {});
      },
      "--space TSM conflicts with -D TSM");
  expectUsageError(
      [&] {
        clgemm::buildTuneSpace(v, device, kSize, {{"TSM", "big"}}, {}, {});
      },
      "TSM must be an integer");
  std::vector<clgemm::SpaceOverride> huge;
  for (const char* name : {"TSM", "TSN", "TSK", "WPTM"}) {
    clgemm::SpaceOverride o{name, {}};
    for (int i = 1; i <= 50; ++i) o.values.push_back(i);
    huge.push_back(o);
  }
  expectUsageError([&] { clgemm::buildTuneSpace(v, device, kSize, {}, huge, {}); },
                   "narrow it with --space or -D");
}

// A space of 3 parameters with 8 values each, all valid.
TuneSpace gridSpace() {
  TuneSpace space;
  space.names = {"A", "B", "C"};
  space.values = {{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}};
  for (int a = 1; a <= 8; ++a)
    for (int b = 1; b <= 8; ++b)
      for (int c = 1; c <= 8; ++c) space.valid.push_back({a, b, c});
  space.total = space.valid.size();
  return space;
}

std::vector<std::size_t> drain(clgemm::TuneSearch& search, std::size_t limit,
                               const std::function<double(std::size_t)>& score) {
  std::vector<std::size_t> seen;
  while (seen.size() < limit) {
    const auto i = search.next();
    if (!i) break;
    search.record(*i, score(*i));
    seen.push_back(*i);
  }
  return seen;
}

TEST(TuneSearch, EveryStrategyStartsAtTheStartAndNeverRepeats) {
  const TuneSpace space = gridSpace();
  const std::size_t start = 100;
  for (auto strategy : {clgemm::TuneStrategy::kFull, clgemm::TuneStrategy::kRandom,
                        clgemm::TuneStrategy::kAnneal}) {
    auto search = clgemm::makeTuneSearch(strategy, space, start, space.valid.size(), 7);
    const auto seen = drain(*search, 10000, [](std::size_t i) { return double(i % 13); });
    ASSERT_EQ(seen.size(), space.valid.size()) << clgemm::strategyName(strategy);
    EXPECT_EQ(seen.front(), start) << clgemm::strategyName(strategy);
    EXPECT_EQ(std::set<std::size_t>(seen.begin(), seen.end()).size(), seen.size())
        << clgemm::strategyName(strategy) << " proposed a configuration twice";
  }
}

TEST(TuneSearch, OrdersAreDeterministicPerSeed) {
  const TuneSpace space = gridSpace();
  auto score = [](std::size_t i) { return double((i * 7919) % 101); };
  for (auto strategy : {clgemm::TuneStrategy::kRandom, clgemm::TuneStrategy::kAnneal}) {
    auto a = clgemm::makeTuneSearch(strategy, space, std::nullopt, 40, 1);
    auto b = clgemm::makeTuneSearch(strategy, space, std::nullopt, 40, 1);
    auto c = clgemm::makeTuneSearch(strategy, space, std::nullopt, 40, 2);
    const auto seen_a = drain(*a, 40, score), seen_b = drain(*b, 40, score);
    EXPECT_EQ(seen_a, seen_b) << clgemm::strategyName(strategy);
    EXPECT_NE(seen_a, drain(*c, 40, score)) << clgemm::strategyName(strategy);
  }
  auto full = clgemm::makeTuneSearch(clgemm::TuneStrategy::kFull, space, std::nullopt, 5, 1);
  EXPECT_EQ(drain(*full, 5, score), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(TuneSearch, AnnealingClimbsToTheOptimumOfASmoothScore) {
  const TuneSpace space = gridSpace();
  // One peak at A=6 B=3 C=7, falling off with the distance: annealing from the far corner should
  // walk there well within a fifth of the space, where a random order expects to need half of it.
  auto score = [&](std::size_t i) {
    const Config& c = space.valid[i];
    const double d = std::abs(c[0] - 6) + std::abs(c[1] - 3) + std::abs(c[2] - 7);
    return 1000.0 / (1.0 + d);
  };
  const std::size_t budget = 100;
  auto search = clgemm::makeTuneSearch(clgemm::TuneStrategy::kAnneal, space, space.find({1, 8, 1}),
                                       budget, 42);
  const auto seen = drain(*search, budget, score);
  const Config peak = {6, 3, 7};
  EXPECT_TRUE(std::count(seen.begin(), seen.end(), *space.find(peak)))
      << "annealing did not reach the peak in " << budget << " steps";
}

// Several seeds (the current parameters, the nearest tuned entries, the defaults) come first, in
// order and once each, in every strategy; annealing then walks on from the best of them.
TEST(TuneSearch, SeedsComeFirstAndAnnealingWalksOnFromTheBest) {
  const TuneSpace space = gridSpace();
  const std::size_t far = *space.find({1, 8, 1}), near = *space.find({5, 3, 6}),
                    other = *space.find({8, 1, 8});
  const std::vector<std::size_t> seeds = {far, near, far, other};
  auto score = [&](std::size_t i) {
    const Config& c = space.valid[i];
    return 1000.0 / (1.0 + std::abs(c[0] - 6) + std::abs(c[1] - 3) + std::abs(c[2] - 7));
  };
  for (auto strategy : {clgemm::TuneStrategy::kFull, clgemm::TuneStrategy::kRandom,
                        clgemm::TuneStrategy::kAnneal}) {
    auto search = clgemm::makeTuneSearch(strategy, space, seeds, 100, 5);
    const auto seen = drain(*search, 100, score);
    ASSERT_GE(seen.size(), 3u);
    EXPECT_EQ(std::vector<std::size_t>(seen.begin(), seen.begin() + 3),
              (std::vector<std::size_t>{far, near, other}))
        << clgemm::strategyName(strategy);
    EXPECT_EQ(std::set<std::size_t>(seen.begin(), seen.end()).size(), seen.size());
  }
  // From the seed two steps from the peak, annealing reaches it within a few proposals, though
  // the last seed (far from it) was evaluated after.
  auto search = clgemm::makeTuneSearch(clgemm::TuneStrategy::kAnneal, space, seeds, 100, 5);
  const auto seen = drain(*search, 15, score);
  EXPECT_TRUE(std::count(seen.begin(), seen.end(), *space.find({6, 3, 7})))
      << "annealing did not walk on from the best seed";
}

// Cooling by time (a search bounded by --time alone): the search asks how much of its time is
// used instead of counting against its budget. Out of time it takes no worse step and climbs to the
// peak of a smooth score; at the start of its time it wanders, so the two walks differ.
TEST(TuneSearch, AnnealingCoolsAsItsTimeRunsOut) {
  const TuneSpace space = gridSpace();
  auto score = [&](std::size_t i) {
    const Config& c = space.valid[i];
    return 1000.0 / (1.0 + std::abs(c[0] - 6) + std::abs(c[1] - 3) + std::abs(c[2] - 7));
  };
  auto walk = [&](double time_used, const std::function<double(std::size_t)>& scored) {
    auto search = clgemm::makeTuneSearch(clgemm::TuneStrategy::kAnneal, space,
                                         std::vector<std::size_t>{*space.find({1, 8, 1})},
                                         space.valid.size(), 9, [=] { return time_used; });
    return drain(*search, 100, scored);
  };
  const auto cold = walk(1.0, score);
  EXPECT_TRUE(std::count(cold.begin(), cold.end(), *space.find({6, 3, 7})))
      << "a walk out of time did not climb to the peak in 100 steps";
  // On a rugged score (neighbours within 10% of each other) a young walk takes worse steps that a
  // cold one refuses, so their paths part.
  auto rugged = [](std::size_t i) { return 1000.0 + double((i * 7919) % 101); };
  EXPECT_NE(walk(1.0, rugged), walk(0.0, rugged))
      << "the search did not ask how much of its time was used";
}

TEST(TuneSearch, AutoIsFullWhenTheBudgetCoversTheSpace) {
  const TuneSpace space = gridSpace();
  auto search = clgemm::makeTuneSearch(clgemm::TuneStrategy::kAuto, space, std::nullopt, 10000, 3);
  EXPECT_EQ(drain(*search, 3, [](std::size_t) { return 1.0; }),
            (std::vector<std::size_t>{0, 1, 2}));
}

clgemm::CandidateResult okResult(Config c, double gflops) {
  clgemm::CandidateResult r;
  r.config = std::move(c);
  r.status = "ok";
  r.gflops = gflops;
  r.ms_median = 1.0;
  r.ms_min = 0.9;
  r.err_ratio = 0.5;
  r.registers = 40;
  return r;
}

TEST(TuneCache, AppendedResultsReadBack) {
  TempDir dir;
  const std::string path = dir.file("c.jsonl");
  {
    clgemm::TuneCache cache(path, {"A", "B"});
    EXPECT_EQ(cache.size(), 0u);
    cache.append(okResult({1, 2}, 10.0));
    clgemm::CandidateResult bad;
    bad.config = {3, 4};
    bad.status = "invalid";
    bad.reason = "build failed";
    cache.append(bad);
    EXPECT_NE(cache.find({1, 2}), nullptr);
  }
  clgemm::TuneCache again(path, {"A", "B"});
  ASSERT_EQ(again.size(), 2u);
  const auto* ok = again.find({1, 2});
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(ok->status, "ok");
  EXPECT_DOUBLE_EQ(*ok->gflops, 10.0);
  EXPECT_EQ(*ok->registers, 40);
  EXPECT_TRUE(ok->from_cache);
  const auto* invalid = again.find({3, 4});
  ASSERT_NE(invalid, nullptr);
  EXPECT_EQ(invalid->status, "invalid");
  EXPECT_EQ(invalid->reason, "build failed");
  EXPECT_EQ(again.find({2, 1}), nullptr);
}

TEST(TuneCache, ALineCutShortIsLostAndTheRestStay) {
  TempDir dir;
  const std::string path = dir.file("c.jsonl");
  {
    clgemm::TuneCache cache(path, {"A"});
    cache.append(okResult({1}, 10.0));
    cache.append(okResult({2}, 20.0));
  }
  // A kill in the middle of a write leaves half a line at the end.
  std::string text = readText(path);
  writeText(path, text + text.substr(0, text.size() / 3));
  {
    clgemm::TuneCache cache(path, {"A"});
    EXPECT_EQ(cache.size(), 2u);
    cache.append(okResult({3}, 30.0));  // goes on its own line after the broken one
  }
  clgemm::TuneCache again(path, {"A"});
  EXPECT_EQ(again.size(), 3u);
  ASSERT_NE(again.find({3}), nullptr);
  EXPECT_DOUBLE_EQ(*again.find({3})->gflops, 30.0);
  // Lines for other parameter names (another kernel's) do not count.
  clgemm::TuneCache other(path, {"B"});
  EXPECT_EQ(other.size(), 0u);
}

TEST(TuneCache, AnUnwritableCacheIsAUsageErrorNamingStore) {
  clgemm::TuneCache cache("/proc/clgemm-no-such-dir/c.jsonl", {"A"});
  expectUsageError([&] { cache.append(okResult({1}, 1.0)); }, "--store");
}

TEST(TuneCache, FileNamesKeyTheSearch) {
  const std::string a = clgemm::tuneCacheFileName("GPU X", "best", {512, 512, 512}, "key1");
  EXPECT_EQ(a.rfind("gpu-x-best-512-", 0), 0u) << a;
  EXPECT_EQ(a.size(), std::string("gpu-x-best-512-").size() + 16 + 6);
  EXPECT_NE(a, clgemm::tuneCacheFileName("GPU X", "best", {512, 512, 512}, "key2"));
  EXPECT_EQ(a, clgemm::tuneCacheFileName("GPU X", "best", {512, 512, 512}, "key1"));
}

}  // namespace
