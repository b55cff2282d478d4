// `clgemm tune` end to end on this machine's OpenCL device (pocl in CI): a small space searched
// completely, candidates that cannot build or are wrong never winning, interruption and resume,
// the winner read back by later runs, and every bad tune option refused. Each test names its own
// store folder, so the developer's is never touched.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "opencl/device_class.hpp"
#include "report/kernel_figures.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

namespace fs = std::filesystem;
using clgemm_test::plantedKernels;
using clgemm_test::readText;
using clgemm_test::runClgemm;
using clgemm_test::RunResult;
using clgemm_test::TempDir;
using clgemm_test::writeText;
using nlohmann::json;

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Four configurations of regtile2d (TSM x TSN in {16, 32}), everything else held.
const std::vector<std::string> kTinySpace = {
    "--kernel", "regtile2d", "--size",     "40",    "--space", "TSM=16,32",
    "--space",  "TSN=16,32", "-D",         "TSK=8", "-D",      "WPTM=2",
    "-D",       "WPTN=2",    "-D",         "PAD=1", "--reps",  "2",
    "--warmup", "0",         "--progress", "off"};

std::vector<std::string> tune(const TempDir& store, const std::vector<std::string>& args) {
  return std::vector<std::string>{"tune", "--store", store.path()} + args;
}

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path().string());
  return files;
}

std::size_t linesIn(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
  return n;
}

json parse(const RunResult& r) { return clgemm_test::parseReport(r); }

// The stored winner's defines.
json storedEntry(const TempDir& store) {
  const auto files = filesIn(store.path() + "/params");
  if (files.size() != 1) {
    ADD_FAILURE() << files.size() << " files in the store's params/";
    return json::object();
  }
  return json::parse(readText(files.front()));
}

TEST(Tune, SearchesATinySpaceEndToEndAndStoresTheWinner) {
  TempDir store;
  const auto r = runClgemm(tune(store, kTinySpace + std::vector<std::string>{"--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  EXPECT_EQ(doc["space"]["combinations"], 4);
  EXPECT_EQ(doc["space"]["valid"], 4);
  EXPECT_EQ(doc["strategy"], "full");
  ASSERT_EQ(doc["candidates"].size(), 4u);
  std::set<std::string> seen;
  double best = 0.0;
  for (const auto& c : doc["candidates"]) {
    EXPECT_EQ(c["status"], "ok") << c.dump();
    EXPECT_LT(c["err_ratio"].get<double>(), 16.0);
    EXPECT_FALSE(c["from_cache"].get<bool>());
    seen.insert(c["defines"].dump());
    best = std::max(best, c["gflops"].get<double>());
  }
  EXPECT_EQ(seen.size(), 4u) << "a configuration was evaluated twice";
  for (const auto& c : doc["candidates"])
    if (c["rank"] == 1) EXPECT_DOUBLE_EQ(c["gflops"].get<double>(), best);

  // The three fastest (the start, the defaults' 64 x 64, lies outside this space) were timed again
  // side by side in three rounds, and the best median of those won, not the search's fastest.
  const json& confirmation = doc["confirmation"];
  EXPECT_EQ(confirmation["rounds"], 3);
  ASSERT_EQ(confirmation["candidates"].size(), 3u) << confirmation.dump();
  json confirmed_best;
  for (const auto& c : confirmation["candidates"]) {
    EXPECT_EQ(c["status"], "ok") << c.dump();
    ASSERT_EQ(c["rounds"].size(), 3u) << c.dump();
    std::vector<double> rounds = c["rounds"].get<std::vector<double>>();
    std::sort(rounds.begin(), rounds.end());
    EXPECT_DOUBLE_EQ(c["gflops"].get<double>(), rounds[1]) << "not the median of the rounds";
    bool searched_in_top_three = false;
    for (const auto& r : doc["candidates"])
      if (r["defines"] == c["defines"]) {
        searched_in_top_three = r["rank"].get<int>() <= 3;
        EXPECT_DOUBLE_EQ(r["confirmed_gflops"].get<double>(), c["gflops"].get<double>());
      }
    EXPECT_TRUE(searched_in_top_three) << c.dump();
    if (confirmed_best.is_null() || c["gflops"] > confirmed_best["gflops"]) confirmed_best = c;
  }
  EXPECT_EQ(doc["winner"], confirmed_best["defines"]);

  const json entry = storedEntry(store);
  EXPECT_EQ(doc["stored"], filesIn(store.path() + "/params").front());
  EXPECT_EQ(entry["device"], doc["device"]["name"]);
  EXPECT_EQ(entry["driver"], doc["device"]["driver"]);
  EXPECT_EQ(entry["kernel"], "regtile2d");
  EXPECT_EQ(entry["size"], (json{{"m", 40}, {"n", 40}, {"k", 40}}));
  EXPECT_EQ(entry["defines"], doc["winner"]);
  EXPECT_DOUBLE_EQ(entry["measured"]["gflops"].get<double>(),
                   confirmed_best["gflops"].get<double>());
  EXPECT_EQ(entry["measured"]["confirmed_rounds"], confirmed_best["rounds"]);
  // The device's class, so that other devices of it can borrow the entry.
  const clgemm::DeviceInfo& device = clgemm_test::defaultDevice();
  EXPECT_EQ(entry["class"]["architecture"], device.architecture);
  EXPECT_EQ(entry["class"]["vendor"], clgemm::vendorFamily(device.vendor));
  EXPECT_EQ(entry["class"]["type"], device.type);
  EXPECT_EQ(entry["class"]["compute_units"], device.compute_units);
  EXPECT_EQ(entry["class"]["local_mem_bytes"], device.local_mem_bytes);
  EXPECT_EQ(entry["measured"]["tool"], "clgemm tune");
}

// --confirm 0: the search's fastest is stored as it was measured, nothing timed again.
TEST(Tune, WithoutConfirmationTheSearchsFastestIsStored) {
  TempDir store;
  const auto r = runClgemm(
      tune(store, kTinySpace + std::vector<std::string>{"--confirm", "0", "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  EXPECT_TRUE(doc["confirmation"]["candidates"].empty());
  for (const auto& c : doc["candidates"]) {
    EXPECT_TRUE(c["confirmed_gflops"].is_null());
    if (c["rank"] == 1) {
      EXPECT_EQ(doc["winner"], c["defines"]);
      EXPECT_DOUBLE_EQ(storedEntry(store)["measured"]["gflops"].get<double>(),
                       c["gflops"].get<double>());
    }
  }
  EXPECT_FALSE(storedEntry(store)["measured"].contains("confirmed_rounds"));
}

// The start is confirmed beside the fastest even when it ranked below them, so a winner picked by
// one lucky sample must beat it side by side.
TEST(Tune, TheStartIsConfirmedBesideTheFastest) {
  TempDir store;
  // TSM x TSN over 8, 16, 32, 64 (16 configurations, 13 besides the three fastest); the start is
  // the defaults' 64 x 64.
  const std::vector<std::string> args = tune(store, {"--kernel",   "regtile2d",
                                                     "--size",     "64",
                                                     "--space",    "TSM=8,16,32,64",
                                                     "--space",    "TSN=8,16,32,64",
                                                     "-D",         "TSK=8",
                                                     "-D",         "WPTM=2",
                                                     "-D",         "WPTN=2",
                                                     "-D",         "PAD=1",
                                                     "--reps",     "2",
                                                     "--warmup",   "0",
                                                     "--confirm",  "2",
                                                     "--progress", "off"});
  const auto r = runClgemm(args + std::vector<std::string>{"--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  const json& start = doc["start"]["defines"];
  int start_rank = 0;
  for (const auto& c : doc["candidates"])
    if (c["defines"] == start) start_rank = c["rank"].get<int>();
  ASSERT_GT(start_rank, 0) << "the start did not verify";
  const json& confirmed = doc["confirmation"]["candidates"];
  ASSERT_EQ(confirmed.size(), start_rank <= 3 ? 3u : 4u) << doc["confirmation"].dump();
  bool start_confirmed = false;
  for (const auto& c : confirmed) {
    EXPECT_EQ(c["rounds"].size(), 2u);
    start_confirmed = start_confirmed || c["defines"] == start;
  }
  EXPECT_TRUE(start_confirmed);
  // The table shows the side-by-side timing and marks the start and the winner.
  const auto table = runClgemm(args);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("confirmed side by side (2 interleaved rounds"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("(winner)"), std::string::npos) << table.out;
}

TEST(Tune, TheTableShowsTheSpaceTheRankingAndTheProgress) {
  TempDir store;
  auto args = tune(store, kTinySpace);
  args.back() = "on";  // --progress on
  const auto r = runClgemm(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("space: 4 combinations of TSM(2) TSN(2) TSK(1) WPTM(1) WPTN(1) PAD(1); "
                       "4 valid"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("search: full, 4 of 4 evaluated (0 from the cache)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("rank  GFLOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("winner stored in " + store.path() + "/params/"), std::string::npos);
  // Before it starts: how many there are; while it runs: done/total, best so far, time left.
  EXPECT_NE(r.err.find("4 combinations, 4 valid; evaluating 4 by full"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("clgemm: [1/4,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("clgemm: [4/4,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("s left]"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(best none yet)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" GFLOP/s: TSM="), std::string::npos) << r.err;
}

TEST(Tune, LaterRunsReadTheWinnerFromTheStore) {
  TempDir store;
  const auto t = runClgemm(tune(store, kTinySpace + std::vector<std::string>{"--format", "json"}));
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const json winner = parse(t)["winner"];
  const std::string stored = parse(t)["stored"];

  for (const std::string size : {"40", "56"}) {  // the size tuned for, and the nearest entry
    const auto r = runClgemm({"--store", store.path(), "--kernel", "regtile2d", "--size", size,
                              "--reps", "1", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json row = parse(r)["results"][0];
    EXPECT_EQ(row["status"], "ok");
    for (const auto& [name, value] : winner.items()) {
      EXPECT_EQ(row["defines"][name], std::to_string(value.get<int>())) << name;
      EXPECT_EQ(row["define_sources"][name], "store") << name;
    }
    EXPECT_EQ(row["params_file"], stored);
  }
  // -D still wins over the store, and the table names the entry.
  const auto r = runClgemm({"--store", store.path(), "--kernel", "regtile2d", "--size", "40", "-D",
                            "PAD=0", "--reps", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("PAD=0*"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TSM=" + std::to_string(winner["TSM"].get<int>()) + "+"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(+ regtile2d: tuned for this device, from " + stored + ")"),
            std::string::npos)
      << r.out;
  // The search after it starts from the winner.
  const auto again =
      runClgemm(tune(store, kTinySpace + std::vector<std::string>{"--format", "json"}));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const json doc = parse(again);
  EXPECT_EQ(doc["start"]["defines"], winner);
  EXPECT_EQ(doc["start"]["source"], stored + ", with -D");
  EXPECT_EQ(doc["candidates"][0]["defines"], winner);
}

// FP64: `clgemm tune --precision fp64` searches the FP64 problem (every candidate built with
// FP64=1 and verified in DBL_EPSILON units), records "precision": "fp64" in an entry whose file
// name says it, and a later FP64 run takes it while an FP32 run does not (and says why). The FP32
// tune in the same store neither reads the FP64 candidates from the cache nor replaces the FP64
// entry. Needs regtile2d's FP64 build (kernels.cl's REAL): passes once the FP64 kernels are merged.
TEST(Tune, Fp64TunesTheFp64ProblemAndKeysTheEntryByIt) {
  TempDir store;
  const auto t = runClgemm(
      tune(store, kTinySpace + std::vector<std::string>{"--precision", "fp64", "--confirm", "0",
                                                        "--format", "json"}));
  ASSERT_EQ(t.exit_code, 0) << t.err << t.out;
  const json doc = parse(t);
  EXPECT_EQ(doc["precision"], "fp64");
  for (const auto& c : doc["candidates"]) {
    EXPECT_EQ(c["status"], "ok") << c.dump();
    EXPECT_FALSE(c["from_cache"].get<bool>());
  }
  const std::string stored = doc["stored"];
  EXPECT_NE(stored.find("-regtile2d-fp64-40.json"), std::string::npos) << stored;
  const json entry = storedEntry(store);
  EXPECT_EQ(entry["precision"], "fp64");
  const json winner = doc["winner"];

  const auto run_row = [&](const std::string& precision) {
    const auto r = runClgemm({"--store", store.path(), "--kernel", "regtile2d", "--size", "40",
                              "--precision", precision, "--reps", "1", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return parse(r)["results"][0];
  };
  const json fp64 = run_row("fp64");
  EXPECT_EQ(fp64["status"], "ok") << fp64.dump();
  EXPECT_EQ(fp64["precision"], "fp64");
  EXPECT_EQ(fp64["params_file"], stored);
  for (const auto& [name, value] : winner.items())
    EXPECT_EQ(fp64["define_sources"][name], "store") << name;
  const json fp32 = run_row("fp32");
  EXPECT_EQ(fp32["precision"], "fp32");
  EXPECT_EQ(fp32["params_file"], "");
  EXPECT_NE(fp32["params_match"].get<std::string>().find("no fp32 entry (" + stored + " is fp64"),
            std::string::npos)
      << fp32.dump();

  // FP32 in the same store: its own cache (nothing from FP64's) and its own entry beside.
  const auto t32 = runClgemm(
      tune(store, kTinySpace + std::vector<std::string>{"--confirm", "0", "--format", "json"}));
  ASSERT_EQ(t32.exit_code, 0) << t32.err;
  const json doc32 = parse(t32);
  EXPECT_EQ(doc32["precision"], "fp32");
  for (const auto& c : doc32["candidates"]) EXPECT_FALSE(c["from_cache"].get<bool>()) << c.dump();
  EXPECT_EQ(filesIn(store.path() + "/params").size(), 2u);
  EXPECT_EQ(json::parse(readText(doc32["stored"].get<std::string>()))["precision"], "fp32");
  EXPECT_EQ(json::parse(readText(stored))["precision"], "fp64");
}

// Options before the subcommand work as after it: `clgemm --kernels my.cl tune ...`.
TEST(Tune, OptionsMayComeBeforeTheSubcommand) {
  TempDir store, dir;
  writeText(dir.file("my.cl"), clgemm_test::sourceKernels());
  const auto r = runClgemm(std::vector<std::string>{"--kernels", dir.file("my.cl"), "tune",
                                                    "--store", store.path(), "--format", "json"} +
                           kTinySpace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(parse(r)["candidates"].size(), 4u);
  EXPECT_EQ(filesIn(store.path() + "/params").size(), 1u);
}

TEST(Tune, ATooLargeConfigurationIsSkippedWithItsReason) {
  TempDir store;
  // regtile2d's tiles take TSK * (TSM + PAD + TSN + PAD) floats of local memory: 66 floats per
  // K-step at 32-wide tiles with PAD=1. The too-large TSK is the first that passes what this
  // device offers a work-group, read from the device (pocl says 512 KiB, 1 MiB or 2 MiB depending
  // on the host's caches; an NVIDIA GPU's arrays may have 48 to 227 KiB), so it is too large on
  // every machine.
  const std::uint64_t local_mem = clgemm::groupLocalMemLimit(clgemm_test::defaultDevice());
  const std::uint64_t bytes_per_k = (32 + 1 + 32 + 1) * sizeof(float);
  const std::uint64_t too_large_tsk = local_mem / bytes_per_k + 1;
  const std::string tiles_need =
      "the tiles need " + std::to_string(too_large_tsk * bytes_per_k) + " bytes of local memory";
  const auto r =
      runClgemm(tune(store, {"--kernel", "regtile2d", "--size",
                             "40",       "--space",   "TSK=8," + std::to_string(too_large_tsk),
                             "-D",       "TSM=32",    "-D",
                             "TSN=32",   "-D",        "WPTM=4",
                             "-D",       "WPTN=4",    "-D",
                             "PAD=1",    "--reps",    "1",
                             "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  EXPECT_EQ(doc["space"]["combinations"], 2);
  EXPECT_EQ(doc["space"]["valid"], 1) << "device local memory: " << local_mem << " bytes";
  ASSERT_EQ(doc["space"]["excluded"].size(), 1u) << "device local memory: " << local_mem;
  EXPECT_EQ(doc["space"]["excluded"][0]["kind"], "local memory");
  EXPECT_NE(doc["space"]["excluded"][0]["example"].get<std::string>().find(tiles_need),
            std::string::npos)
      << tiles_need << "\n"
      << doc["space"]["excluded"].dump();
  ASSERT_EQ(doc["candidates"].size(), 1u);
  EXPECT_EQ(doc["candidates"][0]["defines"]["TSK"], 8);
}

TEST(Tune, CandidatesThatFailToBuildAreInvalidAndTheSearchGoesOn) {
  TempDir store, dir;
  writeText(dir.file("kernels.cl"),
            plantedKernels("gemm_regtile2d", "#if TSM == 32\n#error planted failure\n#endif\n"));
  const auto r = runClgemm(
      tune(store, kTinySpace + std::vector<std::string>{"--kernels", dir.file("kernels.cl"),
                                                        "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  ASSERT_EQ(doc["candidates"].size(), 4u);
  int invalid = 0;
  for (const auto& c : doc["candidates"]) {
    if (c["defines"]["TSM"] == 32) {
      ++invalid;
      EXPECT_EQ(c["status"], "invalid");
      EXPECT_TRUE(c["rank"].is_null());
      EXPECT_NE(c["reason"].get<std::string>().find("failed"), std::string::npos) << c.dump();
      EXPECT_EQ(c["reason"].get<std::string>().find('\n'), std::string::npos) << "one line";
    } else {
      EXPECT_EQ(c["status"], "ok") << c.dump();
    }
  }
  EXPECT_EQ(invalid, 2);
  EXPECT_EQ(doc["winner"]["TSM"], 16);
  EXPECT_EQ(storedEntry(store)["defines"]["TSM"], 16);
}

TEST(Tune, AWrongKernelNeverWinsHoweverFast) {
  TempDir store, dir;
  // With PAD=2 the kernel writes zeros over C and returns: far the fastest, and wrong.
  writeText(dir.file("kernels.cl"),
            plantedKernels("gemm_regtile2d",
                           "#if PAD == 2\n"
                           "  for (int i = get_global_id(1); i < M; i += get_global_size(1))\n"
                           "    for (int j = get_global_id(0); j < N; j += get_global_size(0))\n"
                           "      C[i * N + j] = 0.0f;\n"
                           "  return;\n"
                           "#endif\n"));
  const auto r = runClgemm(
      tune(store, {"--kernel", "regtile2d", "--size",   "48",        "--space",
                   "PAD=1,2",  "--space",   "TSK=8,16", "-D",        "TSM=16",
                   "-D",       "TSN=16",    "-D",       "WPTM=2",    "-D",
                   "WPTN=2",   "--reps",    "2",        "--kernels", dir.file("kernels.cl"),
                   "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  ASSERT_EQ(doc["candidates"].size(), 4u);
  for (const auto& c : doc["candidates"]) {
    if (c["defines"]["PAD"] == 2) {
      EXPECT_EQ(c["status"], "FAIL") << c.dump();
      EXPECT_TRUE(c["rank"].is_null());
      EXPECT_NE(c["reason"].get<std::string>().find("wrong result"), std::string::npos);
    } else {
      EXPECT_EQ(c["status"], "ok") << c.dump();
    }
  }
  EXPECT_EQ(doc["winner"]["PAD"], 1);
  EXPECT_EQ(storedEntry(store)["defines"]["PAD"], 1);
  for (const auto& c : doc["confirmation"]["candidates"]) EXPECT_EQ(c["defines"]["PAD"], 1);
  // The table lists them apart from the ranking.
  const auto table =
      runClgemm(tune(store, {"--kernel", "regtile2d", "--size", "48", "--space", "PAD=1,2",
                             "--space", "TSK=8,16", "-D", "TSM=16", "-D", "TSN=16", "-D", "WPTM=2",
                             "-D", "WPTN=2", "--kernels", dir.file("kernels.cl")}));
  EXPECT_NE(table.out.find("wrong results, never ranked (2):"), std::string::npos) << table.out;
}

TEST(Tune, ALargerBudgetResumesFromTheCache) {
  TempDir store;
  const std::vector<std::string> base = {
      "--kernel", "regtile2d", "--size", "32",       "--strategy", "random",     "--reps",
      "1",        "--warmup",  "0",      "--format", "json",       "--progress", "off"};
  const auto first = runClgemm(tune(store, base + std::vector<std::string>{"--budget", "3"}));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json a = parse(first)["candidates"];
  ASSERT_EQ(a.size(), 3u);
  // The store now holds a winner, so the next search starts there and walks its own order; what
  // it proposes that the first search finished comes from the cache, the rest is run.
  const auto second = runClgemm(tune(store, base + std::vector<std::string>{"--budget", "6"}));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const json b = parse(second)["candidates"];
  ASSERT_EQ(b.size(), 6u);
  std::set<std::string> first_configs;
  for (const auto& c : a) first_configs.insert(c["defines"].dump());
  std::size_t cached = 0;
  for (const auto& c : b) {
    const bool was_done = first_configs.count(c["defines"].dump()) > 0;
    EXPECT_EQ(c["from_cache"].get<bool>(), was_done) << c.dump();
    cached += was_done ? 1 : 0;
  }
  EXPECT_GE(cached, 1u);
  const auto caches = filesIn(store.path() + "/tune-cache");
  ASSERT_EQ(caches.size(), 1u);
  EXPECT_EQ(linesIn(caches.front()), 6 + 3 - cached);
}

TEST(Tune, CtrlCStopsCleanlyAndTheSameCommandResumes) {
  TempDir store;
  const std::vector<std::string> args =
      tune(store, {"--kernel", "regtile2d", "--size", "64", "--budget", "400", "--reps", "3",
                   "--format", "json", "--progress", "on"});
  std::string cache;
  {
    clgemm_test::RunningClgemm running(args);
    // Wait for a few candidates to reach the cache, then interrupt.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < give_up && running.running()) {
      const auto files = filesIn(store.path() + "/tune-cache");
      if (!files.empty() && linesIn(files.front()) >= 3) {
        cache = files.front();
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_FALSE(cache.empty()) << "no cache after two minutes";
    running.signal(SIGINT);
    const RunResult r = running.wait();
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_NE(r.err.find("interrupted after"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the same command resumes"), std::string::npos) << r.err;
    // Nothing stored from a search cut short; the report of what was done is whole JSON.
    EXPECT_TRUE(filesIn(store.path() + "/params").empty());
    const json doc = parse(r);
    EXPECT_TRUE(doc["interrupted"].get<bool>());
    EXPECT_EQ(doc["candidates"].size(), linesIn(cache));
  }
  // Every line of the cache is whole.
  std::ifstream in(cache);
  std::set<std::string> done;
  for (std::string line; std::getline(in, line);) {
    const json entry = json::parse(line);  // throws on a broken line
    done.insert(entry["defines"].dump());
  }
  const std::size_t lines = done.size();
  ASSERT_GE(lines, 3u);

  // Resumed with the same command (the annealing schedule follows the budget, so the budget must
  // stay) and a time limit so it stops soon after: the cached candidates come back first, in the
  // same order, and none of them runs again.
  const RunResult r = runClgemm(args + std::vector<std::string>{"--time", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  ASSERT_GT(doc["candidates"].size(), lines) << "nothing new was evaluated";
  std::size_t from_cache = 0;
  for (std::size_t i = 0; i < doc["candidates"].size(); ++i) {
    const auto& c = doc["candidates"][i];
    // The walk is deterministic: the first `lines` proposals are the ones done before.
    EXPECT_EQ(c["from_cache"].get<bool>(), i < lines) << i << ": " << c.dump();
    EXPECT_EQ(done.count(c["defines"].dump()) > 0, i < lines) << i;
    from_cache += c["from_cache"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(from_cache, lines);
  EXPECT_EQ(linesIn(cache), doc["candidates"].size());
  EXPECT_FALSE(filesIn(store.path() + "/params").empty());
}

struct BadTune {
  std::string name;
  std::vector<std::string> args;  // after clgemm
  std::vector<std::string> needles;
};

void PrintTo(const BadTune& b, std::ostream* os) { *os << b.name; }

class BadTuneOptions : public ::testing::TestWithParam<BadTune> {};

TEST_P(BadTuneOptions, ExitTwoNamingTheCulpritAndStoreNothing) {
  TempDir store;
  std::vector<std::string> args = GetParam().args;
  args.push_back("--store");
  args.push_back(store.file("s"));
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("clgemm: error: ", 0), 0u) << r.err;
  for (const auto& needle : GetParam().needles)
    EXPECT_NE(r.err.find(needle), std::string::npos) << "missing '" << needle << "' in " << r.err;
  EXPECT_TRUE(filesIn(store.file("s") + "/params").empty());
}

const std::vector<std::string> kT = {"tune", "--kernel", "regtile2d", "--size", "32"};

INSTANTIATE_TEST_SUITE_P(
    Tune, BadTuneOptions,
    ::testing::Values(
        BadTune{"NoKernel", {"tune", "--size", "32"}, {"clgemm tune needs --kernel NAME"}},
        BadTune{"TwoKernels", {"tune", "--kernel", "tiled,regtile2d"}, {"one kernel at a time"}},
        BadTune{"Group", {"tune", "--kernel", "cl"}, {"one kernel at a time", "'cl'"}},
        BadTune{"CpuPath", {"tune", "--kernel", "cpu-packed"}, {"cpu-packed is not one"}},
        BadTune{"Baseline", {"tune", "--kernel", "clblast"}, {"clblast is not one"}},
        BadTune{"Unknown", {"tune", "--kernel", "fastest"}, {"unknown kernel variant 'fastest'"}},
        BadTune{"BudgetZero", kT + std::vector<std::string>{"--budget", "0"}, {"--budget 0"}},
        BadTune{"BudgetWord",
                kT + std::vector<std::string>{"--budget", "many"},
                {"--budget 'many' is not an integer"}},
        BadTune{"BudgetNegative", kT + std::vector<std::string>{"--budget", "-3"}, {"--budget -3"}},
        BadTune{"ConfirmNegative",
                kT + std::vector<std::string>{"--confirm", "-1"},
                {"--confirm -1 must be >= 0"}},
        BadTune{"ConfirmWord",
                kT + std::vector<std::string>{"--confirm", "twice"},
                {"--confirm 'twice' is not an integer"}},
        BadTune{"ConfirmOnARun",
                {"--kernel", "regtile2d", "--size", "32", "--confirm", "2"},
                {"--confirm does not apply to a benchmark run"}},
        BadTune{"TimeZero",
                kT + std::vector<std::string>{"--time", "0"},
                {"--time 0 must be a positive number of seconds"}},
        BadTune{"TimeWord", kT + std::vector<std::string>{"--time", "soon"}, {"--time 'soon'"}},
        BadTune{"TimeInfinite", kT + std::vector<std::string>{"--time", "inf"}, {"--time 'inf'"}},
        BadTune{"Strategy",
                kT + std::vector<std::string>{"--strategy", "genetic"},
                {"--strategy 'genetic' is not one of auto, full, random, anneal"}},
        BadTune{
            "SpaceNoEquals", kT + std::vector<std::string>{"--space", "TSM"}, {"--space 'TSM'"}},
        BadTune{"SpaceEmpty",
                kT + std::vector<std::string>{"--space", "TSM="},
                {"--space 'TSM=' lists no values"}},
        BadTune{"SpaceWord",
                kT + std::vector<std::string>{"--space", "TSM=16,big"},
                {"'big' is not an integer"}},
        BadTune{"SpaceUnknown",
                kT + std::vector<std::string>{"--space", "BM=64"},
                {"regtile2d has no parameter BM"}},
        BadTune{"SpaceTwice",
                kT + std::vector<std::string>{"--space", "TSM=16", "--space", "TSM=32"},
                {"--space TSM is given twice"}},
        BadTune{"SpaceAndDefine",
                kT + std::vector<std::string>{"--space", "TSM=16,32", "-D", "TSM=64"},
                {"--space TSM conflicts with -D TSM"}},
        BadTune{"DefineNotInteger",
                kT + std::vector<std::string>{"-D", "TSM=wide"},
                {"TSM=wide", "must be an integer"}},
        BadTune{
            "NothingFits",
            kT + std::vector<std::string>{"--space", "TSK=100000", "-D", "TSM=64", "-D", "TSN=64"},
            {"none of the", "local memory"}},
        BadTune{"Compare",
                kT + std::vector<std::string>{"--compare", "clblast"},
                {"--compare does not apply to clgemm tune"}},
        BadTune{"Sizes",
                {"tune", "--kernel", "regtile2d", "--sizes", "32,64"},
                {"--sizes does not apply to clgemm tune"}},
        BadTune{"NoCheck",
                kT + std::vector<std::string>{"--no-check"},
                {"--no-check does not apply to clgemm tune"}},
        BadTune{"InputA",
                kT + std::vector<std::string>{"--input-a", "a.npy"},
                {"--input-a does not apply to clgemm tune"}},
        BadTune{"Threads",
                kT + std::vector<std::string>{"--threads", "2"},
                {"--threads does not apply to clgemm tune"}},
        BadTune{"PrecisionList",
                kT + std::vector<std::string>{"--precision", "fp32,fp64"},
                {"clgemm tune searches one problem: give one value to --precision",
                 "'fp32,fp64' sweeps"}},
        BadTune{"PrecisionUnknown",
                kT + std::vector<std::string>{"--precision", "fp16"},
                {"--precision", "'fp16'"}},
        BadTune{"SizeAndM",
                {"tune", "--kernel", "regtile2d", "--size", "32", "-m", "8"},
                {"--size conflicts with -m"}},
        BadTune{"BudgetOnARun",
                {"--kernel", "regtile2d", "--size", "32", "--budget", "5"},
                {"--budget does not apply to a benchmark run"}},
        BadTune{"SpaceOnARun",
                {"--kernel", "regtile2d", "--space", "TSM=16"},
                {"--space does not apply to a benchmark run"}},
        BadTune{"StrategyOnPeak",
                {"peak", "--strategy", "full"},
                {"--strategy does not apply to clgemm peak"}},
        BadTune{"TimeOnPeak", {"peak", "--time", "3"}, {"--time does not apply to clgemm peak"}},
        BadTune{
            "FormatBogus", kT + std::vector<std::string>{"--format", "xml"}, {"--format 'xml'"}}),
    [](const ::testing::TestParamInfo<BadTune>& info) { return info.param.name; });

TEST(Tune, AStoreThatCannotBeWrittenIsRefusedBeforeSearching) {
  TempDir dir;
  writeText(dir.file("file"), "not a folder");
  const auto r =
      runClgemm({"tune", "--kernel", "regtile2d", "--size", "32", "--store", dir.file("file")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--store: cannot create the store folder"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("evaluating"), std::string::npos) << "it started searching: " << r.err;
}

TEST(Tune, AnUnwritableOutFileIsRefusedAndNothingIsLeft) {
  TempDir store;
  const auto r = runClgemm(tune(
      store, kTinySpace + std::vector<std::string>{"--out", store.file("missing/dir/report.txt")}));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  EXPECT_TRUE(filesIn(store.path() + "/params").empty());
}

TEST(Tune, TheReportGoesToOutAsCsvWithAColumnPerParameter) {
  TempDir store;
  const auto r =
      runClgemm(tune(store, kTinySpace + std::vector<std::string>{"--format", "csv", "--out",
                                                                  store.file("t.csv")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const std::string csv = readText(store.file("t.csv"));
  EXPECT_EQ(csv.rfind("variant,device,driver,date,m,n,k,layout,trans_a,trans_b,lda,ldb,ldc,"
                      "precision,alpha,beta,TSM,TSN,TSK,WPTM,WPTN,PAD,rank,status,gflops",
                      0),
            0u)
      << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
}

// The tuner searches one shape and says which: its records carry the shape, and the entry's key is
// the kernel's transposes where the kernel takes the shape itself (best: col TN is its NT), NN for
// a kernel that runs on packed copies (regtile2d), whose entry then serves every shape.
TEST(Tune, TheReportAndTheEntryCarryTheShape) {
  TempDir store;
  const auto r =
      runClgemm(tune(store, {"--kernel",  "best",  "--size",     "40",    "--space",  "GROUP_M=1,8",
                             "-D",        "BM=32", "-D",         "BN=32", "-D",       "BK=8",
                             "-D",        "TM=4",  "-D",         "TN=4",  "--reps",   "2",
                             "--warmup",  "0",     "--progress", "off",   "--layout", "col",
                             "--trans-a", "t",     "--lda",      "44",    "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["trans"], "NT");
  EXPECT_EQ(doc["layout"], "col");
  EXPECT_EQ(doc["trans_a"], "t");
  EXPECT_EQ(doc["trans_b"], "n");
  EXPECT_EQ(doc["lda"], 44);
  EXPECT_EQ(doc["precision"], "fp32");
  const auto entries = filesIn(store.path() + "/params");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_NE(entries[0].find("-best-nt-40.json"), std::string::npos) << entries[0];
  const json entry = json::parse(readText(entries[0]));
  EXPECT_EQ(entry["trans"], "NT");
  EXPECT_EQ(entry["measured"]["shape"], "col TN lda=44");

  TempDir ladder_store;
  const auto ladder = runClgemm(
      tune(ladder_store, kTinySpace + std::vector<std::string>{"--layout", "col", "--trans-a", "t",
                                                               "--format", "json"}));
  ASSERT_EQ(ladder.exit_code, 0) << ladder.err;
  EXPECT_EQ(json::parse(ladder.out)["trans"], "NN");
  const auto ladder_entries = filesIn(ladder_store.path() + "/params");
  ASSERT_EQ(ladder_entries.size(), 1u);
  EXPECT_EQ(ladder_entries[0].find("-nt-"), std::string::npos) << ladder_entries[0];
}

TEST(Tune, TheTimeBudgetStopsTheSearch) {
  TempDir store;
  const auto began = std::chrono::steady_clock::now();
  const auto r = runClgemm(tune(store, {"--kernel", "regtile2d", "--size", "64", "--time", "2",
                                        "--reps", "1", "--format", "json", "--progress", "off"}));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  EXPECT_GE(doc["candidates"].size(), 1u);
  EXPECT_LT(doc["candidates"].size(), doc["space"]["valid"].get<std::size_t>());
  // The last candidate may start just before the limit; none starts after it.
  EXPECT_LT(doc["seconds"].get<double>(), 2.0 + 30.0);
  EXPECT_LT(seconds, 120.0);
  // --time alone never walks a large space in its own order (it would end on the first few
  // configurations, all alike): the search anneals, cooling as the time runs out.
  EXPECT_GT(doc["space"]["valid"].get<std::size_t>(), 50u);
  EXPECT_EQ(doc["strategy"], "anneal");
}

// Under --time the search leaves room for the confirmation (its builds and all its rounds), so the
// whole command ends near the limit with every round run. 20 s, because a kernel that is not in
// pocl's cache takes 2 s to build and run on a 2-core machine, 4.7 s under ASan: at 6 s, a cold
// cache left one candidate and nothing to confirm.
TEST(Tune, TheTimeLimitLeavesRoomForEveryConfirmationRound) {
  TempDir store;
  const int limit = 20;
  const auto r = runClgemm(
      tune(store, {"--kernel", "regtile2d", "--size", "64", "--time", std::to_string(limit),
                   "--reps", "2", "--format", "json", "--progress", "off"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  ASSERT_GE(doc["confirmation"]["candidates"].size(), 2u) << doc["confirmation"].dump();
  for (const auto& c : doc["confirmation"]["candidates"])
    EXPECT_EQ(c["rounds"].size(), 3u) << doc["confirmation"].dump();
  // One step may begin just before the search's share ends and outrun it (a cold build).
  EXPECT_LT(doc["seconds"].get<double>() + doc["confirmation"]["seconds"].get<double>(),
            1.25 * limit)
      << "search " << doc["seconds"] << " s, confirmation " << doc["confirmation"]["seconds"];
}

// A space the default budget covers is walked whole under --time, as under no limit.
TEST(Tune, TimeAloneOnASmallSpaceWalksItAll) {
  TempDir store;
  const auto r = runClgemm(
      tune(store, kTinySpace + std::vector<std::string>{"--time", "60", "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  EXPECT_EQ(doc["strategy"], "full");
  EXPECT_EQ(doc["candidates"].size(), 4u);
}

// best's PAD_FROM is a size threshold: at a tile multiple every value runs the same launches, so a
// search would store noise's choice for the odd sizes the entry also serves. It is held at the
// run's value (the default here) and left out of the entry unless --space searches it.
TEST(Tune, ASizeRuleIsHeldUnlessSearchedAndItsDefaultStaysOutOfTheEntry) {
  const std::vector<std::string> args = {
      "--kernel", "best",     "--size", "64",         "--space", "BM=16,32",  "-D",
      "BN=32",    "-D",       "BK=8",   "-D",         "TM=4",    "-D",        "TN=4",
      "-D",       "PADA=4",   "-D",     "PADB=4",     "-D",      "GROUP_M=8", "--reps",
      "2",        "--warmup", "0",      "--progress", "off"};
  const std::vector<std::string> as_json = {"--format", "json"};
  TempDir held_store;
  const auto held = runClgemm(tune(held_store, args + as_json));
  ASSERT_EQ(held.exit_code, 0) << held.err;
  const json doc = parse(held);
  EXPECT_EQ(doc["space"]["combinations"], 2);
  EXPECT_EQ(doc["space"]["held_rules"], (json{{"PAD_FROM", 4000}}));
  const json entry = storedEntry(held_store);
  EXPECT_FALSE(entry["defines"].contains("PAD_FROM")) << entry.dump();
  EXPECT_EQ(entry["defines"]["BM"], doc["winner"]["BM"]);
  const auto table = runClgemm(tune(held_store, args));
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("held at the value a run uses (rules over sizes, which one size cannot "
                           "judge; --space NAME=V1,V2 searches one): PAD_FROM=4000"),
            std::string::npos)
      << table.out;

  TempDir searched_store;
  const auto searched = runClgemm(tune(
      searched_store, args + as_json + std::vector<std::string>{"--space", "PAD_FROM=0,4000"}));
  ASSERT_EQ(searched.exit_code, 0) << searched.err;
  const json searched_doc = parse(searched);
  EXPECT_EQ(searched_doc["space"]["combinations"], 4);
  EXPECT_EQ(searched_doc["space"]["held_rules"], json::object());
  EXPECT_EQ(storedEntry(searched_store)["defines"]["PAD_FROM"], searched_doc["winner"]["PAD_FROM"]);
}

// The search starts from what a run would use now, then this device's other entries, its class's
// (even where the device has entries of its own: on the H200 an own entry for another size ran
// 38.6 TFLOP/s where the H100's for this size ran 46.2) and the defaults.
TEST(Tune, StartsFromTheNearestEntriesAndTheDefaults) {
  TempDir store;
  const clgemm::DeviceInfo& device = clgemm_test::defaultDevice();
  fs::create_directories(store.path() + "/params");
  const json other_size = {{"device", device.name},
                           {"driver", device.driver_version},
                           {"kernel", "regtile2d"},
                           {"size", {{"m", 8}, {"n", 8}, {"k", 8}}},
                           {"defines", {{"TSM", 16}, {"TSN", 32}}}};
  const json this_size = {{"device", device.name},
                          {"driver", device.driver_version},
                          {"kernel", "regtile2d"},
                          {"size", {{"m", 40}, {"n", 40}, {"k", 40}}},
                          {"defines", {{"TSM", 32}, {"TSN", 16}}}};
  const json other_device = {{"device", "Another device of this class"},
                             {"driver", "1"},
                             {"kernel", "regtile2d"},
                             {"size", {{"m", 40}, {"n", 40}, {"k", 40}}},
                             {"class", clgemm::classJson(clgemm::classOf(device))},
                             {"defines", {{"TSM", 16}, {"TSN", 64}}}};
  writeText(store.path() + "/params/other.json", other_size.dump());
  writeText(store.path() + "/params/this.json", this_size.dump());
  writeText(store.path() + "/params/borrowed.json", other_device.dump());
  // TSM and TSN over 16..64 (the defaults are 64 x 64), with a budget of 4 out of 9.
  const auto r = runClgemm(
      tune(store, {"--kernel",   "regtile2d",    "--size",     "40",    "--space",  "TSM=16,32,64",
                   "--space",    "TSN=16,32,64", "-D",         "TSK=8", "-D",       "WPTM=2",
                   "-D",         "WPTN=2",       "-D",         "PAD=1", "--budget", "4",
                   "--strategy", "anneal",       "--reps",     "1",     "--warmup", "0",
                   "--format",   "json",         "--progress", "off"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = parse(r);
  ASSERT_EQ(doc["candidates"].size(), 4u);
  std::vector<json> first;
  for (const auto& c : doc["candidates"])
    first.push_back({{"TSM", c["defines"]["TSM"]}, {"TSN", c["defines"]["TSN"]}});
  EXPECT_EQ(first[0], (json{{"TSM", 32}, {"TSN", 16}}));  // the entry for this size: the start
  EXPECT_EQ(first[1], (json{{"TSM", 16}, {"TSN", 32}}));  // the entry for another size
  EXPECT_EQ(first[2], (json{{"TSM", 16}, {"TSN", 64}}));  // another device's of its class
  EXPECT_EQ(first[3], (json{{"TSM", 64}, {"TSN", 64}}));  // the kernel's defaults
}

}  // namespace
