// The optimisation ladder end to end through the real binary on the machine's OpenCL device: every
// kernel of `--kernel cl` in ladder order, its resource figures, its arithmetic intensity and
// roofline bound, the speedup over naive, and --explain.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::runClgemm;
using clgemm_test::TempDir;
using nlohmann::json;

// The OpenCL kernels in the registry's order, which is the ladder's.
std::vector<std::string> ladder() {
  std::vector<std::string> names;
  for (const auto& v : clgemm::variants())
    if (v.backend == clgemm::Backend::kOpenCl) names.push_back(v.name);
  return names;
}

json runJson(std::vector<std::string> args) {
  args.insert(args.end(), {"--format", "json", "--reps", "1", "--warmup", "0"});
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  try {
    return json::parse(r.out);
  } catch (const json::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << r.out << r.err;
    return json::object({{"results", json::array()}});
  }
}

const json& rowOf(const json& doc, const std::string& variant) {
  for (const auto& row : doc["results"])
    if (row["variant"] == variant) return row;
  static const json none;
  ADD_FAILURE() << "no row for " << variant;
  return none;
}

TEST(Ladder, TheNamesArePinned) {
  // The order is what --kernel cl runs and --explain prints; changing it is a documented change.
  EXPECT_EQ(ladder(),
            (std::vector<std::string>{
                "naive-global", "naive",        "tiled",          "tiled-wpt",    "vector",
                "tiled-2x2",    "prefetch-reg", "prefetch-local", "transposed-b", "regtile-nolocal",
                "regtile2d",    "best",         "simt-async",     "tc-tf32",      "tc-3xtf32",
                "tc-tf32-wg",   "tc-tf32-tma",  "tc-tf32-rs",     "tc-tf32-ws",   "tc-tf32-fused",
                "tc-3xtf32-wg", "tc-3xtf32-ws", "tc-3xtf32-f16"}));
}

TEST(Ladder, EveryStepBuildsOnAnEarlierKernel) {
  // --explain's "(on X)": each step names an OpenCL kernel before it in the ladder, so following
  // builds_on from any kernel reaches naive-global, the first.
  const auto names = ladder();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& base = clgemm_test::registryVariant(names[i]).builds_on;
    if (i == 0) {
      EXPECT_EQ(base, "") << names[i];
      continue;
    }
    const auto at = std::find(names.begin(), names.begin() + long(i), base);
    EXPECT_NE(at, names.begin() + long(i))
        << names[i] << " builds on '" << base << "', which is no earlier kernel of the ladder";
  }
  // The tensor-core steps: TF32 tensor cores over the best FP32 kernel, then error compensation
  // over those.
  EXPECT_EQ(clgemm_test::registryVariant("best").builds_on, "regtile2d");
  EXPECT_EQ(clgemm_test::registryVariant("tc-tf32").builds_on, "best");
  EXPECT_EQ(clgemm_test::registryVariant("tc-3xtf32").builds_on, "tc-tf32");
}

TEST(Ladder, ClRunsEveryKernelInOrderVerifiedWithItsFigures) {
  const json doc = runJson({"--kernel", "cl", "-m", "33", "-n", "17", "-k", "9"});
  const auto names = ladder();
  ASSERT_EQ(doc["results"].size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const json& row = doc["results"][i];
    EXPECT_EQ(row["variant"], names[i]);
    // A kernel this device cannot run (the tensor-core ones off NVIDIA) is skipped with the reason
    // and has no figures.
    if (clgemm_test::checkedAsUnsupported(row, clgemm_test::defaultDevice())) {
      EXPECT_TRUE(row["resources"].is_null()) << row.dump();
      EXPECT_TRUE(row["vs_naive"].is_null()) << row.dump();
      continue;
    }
    EXPECT_EQ(row["status"], "ok") << row.dump();
    const json& res = row["resources"];
    ASSERT_TRUE(res.is_object()) << row.dump();
    EXPECT_GT(res["wg_size"].get<int>(), 0) << names[i];
    EXPECT_GE(res["max_wg_size"].get<int>(), 1) << names[i];
    EXPECT_GT(res["wg_multiple"].get<int>(), 0) << names[i];
    EXPECT_TRUE(res["local_mem_bytes"].is_number()) << names[i];
    EXPECT_TRUE(res["private_mem_bytes"].is_number()) << names[i];
    EXPECT_GT(row["intensity"].get<double>(), 0.0) << names[i];
    EXPECT_GT(row["vs_naive"].get<double>(), 0.0) << names[i];
    // Registers come from NVIDIA's ptxas report only: a count where reported, else null.
    EXPECT_TRUE(res["registers"].is_null() || res["registers"].get<int>() > 0) << names[i];
  }
  EXPECT_DOUBLE_EQ(rowOf(doc, "naive")["vs_naive"].get<double>(), 1.0);
}

TEST(Ladder, LocalMemoryKernelsReportTheirTiles) {
  // The driver's CL_KERNEL_LOCAL_MEM_SIZE covers at least the tiles each kernel declares.
  const json doc =
      runJson({"--kernel", "tiled,tiled-wpt,prefetch-local,regtile2d", "--size", "16", "-D", "TS=8",
               "-D", "WPT=2", "-D", "TSM=16", "-D", "TSN=16", "-D", "TSK=4"});
  EXPECT_GE(rowOf(doc, "tiled")["resources"]["local_mem_bytes"].get<int>(), 2 * 8 * 8 * 4);
  EXPECT_GE(rowOf(doc, "tiled-wpt")["resources"]["local_mem_bytes"].get<int>(), 2 * 8 * 8 * 4);
  EXPECT_GE(rowOf(doc, "prefetch-local")["resources"]["local_mem_bytes"].get<int>(),
            2 * (8 * 9 + 8 * 8) * 4);
  EXPECT_GE(rowOf(doc, "regtile2d")["resources"]["local_mem_bytes"].get<int>(),
            4 * (16 + 1 + 16 + 1) * 4);
  EXPECT_EQ(rowOf(doc, "tiled")["resources"]["wg_size"], 64);
  EXPECT_EQ(rowOf(doc, "tiled-wpt")["resources"]["wg_size"], 32);
}

TEST(Ladder, IntensityFollowsEachKernelsReuse) {
  // 64^3, every tile exact: 2*64^3 flops over the bytes each access pattern loads.
  const json doc = runJson({"--kernel",
                            "naive-global,naive,tiled,tiled-wpt,transposed-b,"
                            "regtile-nolocal,regtile2d,cpu-naive",
                            "--size", "64"});
  // naive: 2 loads of 4 bytes per multiply-add (2 flops): 0.25; naive-global loads C too: 1/6.
  EXPECT_NEAR(rowOf(doc, "naive")["intensity"].get<double>(), 0.25, 1e-12);
  EXPECT_NEAR(rowOf(doc, "naive-global")["intensity"].get<double>(), 2.0 / 12.0, 1e-12);
  // A square tile of T serves T multiply-adds per value loaded: T / 4 flops per byte.
  EXPECT_NEAR(rowOf(doc, "tiled")["intensity"].get<double>(), 16.0 / 4.0, 1e-12);
  EXPECT_NEAR(rowOf(doc, "tiled-wpt")["intensity"].get<double>(), 32.0 / 4.0, 1e-12);
  // Rectangular 64 x 32 tiles: 2 / (4 * (1/32 + 1/64)) = 10.67, less the transpose's read of B:
  // 2*64^3 / (4*64^3*(1/32 + 1/64) + 4*64^2).
  EXPECT_NEAR(rowOf(doc, "transposed-b")["intensity"].get<double>(),
              2.0 * 64 / (4.0 * 64 * (1.0 / 32 + 1.0 / 64) + 4.0), 1e-12);
  // 4 x 4 per work-item from global: 2 / (4 * (1/4 + 1/4)) = 1.
  EXPECT_NEAR(rowOf(doc, "regtile-nolocal")["intensity"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(rowOf(doc, "regtile2d")["intensity"].get<double>(), 64.0 / 4.0, 1e-12);
  // CPU paths have no OpenCL figures.
  EXPECT_TRUE(rowOf(doc, "cpu-naive")["intensity"].is_null());
  EXPECT_TRUE(rowOf(doc, "cpu-naive")["resources"].is_null());
}

TEST(Ladder, BetaAddsOneReadOfC) {
  const json doc = runJson({"--kernel", "naive", "--size", "64", "--beta", "1"});
  // 2*64^3 / (8*64^3 + 4*64^2)
  EXPECT_NEAR(rowOf(doc, "naive")["intensity"].get<double>(), 2.0 * 64 / (8.0 * 64 + 4.0), 1e-12);
}

TEST(Ladder, RooflineBoundFromAPeakFileForTheDevice) {
  // Where data/peaks/ beside the kernels file has an entry for this device, every OpenCL row gets
  // min(peak, intensity * bandwidth). The shipped data folders take part here (the other tests
  // hide them with CLGEMM_DATA=none).
  const clgemm_test::ScopedEnv shipped_data("CLGEMM_DATA", std::nullopt);
  const json first = runJson({"--kernel", "naive", "--size", "8"});
  const std::string device = first["device"]["name"];
  // Without a peak for the device (pocl's), no bound; the repository's data/peaks has the H100's.
  EXPECT_EQ(first["results"][0]["roofline_gflops"].is_null(), first["peak"].is_null())
      << first.dump();

  TempDir dir;
  clgemm_test::writeText(dir.file("kernels.cl"), clgemm_test::sourceKernels());
  std::filesystem::create_directories(dir.file("data/peaks"));
  clgemm_test::writeText(
      dir.file("data/peaks/this-device.json"),
      json{{"device", device}, {"fp32_gflops", 100.0}, {"bandwidth_gbs", 10.0}}.dump());
  const json doc =
      runJson({"--kernels", dir.file("kernels.cl"), "--kernel", "naive,regtile2d", "--size", "64"});
  EXPECT_DOUBLE_EQ(doc["peak"]["gflops"].get<double>(), 100.0);
  // naive: 0.25 flop/B x 10 GB/s = 2.5 GFLOP/s, under the compute peak.
  EXPECT_NEAR(rowOf(doc, "naive")["roofline_gflops"].get<double>(), 2.5, 1e-9);
  // regtile2d: 16 flop/B x 10 GB/s = 160, capped at the 100 GFLOP/s peak.
  EXPECT_NEAR(rowOf(doc, "regtile2d")["roofline_gflops"].get<double>(), 100.0, 1e-9);
}

TEST(Ladder, TableShowsTheResourceTable) {
  const auto r = runClgemm({"--kernel", "naive,tiled", "--size", "16", "--reps", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("vs naive"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel resources"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flop/B"), std::string::npos) << r.out;
}

TEST(Explain, OneLinePerVariantInLadderOrderNamingWhatItBuildsOn) {
  const auto r = runClgemm({"--kernel", "cl", "--explain"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const auto names = ladder();
  ASSERT_EQ(lines.size(), names.size()) << r.out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(lines[i].substr(0, lines[i].find(' ')), names[i]) << r.out;
    const std::string& base = clgemm_test::registryVariant(names[i]).builds_on;
    if (!base.empty()) EXPECT_NE(lines[i].find("(on " + base + ")"), std::string::npos) << lines[i];
  }
}

TEST(Explain, EveryOpenClVariantSaysWhatItAdds) {
  for (const auto& v : clgemm::variants()) {
    if (v.backend != clgemm::Backend::kOpenCl) continue;
    EXPECT_FALSE(v.adds.empty()) << v.name;
    EXPECT_TRUE(v.global_bytes) << v.name << " has no arithmetic intensity";
  }
}

TEST(Explain, UnknownVariantIsAUsageError) {
  const auto r = runClgemm({"--kernel", "nope", "--explain"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'nope'"), std::string::npos) << r.err;
}

}  // namespace
