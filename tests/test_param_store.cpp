// Tuned parameters shipped in data/params: which entry a device gets, and that a run reports the
// values it took from there (source "data") with -D still winning.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "param_store.hpp"
#include "run_clgemm.hpp"

namespace {

using clgemm_test::TempDir;
using clgemm_test::writeText;

std::string entryJson(const std::string& device, const std::string& driver,
                      const std::string& kernel, const std::string& defines) {
  return R"({"device": ")" + device + R"(", "driver": ")" + driver + R"(", "kernel": ")" + kernel +
         R"(", "defines": )" + defines + "}";
}

TEST(ParamStore, PrefersTheSameDriverThenAnyDriver) {
  TempDir dir;
  writeText(dir.file("a.json"), entryJson("GPU X", "1.0", "best", R"({"BM": 32})"));
  writeText(dir.file("b.json"), entryJson("GPU X", "2.0", "best", R"({"BM": 64})"));
  writeText(dir.file("c.json"), entryJson("GPU Y", "2.0", "best", R"({"BM": 128})"));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "2.0", "best", e));
  EXPECT_EQ(e.defines.at("BM"), "64");
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "3.0", "best", e));
  EXPECT_EQ(e.defines.at("BM"), "32");  // first file in name order among other drivers
  EXPECT_FALSE(clgemm::findTunedEntry({dir.path()}, "GPU Z", "2.0", "best", e));
  EXPECT_FALSE(clgemm::findTunedEntry({dir.path()}, "GPU X", "2.0", "tiled", e));
}

TEST(ParamStore, MalformedFilesAreSkippedWithANote) {
  TempDir dir;
  writeText(dir.file("bad.json"), "{not json");
  writeText(dir.file("good.json"), entryJson("GPU X", "1.0", "best", R"({"BK": 8})"));
  std::vector<std::string> warnings;
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1.0", "best", e, &warnings));
  EXPECT_EQ(e.defines.at("BK"), "8");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("bad.json"), std::string::npos);
}

TEST(ParamStore, EarlierFolderWins) {
  TempDir first, second;
  writeText(first.file("e.json"), entryJson("GPU X", "9", "best", R"({"BM": 16})"));
  writeText(second.file("e.json"), entryJson("GPU X", "1", "best", R"({"BM": 256})"));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({first.path(), second.path()}, "GPU X", "1", "best", e));
  EXPECT_EQ(e.defines.at("BM"), "16");
}

// End to end on this machine's device: an entry beside a --kernels file is picked up.
TEST(ParamStore, RunTakesTunedValuesAndDefinesOverrideThem) {
  const auto list = clgemm_test::runClgemm(
      {"--kernel", "best", "--size", "4", "--reps", "1", "--format", "json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto doc = nlohmann::json::parse(list.out);
  const std::string device = doc["device"]["name"];

  TempDir dir;
  writeText(dir.file("kernels.cl"), clgemm_test::sourceKernels());
  std::filesystem::create_directories(dir.file("data/params"));
  writeText(dir.file("data/params/this.json"),
            entryJson(device, "any", "best", R"({"BM": 32, "BK": 32})"));
  const auto r = clgemm_test::runClgemm({"--kernels", dir.file("kernels.cl"), "--kernel", "best",
                                         "-D", "BK=16", "-m", "70", "-n", "45", "-k", "33",
                                         "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto row = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(row["status"], "ok");
  EXPECT_EQ(row["defines"]["BM"], "32");
  EXPECT_EQ(row["define_sources"]["BM"], "data");
  EXPECT_EQ(row["defines"]["BK"], "16");
  EXPECT_EQ(row["define_sources"]["BK"], "cli");
  EXPECT_EQ(row["define_sources"]["TM"], "default");
  EXPECT_EQ(row["define_sources"]["EDGE"], "problem");
}

}  // namespace
