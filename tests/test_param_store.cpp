// Tuned parameters shipped in data/params: which entry a device gets, and that a run reports the
// values it took from there (source "data") with -D still winning.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "defines.hpp"
#include "kernels.hpp"
#include "param_store.hpp"
#include "run_clgemm.hpp"

namespace {

using clgemm_test::TempDir;

const clgemm::Shape kSize{512, 512, 512};
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
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "2.0", "best", kSize, e));
  EXPECT_EQ(e.defines.at("BM"), "64");
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "3.0", "best", kSize, e));
  EXPECT_EQ(e.defines.at("BM"), "32");  // first file in name order among other drivers
  EXPECT_FALSE(clgemm::findTunedEntry({dir.path()}, "GPU Z", "2.0", "best", kSize, e));
  EXPECT_FALSE(clgemm::findTunedEntry({dir.path()}, "GPU X", "2.0", "tiled", kSize, e));
}

TEST(ParamStore, MalformedFilesAreSkippedWithANote) {
  TempDir dir;
  writeText(dir.file("bad.json"), "{not json");
  writeText(dir.file("good.json"), entryJson("GPU X", "1.0", "best", R"({"BK": 8})"));
  std::vector<std::string> warnings;
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1.0", "best", kSize, e, &warnings));
  EXPECT_EQ(e.defines.at("BK"), "8");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("bad.json"), std::string::npos);
}

TEST(ParamStore, EarlierFolderWins) {
  TempDir first, second;
  writeText(first.file("e.json"), entryJson("GPU X", "9", "best", R"({"BM": 16})"));
  writeText(second.file("e.json"), entryJson("GPU X", "1", "best", R"({"BM": 256})"));
  clgemm::TunedEntry e;
  ASSERT_TRUE(
      clgemm::findTunedEntry({first.path(), second.path()}, "GPU X", "1", "best", kSize, e));
  EXPECT_EQ(e.defines.at("BM"), "16");
}

std::string sizedEntry(const std::string& driver, int m, int n, int k, int bm) {
  return R"({"device": "GPU X", "driver": ")" + driver + R"(", "kernel": "best", "size": {"m": )" +
         std::to_string(m) + R"(, "n": )" + std::to_string(n) + R"(, "k": )" + std::to_string(k) +
         R"(}, "defines": {"BM": )" + std::to_string(bm) + "}}";
}

TEST(ParamStore, TheSameSizeThenTheNearestThenAnySize) {
  TempDir dir;
  writeText(dir.file("any.json"), entryJson("GPU X", "1", "best", R"({"BM": 1})"));
  writeText(dir.file("s512.json"), sizedEntry("1", 512, 512, 512, 512));
  writeText(dir.file("s4096.json"), sizedEntry("1", 4096, 4096, 4096, 4096));
  writeText(dir.file("flat.json"), sizedEntry("1", 4096, 4096, 64, 64));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1", "best", {512, 512, 512}, e));
  EXPECT_EQ(e.defines.at("BM"), "512");
  ASSERT_TRUE(e.size.has_value());
  EXPECT_EQ(e.size->k, 512);
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1", "best", {4096, 4096, 64}, e));
  EXPECT_EQ(e.defines.at("BM"), "64");  // exact shape beats 4096^3 and 512^3
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1", "best", {3000, 3000, 3000}, e));
  EXPECT_EQ(e.defines.at("BM"), "4096");
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1", "best", {100, 100, 100}, e));
  EXPECT_EQ(e.defines.at("BM"), "512");
  // Another driver's exact size loses to this driver's nearest.
  writeText(dir.file("other.json"), sizedEntry("2", 100, 100, 100, 100));
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1", "best", {100, 100, 100}, e));
  EXPECT_EQ(e.defines.at("BM"), "512");
  // A sized entry with a bad size is skipped with a note.
  writeText(dir.file("bad.json"), sizedEntry("1", 0, 1, 1, 7));
  std::vector<std::string> warnings;
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, "GPU X", "1", "best", {1, 1, 1}, e, &warnings));
  EXPECT_NE(e.defines.at("BM"), "7");
  ASSERT_EQ(warnings.size(), 1u);
}

TEST(ParamStore, ReportsWhichFolderHeldTheEntry) {
  TempDir store, data;
  writeText(data.file("d.json"), entryJson("GPU X", "1", "best", R"({"BM": 16})"));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({store.path(), data.path()}, "GPU X", "1", "best", kSize, e));
  EXPECT_EQ(e.dir_index, 1u);
  writeText(store.file("s.json"), entryJson("GPU X", "0", "best", R"({"BM": 32})"));
  ASSERT_TRUE(clgemm::findTunedEntry({store.path(), data.path()}, "GPU X", "1", "best", kSize, e));
  EXPECT_EQ(e.dir_index, 0u);  // the store wins even with another driver
  EXPECT_EQ(e.defines.at("BM"), "32");
}

TEST(ParamStore, TunedEntryFileNameKeysDeviceDriverKernelAndSize) {
  EXPECT_EQ(
      clgemm::tunedEntryFileName("NVIDIA H100 80GB HBM3", "580.159.04", "best", {4096, 4096, 4096}),
      "nvidia-h100-80gb-hbm3-580-159-04-best-4096.json");
  EXPECT_EQ(clgemm::tunedEntryFileName("GPU", "1", "regtile2d", {8192, 8192, 256}),
            "gpu-1-regtile2d-8192x8192x256.json");
}

// Each entry shipped in data/params names a kernel of the registry and only its parameters, and
// its values pass the kernel's constraints: a kernel whose parameters change must bring its
// entries along, or users of that device would get a refusal instead of the tuned values.
TEST(ParamStore, EveryShippedEntryIsValidForItsKernel) {
  const std::string params = clgemm_test::sourceDir() + "/data/params";
  const auto files = clgemm::jsonFilesIn(params);
  EXPECT_FALSE(files.empty()) << "no entries in " << params;
  for (const auto& file : files) {
    const auto entry = nlohmann::json::parse(clgemm_test::readText(file));
    const std::string kernel = entry.at("kernel");
    std::vector<const clgemm::Variant*> named;
    EXPECT_NO_THROW(named = clgemm::parseVariantList(kernel)) << file;
    ASSERT_EQ(named.size(), 1u) << file << ": " << kernel << " is not one kernel";
    const clgemm::Variant& variant = *named[0];
    // The values as a run takes them from an entry: strings, in place of the defaults.
    std::map<std::string, std::string> tuned;
    for (const auto& [name, value] : entry.at("defines").items()) {
      bool known = false;
      for (const auto& p : variant.params) known = known || p.name == name;
      EXPECT_TRUE(known) << file << ": " << kernel << " has no parameter " << name;
      tuned[name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    const auto why =
        clgemm::constraintViolations(variant, clgemm::ResolvedDefines(variant.params, {}, tuned));
    EXPECT_EQ(why, std::nullopt) << file << ": " << why.value_or("");
  }
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
