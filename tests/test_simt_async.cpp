// simt-async, best's FP32 arithmetic on NVIDIA's asynchronous copies: where it runs (NVIDIA,
// compute capability 8.0 and up, the registry's reason everywhere else, end to end through the
// real binary on the machine's device), its constraints and local memory, and its kernel itself
// on the machine's device with SA_PTX = 0, the plain copies that stand in for cp.async there:
// every element of C at tile-multiple shapes whose K-steps wrap the ring of buffers unevenly,
// against a double-precision reference, with and without beta. And the split of the last round of
// tiles along K: the host's rule, the kernel launched as a line of work-groups with its parts'
// scratch, and the plan that SPLIT_SLOTS makes split on a device that reports no occupancy.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "kernels_program.hpp"
#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "opencl/program.hpp"
#include "problem/gemm_shape.hpp"
#include "problem/host_matrix.hpp"
#include "registry/defines.hpp"
#include "registry/families.hpp"
#include "registry/kernels.hpp"
#include "run/kernel_plan.hpp"
#include "run/launch.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace clgemm {
// A split as gtest shows it in failures.
void PrintTo(const WaveSplit& s, std::ostream* os) {
  *os << "{whole " << s.whole << ", split_tiles " << s.split_tiles << ", parts " << s.parts
      << ", slot_floats " << s.slot_floats << "}";
}
}  // namespace clgemm

namespace {

using clgemm::DeviceInfo;
using clgemm_test::registryVariant;
using clgemm_test::runClgemm;

DeviceInfo gpu(const std::string& vendor, std::optional<int> major, std::optional<int> minor) {
  DeviceInfo d;
  d.name = "Test GPU";
  d.vendor = vendor;
  d.is_gpu = true;
  d.nv_cc_major = major;
  d.nv_cc_minor = minor;
  return d;
}

// ------------------------------------------------------------------------------------------------
// Where it runs.

TEST(SimtAsyncUnsupportedOn, OtherVendorsAreRefusedWithTheReason) {
  const auto& v = registryVariant("simt-async");
  for (const char* vendor : {"Advanced Micro Devices, Inc.", "Intel(R) Corporation", ""}) {
    const auto why = clgemm::unsupportedOn(v, gpu(vendor, std::nullopt, std::nullopt));
    ASSERT_TRUE(why.has_value()) << vendor;
    EXPECT_NE(why->find("needs an NVIDIA GPU (cp.async through inline PTX)"), std::string::npos)
        << *why;
  }
}

TEST(SimtAsyncUnsupportedOn, NvidiaBeforeAmpereOrWithoutItsComputeCapabilityIsRefused) {
  const auto& v = registryVariant("simt-async");
  const auto old = clgemm::unsupportedOn(v, gpu("NVIDIA Corporation", 7, 5));
  ASSERT_TRUE(old.has_value());
  EXPECT_NE(old->find("8.0 or newer (cp.async)"), std::string::npos) << *old;
  EXPECT_NE(old->find("has 7.5"), std::string::npos) << *old;
  const auto unknown =
      clgemm::unsupportedOn(v, gpu("NVIDIA Corporation", std::nullopt, std::nullopt));
  ASSERT_TRUE(unknown.has_value());
  EXPECT_NE(unknown->find("cl_nv_device_attribute_query"), std::string::npos) << *unknown;
}

TEST(SimtAsyncUnsupportedOn, AmpereAndHopperRunIt) {
  const auto& v = registryVariant("simt-async");
  for (const auto& [major, minor] :
       {std::pair{8, 0}, std::pair{8, 9}, std::pair{9, 0}, std::pair{10, 0}}) {
    EXPECT_EQ(clgemm::unsupportedOn(v, gpu("NVIDIA Corporation", major, minor)), std::nullopt)
        << major << "." << minor;
  }
}

TEST(SimtAsyncRun, SkippedWithTheReasonWhereTheDeviceCannotRunIt) {
  const auto& device = clgemm_test::defaultDevice();
  const auto why = clgemm_test::unsupportedOnDevice("simt-async", device);
  const auto r = runClgemm({"--kernel", "simt-async,best", "-m", "130", "-n", "200", "-k", "70",
                            "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = clgemm_test::parseReport(r);
  ASSERT_EQ(doc["results"].size(), 2u) << r.out;
  const auto& row = doc["results"][0];
  EXPECT_EQ(row["variant"], "simt-async");
  if (why) {
    EXPECT_EQ(row["status"], "skipped") << row.dump();
    EXPECT_EQ(row["message"], *why) << row.dump();
  } else {  // an NVIDIA GPU: padded to its tiles, verified
    EXPECT_EQ(row["status"], "ok") << row.dump();
  }
  EXPECT_EQ(doc["results"][1]["status"], "ok") << doc["results"][1].dump();
}

TEST(SimtAsyncRun, TuningWhereItCannotRunIsRefused) {
  const auto why = clgemm_test::unsupportedOnDevice("simt-async", clgemm_test::defaultDevice());
  if (!why) GTEST_SKIP() << clgemm_test::defaultDevice().name << " can run simt-async";
  const auto r = runClgemm({"tune", "--kernel", "simt-async", "--size", "64"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("clgemm: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(*why), std::string::npos) << r.err;
}

TEST(SimtAsyncRun, Fp64IsRefused) {
  const auto r = runClgemm({"--kernel", "simt-async", "--size", "64", "--precision", "fp64",
                            "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = clgemm_test::parseReport(r);
  ASSERT_EQ(doc["results"].size(), 1u) << r.out;
  EXPECT_EQ(doc["results"][0]["status"], "skipped") << doc.dump();
  EXPECT_NE(doc["results"][0]["message"].get<std::string>().find("fp32 only"), std::string::npos)
      << doc.dump();
}

// ------------------------------------------------------------------------------------------------
// Constraints and resources.

std::optional<std::string> violations(const std::vector<std::string>& args) {
  const auto& v = registryVariant("simt-async");
  return clgemm::constraintViolations(v, clgemm_test::definesOf(v, args));
}

TEST(SimtAsyncConstraints, DefaultsAndTheShapesItWasTunedOverAreValid) {
  EXPECT_EQ(violations({}), std::nullopt);
  EXPECT_EQ(violations({"BM=256", "BN=64", "TM=16", "TN=8", "STAGES=3"}), std::nullopt);
  EXPECT_EQ(violations({"BM=128", "BN=256", "TN=16", "STAGES=2"}), std::nullopt);
  EXPECT_EQ(violations({"BM=64", "BN=64", "TN=4", "BK=16", "STAGES=2"}), std::nullopt);
}

TEST(SimtAsyncConstraints, EachViolationNamesItsDefines) {
  const auto stages = violations({"STAGES=1"});
  ASSERT_TRUE(stages);
  EXPECT_NE(stages->find("STAGES=1 must be 2 to 8"), std::string::npos) << *stages;
  const auto tn = violations({"TN=6"});
  ASSERT_TRUE(tn);
  EXPECT_NE(tn->find("TN=6 must be a multiple of 4"), std::string::npos) << *tn;
  // Each work-item copies A at one column of the tile: 64 x 64 / (8 x 8) = 64 work-items are no
  // multiple of BK = 128.
  const auto bk = violations({"BM=64", "BN=64", "BK=128"});
  ASSERT_TRUE(bk);
  EXPECT_NE(bk->find("multiple of BK=128"), std::string::npos) << *bk;
  const auto odd = violations({"BK=7"});
  ASSERT_TRUE(odd);
  EXPECT_NE(odd->find("BK=7 must be even"), std::string::npos) << *odd;
  const auto b = violations({"BM=64", "BN=32", "TM=8", "TN=4", "BK=2"});
  ASSERT_TRUE(b);
  EXPECT_NE(b->find("BN x BK / 4"), std::string::npos) << *b;
}

TEST(SimtAsyncConstraints, LocalMemoryCountsEveryStage) {
  const auto& v = registryVariant("simt-async");
  const auto d = clgemm_test::definesOf(v, {"STAGES=3", "BK=8"});
  // 3 stages x 8 k x (128 + 4 + 128 + 4) floats.
  EXPECT_EQ(v.local_mem_bytes(d, sizeof(float)), std::size_t(3 * 8 * 264 * 4));
}

// The kernel's row-major view of an m x n x k problem stored as `shape` says.
clgemm::RowMajorGemm rowMajorOf(int m, int n, int k, const clgemm::GemmShape& shape) {
  return clgemm::rowMajorGemm(m, n, k, clgemm::gemmStorage(m, n, k, shape));
}

// ------------------------------------------------------------------------------------------------
// The split of the last round of tiles along K (splitLastWave), worked out by hand from its rule:
// rest = tiles % slots tiles in the last round, each in parts = min(slots / rest, kMaxWaveParts,
// k_steps / kMinPartSteps) ranges of K-steps; nothing with fewer than two parts. A fuller last
// round (slots / rest < 2), or a unit that holds fewer than three work-groups, on a known number
// of compute units: below.

using clgemm::WaveSplit;
using clgemm::family::splitLastWave;

TEST(SimtAsyncWaveSplit, TheLastRoundOf2049OnThreeWorkGroupsPerUnitIsSplitInTen) {
  // 17 x 17 blocks of 128 for 264 places on 88 units: 25 tiles left over, 264 / 25 = 10 parts
  // (129 K-steps of 16 allow 32); 264 work-groups of whole tiles, then 250 of parts, fewer than
  // two rounds.
  const auto split = splitLastWave(289, 129, 264, 88, 128 * 128);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(*split, (WaveSplit{264, 25, 10, 128 * 128}));
  EXPECT_EQ(split->groups(), 514);
  // As simt-async's entry works it out from the defines and the problem, SPLIT_SLOTS over the
  // device's places: 2052 / 128 and 2052 / 16 rounded up, as for 2049 (whose B, N % 4 = 1, is
  // not split: below).
  const auto& v = registryVariant("simt-async");
  ASSERT_TRUE(v.wave_split);
  // Three work-groups per unit, as the H100's 64 x 128 builds hold.
  const auto wave = [&](const std::vector<std::string>& args, int size, long long slots) {
    return v.wave_split(clgemm_test::definesOf(v, args),
                        rowMajorOf(size, size, size, clgemm::GemmShape{}), size, size, size, slots,
                        slots / 3);
  };
  EXPECT_EQ(wave({}, 2052, 264), split);
  EXPECT_EQ(wave({"SPLIT_SLOTS=264"}, 2052, 0), split);
  // The 264 whole tiles make one round: in a launch of their own only where SPLIT_APART asks for
  // one round or fewer (by default 8); the split's launch then holds the 250 work-groups of parts.
  WaveSplit apart = *split;
  apart.apart = true;
  EXPECT_EQ(wave({"SPLIT_APART=1"}, 2052, 264), apart);
  EXPECT_EQ(wave({"SPLIT_APART=1", "SPLIT_SLOTS=264"}, 2052, 0), apart);
  EXPECT_EQ(apart.groups(), 250);
  // 289 tiles on 36 places: 288 whole in 8 rounds, apart by default; on 40 places 280 in 7
  // rounds, not; never with SPLIT_APART=0.
  EXPECT_EQ(wave({"SPLIT_SLOTS=36"}, 2052, 0), (WaveSplit{288, 1, 16, 128 * 128, true}));
  EXPECT_EQ(wave({"SPLIT_SLOTS=36", "SPLIT_APART=0"}, 2052, 0),
            (WaveSplit{288, 1, 16, 128 * 128, false}));
  EXPECT_EQ(wave({"SPLIT_SLOTS=40"}, 2052, 0), (WaveSplit{280, 9, 4, 128 * 128, false}));
  // SPLIT_SLOTS = 1 overrides the device's places: never split.
  EXPECT_EQ(wave({"SPLIT_SLOTS=1"}, 2052, 264), std::nullopt);
  // The device's places unknown (0): no split.
  EXPECT_EQ(wave({}, 2052, 0), std::nullopt);
  // A fuller last round (1280^3, 64 x 128 blocks: 200 tiles on 396 places) is split on the
  // device's places and units, and not on SPLIT_SLOTS's places, which give no units. No whole
  // tiles: nothing apart.
  EXPECT_EQ(wave({"BM=64"}, 1280, 396), (WaveSplit{0, 200, 5, 64 * 128}));
  EXPECT_EQ(wave({"BM=64", "SPLIT_SLOTS=396"}, 1280, 0), std::nullopt);
  EXPECT_EQ(wave({"BM=64", "SPLIT_SLOTS=396"}, 1280, 396), std::nullopt);
  // BM x BN x BK = 64 x 128 x 8, 2052^3: 33 x 17 = 561 tiles, 257 K-steps; 561 % 264 = 33 left,
  // 264 / 33 = 8 parts, slots of 64 x 128.
  EXPECT_EQ(wave({"BM=64", "BK=8"}, 2052, 264), (WaveSplit{528, 33, 8, 64 * 128}));
}

// Where a unit holds two work-groups, a place left idle on it is not an idle unit: the busiest
// unit's model decides however full the last round (kPlacesRulePerUnit).
TEST(SimtAsyncWaveSplit, WhereAUnitHoldsTwoWorkGroupsTheBusiestUnitDecides) {
  // 2432^3 on the H100: 19 x 19 blocks of 128 (361 tiles of 152 K-steps) on 132 SMs x 2. The
  // places' rule gives the 97 left 264 / 97 = 2 parts (measured 8% slower than none): the
  // busiest SM still has 3 x 152 K-steps, 2 x 152 + 2 x (76 x 1.05 + 1) = 465.6 split. The model:
  // 4 parts, 2 x 152 + 3 x (38 x 1.05 + 1) = 426.7 (-6.4%; measured as fast as none).
  EXPECT_EQ(splitLastWave(361, 152, 264, 132, 128 * 128), (WaveSplit{264, 97, 4, 128 * 128}));
  // The same round on 88 units of three: the places' rule.
  EXPECT_EQ(splitLastWave(361, 152, 264, 88, 128 * 128), (WaveSplit{264, 97, 2, 128 * 128}));
  // 3200^3: 25 x 25 = 625 tiles of 100 K-steps, 97 left: 4 parts save 3.6% by the model, over
  // the 2% of two per unit (kFullerSplitSavingTwoPerUnit; on the H200, whose 3900 entry has BK
  // 16 there, 4 parts measured -5%; the places' 2 parts had measured +1.3% on the H100).
  EXPECT_EQ(splitLastWave(625, 100, 264, 132, 128 * 128), (WaveSplit{528, 97, 4, 128 * 128}));
  // 8192^3 (BK 32): 64 x 64 = 4096 tiles of 256 K-steps, 15 whole rounds and 136 left, two on the
  // busiest SM: 30 x 256 + 512 = 8192 K-steps. Eight parts: 9 x (32 x 1.05 + 1) = 311.4, 7991
  // in all, 2.45% fewer: split (measured -1.9% on the H200).
  EXPECT_EQ(splitLastWave(4096, 256, 264, 132, 128 * 128), (WaveSplit{3960, 136, 8, 128 * 128}));
  // 16384^3: 16384 tiles of 512 K-steps, 16 left, one on the busiest SM of 125: in eight parts
  // one eighth there, 0.7% fewer (measured +0.2% to +0.7%): none. 4096^3, 1024 tiles of 128
  // K-steps and 232 left (two of 8 on the busiest SM): 5 parts save 0.5%: none.
  EXPECT_EQ(splitLastWave(16384, 512, 264, 132, 128 * 128), std::nullopt);
  EXPECT_EQ(splitLastWave(1024, 128, 264, 132, 128 * 128), std::nullopt);
  // The same 8192^3 round on 88 units of three: the 5% bar (kFullerSplitSaving), and there 7
  // parts save 0.7% (12032 -> 11953 K-steps): none.
  EXPECT_EQ(splitLastWave(4096, 256, 264, 88, 128 * 128), std::nullopt);
  // One work-group per unit: the places are the units, and the places' rule fills them, 97 of
  // 264 in 2 parts (the model, not measured there, would take 8: three rounds of eighths).
  EXPECT_EQ(splitLastWave(361, 152, 264, 264, 128 * 128), (WaveSplit{264, 97, 2, 128 * 128}));
}

// Where B's lines do not start on 16 bytes (N % 4 != 0) the kernel's edges copy it four bytes at
// a time, and that GEMM gained nothing on the H100 from a split that only fills idle places: there
// the busiest unit's model alone decides, however full the last round. Its padded copies are
// aligned: the places' rule as ever.
TEST(SimtAsyncWaveSplit, WhereBIsCopiedFourBytesAtATimeTheBusiestUnitAloneDecides) {
  const auto& v = registryVariant("simt-async");
  const auto wave = [&](const std::vector<std::string>& args, int m, int n, int k) {
    // The grid of the blocks inside C (the strips take the last few rows and columns), on the
    // H100's 132 SMs x 3 work-groups.
    return v.wave_split(clgemm_test::definesOf(v, args), rowMajorOf(m, n, k, clgemm::GemmShape{}),
                        m / 64 * 64, n / 128 * 128, k, 396, 132);
  };
  const std::vector<std::string> tiles = {"BM=64", "BN=128"};
  // 16 x 8 tiles for 396 places: 3 parts of 65 K-steps where B is aligned.
  EXPECT_EQ(wave(tiles, 1028, 1028, 1028), (WaveSplit{0, 128, 3, 64 * 128}));
  EXPECT_EQ(wave(tiles, 1025, 1028, 1025), (WaveSplit{0, 128, 3, 64 * 128}));
  // Not aligned: one tile per SM unsplit (64 K-steps), two halves of 64 x 1.05 / 2 + 1 on some
  // SMs split: none.
  for (const int n : {1025, 1026, 1027})
    EXPECT_EQ(wave(tiles, 1024, n, 1024), std::nullopt) << "N = " << n;
  std::vector<std::string> padded = tiles;
  padded.push_back("PAD_FROM_UNALIGNED=0");
  EXPECT_TRUE(wave(padded, 1025, 1025, 1025).has_value());
  // Those builds held four work-groups per SM (528 places). The grid the kernel's edges run,
  // blocks moved back inside C:
  const auto unaligned = [&](const std::vector<std::string>& args, int size, long long slots,
                             long long units) {
    return v.wave_split(clgemm_test::definesOf(v, args),
                        rowMajorOf(size, size, size, clgemm::GemmShape{}), size, size, size, slots,
                        units);
  };
  // 1233^3: 20 x 10 = 200 tiles of 78 K-steps on 528 places. The places' rule would give 2
  // parts; the model: 2 x 78 = 156 K-steps unsplit on the busiest SM, 8 fifths of
  // 78 x 1.05 / 5 + 1 = 139.0 (-11%).
  EXPECT_EQ(unaligned(tiles, 1233, 528, 132), (WaveSplit{0, 200, 5, 64 * 128}));
  // 2301^3 below ALIGN_B_FROM: 36 x 18 = 648 tiles of 144 K-steps, 120 in the last round. The
  // places' rule: 4 parts; the model: 4 x 144 + 144 = 720 unsplit, 2 parts 4 x 144 + 2 x 76.6 =
  // 729: none. From ALIGN_B_FROM (2200 by default) B's aligned copy: the places' rule.
  std::vector<std::string> four_bytes = tiles;
  four_bytes.push_back("ALIGN_B_FROM=2400");
  EXPECT_EQ(unaligned(four_bytes, 2301, 528, 132), std::nullopt);
  EXPECT_EQ(unaligned(tiles, 2301, 528, 132), (WaveSplit{528, 120, 4, 64 * 128}));
  // The units unknown, or SPLIT_SLOTS's places: none.
  EXPECT_EQ(unaligned(tiles, 1233, 528, 0), std::nullopt);
  std::vector<std::string> forced = tiles;
  forced.push_back("SPLIT_SLOTS=528");
  EXPECT_EQ(unaligned(forced, 1233, 0, 132), std::nullopt);
}

TEST(SimtAsyncWaveSplit, NothingWhereTheLastRoundIsFullOrOverHalfFullOnUnknownUnits) {
  EXPECT_EQ(splitLastWave(528, 129, 264, 0, 16), std::nullopt);  // two full rounds
  EXPECT_EQ(splitLastWave(264, 129, 264, 0, 16), std::nullopt);  // one
  // 133 left of 264: 264 / 133 = 1 part, and the compute units unknown (0) for a fuller round's
  // model. 132 left: exactly half the places idle, 2 parts.
  EXPECT_EQ(splitLastWave(264 + 133, 129, 264, 0, 16), std::nullopt);
  EXPECT_EQ(splitLastWave(264 + 132, 129, 264, 0, 16), (WaveSplit{264, 132, 2, 16}));
  // Places unknown (0) or a single one (every round full).
  EXPECT_EQ(splitLastWave(289, 129, 0, 132, 16), std::nullopt);
  EXPECT_EQ(splitLastWave(289, 129, 1, 132, 16), std::nullopt);
  EXPECT_EQ(splitLastWave(0, 129, 264, 132, 16), std::nullopt);  // nothing to compute
  EXPECT_EQ(splitLastWave(289, 0, 264, 132, 16), std::nullopt);
}

// A fuller last round (more than half its places) on the H100's 132 SMs, three work-groups of
// 64 x 128 each: the parts that leave the busiest SM the fewest K-steps, each its share x 1.05 + 1
// (kPartStepCost, kPartCostSteps), where that is at least 5% fewer for the whole GEMM than
// unsplit; 2 to 8 parts.
TEST(SimtAsyncWaveSplit, AFullerLastRoundTakesThePartsThatLeaveTheBusiestUnitLeast) {
  // 1280^3: 20 x 10 = 200 tiles of 80 K-steps on 396 places; unsplit, 68 SMs hold two: 160
  // K-steps. In p parts, ceil(200 p / 132) x (80 x 1.05 / p + 1): 2: 172, 3: 145, 4: 154, 5:
  // 8 x 17.8 = 142.4 (-11%), 6: 150, 7: 143, 8: 149.5.
  EXPECT_EQ(splitLastWave(200, 80, 396, 132, 64 * 128), (WaveSplit{0, 200, 5, 64 * 128}));
  // 2900^3: 46 x 23 = 1058 tiles of 182 K-steps, two full rounds (6 tiles per SM, 1092 K-steps)
  // and 266 left, three on the busiest SM: 1638. Eight parts: 17 x (182 x 1.05 / 8 + 1) = 423.1,
  // 1515 in all (-7.5%); seven 424.5, six 427.1.
  EXPECT_EQ(splitLastWave(1058, 182, 396, 132, 64 * 128), (WaveSplit{792, 266, 8, 64 * 128}));
  // 1300^3: 21 x 11 = 231 tiles of 82 K-steps, two on the busiest SM (164 K-steps); the best
  // split, 4 parts, 7 x (82 x 1.05 / 4 + 1) = 157.7, saves 3.9%: none. (Its K-steps counted at
  // their share alone, 150.5, would save 8%: 4 parts.)
  EXPECT_EQ(splitLastWave(231, 82, 396, 132, 64 * 128), std::nullopt);
  // 1700^3: 27 x 14 = 378 tiles of 107 K-steps, three on the busiest SM (321 K-steps), and as
  // many in any split (2 parts: 6 x 57.2 = 343): none.
  EXPECT_EQ(splitLastWave(378, 107, 396, 132, 64 * 128), std::nullopt);
  // 3000^3: 47 x 24 = 1128 tiles of 188 K-steps; the last round's 336 (three on the busiest SM,
  // 564 K-steps) in seven parts would take 18 x 29.2 = 525.6, 7% less, but after the whole
  // rounds' 1128 that is 2.3% of the GEMM: none.
  EXPECT_EQ(splitLastWave(1128, 188, 396, 132, 64 * 128), std::nullopt);
  // Parts of 4 K-steps at least: 1280^3's round with 20 K-steps takes at most 5 parts, and there
  // the best (3: 5 x 8 = 40 of 2 x 20) saves nothing.
  EXPECT_EQ(splitLastWave(200, 20, 396, 132, 64 * 128), std::nullopt);
  // The same round on a device whose compute units are not known: no fuller split.
  EXPECT_EQ(splitLastWave(200, 80, 396, 0, 64 * 128), std::nullopt);
}

TEST(SimtAsyncWaveSplit, PartsAreCappedBySixteenAndByFourKStepsEach) {
  // One tile left: 264 parts by the places, 16 by kMaxWaveParts.
  EXPECT_EQ(splitLastWave(265, 129, 264, 0, 16), (WaveSplit{264, 1, 16, 16}));
  // ... 3 by 13 K-steps (4 each at least), 2 by 8, none by 7.
  EXPECT_EQ(splitLastWave(265, 13, 264, 0, 16), (WaveSplit{264, 1, 3, 16}));
  EXPECT_EQ(splitLastWave(265, 8, 264, 0, 16), (WaveSplit{264, 1, 2, 16}));
  EXPECT_EQ(splitLastWave(265, 7, 264, 0, 16), std::nullopt);
  // Fewer tiles than places: all of them split, no whole tile (6 places per tile of 40).
  EXPECT_EQ(splitLastWave(6, 129, 40, 0, 16), (WaveSplit{0, 6, 6, 16}));
}

TEST(SimtAsyncWaveSplit, ABuildOfMorePlacesIsRefusedWhereItLeavesAPartAloneOnItsUnit) {
  // 1601 x 1600 x 1600 on the H200: 650 halves of 325 tiles, counted for 396 places (a last round
  // of 254), on the strips' 528 places end with 122 halves on 132 SMs.
  const WaveSplit halves{0, 325, 2, 16};
  EXPECT_FALSE(halves.endsWithOneAlonePerUnit(396, 132));
  EXPECT_TRUE(halves.endsWithOneAlonePerUnit(528, 132));
  // 1028^3's 384 thirds fit in one round; 1540^3's 1440 fifths end with 384 on 528 places.
  EXPECT_FALSE((WaveSplit{0, 128, 3, 16}).endsWithOneAlonePerUnit(528, 132));
  EXPECT_FALSE((WaveSplit{0, 288, 5, 16}).endsWithOneAlonePerUnit(528, 132));
  // The whole tiles count, unless they run apart: 264 + 2 x 50 in one round of 364, apart 100.
  EXPECT_FALSE((WaveSplit{264, 50, 2, 16}).endsWithOneAlonePerUnit(528, 132));
  EXPECT_TRUE((WaveSplit{264, 50, 2, 16, true}).endsWithOneAlonePerUnit(528, 132));
  // Whole rounds, a last round of one per unit, unknown places or units.
  EXPECT_FALSE((WaveSplit{0, 264, 4, 16}).endsWithOneAlonePerUnit(528, 132));
  EXPECT_FALSE((WaveSplit{0, 330, 2, 16}).endsWithOneAlonePerUnit(528, 132));
  EXPECT_FALSE(halves.endsWithOneAlonePerUnit(0, 132));
  EXPECT_FALSE(halves.endsWithOneAlonePerUnit(528, 0));
}

TEST(SimtAsyncWaveSplit, ASplitFillsAtMostTheLastRoundOrLightensTheBusiestUnit) {
  // Over many problems and devices: the whole tiles are full rounds, the split ones the rest, the
  // parts between 2 and 16, each of at least 4 K-steps. Where the last round leaves at least half
  // the places idle, the parts fill at most that round, and where there is no split the rule
  // says none; where it is fuller (units known), at most 8 parts, which leave the busiest unit
  // less of the round than unsplit.
  for (const long long per_unit : {0LL, 1LL, 2LL, 3LL}) {
    for (const long long slots : {0LL, 1LL, 2LL, 3LL, 6LL, 7LL, 64LL, 132LL, 264LL, 396LL}) {
      const long long units = per_unit > 0 && slots % per_unit == 0 ? slots / per_unit : 0;
      for (long long tiles = 1; tiles <= 900; tiles += 7) {
        for (const int k_steps : {1, 4, 7, 8, 13, 64, 129}) {
          SCOPED_TRACE(std::to_string(tiles) + " tiles, " + std::to_string(k_steps) + " K-steps, " +
                       std::to_string(slots) + " places, " + std::to_string(units) + " units");
          const auto split = splitLastWave(tiles, k_steps, slots, units, 16);
          const long long rest = slots >= 2 ? tiles % slots : 0;
          const bool fuller = rest > 0 && slots / rest < 2;
          // The places' rule: a round at most half full, the units unknown or not of two.
          const bool by_places = !fuller && (units == 0 || per_unit != 2);
          if (!split) {
            if (rest > 0 && by_places)
              EXPECT_LT(std::min({slots / rest, 16LL, (long long)(k_steps / 4)}), 2);
            continue;
          }
          EXPECT_EQ(split->whole % slots, 0);
          EXPECT_EQ(split->whole + split->split_tiles, tiles);
          EXPECT_GT(split->split_tiles, 0);
          EXPECT_LT(split->split_tiles, slots);
          EXPECT_GE(split->parts, 2);
          EXPECT_LE(split->parts, 16);
          EXPECT_LE(split->parts * 4, k_steps);
          EXPECT_EQ(split->slot_floats, 16u);
          if (by_places) {
            EXPECT_LE(1LL * split->split_tiles * split->parts, slots);
            EXPECT_LE(split->groups(), split->whole + slots);
            continue;
          }
          ASSERT_GT(units, 0);
          EXPECT_LE(split->parts, 8);
          const auto ceil = [](long long a, long long b) { return (a + b - 1) / b; };
          EXPECT_LT(double(ceil(rest * split->parts, units)) / split->parts,
                    double(ceil(rest, units)));
        }
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// The kernel itself, with plain copies for cp.async (SA_PTX = 0), on the machine's device.

struct Tiles {
  int bm, bn, bk, tm, tn, stages;
  int akm = 0;    // A_KM: A given as A^T (K x M), read by 16-byte copies
  int edge = 0;   // EDGE: sizes off the tiles; 1: N a multiple of 4, 2: not (VEC_N = 0)
  int spare = 0;  // LOCAL_SPARE: unused floats at the end of every local row (the host's hold)
};

std::string label(const Tiles& t) {
  return std::to_string(t.bm) + "x" + std::to_string(t.bn) + "x" + std::to_string(t.bk) + "_" +
         std::to_string(t.tm) + "x" + std::to_string(t.tn) + "_s" + std::to_string(t.stages) +
         (t.akm ? "_at" : "") + (t.edge ? t.edge == 2 ? "_edge_unaligned" : "_edge" : "") +
         (t.spare ? "_spare" + std::to_string(t.spare) : "");
}

// The worst |C - reference| over every element of an m x n x k product (row-major, packed), each
// relative to |alpha| sum_p |A_ip B_pj| + 1, the reference summed in double; a NaN counts as
// infinite. beta = 0 does not read c0.
template <typename T>
double worstRelativeError(const std::vector<T>& a, const std::vector<T>& b,
                          const std::vector<T>& c0, const std::vector<T>& got, int m, int n, int k,
                          double alpha, double beta) {
  double worst = 0.0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0.0, bound = 0.0;
      for (int p = 0; p < k; ++p) {
        const double x = double(a[std::size_t(i) * k + p]) * double(b[std::size_t(p) * n + j]);
        sum += x;
        bound += std::fabs(x);
      }
      const std::size_t at = std::size_t(i) * n + j;
      double want = alpha * sum;
      if (beta != 0.0) want += beta * double(c0[at]);
      const double err = std::fabs(double(got[at]) - want) / (std::fabs(alpha) * bound + 1.0);
      if (!(err <= worst)) worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
    }
  }
  return worst;
}

// The build options of the kernel with the tiles and plain copies (SA_PTX = 0).
std::string tileOptions(const Tiles& t) {
  return "-D CLGEMM_ONE_KERNEL -D KERNEL_gemm_simt_async -D SA_PTX=0 -D BM=" +
         std::to_string(t.bm) + " -D BN=" + std::to_string(t.bn) +
         " -D BK=" + std::to_string(t.bk) + " -D TM=" + std::to_string(t.tm) +
         " -D TN=" + std::to_string(t.tn) + " -D STAGES=" + std::to_string(t.stages) +
         " -D A_KM=" + std::to_string(t.akm) + " -D EDGE=" + (t.edge ? "1" : "0") +
         " -D VEC_N=" + (t.edge == 2 ? "0" : "1") + " -D LOCAL_SPARE=" + std::to_string(t.spare);
}

// Random A (-1..1), B and C of an M x N x K problem (C NaN where beta = 0: a kernel that read it
// would show), A and B on the device (A as A^T, K x M, with A_KM), and the kernel's arguments.
struct KernelInputs {
  KernelInputs(const cl::Context& context, int m_, int n_, int k_, float beta, int akm,
               unsigned seed)
      : m(m_), n(n_), k(k_) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    auto& [a, b, c] = host;
    a.resize(std::size_t(m) * k);
    b.resize(std::size_t(k) * n);
    c.resize(std::size_t(m) * n);
    for (float& x : a) x = value(rng);
    for (float& x : b) x = value(rng);
    for (float& x : c) x = beta == 0.0f ? std::numeric_limits<float>::quiet_NaN() : value(rng);
    std::vector<float> at(a.size());
    for (int i = 0; i < m; ++i)
      for (int p = 0; p < k; ++p) at[std::size_t(p) * m + i] = a[std::size_t(i) * k + p];
    da = cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * sizeof(float),
                    akm ? at.data() : a.data());
    db = cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * sizeof(float),
                    b.data());
  }
  // M, N, K, alpha, beta, A, B, C: the arguments every build takes.
  void setArgs(cl::Kernel& kernel, float alpha, float beta, const cl::Buffer& dc) const {
    kernel.setArg(0, m);
    kernel.setArg(1, n);
    kernel.setArg(2, k);
    kernel.setArg(3, alpha);
    kernel.setArg(4, beta);
    kernel.setArg(5, da);
    kernel.setArg(6, db);
    kernel.setArg(7, dc);
  }
  int m, n, k;
  std::array<std::vector<float>, 3> host;  // A (M x K), B, C
  cl::Buffer da, db;
};

class SimtAsyncKernel : public ::testing::TestWithParam<Tiles> {
 protected:
  // The kernel with the tiles and plain copies, built once per test.
  void SetUp() override {
    program_ = clgemm_test::buildKernels(context_, device_, tileOptions(GetParam()));
  }

  // C = alpha A B + beta C on the device for an M x N x K problem (tile multiples unless EDGE);
  // returns the worst |C - reference| / (|A| |B| row-column norm bound) over every element.
  double worstError(int m, int n, int k, float alpha, float beta, unsigned seed) {
    if (!program_) return std::numeric_limits<double>::infinity();  // the build failure is reported
    const Tiles t = GetParam();
    const KernelInputs in(context_, m, n, k, beta, t.akm, seed);
    const auto& [a, b, c] = in.host;
    // CL_MEM_COPY_HOST_PTR only reads the host pointer.
    cl::Buffer dc(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.size() * sizeof(float),
                  const_cast<float*>(c.data()));
    cl::Kernel kernel(*program_, "gemm_simt_async");
    in.setArgs(kernel, alpha, beta, dc);
    const std::size_t lx = std::size_t(t.bn / t.tn), ly = std::size_t(t.bm / t.tm);
    const std::size_t blocks_n = std::size_t((n + t.bn - 1) / t.bn),
                      blocks_m = std::size_t((m + t.bm - 1) / t.bm);
    queue_.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(blocks_n * lx, blocks_m * ly),
                                cl::NDRange(lx, ly));
    std::vector<float> out(c.size());
    queue_.enqueueReadBuffer(dc, CL_TRUE, 0, out.size() * sizeof(float), out.data());
    return worstRelativeError(a, b, c, out, m, n, k, alpha, beta);
  }

  const clgemm::SelectedDevice device_ = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context_{device_.device};
  cl::CommandQueue queue_{context_, device_.device};
  std::optional<cl::Program> program_;
};

// K-steps: one (fewer than the stages), and 7 and 11 (the ring wraps part of the way round);
// two block rows and three block columns, so that the swizzled order and both tile corners count.
TEST_P(SimtAsyncKernel, EveryElementMatchesTheReference) {
  const Tiles t = GetParam();
  if (t.edge) {
    // Off the tiles (at least a block; the host pads smaller problems): the last block row and
    // column moved back over the ones before them by a few rows and columns and by all but one
    // (or four), a partial last K-step and a K shorter than one step; N a multiple of 4 (edge 1)
    // or odd (edge 2: B's lines start anywhere).
    const int odd = t.edge == 2 ? 1 : 0;
    for (const int steps : {1, 7, 11}) {
      SCOPED_TRACE("K-steps " + std::to_string(steps));
      const int m = 2 * t.bm - 3, n = 3 * t.bn - 4 - odd, k = steps * t.bk - 1;
      EXPECT_LT(worstError(m, n, k, 1.0f, 0.0f, 11u * steps), 1e-5);
      EXPECT_LT(worstError(m, n, k, 1.5f, 0.5f, 13u * steps), 1e-5);
      EXPECT_LT(worstError(t.bm + 1, t.bn + 4 + odd, k + 2, 1.5f, 0.5f, 17u * steps), 1e-5);
    }
    EXPECT_LT(worstError(t.bm, t.bn + 8 - odd, 1, 1.5f, 0.5f, 19u), 1e-5);
    return;
  }
  for (const int steps : {1, 7, 11}) {
    SCOPED_TRACE("K-steps " + std::to_string(steps));
    EXPECT_LT(worstError(2 * t.bm, 3 * t.bn, steps * t.bk, 1.0f, 0.0f, 11u * steps), 1e-5);
    EXPECT_LT(worstError(2 * t.bm, 3 * t.bn, steps * t.bk, 1.5f, 0.5f, 13u * steps), 1e-5);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, SimtAsyncKernel,
    ::testing::Values(Tiles{128, 128, 8, 8, 8, 4}, Tiles{256, 64, 8, 16, 8, 3},
                      Tiles{64, 64, 16, 8, 4, 2}, Tiles{64, 128, 8, 8, 16, 5},
                      Tiles{128, 128, 16, 8, 8, 2, 1}, Tiles{256, 64, 8, 16, 8, 3, 1},
                      Tiles{64, 128, 8, 8, 16, 5, 1},
                      // sizes off the tiles, N a multiple of 4 (edge 1) or odd (edge 2)
                      Tiles{128, 128, 16, 8, 8, 2, 0, 1}, Tiles{128, 128, 32, 8, 8, 2, 0, 1},
                      Tiles{256, 64, 8, 16, 8, 3, 0, 1}, Tiles{64, 128, 32, 8, 8, 4, 0, 1},
                      Tiles{128, 128, 16, 8, 8, 2, 0, 2}, Tiles{256, 64, 8, 16, 8, 3, 0, 2},
                      Tiles{64, 128, 32, 8, 8, 4, 0, 2},
                      // rows longer by floats nothing reads (the host's hold on occupancy)
                      Tiles{64, 128, 16, 8, 8, 2, 0, 2, 32},
                      Tiles{128, 128, 16, 8, 8, 2, 1, 0, 64}),
    [](const auto& info) { return label(info.param); });

// ------------------------------------------------------------------------------------------------
// The last round's split along K (SPLIT), the kernel itself as the host launches it: a line of
// work-groups, the first SK_WHOLE computing whole tiles (in the swizzled order), each later one a
// part of a tile's K-steps; the last part to count itself in adds every part's sums from the
// scratch slots, stores C and sets the tile's count back to 0.

struct SplitTiles {
  Tiles tiles;
  int steps;           // K-steps; with EDGE K is one short of them (a partial last K-step)
  int whole;           // SK_WHOLE, of the 2 x 3 blocks' 6 tiles
  int parts;           // SK_PARTS: work-groups per later tile
  int float_sums = 0;  // SK_FLOAT_SUMS: the parts' sums stored float by float
  int apart = 0;       // SK_APART: the whole tiles in a launch before, built with WHOLE_LINE
};

std::string splitLabel(const SplitTiles& s) {
  return label(s.tiles) + "_k" + std::to_string(s.steps) + "_whole" + std::to_string(s.whole) +
         "_parts" + std::to_string(s.parts) + (s.float_sums ? "_floatsums" : "") +
         (s.apart ? "_apart" : "");
}

void PrintTo(const SplitTiles& s, std::ostream* os) { *os << splitLabel(s); }

class SimtAsyncSplitKernel : public ::testing::TestWithParam<SplitTiles> {
 protected:
  void SetUp() override {
    const SplitTiles s = GetParam();
    program_ = clgemm_test::buildKernels(
        context_, device_,
        tileOptions(s.tiles) + " -D SPLIT=1 -D SK_WHOLE=" + std::to_string(s.whole) +
            " -D SK_PARTS=" + std::to_string(s.parts) + " -D SK_FLOAT_SUMS=" +
            std::to_string(s.float_sums) + " -D SK_APART=" + std::to_string(s.apart));
    if (s.apart)
      whole_program_ =
          clgemm_test::buildKernels(context_, device_, tileOptions(s.tiles) + " -D WHOLE_LINE=1");
  }

  // C = alpha A B + beta C over two block rows and three block columns (with EDGE the last of
  // each moved back, N odd for edge 2), launched twice on the same buffers with C uploaded again
  // in between: the worst error of either launch. Each launch must leave every count at 0 (what
  // the next launch starts from) and the second must compute the first's C bit for bit (the parts'
  // sums are added in their order whichever comes last); a count left over would make the wrong
  // part the last, and C (NaN where beta = 0) would show it.
  double worstError(float alpha, float beta, unsigned seed) {
    const SplitTiles s = GetParam();
    // A build failure is reported.
    if (!program_ || (s.apart && !whole_program_)) return std::numeric_limits<double>::infinity();
    const Tiles t = s.tiles;
    const int odd = t.edge == 2 ? 1 : 0;
    const int m = t.edge ? 2 * t.bm - 3 : 2 * t.bm, n = t.edge ? 3 * t.bn - 4 - odd : 3 * t.bn;
    const int k = t.edge ? s.steps * t.bk - 1 : s.steps * t.bk;
    const int split_tiles = 6 - s.whole;
    const KernelInputs in(context_, m, n, k, beta, t.akm, seed);
    const auto& [a, b, c] = in.host;
    cl::Buffer dc(context_, CL_MEM_READ_WRITE, c.size() * sizeof(float));
    // The slots start as NaN: a part's sums read before the part wrote them would show. Both
    // scratch buffers are copied from the host (oclgrind 21.10's --uninitialized takes memory set
    // by clEnqueueFillBuffer as unset, and would report the counts).
    std::vector<float> slots(std::size_t(split_tiles) * s.parts * t.bm * t.bn,
                             std::numeric_limits<float>::quiet_NaN());
    std::vector<int> zeros(std::size_t(split_tiles), 0);
    cl::Buffer partials(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        slots.size() * sizeof(float), slots.data());
    cl::Buffer arrivals(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        zeros.size() * sizeof(int), zeros.data());
    cl::Kernel kernel(*program_, "gemm_simt_async");
    in.setArgs(kernel, alpha, beta, dc);
    kernel.setArg(8, partials);
    kernel.setArg(9, arrivals);
    const std::size_t lx = std::size_t(t.bn / t.tn), ly = std::size_t(t.bm / t.tm);
    // Apart, the whole tiles' line goes first, then the parts'.
    const std::size_t groups = std::size_t((s.apart ? 0 : s.whole) + split_tiles * s.parts);
    std::optional<cl::Kernel> whole_kernel;
    if (s.apart) {
      whole_kernel = cl::Kernel(*whole_program_, "gemm_simt_async");
      in.setArgs(*whole_kernel, alpha, beta, dc);
    }
    double worst = 0.0;
    std::vector<float> first;
    for (const char* launch : {"first launch", "second launch"}) {
      SCOPED_TRACE(launch);
      queue_.enqueueWriteBuffer(dc, CL_TRUE, 0, c.size() * sizeof(float), c.data());
      if (whole_kernel)
        queue_.enqueueNDRangeKernel(*whole_kernel, cl::NullRange,
                                    cl::NDRange(std::size_t(s.whole) * lx, ly),
                                    cl::NDRange(lx, ly));
      queue_.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * lx, ly),
                                  cl::NDRange(lx, ly));
      std::vector<float> out(c.size());
      queue_.enqueueReadBuffer(dc, CL_TRUE, 0, out.size() * sizeof(float), out.data());
      std::vector<int> counts(std::size_t(split_tiles), -1);
      queue_.enqueueReadBuffer(arrivals, CL_TRUE, 0, counts.size() * sizeof(int), counts.data());
      EXPECT_EQ(counts, std::vector<int>(std::size_t(split_tiles), 0));
      worst = std::max(worst, worstRelativeError(a, b, c, out, m, n, k, alpha, beta));
      if (first.empty()) {
        first = out;
        continue;
      }
      std::size_t differing = 0;
      for (std::size_t i = 0; i < out.size(); ++i) differing += out[i] == first[i] ? 0 : 1;
      EXPECT_EQ(differing, 0u) << "of " << out.size() << " elements differ from the first launch's";
    }
    return worst;
  }

  const clgemm::SelectedDevice device_ = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context_{device_.device};
  cl::CommandQueue queue_{context_, device_.device};
  std::optional<cl::Program> program_, whole_program_;
};

TEST_P(SimtAsyncSplitKernel, EveryElementMatchesTheReferenceAndTheCountsReturnToZero) {
  EXPECT_LT(worstError(1.5f, 0.5f, 23u), 1e-5);
  EXPECT_LT(worstError(1.0f, 0.0f, 29u), 1e-5);  // beta = 0: C, NaN, is not read
}

// With GROUP_M = 8 the swizzled order walks each block column down its two block rows: tiles 4
// and 5 are the last block column (with EDGE moved back), 5 the last corner. Parts of K-steps
// that do not divide them (11 = 3 + 4 + 4, 13 = 3 + 3 + 3 + 4, 11 = 2 + 2 + 2 + 2 + 3), fewer
// than the stages (the ring part filled) and, with EDGE, the partial last K-step in the last part.
INSTANTIATE_TEST_SUITE_P(
    Split, SimtAsyncSplitKernel,
    ::testing::Values(
        // two split tiles, the last block column, in 3 parts
        SplitTiles{Tiles{64, 64, 16, 8, 4, 2}, 11, 4, 3},
        SplitTiles{Tiles{64, 64, 16, 8, 4, 2, 0, 0, 32}, 11, 4, 3},
        // every tile split, in 2 parts of 6 and 7 K-steps, the last one partial
        SplitTiles{Tiles{64, 128, 32, 8, 8, 4, 0, 1}, 13, 0, 2},
        // N odd (B's lines copied four bytes at a time), 4 parts
        SplitTiles{Tiles{128, 128, 16, 8, 8, 2, 0, 2}, 13, 4, 4},
        // A^T read by 16-byte copies; 4 split tiles in 5 parts, each shorter than the 5 stages
        SplitTiles{Tiles{64, 128, 8, 8, 16, 5, 1}, 11, 2, 5},
        // the sums stored float by float (the host's choice where the float4 stores' build
        // holds fewer work-groups per unit): 2 parts (four float4s summed at a time), and 5 parts
        // of A^T (two at a time)
        SplitTiles{Tiles{64, 128, 32, 8, 8, 4, 0, 1}, 13, 0, 2, 1},
        SplitTiles{Tiles{64, 128, 8, 8, 16, 5, 1}, 11, 2, 5, 1},
        // apart: the whole tiles in a launch of their own first (WHOLE_LINE), the parts' line
        // after it counting from SK_WHOLE (SK_APART), with float4 and float-by-float sums
        SplitTiles{Tiles{64, 64, 16, 8, 4, 2}, 11, 4, 3, 0, 1},
        SplitTiles{Tiles{64, 128, 8, 8, 16, 5, 1}, 11, 2, 5, 1, 1},
        SplitTiles{Tiles{128, 128, 16, 8, 8, 2, 0, 2}, 13, 3, 4, 1, 1}),
    [](const auto& info) { return splitLabel(info.param); });

// That a problem's derived `defines` hold PEEL_M and PEEL_N, in that order, 1 where the last rows
// (`rows`) or the last columns (`cols`) are left to gemm_edge_strip, else 0.
void expectPeel(const std::vector<clgemm::ResolvedDefine>& defines, bool rows, bool cols) {
  std::string peel;
  for (const auto& d : defines)
    if (d.name == "PEEL_M" || d.name == "PEEL_N") peel += d.name + "=" + d.value + " ";
  EXPECT_EQ(peel,
            std::string("PEEL_M=") + (rows ? "1" : "0") + " PEEL_N=" + (cols ? "1" : "0") + " ");
}

// Edges of at most PEEL_MAX rows or columns on the kernel's edges path are left to
// gemm_edge_strip: the GEMM's block, and the problem defines PEEL_M and PEEL_N that tell the
// kernel (its split's grid) so.
std::optional<clgemm::EdgeStrips> edgeStripsOf(const std::vector<std::string>& args, int m, int n,
                                               int k) {
  const auto& v = registryVariant("simt-async");
  const auto d = clgemm_test::definesOf(v, args);
  const auto rm = rowMajorOf(m, n, k, clgemm::GemmShape{});
  const auto strips = v.edge_strips(d, rm);
  expectPeel(v.problem_defines(d, rm), strips && strips->m0 < m, strips && strips->n0 < n);
  return strips;
}

TEST(SimtAsyncEdgeStrips, AFewLastRowsOrColumnsAreLeftToTheHelperOnTheEdgesAndPaddedPaths) {
  using clgemm::EdgeStrips;
  const auto& v = registryVariant("simt-async");
  EXPECT_EQ(v.strip_entry, "gemm_edge_strip");
  // 2049^3 on 128 x 128 tiles: one row and one column past 16 x 16 blocks.
  EXPECT_EQ(edgeStripsOf({}, 2049, 2049, 2049), (EdgeStrips{2048, 2048}));
  EXPECT_EQ(edgeStripsOf({}, 1025, 1025, 1025), (EdgeStrips{1024, 1024}));
  // Up to PEEL_MAX (8) rows or columns, each direction on its own: 104 more rows keep their
  // block (moved back), 8 more columns do not.
  EXPECT_EQ(edgeStripsOf({}, 1000, 2056, 1000), (EdgeStrips{1000, 2048}));
  EXPECT_EQ(edgeStripsOf({}, 2050, 2057, 1000), (EdgeStrips{2048, 2057}));
  EXPECT_EQ(edgeStripsOf({"PEEL_MAX=1"}, 2050, 2049, 1000), (EdgeStrips{2050, 2048}));
  // Padded problems too (from PAD_FROM, from PAD_FROM_UNALIGNED where N is not a multiple of 4):
  // the strips take the place of a padded block row or column; a dimension smaller than a block
  // keeps its padded block.
  EXPECT_EQ(edgeStripsOf({}, 4097, 4097, 4097), (EdgeStrips{4096, 4096}));
  EXPECT_EQ(edgeStripsOf({}, 8200, 8193, 8193), (EdgeStrips{8192, 8192}));
  EXPECT_EQ(edgeStripsOf({}, 100, 2049, 2049), (EdgeStrips{100, 2048}));
  // Nothing where no edge is that thin (41 rows and columns), only K is off the tiles, PEEL_MAX
  // is 0, or every thin dimension is smaller than a block.
  EXPECT_EQ(edgeStripsOf({}, 1000, 1000, 1000), std::nullopt);
  EXPECT_EQ(edgeStripsOf({}, 2601, 2601, 2601), std::nullopt);
  EXPECT_EQ(edgeStripsOf({}, 2048, 2048, 2049), std::nullopt);
  EXPECT_EQ(edgeStripsOf({}, 2048, 2048, 2048), std::nullopt);
  EXPECT_EQ(edgeStripsOf({"PEEL_MAX=0"}, 2049, 2049, 2049), std::nullopt);
  EXPECT_EQ(edgeStripsOf({"PEEL_MAX=0"}, 4097, 4097, 4097), std::nullopt);
  EXPECT_EQ(edgeStripsOf({}, 5, 7, 2049), std::nullopt);
  // A negative PEEL_MAX is refused with the others, and a cap on the strips' own work-groups
  // below their floor of 8.
  const auto why = clgemm::constraintViolations(v, clgemm_test::definesOf(v, {"PEEL_MAX=-1"}));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("PEEL_MAX"), std::string::npos) << *why;
  const auto cap = clgemm::constraintViolations(v, clgemm_test::definesOf(v, {"STRIPS_OWN_MAX=7"}));
  ASSERT_TRUE(cap.has_value());
  EXPECT_NE(cap->find("STRIPS_OWN_MAX=7 must be at least 8"), std::string::npos) << *cap;
  EXPECT_FALSE(
      clgemm::constraintViolations(v, clgemm_test::definesOf(v, {"STRIPS_OWN_MAX=8"})).has_value());
}

// A padded problem writes C in place (C_LD, the caller's lines; no copy of C in or out) where the
// strips take every padded edge of M and N, so that no block lies outside the caller's C: whether
// the variant says so, and the problem define that tells the kernel.
std::optional<std::string> cInPlaceLd(const std::vector<std::string>& args, int m, int n, int k,
                                      int c_ld = 0, int c_offset = 0) {
  const auto& v = registryVariant("simt-async");
  const auto d = clgemm_test::definesOf(v, args);
  auto rm = rowMajorOf(m, n, k, clgemm::GemmShape{});
  if (c_ld > 0) rm.c.ld = c_ld;
  rm.c.offset = c_offset;
  std::optional<std::string> ld;
  for (const auto& define : v.problem_defines(d, rm))
    if (define.name == "C_LD") ld = define.value;
  EXPECT_EQ(v.c_in_place(d, rm), ld.has_value());
  return ld;
}

TEST(SimtAsyncCInPlace, PaddedProblemsWhoseEdgesTheStripsTakeWriteTheCallersC) {
  // Padded from PAD_FROM (4000) or PAD_FROM_UNALIGNED (2500), one to eight rows and columns past
  // the blocks: C's own lines, packed or with gaps, 16-byte aligned or not.
  EXPECT_EQ(cInPlaceLd({}, 8193, 8193, 8193), "8193");
  EXPECT_EQ(cInPlaceLd({}, 8200, 8200, 8200), "8200");
  EXPECT_EQ(cInPlaceLd({}, 2817, 2817, 2817), "2817");
  EXPECT_EQ(cInPlaceLd({}, 8193, 8193, 8193, 8300), "8300");
  // Only K off the tiles: padded, and no block outside C either.
  EXPECT_EQ(cInPlaceLd({"PAD_FROM=0"}, 256, 256, 100), "256");
  // A padded block row or column outside C (24 rows past the blocks, or a dimension smaller than
  // a block, or PEEL_MAX 0): C's padded copy.
  EXPECT_EQ(cInPlaceLd({}, 4120, 4097, 4097), std::nullopt);
  EXPECT_EQ(cInPlaceLd({}, 4097, 4120, 4097), std::nullopt);
  EXPECT_EQ(cInPlaceLd({"PEEL_MAX=0"}, 8193, 8193, 8193), std::nullopt);
  EXPECT_EQ(cInPlaceLd({"PAD_FROM=0"}, 50, 300, 300), std::nullopt);
  // C at an offset into its buffer (the library's), which the kernel takes none of.
  EXPECT_EQ(cInPlaceLd({}, 8193, 8193, 8193, 0, 4), std::nullopt);
  // Padded to peel (from PAD_PEELED_FROM, 1400, N not a multiple of 4): 2049^3.
  EXPECT_EQ(cInPlaceLd({}, 2049, 2049, 2049), "2049");
  // Not padded: tile multiples, or the kernel's edges (below PAD_PEELED_FROM, or with it off).
  EXPECT_EQ(cInPlaceLd({}, 8192, 8192, 8192), std::nullopt);
  EXPECT_EQ(cInPlaceLd({}, 1281, 1281, 1281), std::nullopt);
  EXPECT_EQ(cInPlaceLd({"PAD_PEELED_FROM=2500"}, 2049, 2049, 2049), std::nullopt);
}

// Below PAD_FROM_UNALIGNED, where N is not a multiple of 4, padded from PAD_PEELED_FROM (the
// harmonic mean of M, N and K) up only where the strips take every padded edge of M and N: C then
// stays in the caller's lines. Elsewhere the edges path, as before.
TEST(SimtAsyncPadsToPeel, PaddedBelowPadFromUnalignedOnlyWhereTheStripsTakeEveryEdge) {
  const auto& v = registryVariant("simt-async");
  const auto padded = [&](const std::vector<std::string>& args, int m, int n, int k) {
    const auto sizes = v.padding(clgemm_test::definesOf(v, args), m, n, k);
    return sizes ? std::optional<std::array<int, 3>>{{sizes->m, sizes->n, sizes->k}} : std::nullopt;
  };
  const std::vector<std::string> from_1600 = {"PAD_PEELED_FROM=1600"};
  // From 1600: 1665^3 (one row and one column past 13 x 13 blocks) to 1792 x 1792 x 1680, C in
  // place; one dimension a multiple of the blocks (1920 x 1921) too.
  EXPECT_EQ(padded(from_1600, 1665, 1665, 1665), (std::array<int, 3>{1792, 1792, 1680}));
  EXPECT_EQ(cInPlaceLd(from_1600, 1665, 1665, 1665), "1665");
  EXPECT_EQ(cInPlaceLd(from_1600, 1920, 1921, 1920), "1921");
  EXPECT_EQ(cInPlaceLd(from_1600, 1928, 1921, 1920), "1921");
  // Not below it (1537^3), nor where an edge is deeper than PEEL_MAX (1930: 10 columns) or the
  // strips are off (PEEL_MAX 0), nor where N is a multiple of 4 (1921 x 1924: PAD_FROM's rule).
  EXPECT_EQ(padded(from_1600, 1537, 1537, 1537), std::nullopt);
  EXPECT_EQ(padded(from_1600, 1921, 1930, 1921), std::nullopt);
  EXPECT_EQ(padded(from_1600, 1930, 1921, 1921), std::nullopt);
  EXPECT_EQ(padded({"PAD_PEELED_FROM=1600", "PEEL_MAX=0"}, 1921, 1921, 1921), std::nullopt);
  EXPECT_EQ(padded(from_1600, 1921, 1924, 1921), std::nullopt);
  // From PAD_FROM_UNALIGNED (2500) padded whatever the edges, as before. By default (1400):
  // 1665^3 and 2049^3, not 1281^3; at PAD_FROM_UNALIGNED's size, nothing below it.
  EXPECT_EQ(padded({"PAD_PEELED_FROM=3000"}, 2817, 2830, 2817),
            (std::array<int, 3>{2944, 2944, 2832}));
  EXPECT_EQ(padded({}, 1665, 1665, 1665), (std::array<int, 3>{1792, 1792, 1680}));
  EXPECT_EQ(padded({}, 2049, 2049, 2049), (std::array<int, 3>{2176, 2176, 2064}));
  EXPECT_EQ(padded({}, 1281, 1281, 1281), std::nullopt);
  EXPECT_EQ(padded({"PAD_PEELED_FROM=2500"}, 1665, 1665, 1665), std::nullopt);
  // The plan is made without that padding first (Variant::padding_unless_split): these defines,
  // PAD_PEELED_FROM at PAD_FROM_UNALIGNED's size, under which nothing is padded to peel; none
  // where the rule does not pad.
  ASSERT_TRUE(v.padding_unless_split);
  const auto d = clgemm_test::definesOf(v, {});
  const auto without = v.padding_unless_split(d, rowMajorOf(1665, 1665, 1665, {}));
  ASSERT_TRUE(without.has_value());
  EXPECT_EQ(without->param("PAD_PEELED_FROM"), 2500);
  EXPECT_EQ(v.padding(*without, 1665, 1665, 1665), std::nullopt);
  EXPECT_EQ(v.padding_unless_split(*without, rowMajorOf(1665, 1665, 1665, {})), std::nullopt);
  EXPECT_EQ(v.padding_unless_split(d, rowMajorOf(1281, 1281, 1281, {})), std::nullopt);
  EXPECT_EQ(v.padding_unless_split(d, rowMajorOf(2817, 2817, 2817, {})), std::nullopt);
  // A negative size is refused with the other rules'.
  const auto why =
      clgemm::constraintViolations(v, clgemm_test::definesOf(v, {"PAD_PEELED_FROM=-1"}));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("PAD_PEELED_FROM"), std::string::npos) << *why;
}

// Where N is not a multiple of 4 on the kernel's edges path, from ALIGN_B_FROM (the harmonic mean
// of M, N and K) up, B is copied into lines of a multiple of 32 floats (Variant::b_lines) and the
// kernel reads that copy by 16-byte copies: the width, and the problem defines B_LD and VEC_N that
// tell the kernel. "" for no copy, where VEC_N must then say how B's own lines are read.
std::string alignedBLines(const std::vector<std::string>& args, int m, int n, int k,
                          const clgemm::GemmShape& shape = {}) {
  const auto& v = registryVariant("simt-async");
  const auto d = clgemm_test::definesOf(v, args);
  const auto rm = rowMajorOf(m, n, k, shape);
  std::string b_ld, vec_n;
  for (const auto& define : v.problem_defines(d, rm)) {
    if (define.name == "B_LD") b_ld = define.value;
    if (define.name == "VEC_N") vec_n = define.value;
  }
  const int lines = v.b_lines(d, rm);
  EXPECT_EQ(b_ld, lines > 0 ? std::to_string(lines) : "");
  EXPECT_EQ(vec_n, lines > 0 || rm.n % 4 == 0 || v.padding(d, rm.m, rm.n, rm.k) ? "1" : "0");
  return b_ld;
}

TEST(SimtAsyncAlignedB, AnUnalignedBOnTheEdgesPathIsCopiedIntoLinesOf32FloatsFromAlignBFrom) {
  // From ALIGN_B_FROM (2200) to PAD_FROM_UNALIGNED (2500): N rounded up to 32.
  EXPECT_EQ(alignedBLines({}, 2201, 2201, 2201), "2208");
  EXPECT_EQ(alignedBLines({}, 2401, 2401, 2401), "2432");
  EXPECT_EQ(alignedBLines({}, 2499, 2499, 2499), "2528");
  EXPECT_EQ(alignedBLines({}, 2200, 2210, 2200), "2240");
  // Whatever B's storage (its shape copy then writes the wider lines): B stored transposed, and
  // the column-major problem, whose kernel view is n x m (C^T, N = 2401).
  using clgemm::Layout;
  using clgemm::Trans;
  EXPECT_EQ(alignedBLines({}, 2401, 2401, 2401, {Layout::kRow, Trans::kN, Trans::kT}), "2432");
  EXPECT_EQ(alignedBLines({}, 2401, 2400, 2401, {Layout::kCol, Trans::kN, Trans::kN}), "2432");
  // Below ALIGN_B_FROM the four-byte copies (VEC_N = 0); with ALIGN_B_FROM=0 always, and from
  // any other size it names.
  EXPECT_EQ(alignedBLines({}, 1025, 1025, 1025), "");
  EXPECT_EQ(alignedBLines({}, 2049, 2049, 2049), "");
  EXPECT_EQ(alignedBLines({}, 2190, 2210, 2190), "");
  EXPECT_EQ(alignedBLines({"ALIGN_B_FROM=0"}, 1025, 1025, 1025), "1056");
  EXPECT_EQ(alignedBLines({"ALIGN_B_FROM=1600"}, 1601, 1601, 1601), "1632");
  EXPECT_EQ(alignedBLines({"ALIGN_B_FROM=0"}, 130, 130, 13), "160");
  // N a multiple of 4, tile multiples, padded problems (from PAD_FROM_UNALIGNED, and below a
  // block): no copy for that.
  EXPECT_EQ(alignedBLines({}, 1600, 1600, 1600), "");
  EXPECT_EQ(alignedBLines({"ALIGN_B_FROM=0"}, 2048, 2048, 2048), "");
  EXPECT_EQ(alignedBLines({}, 2817, 2817, 2817), "");
  EXPECT_EQ(alignedBLines({"ALIGN_B_FROM=0"}, 50, 1601, 1601), "");
  // The aligned copy is read as any aligned B: the places' model of a split (VEC_N = 1), which
  // the four-byte copies' build does not get (SimtAsyncWaveSplit above).
  const auto& v = registryVariant("simt-async");
  const auto rm = rowMajorOf(131, 67, 101, {});
  const auto aligned =
      v.wave_split(clgemm_test::definesOf(v, {"BM=64", "BN=64", "BK=8", "ALIGN_B_FROM=0"}), rm, 131,
                   67, 101, 16, 0);
  ASSERT_TRUE(aligned.has_value());
  EXPECT_EQ(aligned->parts, 2);
  EXPECT_FALSE(
      v.wave_split(clgemm_test::definesOf(v, {"BM=64", "BN=64", "BK=8"}), rm, 131, 67, 101, 16, 0)
          .has_value());
  // A negative ALIGN_B_FROM is refused with the others.
  const auto why = clgemm::constraintViolations(v, clgemm_test::definesOf(v, {"ALIGN_B_FROM=-1"}));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("ALIGN_B_FROM"), std::string::npos) << *why;
}

// The host's hold on occupancy (Variant::occupancy_hold) counts the bytes LOCAL_SPARE adds as the
// kernel declares them, and its plain problem is one the kernel takes whole: none of the edges'
// defines, no strips, no copies.
TEST(SimtAsyncOccupancyHold, SpareFloatsAddTheBytesTheHostCountsAndThePlainProblemIsWhole) {
  const clgemm::Variant v = registryVariant("simt-async");
  ASSERT_TRUE(v.occupancy_hold.has_value());
  const auto& hold = *v.occupancy_hold;
  EXPECT_EQ(hold.define, "LOCAL_SPARE");
  EXPECT_EQ(hold.step, 32);
  // The strips' own work-groups the hold may leave them with: the count it was measured with.
  EXPECT_EQ(hold.strips_own_kept, 64);
  const auto d = clgemm_test::definesOf(v, {"BM=64", "BN=128", "BK=16", "STAGES=2"});
  // For 1025^3 (the edges path) with A as stored: row-major, then transposed.
  clgemm::RowMajorGemm odd{
      1025, 1025, 1025, {1025, 1025, 1025}, {1025, 1025, 1025}, {1025, 1025, 1025}};
  const clgemm::RowMajorGemm plain = hold.plain_problem(d, odd);
  EXPECT_TRUE(clgemm::family::isTileMultiple(d, plain.m, plain.n, plain.k));
  EXPECT_TRUE(plain.a.packedRowMajor() && plain.b.packedRowMajor() && plain.c.packedRowMajor());
  odd.a.transposed = true;
  const clgemm::RowMajorGemm plain_at = hold.plain_problem(d, odd);
  EXPECT_TRUE(plain_at.a.transposed && !plain_at.a.hasGaps());
  EXPECT_EQ(plain_at.a.rows, plain.m);
  EXPECT_EQ(plain_at.a.cols, plain.k);
  for (const auto& p : v.problem_defines(d, plain_at))
    if (p.name == "A_KM") EXPECT_EQ(p.value, "1") << "an A stored transposed is read as A^T";
  for (const auto& p : v.problem_defines(d, plain)) {
    if (p.name == "EDGE" || p.name == "PEEL_M" || p.name == "PEEL_N" || p.name == "A_KM")
      EXPECT_EQ(p.value, "0") << p.name;
    else if (p.name == "VEC_N")
      EXPECT_EQ(p.value, "1");
    else
      ADD_FAILURE() << "the plain problem has " << p.name << "=" << p.value;
  }
  EXPECT_FALSE(v.edge_strips(d, plain).has_value());

  const clgemm::SelectedDevice device = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context{device.device};
  const auto local_bytes = [&](int spare) -> long long {
    const auto program = clgemm_test::buildKernels(
        context, device, tileOptions(Tiles{64, 128, 16, 8, 8, 2, 0, 0, spare}));
    if (!program) return -1;
    return (long long)cl::Kernel(*program, "gemm_simt_async")
        .getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device.device);
  };
  const long long without = local_bytes(0), with = local_bytes(64);
  ASSERT_GT(without, 0);
  EXPECT_EQ(with - without, 64LL * (long long)hold.bytes_per_float(d, sizeof(float)));
}

// ------------------------------------------------------------------------------------------------
// The host's choice of A's form (A_KM) and the copies it makes, through the plan the command line
// and the library run (KernelPlan), with the kernel's plain copies (SA_PTX = 0) on the machine's
// device: which form each stored shape gets, how many launches, and every element of C.

struct PlanCase {
  std::string name;
  int m, n, k;
  clgemm::GemmShape shape;
  std::vector<std::string> defines;
  bool a_transposed;  // A_KM as derived
  int launches;       // copies and the GEMM
};

// The plan (KernelPlan) of simt-async with 64 x 64 x 8 tiles and plain copies (SA_PTX = 0) on the
// machine's device, and the operands of the kernel's view of a problem, random, on the device.
class SimtAsyncPlan : public ::testing::Test {
 protected:
  SimtAsyncPlan() { v_.unsupported = nullptr; }  // plain copies (SA_PTX = 0) run anywhere

  // `extra` defines and the tiles; the edges moved back (PEEL_MAX 0, which `extra` may
  // override: EdgeStrips... below).
  static std::vector<std::string> with(std::vector<std::string> extra) {
    extra.insert(extra.begin(), "PEEL_MAX=0");
    for (const char* tile : {"BM=64", "BN=64", "BK=8", "TM=8", "TN=4"}) extra.push_back(tile);
    return extra;
  }

  clgemm::KernelPlan plan(const clgemm::RowMajorGemm& rm, const std::vector<std::string>& defines) {
    return clgemm::KernelPlan(v_, clgemm_test::definesOf(v_, defines),
                              clgemm::PlanTarget{device_.info, device_.device, programs_},
                              clgemm::Precision::kFp32, rm, "-D SA_PTX=0", nullptr);
  }

  // The kernel's view: A rm.m x rm.k, B rm.k x rm.n, C rm.m x rm.n, random FP32 values (as
  // doubles), each uploaded stored as rm says; the plan takes the caller's A and B, so for a
  // column-major problem (rm.swapped) the kernel's A is the caller's B.
  struct Operands {
    std::vector<double> a, b, c0;
    cl::Buffer ka, kb, c;
    clgemm::PlanOperands plan() const { return {swapped ? kb : ka, swapped ? ka : kb, c}; }
    bool swapped = false;
  };
  Operands operands(const clgemm::RowMajorGemm& rm, std::mt19937& rng) {
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    Operands o;
    o.a.resize(std::size_t(rm.m) * rm.k);
    o.b.resize(std::size_t(rm.k) * rm.n);
    o.c0.resize(std::size_t(rm.m) * rm.n);
    for (auto* x : {&o.a, &o.b, &o.c0})
      for (double& e : *x) e = double(float(value(rng)));
    const auto upload = [&](const std::vector<double>& logical, const clgemm::MatrixStorage& st) {
      clgemm::HostMatrix h = clgemm::storeMatrix(logical, st, clgemm::Precision::kFp32);
      return cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h.bytes(), h.data());
    };
    o.ka = upload(o.a, rm.a);
    o.kb = upload(o.b, rm.b);
    o.c = upload(o.c0, rm.c);
    o.swapped = rm.swapped;
    return o;
  }

  // C as the kernel's view stores it, read back.
  std::vector<double> result(const Operands& o, const clgemm::RowMajorGemm& rm) {
    clgemm::HostMatrix out(clgemm::Precision::kFp32, rm.c.count());
    queue_.enqueueReadBuffer(o.c, CL_TRUE, 0, out.bytes(), out.data());
    return clgemm::gatherMatrix(out, rm.c);
  }

  clgemm::Variant v_ = registryVariant("simt-async");
  const clgemm::SelectedDevice device_ = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context_{device_.device};
  cl::CommandQueue queue_{context_, device_.device};
  clgemm::ProgramCache programs_{context_, device_.device, clgemm_test::sourceKernels(),
                                 "kernels.cl"};
};

TEST_F(SimtAsyncPlan, AIsReadTransposedWhereItIsFreeOrFromAtFromAndEdgesBelowPadFrom) {
  using clgemm::Layout;
  using clgemm::Trans;
  const std::vector<PlanCase> cases = {
      // Tile multiples, row-major NN: below AT_FROM as before (no copy); from it a transposing
      // copy.
      {"NN below AT_FROM", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN},
       with({}), false, 1},
      {"NN from AT_FROM", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN},
       with({"AT_FROM=0"}), true, 2},
      // A stored transposed and packed: read as it is, no copy.
      {"TN packed", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN}, with({}),
       true, 1},
      // ... with gaps between its lines: one copy, which packs it.
      {"TN lda 136", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN, 136},
       with({}), true, 2},
      // Odd sizes from PAD_FROM (PAD_FROM_UNALIGNED where N is not a multiple of 4) or smaller
      // than a block: padding copies of A, B, C (in and out, beta != 0) anyway, so A^T; A's and
      // B's in one launch (copy_matrix_pair).
      {"NN padded from PAD_FROM", 130, 68, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({"PAD_FROM=0"}), true, 4},
      {"col NT padded below a block", 70, 50, 13,
       clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kT}, with({}), true, 4},
      {"NN padded from PAD_FROM_UNALIGNED", 130, 70, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({"PAD_FROM_UNALIGNED=0"}), true,
       4},
      // Otherwise the kernel's edges, A read as it is (M x K): no copy for NN, one that
      // transposes a stored A^T back, one for the column-major problem's transposed operand
      // (whose kernel view is 70 x 132: C^T).
      {"NN edge", 130, 68, 13, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({}),
       false, 1},
      {"TN edge", 130, 68, 13, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN}, with({}),
       false, 2},
      {"col NT edge", 132, 70, 13, clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kT}, with({}),
       false, 2},
      {"NN edge, N not a multiple of 4", 130, 70, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({}), false, 1},
      {"NN edge, N odd", 131, 67, 13, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN},
       with({}), false, 1},
      // ... from ALIGN_B_FROM B's copy in 96-float lines (zeros past N, read by the last block
      // column moved back inside 68 columns, stored up to 67): one launch more. B stored
      // transposed: its shape copy writes those lines, no launch more. The column-major
      // problem's kernel view (67 x 133, N odd): the caller's A, stored packed, copied for it.
      {"NN edge, N odd, B in aligned lines", 131, 67, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({"ALIGN_B_FROM=0"}), false, 2},
      {"NT edge, N odd, B in aligned lines", 131, 67, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kT}, with({"ALIGN_B_FROM=0"}), false, 2},
      {"col NN edge, N odd, B in aligned lines", 133, 67, 13,
       clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kN}, with({"ALIGN_B_FROM=0"}), false, 2},
  };
  std::mt19937 rng(7);
  for (const PlanCase& c : cases) {
    SCOPED_TRACE(c.name);
    const clgemm::RowMajorGemm rm = rowMajorOf(c.m, c.n, c.k, c.shape);
    clgemm::KernelPlan plan = this->plan(rm, c.defines);
    bool found = false;
    for (const auto& d : plan.derived()) {
      if (d.name != "A_KM") continue;
      found = true;
      EXPECT_EQ(d.value, c.a_transposed ? "1" : "0");
    }
    EXPECT_TRUE(found) << "no A_KM among the derived defines";

    const Operands o = operands(rm, rng);
    const float alpha = 1.5f, beta = 0.5f;
    const auto launches =
        plan.bind(o.plan(), alpha, beta, [&](std::size_t count, const std::string&, bool zeroed) {
          cl::Buffer buffer(context_, CL_MEM_READ_WRITE, std::max<std::size_t>(count, 1) * 4);
          if (zeroed)
            queue_.enqueueFillBuffer(buffer, 0.0f, 0, std::max<std::size_t>(count, 1) * 4);
          return buffer;
        });
    EXPECT_EQ(int(launches.size()), c.launches);
    clgemm::enqueueLaunches(queue_, launches);
    EXPECT_LT(worstRelativeError(o.a, o.b, o.c0, result(o, rm), rm.m, rm.n, rm.k, alpha, beta),
              1e-5);
  }
}

// Where A and B are both copied (padding, or both stored otherwise than the GEMM reads them), the
// plan copies them in one launch, copy_matrix_pair, over copy_matrix's work-groups for each (32 x
// 64 blocks of the destination; of the source's lines where it is read transposed), A's first;
// where one of them is copied, copy_matrix as before. The scratch starts as NaN, so a block of
// either copy that the pair's launch leaves out shows in C.
struct CopyLaunchCase {
  std::string name;
  int m, n, k;
  clgemm::GemmShape shape;
  std::vector<std::string> defines;
  std::string first;     // the first launch's kernel
  std::size_t groups;    // its work-groups (32 x 8 each)
  std::size_t launches;  // copies and the GEMM at beta 0.5
};

TEST_F(SimtAsyncPlan, AAndBCopiedTogetherInOneLaunchWhereBothAreCopied) {
  using clgemm::Layout;
  using clgemm::Trans;
  const clgemm::GemmShape nn{Layout::kRow, Trans::kN, Trans::kN};
  const std::vector<CopyLaunchCase> cases = {
      // Padded to 192 x 128 x 16: A^T (16 x 192, read from A's 130 lines: 1 x 3 blocks) and B
      // (16 x 128: 4 x 1) in one launch, then C in, the GEMM, C out.
      {"NN padded", 130, 68, 13, nn, with({"PAD_FROM=0"}), "copy_matrix_pair", 3 + 4, 4},
      // Column-major NT, the kernel's view 70 x 132 x 13 padded to 128 x 192 x 16, both stored as
      // it reads them: A^T (16 x 128 from the caller's B, 4 x 1) and B (16 x 192 from the caller's
      // A, 6 x 1).
      {"col NT padded", 132, 70, 13, clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kT},
       with({"PAD_FROM=0"}), "copy_matrix_pair", 4 + 6, 4},
      // Tile multiples, A^T stored with gaps (lda 136: packed into 40 x 128, 4 x 1) and B stored
      // transposed (40 x 192 from its 192 lines: 6 x 1): both copied, not padded.
      {"TT lda 136", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kT, 136},
       with({}), "copy_matrix_pair", 4 + 6, 2},
      // One copy: A^T's from AT_FROM (40 x 128 from A's 128 lines: 4 x 1), or B's in aligned lines
      // (101 x 96: 3 x 2).
      {"NN from AT_FROM", 128, 192, 40, nn, with({"AT_FROM=0"}), "copy_matrix", 4, 2},
      {"NN edge, N odd, B in aligned lines", 131, 67, 101, nn, with({"ALIGN_B_FROM=0"}),
       "copy_matrix", 3 * 2, 2},
  };
  std::mt19937 rng(17);
  for (const CopyLaunchCase& c : cases) {
    SCOPED_TRACE(c.name);
    const clgemm::RowMajorGemm rm = rowMajorOf(c.m, c.n, c.k, c.shape);
    clgemm::KernelPlan plan = this->plan(rm, c.defines);
    const Operands o = operands(rm, rng);
    const float alpha = 1.5f, beta = 0.5f;
    const auto launches =
        plan.bind(o.plan(), alpha, beta, [&](std::size_t count, const std::string&, bool zeroed) {
          const std::size_t bytes = std::max<std::size_t>(count, 1) * 4;
          cl::Buffer buffer(context_, CL_MEM_READ_WRITE, bytes);
          queue_.enqueueFillBuffer(buffer, zeroed ? 0.0f : std::numeric_limits<float>::quiet_NaN(),
                                   0, bytes);
          return buffer;
        });
    ASSERT_EQ(launches.size(), c.launches);
    const clgemm::Launch& first = launches.front();
    EXPECT_TRUE(first.helper);
    EXPECT_EQ(first.kernel.getInfo<CL_KERNEL_FUNCTION_NAME>(), c.first);
    EXPECT_EQ(first.shape.local, (std::array<std::size_t, 2>{32, 8}));
    EXPECT_EQ(first.shape.global[0] / 32 * (first.shape.global[1] / 8), c.groups);
    int pairs = 0;
    for (const auto& l : launches)
      if (l.kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() == "copy_matrix_pair") ++pairs;
    EXPECT_EQ(pairs, c.first == "copy_matrix_pair" ? 1 : 0);
    clgemm::enqueueLaunches(queue_, launches);
    EXPECT_LT(worstRelativeError(o.a, o.b, o.c0, result(o, rm), rm.m, rm.n, rm.k, alpha, beta),
              1e-5);
  }
}

// SPLIT_SLOTS: the places the last round's split is worked out for, which forces a split where
// the device reports none (pocl: no registers, no occupancy). The plan builds the GEMM again with
// SPLIT, SK_WHOLE and SK_PARTS (worked out here by hand from the rule, over the problem the GEMM
// runs: padded where it is), launches the line of work-groups, allocates the parts' slots and the
// zeroed counts, and leaves the launches as they were; run twice on the same scratch, C right
// both times and the counts back at 0. With SPLIT_APART=1 (a round of whole tiles or more) those
// go in a launch of their own before the split's (the plain build, WHOLE_LINE), whose line then
// holds only the parts (SK_APART); with SPLIT_APART=0 one line holds both.
struct SplitPlanCase {
  std::string name;
  int m, n, k;
  clgemm::GemmShape shape;
  std::vector<std::string> defines;
  int blocks_m, blocks_n;  // 64 x 64 blocks of the GEMM's problem
  int whole, parts;        // SK_WHOLE and SK_PARTS as derived; parts 0: no split
  int launches;            // copies and the GEMM
};

TEST_F(SimtAsyncPlan, SplitSlotsSplitTheLastRoundAlongKAndEachLaunchLeavesTheCountsAtZero) {
  using clgemm::Layout;
  using clgemm::Trans;
  const clgemm::GemmShape nn{Layout::kRow, Trans::kN, Trans::kN};
  const std::vector<SplitPlanCase> cases = {
      // Edges (EDGE = 1): 3 x 2 blocks, 101 / 8 -> 13 K-steps. 5 places: 1 tile left, 5 parts by
      // the places, 13 / 4 = 3 by the K-steps.
      {"NN edge, 5 places", 130, 68, 101, nn, with({"SPLIT_SLOTS=5"}), 3, 2, 5, 3, 1},
      // N odd, 16 places: all 6 tiles left, but B copied four bytes at a time (VEC_N = 0): no
      // split. With N a multiple of 4, 16 / 6 = 2 parts.
      {"NN edge, N odd, 16 places", 131, 67, 101, nn, with({"SPLIT_SLOTS=16"}), 3, 2, 0, 0, 1},
      {"NN edge, N = 68, 16 places", 131, 68, 101, nn, with({"SPLIT_SLOTS=16"}), 3, 2, 0, 2, 1},
      // Padded to 192 x 128 x 104 (A and B copied in one launch, C in, C out): 3 x 2 blocks, 13
      // K-steps; 4 places: 2 tiles left, 4 / 2 = 2 parts.
      {"NN padded from PAD_FROM, 4 places", 130, 68, 101, nn, with({"PAD_FROM=0", "SPLIT_SLOTS=4"}),
       3, 2, 4, 2, 4},
      // Tile multiples: 2 x 3 blocks, 37 K-steps; 40 places: 6 tiles left, 40 / 6 = 6 parts (9 by
      // the K-steps), none of them dividing 37.
      {"NN exact, 40 places", 128, 192, 296, nn, with({"SPLIT_SLOTS=40"}), 2, 3, 0, 6, 1},
      // A stored transposed (read as A^T, A_KM = 1), 4 places: 2 tiles left, 2 parts.
      {"TN packed, 4 places", 128, 192, 296, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN},
       with({"SPLIT_SLOTS=4"}), 2, 3, 4, 2, 1},
      // No split: no tile left over (6 on 3 places), one place (never), 7 K-steps (a part needs
      // 4).
      {"NN exact, 3 places", 128, 192, 296, nn, with({"SPLIT_SLOTS=3"}), 2, 3, 0, 0, 1},
      {"NN exact, SPLIT_SLOTS=1", 128, 192, 296, nn, with({"SPLIT_SLOTS=1"}), 2, 3, 0, 0, 1},
      {"NN exact, 7 K-steps", 128, 192, 56, nn, with({"SPLIT_SLOTS=5"}), 2, 3, 0, 0, 1},
  };
  std::mt19937 rng(11);
  for (const SplitPlanCase& c : cases) {
    for (const int apart_rule : {1, 0}) {
      // SPLIT_APART=0 plans otherwise only where a split has whole tiles.
      if (apart_rule == 0 && !(c.parts > 0 && c.whole > 0)) continue;
      SCOPED_TRACE(c.name + ", SPLIT_APART=" + std::to_string(apart_rule));
      const clgemm::RowMajorGemm rm = rowMajorOf(c.m, c.n, c.k, c.shape);
      std::vector<std::string> defines = c.defines;
      defines.push_back("SPLIT_APART=" + std::to_string(apart_rule));
      clgemm::KernelPlan plan = this->plan(rm, defines);
      std::vector<std::string> split_defines;
      for (const auto& d : plan.derived()) {
        if (d.name != "SPLIT" && d.name != "SK_WHOLE" && d.name != "SK_PARTS" &&
            d.name != "SK_APART")
          continue;
        split_defines.push_back(d.name + "=" + d.value);
        EXPECT_EQ(d.source, "problem") << d.name;
      }
      const int split_tiles = c.blocks_m * c.blocks_n - c.whole;
      const bool apart = apart_rule == 1 && c.parts > 0 && c.whole > 0;
      if (c.parts > 0) {
        std::vector<std::string> expected = {"SPLIT=1", "SK_WHOLE=" + std::to_string(c.whole),
                                             "SK_PARTS=" + std::to_string(c.parts)};
        if (apart) expected.push_back("SK_APART=1");
        EXPECT_EQ(split_defines, expected);
        const std::string split = "split=" + std::to_string(c.whole) + "+" +
                                  std::to_string(split_tiles) + "x" + std::to_string(c.parts) +
                                  (apart ? ",apart" : "");
        EXPECT_NE(plan.summary().find(split), std::string::npos) << plan.summary();
      } else {
        EXPECT_EQ(split_defines, std::vector<std::string>{});
        EXPECT_EQ(plan.summary().find("split="), std::string::npos) << plan.summary();
      }

      const Operands o = operands(rm, rng);
      const clgemm::HostMatrix c_in = clgemm::storeMatrix(o.c0, rm.c, clgemm::Precision::kFp32);
      // The scratch the plan asks for: NaN unless zeroed (a slot read before a part wrote it would
      // show), the zeroed ones kept to read back.
      std::vector<std::pair<std::size_t, bool>> asked;
      std::vector<std::pair<cl::Buffer, std::size_t>> zeroed_scratch;
      const auto scratch = [&](std::size_t count, const std::string&, bool zeroed) {
        const std::size_t bytes = std::max<std::size_t>(count, 1) * 4;
        cl::Buffer buffer(context_, CL_MEM_READ_WRITE, bytes);
        if (zeroed) {
          queue_.enqueueFillBuffer(buffer, 0, 0, bytes);
          zeroed_scratch.emplace_back(buffer, count);
        } else {
          queue_.enqueueFillBuffer(buffer, std::numeric_limits<float>::quiet_NaN(), 0, bytes);
        }
        asked.emplace_back(count, zeroed);
        return buffer;
      };
      const float alpha = 1.5f, beta = 0.5f;
      std::vector<double> first;
      for (const char* run : {"first run", "second run"}) {
        SCOPED_TRACE(run);
        queue_.enqueueWriteBuffer(o.c, CL_TRUE, 0, c_in.bytes(), c_in.data());
        const auto launches = plan.bind(o.plan(), alpha, beta, scratch);
        EXPECT_EQ(int(launches.size()), c.launches + (apart ? 1 : 0));
        // The GEMM: a line of SK_WHOLE + split tiles x SK_PARTS work-groups, or the blocks' grid;
        // apart, a line of the SK_WHOLE whole tiles, then one of the parts.
        using Size2 = std::array<std::size_t, 2>;
        const std::size_t parts_groups = std::size_t(split_tiles * c.parts);
        std::vector<Size2> expected_grids;
        if (c.parts == 0)
          expected_grids = {{std::size_t(c.blocks_n) * 16, std::size_t(c.blocks_m) * 8}};
        else if (apart)
          expected_grids = {{std::size_t(c.whole) * 16, 8}, {parts_groups * 16, 8}};
        else
          expected_grids = {{(std::size_t(c.whole) + parts_groups) * 16, 8}};
        std::vector<Size2> grids;
        for (const auto& l : launches) {
          if (l.helper) continue;
          grids.push_back(l.shape.global);
          EXPECT_EQ(l.shape.local, (Size2{16, 8}));
        }
        EXPECT_EQ(grids, expected_grids);
        clgemm::enqueueLaunches(queue_, launches);
        const std::vector<double> got = result(o, rm);
        EXPECT_LT(worstRelativeError(o.a, o.b, o.c0, got, rm.m, rm.n, rm.k, alpha, beta), 1e-5);
        for (const auto& [buffer, count] : zeroed_scratch) {
          std::vector<int> counts(count, -1);
          queue_.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(int), counts.data());
          EXPECT_EQ(counts, std::vector<int>(count, 0));
        }
        if (first.empty())
          first = got;
        else
          EXPECT_TRUE(got == first) << "the second run's C differs from the first's";
      }
      // Allocated once: the parts' slots (64 x 64 floats each) and one count per split tile,
      // zeroed; nothing zeroed without a split.
      const auto has = [&](std::size_t count, bool zeroed) {
        return std::count(asked.begin(), asked.end(), std::pair{count, zeroed}) == 1;
      };
      if (c.parts > 0) {
        EXPECT_TRUE(has(std::size_t(split_tiles) * c.parts * 64 * 64, false));
        EXPECT_TRUE(has(std::size_t(split_tiles), true));
      }
      EXPECT_EQ(zeroed_scratch.size(), c.parts > 0 ? 1u : 0u);
    }
  }
}

// Edge strips (PEEL_MAX 8 on 64 x 64 tiles): the GEMM's grid covers the blocks inside C, or its
// line the split of those, and the last rows (every column) and the last columns (the rows
// above) are computed by gemm_edge_strip, launched once after it (FUSE_STRIPS 0), or in the
// GEMM's launch (FUSE_STRIPS 1): by work-groups of their own last in its line, one per group
// where SPLIT_SLOTS puts the GEMM in one round, or where their chains of loads are short against
// the GEMM's K-steps (the places unknown on pocl: 8 of them, or as many as the strips' groups;
// a 64 x 64 block's K-steps count a quarter of 128 x 128's, so K is long enough for their chains
// where they are wanted), else by every work-group of a split GEMM, else still after it.
// A group: 16 columns of up to 8 rows below, or 16 rows of up to 8 columns to the right. On the
// edges path and on the padded one (the strips read the padded copies, A as A^T, before C's copy
// back). Every element, with beta 0.5 and with beta 0 over a C of NaN; the problem defines
// PEEL_M, PEEL_N and STRIPS_IN_GEMM; the launches. The launch after, which computes with the
// same function, for four of the cases.
struct StripPlanCase {
  std::string name;
  int m, n, k;  // the kernel's view (for a column-major problem C^T: n x m stored)
  clgemm::GemmShape shape;
  std::vector<std::string> defines;
  int m0, n0;             // the GEMM's block; m, n: no strip that way
  int gemm_groups;        // work-groups of the GEMM (its grid, or its line with SPLIT_SLOTS)
  int launches;           // copies, the GEMM, the strips' launch (at beta 0)
  bool c_copied = false;  // C copied in (beta != 0) and out: padded
  // FUSE_STRIPS 1: the strips' own work-groups in the GEMM's line (0: a share in every one; -1:
  // the launch after, as with FUSE_STRIPS 0).
  int own = 8;
  bool after_too = false;   // also with FUSE_STRIPS 0: their launch after the GEMM
  int whole_apart = 0;      // SPLIT_APART: the work-groups of the whole tiles' launch before it
  bool c_in_place = false;  // padded, C written in its stored lines (C_LD), neither copied
};

// The plans of StripPlanCase problems (each with FUSE_STRIPS 1, and 0 where after_too): the
// derived defines, the launches and their shapes, and every element of C at beta 0.5 and 0. In
// three tests: as one, its 20 cases took more than the tests' 600 s on pocl with a cold kernel
// cache (session 28's CI run on 2 cores).
class SimtAsyncStripPlan : public SimtAsyncPlan {
 protected:
  void expectPlans(const std::vector<StripPlanCase>& cases) {
    std::mt19937 rng(13);
    for (const StripPlanCase& c : cases) {
      SCOPED_TRACE(c.name);
      const clgemm::RowMajorGemm rm = rowMajorOf(c.m, c.n, c.k, c.shape);
      // Rows m0 ... m - 1 of every column, then columns n0 ... n - 1 of the rows above, in groups
      // of 16 lines across a strip by up to 8 along it.
      const auto groups = [](int lines, int depth) {
        return std::size_t((lines + 15) / 16) * std::size_t((depth + 7) / 8);
      };
      const std::size_t count = groups(rm.n, rm.m - c.m0) + groups(c.m0, rm.n - c.n0);
      const Operands o = operands(rm, rng);
      const clgemm::HostMatrix c_in = clgemm::storeMatrix(o.c0, rm.c, clgemm::Precision::kFp32);
      const auto scratch = [&](std::size_t size, const std::string&, bool zeroed) {
        const std::size_t bytes = std::max<std::size_t>(size, 1) * 4;
        cl::Buffer buffer(context_, CL_MEM_READ_WRITE, bytes);
        queue_.enqueueFillBuffer(buffer, zeroed ? 0.0f : std::numeric_limits<float>::quiet_NaN(), 0,
                                 bytes);
        return buffer;
      };
      // FUSE_STRIPS 0: gemm_edge_strip's launch after the GEMM, one work-group per 16 outputs. 1:
      // the GEMM's launch, c.own work-groups longer; no launch after.
      for (const bool fused : {false, true}) {
        if (!fused && !c.after_too) continue;
        SCOPED_TRACE(fused ? "strips in the GEMM" : "strips after the GEMM");
        std::vector<std::string> defines = c.defines;
        defines.push_back(fused ? "FUSE_STRIPS=1" : "FUSE_STRIPS=0");
        clgemm::KernelPlan plan = this->plan(rm, defines);
        expectPeel(plan.derived(), c.m0 < rm.m, c.n0 < rm.n);
        const bool in_gemm = fused && count > 0 && c.own >= 0;
        const auto derived = plan.derived();
        const auto c_ld = std::find_if(derived.begin(), derived.end(),
                                       [](const auto& d) { return d.name == "C_LD"; });
        EXPECT_EQ(c_ld != derived.end(), c.c_in_place);
        if (c_ld != derived.end()) EXPECT_EQ(c_ld->value, std::to_string(rm.c.ld));
        // The report's plan field says the same: the strips' groups and where they run, or none
        // (edges moved back, or none thin enough); C in place or copied where padded.
        const std::string summary = plan.summary();
        if (count == 0) {
          EXPECT_EQ(summary.find("strips="), std::string::npos) << summary;
        } else {
          const std::string strips = "strips=" + std::to_string(count) +
                                     (!in_gemm    ? "@after"
                                      : c.own > 0 ? "@own:" + std::to_string(c.own)
                                                  : "@shares");
          EXPECT_NE(summary.find(strips), std::string::npos) << summary;
        }
        if (c.c_in_place) EXPECT_NE(summary.find("c=in-place"), std::string::npos) << summary;
        if (c.c_copied) EXPECT_NE(summary.find("c=copied"), std::string::npos) << summary;
        EXPECT_EQ(std::count_if(derived.begin(), derived.end(),
                                [](const auto& d) {
                                  return d.name == "STRIPS_IN_GEMM" && d.value == "1" &&
                                         d.source == "problem";
                                }),
                  in_gemm ? 1 : 0);
        for (const float beta : {0.5f, 0.0f}) {
          SCOPED_TRACE("beta " + std::to_string(beta));
          if (beta != 0.0f) {
            queue_.enqueueWriteBuffer(o.c, CL_TRUE, 0, c_in.bytes(), c_in.data());
          } else {
            queue_.enqueueFillBuffer(o.c, std::numeric_limits<float>::quiet_NaN(), 0, c_in.bytes());
          }
          const float alpha = 1.5f;
          const auto launches = plan.bind(o.plan(), alpha, beta, scratch);
          // Copies (C in where copied and beta != 0), the GEMM, its strips (unless in it), C out
          // where copied (padded, unless written in place).
          EXPECT_EQ(int(launches.size()),
                    c.launches + (c.c_copied && beta != 0.0f ? 1 : 0) - (in_gemm ? 1 : 0));
          std::vector<std::array<std::size_t, 2>> strips;  // the strips' launch: its global size
          bool gemm_seen = false, whole_seen = false;
          for (const auto& l : launches) {
            if (!l.helper && c.whole_apart > 0 && !whole_seen) {
              whole_seen = true;
              EXPECT_EQ(l.shape.global[0] / 16 * (l.shape.global[1] / 8),
                        std::size_t(c.whole_apart));
            } else if (!l.helper) {
              gemm_seen = true;
              EXPECT_EQ(l.shape.global[0] / 16 * (l.shape.global[1] / 8),
                        std::size_t(c.gemm_groups + (in_gemm ? c.own : 0)));
            } else if (l.kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() == "gemm_edge_strip") {
              EXPECT_TRUE(gemm_seen) << "a strip before the GEMM";
              EXPECT_EQ(l.shape.local, (std::array<std::size_t, 2>{16, 32}));
              strips.push_back(l.shape.global);
            } else if (gemm_seen) {
              // After the GEMM only C's copy back, which carries the strips' outputs too.
              EXPECT_EQ(l.kernel.getInfo<CL_KERNEL_FUNCTION_NAME>(), "copy_matrix");
              EXPECT_TRUE(c.c_copied);
              EXPECT_EQ(strips.size(), count > 0 && !in_gemm ? 1u : 0u)
                  << "C copied back before its strips";
            }
          }
          EXPECT_EQ(whole_seen, c.whole_apart > 0);
          using Sizes = std::vector<std::array<std::size_t, 2>>;
          EXPECT_EQ(strips, (count > 0 && !in_gemm ? Sizes{{count * 16, 32}} : Sizes{}));
          clgemm::enqueueLaunches(queue_, launches);
          EXPECT_LT(
              worstRelativeError(o.a, o.b, o.c0, result(o, rm), rm.m, rm.n, rm.k, alpha, beta),
              1e-5);
        }
      }
    }
  }
};

TEST_F(SimtAsyncStripPlan, EdgeStripsComputeTheLastFewRowsAndColumnsAfterTheGemm) {
  using clgemm::Layout;
  using clgemm::Trans;
  const clgemm::GemmShape nn{Layout::kRow, Trans::kN, Trans::kN};
  expectPlans({// One row and two columns: 2 x 2 blocks and two strips.
               {"NN 1 row, 2 columns", 129, 130, 45, nn, with({"PEEL_MAX=8"}), 128, 128, 4, 2,
                false, 8, true},
               // One row; 36 columns keep their block, moved back: 2 x 2 blocks, one strip.
               {"NN 1 row", 129, 100, 37, nn, with({"PEEL_MAX=8"}), 128, 100, 4, 2, false, 7},
               // Three columns; 36 rows keep their block.
               {"NN 3 columns", 100, 131, 37, nn, with({"PEEL_MAX=8"}), 100, 128, 4, 2, false, 7},
               // N odd (B's four-byte copies, VEC_N = 0), both ways, K off its steps.
               {"NN N odd", 131, 67, 101, nn, with({"PEEL_MAX=8"}), 128, 64, 2, 2, false, 8, true},
               // A stored transposed: its copy, the GEMM, two strips.
               {"TN", 130, 68, 37, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN},
                with({"PEEL_MAX=8"}), 128, 64, 2, 3},
               // Column-major NT: the kernel's view is C^T, 70 x 132, with B's copy.
               {"col NT", 132, 70, 45, clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kT},
                with({"PEEL_MAX=8"}), 64, 128, 2, 3},
               // PEEL_MAX 1: two rows and two columns keep their blocks, moved back.
               {"PEEL_MAX 1", 130, 66, 37, nn, with({"PEEL_MAX=1"}), 130, 66, 6, 1}});
}

TEST_F(SimtAsyncStripPlan, EdgeStripsBesideASplitOrACopyOfB) {
  using clgemm::Layout;
  using clgemm::Trans;
  const clgemm::GemmShape nn{Layout::kRow, Trans::kN, Trans::kN};
  expectPlans(
      {// The split of the blocks inside C (2 x 2 tiles, 16 places: 4 parts of 13 K-steps, 3 by the
       // K-steps), so its grid counts only those; its 12 work-groups in one round: a work-group of
       // their own for each of the 17 groups.
       {"NN split", 129, 132, 101, nn, with({"PEEL_MAX=8", "SPLIT_SLOTS=16"}), 128, 128, 12, 2,
        false, 17},
       // N odd, B's copy in aligned lines (ALIGN_B_FROM=0), launched first: three columns and a
       // row to the strips, which read that copy too, after the GEMM and in it; the split of the
       // blocks inside C as for N = 132.
       {"NN N odd, B in aligned lines", 131, 67, 101, nn, with({"PEEL_MAX=8", "ALIGN_B_FROM=0"}),
        128, 64, 2, 3, false, 8, true},
       {"NN N odd, B in aligned lines, split", 129, 131, 101, nn,
        with({"PEEL_MAX=8", "SPLIT_SLOTS=16", "ALIGN_B_FROM=0"}), 128, 128, 12, 3, false, 17},
       // Padding to peel (PAD_PEELED_FROM) only where the plan without it leaves its last round
       // unsplit: that one splits here, so it stays (not padded, B's aligned copy) ...
       {"NN N odd, split: not padded to peel", 129, 131, 101, nn,
        with({"PEEL_MAX=8", "SPLIT_SLOTS=16", "ALIGN_B_FROM=0", "PAD_PEELED_FROM=0"}), 128, 128, 12,
        3, false, 17},
       // ... and here (B four bytes at a time) it does not: padded (A^T and B copied, C in place),
       // and the padded plan splits.
       {"NN N = 2 mod 4, padded to peel, split", 129, 130, 101, nn,
        with({"PEEL_MAX=8", "SPLIT_SLOTS=16", "PAD_PEELED_FROM=0"}), 128, 128, 12, 3, false, 17,
        true, 0, true},
       // B copied four bytes at a time (N % 4 = 2): no split; 4 tiles in one round on 16 places,
       // 17 work-groups of their own, last in the line.
       {"NN N = 2 mod 4, SPLIT_SLOTS", 129, 130, 101, nn, with({"PEEL_MAX=8", "SPLIT_SLOTS=16"}),
        128, 128, 4, 2, false, 17, true},
       // A split (2 x 24 tiles on 40 places: 40 whole, 8 in 5 parts) and 105 groups of strips,
       // too many for 8 work-groups of their own: every work-group takes a share. (Its 4 columns,
       // over two rounds, would move back: MOVE_BACK_DEPTH 9 keeps them peeled.)
       {"NN split, a share in every work-group", 129, 1540, 300, nn,
        with({"PEEL_MAX=8", "SPLIT_SLOTS=40", "SPLIT_APART=0", "MOVE_BACK_DEPTH=9"}), 128, 1536, 80,
        2, false, 0},
       // The same split apart: the 40 whole tiles' launch, then the parts' 40 work-groups, one
       // round, with a work-group of their own for each of the 105 groups.
       {"NN split apart", 129, 1540, 300, nn,
        with({"PEEL_MAX=8", "SPLIT_SLOTS=40", "SPLIT_APART=1", "MOVE_BACK_DEPTH=9"}), 128, 1536, 40,
        3, false, 105, false, 40},
       // Unsplit, 50 groups of strips for 8 work-groups against 2 K-steps: the launch after.
       {"NN, the strips after", 129, 800, 13, nn, with({"PEEL_MAX=8"}), 128, 800, 26, 2, false,
        -1}});
}

TEST_F(SimtAsyncStripPlan, EdgeStripsOfAPaddedGemmWriteTheCallersC) {
  using clgemm::Layout;
  using clgemm::Trans;
  const clgemm::GemmShape nn{Layout::kRow, Trans::kN, Trans::kN};
  expectPlans(
      {// Padded (192 x 192 x 48): A^T and B copied (one launch); every block inside C, which the
       // GEMM and the strips write in place (its lines 130 floats apart, off 16 bytes), not
       // copied.
       {"NN padded, 1 row, 2 columns", 129, 130, 45, nn,
        with({"PEEL_MAX=8", "PAD_FROM_UNALIGNED=0"}), 128, 128, 4, 3, false, 8, false, 0, true},
       // N odd, padded from PAD_FROM_UNALIGNED (192 x 128 x 104), C in place.
       {"NN padded, N odd", 131, 67, 101, nn, with({"PEEL_MAX=8", "PAD_FROM_UNALIGNED=0"}), 128, 64,
        2, 3, false, 8, false, 0, true},
       // Column-major NT (the kernel's view 70 x 132), padded to 128 x 192 x 48, C in place.
       {"col NT padded", 132, 70, 45, clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kT},
        with({"PEEL_MAX=8", "PAD_FROM=0"}), 64, 128, 2, 3, false, 8, true, 0, true},
       // 50 rows, fewer than a block: their padded block row stays, outside C, so C is copied in
       // and out; three columns go to the strip.
       {"NN padded below a block", 50, 131, 21, nn, with({"PEEL_MAX=8"}), 50, 128, 2, 4, true, 4},
       // The split of the padded problem's blocks inside C: its grid counts 2 x 2 of the 3 x 3
       // padded tiles (M and N passed padded, 192: (M - 1) / BM block rows); C in place.
       {"NN padded split", 129, 130, 101, nn,
        with({"PEEL_MAX=8", "PAD_FROM_UNALIGNED=0", "SPLIT_SLOTS=16"}), 128, 128, 12, 3, false, 17,
        true, 0, true}});
}

// Where the tiles with the edge blocks moved back make one round of the places (SPLIT_SLOTS on
// pocl) and fill it to MOVE_BACK_FILL per cent (95), or the peeled tiles take several rounds and an
// edge is MOVE_BACK_DEPTH (4) deep, the plan moves them back: no strips (PEEL_M = PEEL_N = 0), the
// GEMM over every block, and on the padded path C copied in and out instead of written in place.
// 129 x 130 and 132 x 133 on 64 x 64 tiles: 3 x 3 moved back, 2 x 2 peeled.
TEST_F(SimtAsyncStripPlan, EdgeBlocksMoveBackWhereTheirTilesFillTheirRound) {
  using clgemm::Layout;
  using clgemm::Trans;
  const clgemm::GemmShape nn{Layout::kRow, Trans::kN, Trans::kN};
  expectPlans(
      {// 9 tiles on 9 places: moved back, one launch.
       {"NN 9 places", 129, 130, 45, nn, with({"PEEL_MAX=8", "SPLIT_SLOTS=9"}), 129, 130, 9, 1,
        false, -1},
       // Padded (192 x 192 x 48): A^T and B copied (one launch), the GEMM, C copied out (and in at
       // beta != 0).
       {"NN padded, 9 places", 129, 130, 45, nn,
        with({"PEEL_MAX=8", "PAD_FROM_UNALIGNED=0", "SPLIT_SLOTS=9"}), 129, 130, 9, 3, true, -1},
       // 9 of 10 places (90%), or MOVE_BACK_FILL over 100: peeled, the strips in the GEMM's line.
       // 17 groups, a work-group of their own each (one round).
       {"NN 10 places", 129, 130, 45, nn, with({"PEEL_MAX=8", "SPLIT_SLOTS=10"}), 128, 128, 4, 2,
        false, 17},
       {"NN 9 places, MOVE_BACK_FILL 101", 129, 130, 45, nn,
        with({"PEEL_MAX=8", "SPLIT_SLOTS=9", "MOVE_BACK_FILL=101"}), 128, 128, 4, 2, false, 17},
       // Padded because the strips take its edges (PAD_PEELED_FROM): kept peeled on 9 places, C
       // in place.
       {"NN padded to peel, 9 places", 129, 130, 45, nn,
        with({"PEEL_MAX=8", "PAD_PEELED_FROM=0", "SPLIT_SLOTS=9"}), 128, 128, 4, 3, false, 17,
        false, 0, true},
       // Edges of 4 and 5 on 3 places: the 4 peeled tiles take two rounds, the 9 moved back three.
       {"NN 3 places, edges of 4 and 5", 132, 133, 45, nn, with({"PEEL_MAX=8", "SPLIT_SLOTS=3"}),
        132, 133, 9, 1, false, -1},
       {"NN padded, 3 places, edges of 4 and 5", 132, 133, 45, nn,
        with({"PEEL_MAX=8", "PAD_FROM_UNALIGNED=0", "SPLIT_SLOTS=3"}), 132, 133, 9, 3, true, -1}});
  // The report's plan field says so.
  const std::string summary =
      plan(rowMajorOf(129, 130, 45, nn), with({"PEEL_MAX=8", "SPLIT_SLOTS=9"})).summary();
  EXPECT_NE(summary.find("edges=moved-back"), std::string::npos) << summary;
}

// The rule itself, on the H100's and H200's places (132 SMs): 128 x 128 tiles at two per SM (264),
// 64 x 128 at three (396).
TEST(SimtAsyncEdgesMovedBack, WhereTheTilesMovedBackFillOneRoundOrDeepEdgesSeveral) {
  const auto& v = registryVariant("simt-async");
  ASSERT_TRUE(v.edges_moved_back);
  // On the edges path unless a case names PAD_PEELED_FROM: with it at PAD_FROM_UNALIGNED's size,
  // as in the plan without padding to peel that KernelPlan makes first (padding_unless_split).
  const auto moved = [&](std::vector<std::string> args, int m, int n, long long places) {
    if (std::none_of(args.begin(), args.end(),
                     [](const std::string& a) { return a.rfind("PAD_PEELED_FROM=", 0) == 0; }))
      args.push_back("PAD_PEELED_FROM=2500");
    const auto d = clgemm_test::definesOf(v, args);
    const auto rm = rowMajorOf(m, n, m, clgemm::GemmShape{});
    EXPECT_TRUE(v.edge_strips(d, rm).has_value());
    return v.edges_moved_back(d, rm, places);
  };
  const std::vector<std::string> wide = {"BM=64", "BN=128"};
  // 1921^3-1928^3: 256 tiles on 264 places (97%), against 225 peeled.
  EXPECT_TRUE(moved({}, 1921, 1921, 264));
  EXPECT_TRUE(moved({}, 1928, 1928, 264));
  // One dimension off: 240 tiles (91%); with MOVE_BACK_FILL 90, moved.
  EXPECT_FALSE(moved({}, 1920, 1921, 264));
  EXPECT_TRUE(moved({"MOVE_BACK_FILL=90"}, 1920, 1921, 264));
  // 2049^3: 289 tiles, more than one round (256 peeled).
  EXPECT_FALSE(moved({}, 2049, 2049, 264));
  // 1665^3 on 64 x 128: 378 tiles on 396 (95.5%); 1601^3: 338 (85%); 1025^3: 153 (39%).
  EXPECT_TRUE(moved(wide, 1665, 1665, 396));
  EXPECT_FALSE(moved(wide, 1601, 1601, 396));
  EXPECT_FALSE(moved(wide, 1025, 1025, 396));
  // Several rounds, however full the last, with edges of 1 or 2: 3457^3 and 3458^3, 784 tiles (3
  // rounds, the last 97% full) against 729 peeled; 2305^3, 703 tiles on 64 x 128 (2 rounds).
  EXPECT_FALSE(moved({}, 3457, 3457, 264));
  EXPECT_FALSE(moved({}, 3458, 3458, 264));
  EXPECT_FALSE(moved(wide, 2305, 2305, 396));
  // Edges of 4 or more: 3460^3, 3464^3 (784 tiles, 3 rounds), 3204^3 (676), 3844^3 (961, 4
  // rounds), 2564^3 on 64 x 128 (861 tiles, a round more than the 800 peeled: 3 against 2), and
  // one edge of 5 beside one of 1.
  EXPECT_TRUE(moved({}, 3460, 3460, 264));
  EXPECT_TRUE(moved({}, 3464, 3464, 264));
  EXPECT_TRUE(moved({}, 3204, 3204, 264));
  EXPECT_TRUE(moved({}, 3844, 3844, 264));
  EXPECT_TRUE(moved(wide, 2564, 2564, 396));
  EXPECT_TRUE(moved({}, 3457, 3461, 264));
  // Not with MOVE_BACK_DEPTH over the edges, nor past MOVE_BACK_ROUNDS (8200^3: 4225 tiles, 16
  // rounds; 3844^3 with 3), nor where the peeled tiles make one round (2052^3: 256 peeled, 289).
  EXPECT_FALSE(moved({"MOVE_BACK_DEPTH=9"}, 3464, 3464, 264));
  EXPECT_FALSE(moved({}, 8200, 8200, 264));
  EXPECT_FALSE(moved({"MOVE_BACK_ROUNDS=3"}, 3844, 3844, 264));
  EXPECT_FALSE(moved({}, 2052, 2052, 264));
  // Places unknown (0), SPLIT_SLOTS's instead (over 1), MOVE_BACK_FILL over 100.
  EXPECT_FALSE(moved({}, 1921, 1921, 0));
  EXPECT_TRUE(moved({"SPLIT_SLOTS=256"}, 1921, 1921, 0));
  EXPECT_FALSE(moved({"SPLIT_SLOTS=300"}, 1921, 1921, 264));
  EXPECT_FALSE(moved({"MOVE_BACK_FILL=101"}, 1921, 1921, 264));
  // A problem padded because its edges are peeled (PAD_PEELED_FROM) stays peeled: 1921^3, 1665^3.
  // N a multiple of 4 (1921 x 1924) is not padded so, and from PAD_FROM_UNALIGNED (3457 x 3461)
  // the rule above decides, as before.
  EXPECT_FALSE(moved({"PAD_PEELED_FROM=0"}, 1921, 1921, 264));
  EXPECT_FALSE(moved({"PAD_PEELED_FROM=0", "BM=64", "BN=128"}, 1665, 1665, 396));
  EXPECT_TRUE(moved({"PAD_PEELED_FROM=0"}, 1921, 1924, 264));
  EXPECT_TRUE(moved({"PAD_PEELED_FROM=0"}, 3457, 3461, 264));
}

// FUSE_STRIPS: the strips in the GEMM's launch where its threads are a multiple of 16 (a group x
// threads / 16 slices of K) and A's local buffers hold 8 floats per thread: where the GEMM's
// work-groups run in one round, a work-group of their own per group; over several rounds, in
// work-groups of their own on the places the last round leaves idle (8 to 64) where their chains
// of round trips (16 loads each, weighted by the strips' depth) are at most 2.4 per K-step of the
// GEMM's work-groups over its rounds (in proportion to BM x BN / 128^2), else a share in every
// work-group of a split GEMM (0), else (nothing) the launch after.
TEST(SimtAsyncStripsInGemm, OwnWorkGroupsPerGroupInOneRoundElseOnIdlePlacesOrEveryOne) {
  const auto& v = registryVariant("simt-async");
  ASSERT_TRUE(v.strips_in_gemm);
  // The strips of a cube of side `size` on 128 x 128 tiles (1024 x 1024 at 1025 on 64 x 128).
  const auto in_gemm = [&](const std::vector<std::string>& args, int size, long long gemm_groups,
                           long long slots, int parts) {
    const int inside = size / 1024 * 1024;
    return v.strips_in_gemm(clgemm_test::definesOf(v, args), clgemm::EdgeStrips{inside, inside},
                            size, size, size, gemm_groups, slots, 132, parts);
  };
  // One round: 2049^3 and 2050^3, 256 tiles on 264 places, 257 groups (129 below, 128 to the
  // right); 1028^3 on 64 x 128, 128 tiles in 3 parts filling 396 places (and at 396 of them, the
  // round's end), 129 groups; 1025^3 unsplit (SPLIT_SLOTS = 1 leaves the device's places).
  EXPECT_EQ(in_gemm({}, 2049, 256, 264, 1), 257);
  EXPECT_EQ(in_gemm({}, 2050, 256, 264, 1), 257);
  EXPECT_EQ(in_gemm({"BM=64", "BN=128"}, 1028, 384, 396, 3), 129);
  EXPECT_EQ(in_gemm({"BM=64", "BN=128"}, 1028, 396, 396, 3), 129);
  EXPECT_EQ(in_gemm({"BM=64", "BN=128", "SPLIT_SLOTS=1"}, 1025, 128, 396, 1), 129);
  EXPECT_EQ(in_gemm({"SPLIT_SLOTS=1"}, 2049, 256, 264, 1), 257);
  // Several rounds. 4097^3 and 4104^3 (BK 32): 1024 tiles in 4 rounds, 32 places idle in the
  // last; 17 x 17 trips (x 1.945 eight deep) against 2.4 x 129 x 4. 8193^3: 4096 tiles, all
  // 128 idle places (the cap, STRIPS_OWN_MAX, is 256). 2049^3 with SPLIT_SLOTS 200: two rounds,
  // all 144 idle.
  EXPECT_EQ(in_gemm({"BK=32"}, 4097, 1024, 264, 1), 32);
  EXPECT_EQ(in_gemm({"BK=32"}, 4104, 1024, 264, 1), 32);
  EXPECT_EQ(in_gemm({"BK=32"}, 8193, 4096, 264, 1), 128);
  EXPECT_EQ(in_gemm({"SPLIT_SLOTS=200"}, 2049, 256, 264, 1), 144);
  // STRIPS_OWN_MAX moves the cap. Down to 64 (the default before session 45): 64 of 8193^3's and
  // 2049^3's. 1921^3 padded with its edges peeled (225 blocks in 4 parts, 900 work-groups on 264
  // places) has 156 idle in the last round for 241 groups: 156 by default (2 x 8 trips against
  // 2.4 x 30 x 4), 64 with the cap at 64. Down to its floor of 8: 4104^3's 32 idle places give 8
  // work-groups of 65 x 17 trips x 1.945 eight deep, over 2.4 x 129 x 4: the launch after.
  EXPECT_EQ(in_gemm({"BK=32", "STRIPS_OWN_MAX=64"}, 8193, 4096, 264, 1), 64);
  EXPECT_EQ(in_gemm({"SPLIT_SLOTS=200", "STRIPS_OWN_MAX=64"}, 2049, 256, 264, 1), 64);
  const auto at_1921 = [&](const std::vector<std::string>& args) {
    return v.strips_in_gemm(clgemm_test::definesOf(v, args), clgemm::EdgeStrips{1920, 1920}, 1921,
                            1921, 1921, 900, 264, 132, 4);
  };
  EXPECT_EQ(at_1921({}), 156);
  EXPECT_EQ(at_1921({"STRIPS_OWN_MAX=64"}), 64);
  EXPECT_EQ(in_gemm({"BK=32", "STRIPS_OWN_MAX=8"}, 4104, 1024, 264, 1), std::nullopt);
  // 2056^3 on 64 x 128 (8 slices: 17 trips a group), 512 work-groups on 256 places, none idle:
  // 8 work-groups of 33 x 17 trips x 1.945 against 2.4 x 129 x 2 K-steps: unsplit, the launch
  // after; split in 2 parts (64 K-steps each), a share in every work-group. 1028^3 one
  // work-group past one round: 395 places idle in the second, a work-group for each of the 129
  // groups, 9 trips x 1.405 against 2.4 x 21 x 2; 64 of 3 x 9 trips with the cap at 64.
  EXPECT_EQ(in_gemm({"BM=64", "BN=128"}, 2056, 512, 256, 1), std::nullopt);
  EXPECT_EQ(in_gemm({"BM=64", "BN=128"}, 2056, 512, 256, 2), 0);
  EXPECT_EQ(in_gemm({"BM=64", "BN=128"}, 1028, 397, 396, 3), 129);
  EXPECT_EQ(in_gemm({"BM=64", "BN=128", "STRIPS_OWN_MAX=64"}, 1028, 397, 396, 3), 64);
  // 2500^3 (4 rows peeled from 64 x 128 blocks): 780 work-groups on 396 places, 12 idle in the
  // second round, 157 groups: 14 x 20 trips x 1.405 = 393 each. Against 2.4 x 157 x 2 K-steps
  // they would fit; a 64 x 128 block's K-steps count half (BM x BN / 128^2): the launch after.
  const auto at_2500 = [&](const std::vector<std::string>& args) {
    return v.strips_in_gemm(clgemm_test::definesOf(v, args), clgemm::EdgeStrips{2496, 2500}, 2500,
                            2500, 2500, 780, 396, 132, 1);
  };
  EXPECT_EQ(at_2500({"BM=128", "BN=128"}), 12);
  EXPECT_EQ(at_2500({"BM=64", "BN=128"}), std::nullopt);
  // The places unknown: counted as one round on none, 8 work-groups of 33 x 9 trips, within 2.4
  // x 129 K-steps.
  EXPECT_EQ(in_gemm({}, 2049, 256, 0, 1), 8);
  // FUSE_STRIPS 0, threads not a multiple of 16 (2 x 4), A's buffers smaller than 8 floats per
  // thread (1 x 64 threads, 2 x 2 x (4 + 4) floats), or no strips: the launch after.
  EXPECT_EQ(in_gemm({"FUSE_STRIPS=0"}, 2049, 256, 264, 1), std::nullopt);
  EXPECT_EQ(in_gemm({"BM=32", "BN=64", "TM=16", "TN=16"}, 2049, 256, 264, 1), std::nullopt);
  EXPECT_EQ(in_gemm({"BM=4", "BN=256", "TM=4", "TN=4", "BK=2", "PADA=4"}, 2049, 256, 264, 1),
            std::nullopt);
  EXPECT_EQ(in_gemm({}, 2048, 256, 264, 1), std::nullopt);
}

// One round whose line would hold more than one work-group per unit beyond the tiles' share,
// where the GEMM's whole tiles alone leave every unit a place: as over several rounds. 1667^3 on
// 64 x 128 (128 threads, 8 slices of K): 26 x 13 = 338 tiles and 105 + 104 = 209 groups three
// deep, on the H100's 132 SMs.
TEST(SimtAsyncStripsInGemm, ACrowdedRoundTakesTheIdlePlacesAsOverSeveralRounds) {
  const auto& v = registryVariant("simt-async");
  const auto at_1667 = [&](const std::vector<std::string>& args, long long gemm_groups,
                           long long slots, long long units, int parts) {
    return v.strips_in_gemm(clgemm_test::definesOf(v, args), clgemm::EdgeStrips{1664, 1664}, 1667,
                            1667, 1667, gemm_groups, slots, units, parts);
  };
  const std::vector<std::string> tiles = {"BM=64", "BN=128"};
  // Four per SM (528 places): 547 work-groups, over (3 + 1) x 132, and 338 tiles leave every SM
  // a place (3 < 4). 190 places idle, 64 of them (a crowded round's cap, whatever STRIPS_OWN_MAX
  // above it): 4 x 14 trips x 1.27 = 71 against 2.4 x 105 / 2 = 126; fewer where STRIPS_OWN_MAX is
  // lower.
  EXPECT_EQ(at_1667(tiles, 338, 528, 132, 1), 64);
  std::vector<std::string> capped = tiles;
  capped.push_back("STRIPS_OWN_MAX=32");
  EXPECT_EQ(at_1667(capped, 338, 528, 132, 1), 32);
  // Three per SM (396): the tiles fill some SMs (ceil(338 / 132) = 3), a group each as before.
  EXPECT_EQ(at_1667(tiles, 338, 396, 132, 1), 209);
  // The line within the places, the GEMM split (short work-groups), or the units unknown (0, or
  // SPLIT_SLOTS's places): a group each.
  EXPECT_EQ(at_1667(tiles, 300, 528, 132, 1), 209);
  EXPECT_EQ(at_1667(tiles, 338, 528, 132, 2), 209);
  EXPECT_EQ(at_1667(tiles, 338, 528, 0, 1), 209);
  std::vector<std::string> slots = tiles;
  slots.push_back("SPLIT_SLOTS=528");
  EXPECT_EQ(at_1667(slots, 338, 0, 132, 1), 209);
  // Within the places but over the bound: 1409^3, 22 x 11 = 242 tiles (two per SM at most) and
  // 89 + 88 = 177 groups one deep, 419 work-groups against (2 + 1) x 132 = 396: 64 of their own
  // (3 x 12 trips against 2.4 x 89 / 2). 1345^3, 231 tiles and 85 groups below the last row
  // block, 316: a group each.
  const auto one_round = [&](int size, clgemm::EdgeStrips strips, long long gemm_groups) {
    return v.strips_in_gemm(clgemm_test::definesOf(v, tiles), strips, size, size, size, gemm_groups,
                            528, 132, 1);
  };
  EXPECT_EQ(one_round(1409, clgemm::EdgeStrips{1408, 1408}, 242), 64);
  EXPECT_EQ(one_round(1345, clgemm::EdgeStrips{1344, 1345}, 231), 85);
}

}  // namespace
