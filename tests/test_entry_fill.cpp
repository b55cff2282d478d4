// Which of a device's tuned entries serves a size none was tuned for (registry/entry_fill.hpp):
// the nearest size's, unless another's blocks leave the busiest compute unit at least 10% less
// of C. Described devices and entries written to temporary folders, through the same lookup a
// run makes (resolveVariantParams).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "registry/entry_fill.hpp"
#include "registry/kernels.hpp"
#include "registry/param_lookup.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::registryVariant;
using clgemm_test::TempDir;
using clgemm_test::writeText;

// A GPU as the lookup sees it: a name, a driver and its compute units.
clgemm::DeviceInfo gpuWithUnits(unsigned units) {
  clgemm::DeviceInfo d;
  d.name = "GPU X";
  d.driver_version = "1";
  d.compute_units = units;
  return d;
}

// An entry of `kernel` for GPU X tuned at size^3 (or m x n x k) with BM x BN blocks.
std::string blockEntry(const std::string& kernel, const std::string& driver, int m, int n, int k,
                       int bm, int bn) {
  return R"({"device": "GPU X", "driver": ")" + driver + R"(", "kernel": ")" + kernel +
         R"(", "size": {"m": )" + std::to_string(m) + R"(, "n": )" + std::to_string(n) +
         R"(, "k": )" + std::to_string(k) + R"(}, "defines": {"BM": )" + std::to_string(bm) +
         R"(, "BN": )" + std::to_string(bn) + "}}";
}

// The entry a GPU X of `units` compute units takes for `size` from `dirs` (the first
// `store_dirs` of them the user's store), for a row-major or (`swapped`) column-major problem.
std::string fileChosen(const std::vector<std::string>& dirs, const clgemm::Shape& size,
                       const std::string& kernel = "simt-async", std::size_t store_dirs = 0,
                       unsigned units = 132, bool swapped = false) {
  return clgemm::resolveVariantParams(registryVariant(kernel), {}, {dirs, store_dirs},
                                      gpuWithUnits(units), size, nullptr, "NN",
                                      clgemm::Precision::kFp32, swapped)
      .tuned_file;
}

// The H100's simt-async entries as shipped: 64 x 128 blocks tuned at 1024^3, 128 x 128 at 2048^3.
struct H100LikeEntries {
  TempDir dir;
  H100LikeEntries() {
    writeText(dir.file("s1024.json"), blockEntry("simt-async", "1", 1024, 1024, 1024, 64, 128));
    writeText(dir.file("s2048.json"), blockEntry("simt-async", "1", 2048, 2048, 2048, 128, 128));
  }
  clgemm::VariantParams lookup(const clgemm::Shape& size, unsigned units = 132,
                               const std::vector<clgemm::UserDefine>& user = {}) const {
    return clgemm::resolveVariantParams(registryVariant("simt-async"), user, {{dir.path()}, 0},
                                        gpuWithUnits(units), size, nullptr);
  }
};

TEST(EntryFill, TheBusiestUnitTakesTheBlocksThatDoNotDivideEvenly) {
  // 1536^3 on 132 units: 144 blocks of 128 x 128 put two on 12 of them; 288 of 64 x 128, three
  // on 24.
  EXPECT_EQ(clgemm::busiestUnitElements(1536, 1536, {128, 128}, 132), 2 * 128 * 128);
  EXPECT_EQ(clgemm::busiestUnitElements(1536, 1536, {64, 128}, 132), 3 * 64 * 128);
  // Edge blocks count whole: 1537 rows take 13 blocks of 128.
  EXPECT_EQ(clgemm::busiestUnitElements(1537, 128, {128, 128}, 13), 128 * 128);
  EXPECT_EQ(clgemm::busiestUnitElements(1537, 128, {128, 128}, 12), 2 * 128 * 128);
  EXPECT_EQ(clgemm::busiestUnitElements(1024, 1024, {64, 128}, 128), 64 * 128);
}

TEST(EntryFill, ASizeBetweenEntriesTakesTheOneWhoseBlocksFillTheUnits) {
  const H100LikeEntries entries;
  const auto p = entries.lookup({1536, 1536, 1536});
  EXPECT_EQ(p.tuned_file, entries.dir.file("s1024.json"));
  EXPECT_EQ(p.defines.param("BM"), 64);
  EXPECT_EQ(p.defines.param("BN"), 128);
  // The report says why the nearest size's entry was passed over.
  EXPECT_NE(p.tuned_match.find("same device; its 64 x 128 blocks leave the busiest of 132 "
                               "compute units 24576 elements of C, s2048.json's 128 x 128 32768"),
            std::string::npos)
      << p.tuned_match;
  // 2560^3: 800 blocks of 64 x 128 (7 on the busiest unit) against 400 of 128 x 128 (4).
  EXPECT_EQ(entries.lookup({2560, 2560, 2560}).tuned_file, entries.dir.file("s1024.json"));
}

TEST(EntryFill, TheNearestSizeStaysWhereNoEntryFillsTheUnitsTenPercentBetter) {
  const H100LikeEntries entries;
  // The entry tuned for this very size, whatever the others' blocks.
  EXPECT_EQ(entries.lookup({2048, 2048, 2048}).tuned_file, entries.dir.file("s2048.json"));
  // 1920^3: 225 blocks of 128 x 128 and 450 of 64 x 128 leave the busiest unit the same share.
  const auto even = entries.lookup({1920, 1920, 1920});
  EXPECT_EQ(even.tuned_file, entries.dir.file("s2048.json"));
  EXPECT_EQ(even.tuned_match, "same device");
  // 1408^3 is nearer 1024^3: that entry already fills best.
  EXPECT_EQ(entries.lookup({1408, 1408, 1408}).tuned_file, entries.dir.file("s1024.json"));
  // 8000^3 on 132 units: 60 blocks of 64 x 128 on the busiest against 31 of 128 x 128, 3% less
  // of C: not enough.
  TempDir big;
  writeText(big.file("s1024.json"), blockEntry("simt-async", "1", 1024, 1024, 1024, 64, 128));
  writeText(big.file("s8192.json"), blockEntry("simt-async", "1", 8192, 8192, 8192, 128, 128));
  EXPECT_EQ(fileChosen({big.path()}, {8000, 8000, 8000}), big.file("s8192.json"));
}

TEST(EntryFill, OnlyTheNearestEntrysSetCompetes) {
  const H100LikeEntries entries;
  // A -D for the blocks gives every entry the same ones: the nearest size's stays.
  EXPECT_EQ(entries.lookup({1536, 1536, 1536}, 132, {{"BM", "128"}}).tuned_file,
            entries.dir.file("s2048.json"));
  // Blocks of no rows (a -D the constraints refuse when the kernel is planned) choose nothing.
  EXPECT_EQ(entries.lookup({1536, 1536, 1536}, 132, {{"BM", "0"}}).tuned_file,
            entries.dir.file("s2048.json"));
  // A device that does not say its compute units, and a variant that does not say its blocks.
  EXPECT_EQ(entries.lookup({1536, 1536, 1536}, 0).tuned_file, entries.dir.file("s2048.json"));
  TempDir best;
  writeText(best.file("s1024.json"), blockEntry("best", "1", 1024, 1024, 1024, 64, 128));
  writeText(best.file("s2048.json"), blockEntry("best", "1", 2048, 2048, 2048, 128, 128));
  EXPECT_EQ(fileChosen({best.path()}, {1536, 1536, 1536}, "best"), best.file("s2048.json"));
  // Another driver's entry was not tuned with the nearest one: it does not compete.
  TempDir drivers;
  writeText(drivers.file("s1024.json"), blockEntry("simt-async", "0", 1024, 1024, 1024, 64, 128));
  writeText(drivers.file("s2048.json"), blockEntry("simt-async", "1", 2048, 2048, 2048, 128, 128));
  EXPECT_EQ(fileChosen({drivers.path()}, {1536, 1536, 1536}), drivers.file("s2048.json"));
  // Nor does shipped data against the user's store, which comes first.
  TempDir store;
  writeText(store.file("s2048.json"), blockEntry("simt-async", "1", 2048, 2048, 2048, 128, 128));
  EXPECT_EQ(fileChosen({store.path(), entries.dir.path()}, {1536, 1536, 1536}, "simt-async", 1),
            store.file("s2048.json"));
}

TEST(EntryFill, EdgeStripsLeaveTheirRowsAndColumnsOutOfTheBlocks) {
  const H100LikeEntries entries;
  // 2049^3: simt-async leaves the last row and column to strips, so 256 blocks of 128 x 128 and
  // 512 of 64 x 128 remain, the same share; counted whole, 289 and 561 would take the 1024 entry.
  EXPECT_EQ(entries.lookup({2049, 2049, 2049}).tuned_file, entries.dir.file("s2048.json"));
  // Without strips (PEEL_MAX=0) the edge blocks count, and the 64 x 128 ones fill better.
  EXPECT_EQ(entries.lookup({2049, 2049, 2049}, 132, {{"PEEL_MAX", "0"}}).tuned_file,
            entries.dir.file("s1024.json"));
}

TEST(EntryFill, AColumnMajorProblemIsCutAsTheKernelSeesIt) {
  // Four units; 32 x 128 blocks tuned at 1024^3, 128 x 32 at 2048^3 (the nearest to 96 x 4096 x
  // 21845). A 96 x 4096 C takes 96 blocks of 32 x 128 (24 a unit) against 128 of 128 x 32 (32).
  // Column-major, the kernel computes its 4096 x 96 transpose, where the shares are reversed.
  TempDir dir;
  writeText(dir.file("wide.json"), blockEntry("simt-async", "1", 1024, 1024, 1024, 32, 128));
  writeText(dir.file("tall.json"), blockEntry("simt-async", "1", 2048, 2048, 2048, 128, 32));
  const clgemm::Shape size{96, 4096, 21845};
  EXPECT_EQ(fileChosen({dir.path()}, size, "simt-async", 0, 4), dir.file("wide.json"));
  EXPECT_EQ(fileChosen({dir.path()}, size, "simt-async", 0, 4, /*swapped=*/true),
            dir.file("tall.json"));
}

}  // namespace
