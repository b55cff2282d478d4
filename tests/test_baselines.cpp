// The baselines and the CPU paths side by side: groups, --compare, the ratio columns, --threads,
// and the rows of a library this build was configured without.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::runClgemm;
using nlohmann::json;

json runJson(std::vector<std::string> args, int expected_exit = 0) {
  args.insert(args.end(), {"--format", "json", "--reps", "1", "--warmup", "0"});
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  return json::parse(r.out, nullptr, false);
}

std::vector<std::string> variantsOf(const json& doc) {
  std::vector<std::string> names;
  for (const auto& row : doc["results"]) names.push_back(row["variant"]);
  return names;
}

std::vector<std::string> namesWithBackend(clgemm::Backend backend) {
  std::vector<std::string> names;
  for (const auto& v : clgemm::variants())
    if (v.backend == backend) names.push_back(v.name);
  return names;
}

constexpr bool kClblastBuilt =
#ifdef CLGEMM_HAVE_CLBLAST
    true;
#else
    false;
#endif
constexpr bool kOpenblasBuilt =
#ifdef CLGEMM_HAVE_OPENBLAS
    true;
#else
    false;
#endif

TEST(Groups, ClIsEveryOpenClKernelInLadderOrder) {
  const json doc = runJson({"--kernel", "cl", "--size", "9"});
  EXPECT_EQ(variantsOf(doc), namesWithBackend(clgemm::Backend::kOpenCl));
  // Each ran and verified, or the device cannot run it and it says why.
  for (const auto& row : doc["results"])
    if (!clgemm_test::checkedAsUnsupported(row, clgemm_test::defaultDevice()))
      EXPECT_EQ(row["status"], "ok") << row.dump();
}

TEST(Groups, CpuIsEveryCpuPathAndNeedsNoOpenClDevice) {
  const json doc = runJson({"--kernel", "cpu", "--size", "9"});
  EXPECT_EQ(variantsOf(doc), namesWithBackend(clgemm::Backend::kCpu));
  EXPECT_TRUE(doc["device"].is_null()) << doc["device"].dump();
  for (const auto& row : doc["results"]) EXPECT_EQ(row["status"], "ok") << row.dump();
}

TEST(Groups, AllIsEverythingWithBaselinesLast) {
  const json doc = runJson({"--kernel", "openblas,all", "--size", "9"});
  std::vector<std::string> expected;
  for (const auto& v : clgemm::variants())
    if (!v.isBaseline()) expected.push_back(v.name);
  // Baselines keep their given order, after everything else: openblas first, then the rest of
  // them in the registry's order.
  expected.push_back("openblas");
  for (const auto& v : clgemm::variants())
    if (v.isBaseline() && v.name != "openblas") expected.push_back(v.name);
  EXPECT_EQ(variantsOf(doc), expected);
  for (const auto& row : doc["results"]) {
    if (!clgemm::backendBuilt(clgemm_test::registryVariant(row["variant"]).backend))
      EXPECT_EQ(row["status"], "skipped") << row.dump();  // "not built": see NotBuilt below
    else if (!clgemm_test::checkedAsUnsupported(row, clgemm_test::defaultDevice()))
      EXPECT_EQ(row["status"], "ok") << row.dump();
  }
}

TEST(Compare, AddsBaselinesAndRatiosFromTheSameRun) {
  const json doc = runJson({"--kernel", "regtile2d", "--compare", "clblast,openblas", "-m", "65",
                            "-n", "33", "-k", "47", "--alpha", "1.5", "--beta", "-0.5"});
  ASSERT_EQ(variantsOf(doc), (std::vector<std::string>{"regtile2d", "clblast", "openblas"}));
  const auto& kernel = doc["results"][0];
  const auto& clblast = doc["results"][1];
  const auto& openblas = doc["results"][2];
  if (kClblastBuilt) {
    ASSERT_EQ(clblast["status"], "ok") << clblast.dump();
    EXPECT_DOUBLE_EQ(clblast["vs_clblast"].get<double>(), 1.0);
    EXPECT_NEAR(kernel["vs_clblast"].get<double>(),
                kernel["gflops"].get<double>() / clblast["gflops"].get<double>(), 1e-9);
    EXPECT_EQ(clblast["device"], kernel["device"]);  // the same OpenCL device
  } else {
    EXPECT_EQ(clblast["status"], "skipped");
    EXPECT_TRUE(kernel["vs_clblast"].is_null());
  }
  if (kOpenblasBuilt) {
    ASSERT_EQ(openblas["status"], "ok") << openblas.dump();
    EXPECT_DOUBLE_EQ(openblas["vs_openblas"].get<double>(), 1.0);
    EXPECT_NEAR(kernel["vs_openblas"].get<double>(),
                kernel["gflops"].get<double>() / openblas["gflops"].get<double>(), 1e-9);
  } else {
    EXPECT_EQ(openblas["status"], "skipped");
    EXPECT_TRUE(kernel["vs_openblas"].is_null());
  }
}

TEST(Compare, NoRatioColumnsWithoutBaselines) {
  const json doc = runJson({"--kernel", "naive", "--size", "5"});
  EXPECT_TRUE(doc["results"][0]["vs_clblast"].is_null());
  EXPECT_TRUE(doc["results"][0]["vs_openblas"].is_null());
}

TEST(Compare, TakesOnlyBaselines) {
  const auto r = runClgemm({"--kernel", "naive", "--compare", "tiled"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--compare"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'tiled'"), std::string::npos) << r.err;
}

TEST(NotBuilt, ReportedAsSkippedNotFailed) {
  const auto r = runClgemm({"--kernel", "naive", "--compare", "clblast,openblas", "--size", "5",
                            "--reps", "1", "--warmup", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const bool all_built = kClblastBuilt && kOpenblasBuilt;
  EXPECT_EQ(r.out.find("not built") == std::string::npos, all_built) << r.out;
}

// The CPU paths parallelise over independent blocks of C, never over K, so the thread count must
// not change a single bit; OpenBLAS must verify either way.
TEST(Threads, OneAndTwoThreadsGiveTheSameVerifiedResult) {
  clgemm_test::TempDir dir;
  std::vector<std::string> host_variants = namesWithBackend(clgemm::Backend::kCpu);
  if (kOpenblasBuilt) host_variants.push_back("openblas");
  for (const auto& variant : host_variants) {
    for (const char* threads : {"1", "2"}) {
      const json doc =
          runJson({"--kernel", variant, "--threads", threads, "-m", "67", "-n", "45", "-k", "131",
                   "--beta", "0.5", "--output-c", dir.file(variant + "-" + threads + ".npy")});
      ASSERT_EQ(doc["results"][0]["status"], "ok") << doc.dump();
      EXPECT_EQ(doc["results"][0]["threads"], std::stoi(threads));
    }
    if (variant == "openblas") continue;
    EXPECT_EQ(clgemm_test::readText(dir.file(variant + "-1.npy")),
              clgemm_test::readText(dir.file(variant + "-2.npy")))
        << variant << " depends on the thread count";
  }
}

TEST(Threads, RecordedForHostRowsOnly) {
  const json doc = runJson({"--kernel", "naive,cpu-naive", "--threads", "2", "--size", "7"});
  EXPECT_TRUE(doc["results"][0]["threads"].is_null());
  EXPECT_EQ(doc["results"][1]["threads"], 2);
  EXPECT_EQ(doc["host"]["threads"], 2);
}

TEST(Threads, MustBePositive) {
  const auto r = runClgemm({"--threads", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--threads"), std::string::npos);
}

// A -D reaches an OpenCL kernel's compiler, and a CPU path's own parameter; a baseline has neither,
// so its row lists none of them (cuBLAS's used to show the run's kernel defines beside its
// version).
TEST(Defines, ARowListsOnlyTheDefinesThatReachIt) {
  const json doc = runJson({"--kernel", "naive,cpu-packed", "--compare", "clblast,openblas,cublas",
                            "-D", "WGX=8", "-D", "KC=256", "--size", "16"});
  ASSERT_EQ(variantsOf(doc),
            (std::vector<std::string>{"naive", "cpu-packed", "clblast", "openblas", "cublas"}))
      << doc.dump();
  const auto& naive = doc["results"][0];
  EXPECT_EQ(naive["defines"]["WGX"], "8") << naive.dump();
  EXPECT_EQ(naive["defines"]["KC"], "256") << naive.dump();  // a custom kernels.cl may read it
  const auto& packed = doc["results"][1];
  EXPECT_EQ(packed["defines"]["KC"], "256") << packed.dump();
  EXPECT_EQ(packed["define_sources"]["KC"], "cli") << packed.dump();
  EXPECT_FALSE(packed["defines"].contains("WGX")) << packed.dump();
  for (int i = 2; i < 5; ++i) {
    const auto& row = doc["results"][i];
    for (const char* name : {"WGX", "KC"}) {
      EXPECT_FALSE(row["defines"].is_object() && row["defines"].contains(name)) << row.dump();
      EXPECT_FALSE(row["define_sources"].is_object() && row["define_sources"].contains(name))
          << row.dump();
    }
  }
}

TEST(CpuParameters, ConstraintsNameTheDefine) {
  const auto r = runClgemm({"--kernel", "cpu-blocked", "-D", "BS_C=0", "--size", "8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("BS_C=0"), std::string::npos) << r.err;
}

}  // namespace
