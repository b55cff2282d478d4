// The baselines and the CPU paths side by side: groups, --compare, the ratio columns, --threads,
// and the rows of a library this build was configured without.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
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

// Every layout and transpose pair (one run sweeps the eight) with leading dimensions past the
// least, at odd sizes, alpha and beta not 1 and 0: CLBlast and OpenBLAS are called with the
// caller's layout, transposes and leading dimensions on the stored matrices, and cpu-packed packs
// them. Each must verify, and pass the memory check, which fails a row that wrote into C's gaps
// or changed A or B. A baseline still called as row-major NN packed reads the stored matrices
// wrongly and fails. The other CPU paths are skipped, saying why.
TEST(Shapes, BaselinesAndCpuPackedTakeEveryLayoutAndTranspose) {
  const std::vector<std::string> variants = {"cpu-packed",      "cpu-naive", "cpu-blocked",
                                             "cpu-blocked-acc", "clblast",   "openblas"};
  const std::vector<std::string> row_major_only = {"cpu-naive", "cpu-blocked", "cpu-blocked-acc"};
  // lda 131 >= 129, ldb 133 >= 129, ldc 103 >= 100: the least of every shape at both sizes.
  const json doc = runJson({"--kernel",  "cpu-packed,cpu-naive,cpu-blocked,cpu-blocked-acc",
                            "--compare", "clblast,openblas",
                            "--sizes",   "33x17x9,100x37x129",
                            "--layout",  "row,col",
                            "--trans-a", "n,t",
                            "--trans-b", "n,t",
                            "--lda",     "131",
                            "--ldb",     "133",
                            "--ldc",     "103",
                            "--alpha",   "1.5",
                            "--beta",    "-0.5"});
  struct Size {
    int m, n, k;
  };
  const Size sizes[] = {{33, 17, 9}, {100, 37, 129}};
  // The rows come size by size, then layout, op(A), op(B) nested in that order (gemmShapes in
  // commands/run_options.hpp), then the variants as given; a skipped row names its shape, which
  // checks the order.
  std::vector<std::string> shapes;
  for (const char* layout : {"row", "col"})
    for (const char* a : {"N", "T"})
      for (const char* b : {"N", "T"})
        shapes.push_back(std::string(layout) + " " + a + b + " lda=131 ldb=133 ldc=103");
  ASSERT_EQ(doc["results"].size(), std::size(sizes) * shapes.size() * variants.size())
      << doc.dump();
  std::size_t i = 0;
  for (const Size& size : sizes) {
    for (const std::string& shape : shapes) {
      for (const std::string& variant : variants) {
        const json& row = doc["results"][i++];
        SCOPED_TRACE(variant + " " + std::to_string(size.m) + "x" + std::to_string(size.n) + "x" +
                     std::to_string(size.k) + " " + shape);
        ASSERT_EQ(row["variant"], variant);
        EXPECT_EQ(row["m"], size.m);
        EXPECT_EQ(row["n"], size.n);
        EXPECT_EQ(row["k"], size.k);
        const std::string message = row["message"].is_string() ? row["message"] : "";
        if (std::find(row_major_only.begin(), row_major_only.end(), variant) !=
            row_major_only.end()) {
          EXPECT_EQ(row["status"], "skipped") << row.dump();
          EXPECT_NE(message.find(variant + " computes row-major"), std::string::npos) << message;
          EXPECT_NE(message.find("(not " + shape + ")"), std::string::npos) << message;
          EXPECT_NE(message.find("cpu-packed packs any layout"), std::string::npos) << message;
          continue;
        }
        if ((variant == "clblast" && !kClblastBuilt) ||
            (variant == "openblas" && !kOpenblasBuilt)) {
          EXPECT_EQ(row["status"], "skipped") << row.dump();
          continue;
        }
        EXPECT_EQ(row["status"], "ok") << row.dump();
        EXPECT_EQ(row["alpha"], 1.5);
        EXPECT_EQ(row["beta"], -0.5);
        ASSERT_TRUE(row["err_ratio"].is_number()) << row.dump();
        EXPECT_LT(row["err_ratio"].get<double>(), row["err_threshold"].get<double>()) << row.dump();
      }
    }
  }
}

// beta = 0: C starts as NaN with the canary in its gaps (C must not be read), in every shape.
TEST(Shapes, WithBetaZeroCIsWrittenNotRead) {
  const json doc = runJson({"--kernel",  "cpu-packed", "--compare", "clblast,openblas",
                            "-m",        "33",         "-n",        "17",
                            "-k",        "9",          "--layout",  "row,col",
                            "--trans-a", "n,t",        "--trans-b", "n,t",
                            "--lda",     "34",         "--ldb",     "18",
                            "--ldc",     "35",         "--alpha",   "-2",
                            "--beta",    "0"});
  ASSERT_EQ(doc["results"].size(), 8u * 3u) << doc.dump();
  for (const auto& row : doc["results"]) {
    const bool built = (row["variant"] != "clblast" || kClblastBuilt) &&
                       (row["variant"] != "openblas" || kOpenblasBuilt);
    EXPECT_EQ(row["status"], built ? "ok" : "skipped") << row.dump();
  }
}

TEST(CpuParameters, ConstraintsNameTheDefine) {
  const auto r = runClgemm({"--kernel", "cpu-blocked", "-D", "BS_C=0", "--size", "8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("BS_C=0"), std::string::npos) << r.err;
}

// --precision fp64: CLBlast's DGEMM (on the OpenCL device) and OpenBLAS's cblas_dgemm in both
// layouts, all four transposes, leading dimensions past the least, odd sizes, alpha and beta not
// 1 and 0, each judged in DBL_EPSILON units against the compensated reference (so an SGEMM's
// result, 2^29 times less exact, would fail). The CPU paths have FP32 micro-kernels only and are
// skipped, saying so. A device without double precision skips CLBlast with the reason.
TEST(Fp64, BaselinesTakeEveryLayoutAndTransposeCpuPathsAreSkipped) {
  const std::vector<std::string> variants = {"cpu-naive", "cpu-packed", "clblast", "openblas"};
  const json doc = runJson({"--kernel",    "cpu-naive,cpu-packed",
                            "--compare",   "clblast,openblas",
                            "--precision", "fp64",
                            "--sizes",     "33x17x9,100x37x129",
                            "--layout",    "row,col",
                            "--trans-a",   "n,t",
                            "--trans-b",   "n,t",
                            "--lda",       "131",
                            "--ldb",       "133",
                            "--ldc",       "103",
                            "--alpha",     "1.5",
                            "--beta",      "-0.5"});
  struct Size {
    int m, n, k;
  };
  const Size sizes[] = {{33, 17, 9}, {100, 37, 129}};
  std::vector<std::pair<std::string, std::string>> shapes;  // layout, transposes
  for (const char* layout : {"row", "col"})
    for (const char* a : {"n", "t"})
      for (const char* b : {"n", "t"}) shapes.push_back({layout, std::string(a) + b});
  ASSERT_EQ(doc["results"].size(), std::size(sizes) * shapes.size() * variants.size())
      << doc.dump();
  const bool device_has_fp64 = clgemm_test::defaultDevice().has_fp64;
  std::size_t i = 0, ran = 0;
  for (const Size& size : sizes) {
    for (const auto& [layout, trans] : shapes) {
      for (const std::string& variant : variants) {
        const json& row = doc["results"][i++];
        SCOPED_TRACE(variant + " " + std::to_string(size.m) + "x" + std::to_string(size.n) + "x" +
                     std::to_string(size.k) + " " + layout + " " + trans);
        ASSERT_EQ(row["variant"], variant);
        EXPECT_EQ(row["m"], size.m);
        EXPECT_EQ(row["k"], size.k);
        EXPECT_EQ(row["layout"], layout);
        EXPECT_EQ(row["trans_a"], trans.substr(0, 1));
        EXPECT_EQ(row["trans_b"], trans.substr(1, 1));
        EXPECT_EQ(row["lda"], 131);
        const std::string message = row["message"].is_string() ? row["message"] : "";
        if (variant.rfind("cpu-", 0) == 0) {
          EXPECT_EQ(row["status"], "skipped") << row.dump();
          EXPECT_NE(message.find(variant + " computes in fp32 only"), std::string::npos) << message;
          EXPECT_TRUE(row["err_ratio"].is_null()) << row.dump();
          continue;
        }
        if ((variant == "clblast" && !kClblastBuilt) ||
            (variant == "openblas" && !kOpenblasBuilt)) {
          EXPECT_EQ(row["status"], "skipped") << row.dump();
          continue;
        }
        if (variant == "clblast" && !device_has_fp64) {
          EXPECT_EQ(row["status"], "skipped") << row.dump();
          EXPECT_NE(message.find("cl_khr_fp64"), std::string::npos) << message;
          continue;
        }
        EXPECT_EQ(row["status"], "ok") << row.dump();
        EXPECT_EQ(row["alpha"], 1.5);
        EXPECT_EQ(row["beta"], -0.5);
        EXPECT_EQ(row["check"], "full");
        ASSERT_TRUE(row["err_ratio"].is_number()) << row.dump();
        EXPECT_EQ(row["err_threshold"], 16.0);
        EXPECT_LT(row["err_ratio"].get<double>(), 16.0) << row.dump();
        ++ran;
      }
    }
  }
  // Every baseline row that could run did: none went missing as a skip.
  const std::size_t clblast_rows = kClblastBuilt && device_has_fp64 ? 16 : 0;
  EXPECT_EQ(ran, (kOpenblasBuilt ? 16u : 0u) + clblast_rows);
}

// pocl's CPU device has cl_khr_fp64; if a build of it lacked it, the test above would only check
// CLBlast's skip, so say so here rather than pass silently.
TEST(Fp64, TheTestDeviceHasDoublePrecision) {
  const auto& device = clgemm_test::defaultDevice();
  if (device.name.find("pthread") == std::string::npos &&
      device.name.find("cpu") == std::string::npos)
    GTEST_SKIP() << "not pocl's CPU device: " << device.name;
  EXPECT_TRUE(device.has_fp64) << device.name << " reports no cl_khr_fp64";
}

// --precision fp32,fp64 sweeps both, FP32's rows first (size, precision, shape, variant): the CPU
// path runs in FP32 and is skipped in FP64, the libraries run in both, each judged in its
// precision's epsilon (the CPU path's FP32 result would fail the FP64 check).
TEST(Fp64, APrecisionListSweepsBothInOrder) {
  const json doc = runJson({"--kernel",    "cpu-packed", "--compare", "clblast,openblas",
                            "--precision", "fp32,fp64",  "-m",        "33",
                            "-n",          "17",         "-k",        "9",
                            "--layout",    "col",        "--trans-a", "t",
                            "--ldc",       "40",         "--beta",    "0.5"});
  ASSERT_EQ(variantsOf(doc), (std::vector<std::string>{"cpu-packed", "clblast", "openblas",
                                                       "cpu-packed", "clblast", "openblas"}))
      << doc.dump();
  const auto& rows = doc["results"];
  EXPECT_EQ(rows[0]["status"], "ok") << rows[0].dump();
  EXPECT_EQ(rows[3]["status"], "skipped") << rows[3].dump();
  EXPECT_NE(rows[3]["message"].get<std::string>().find("fp32 only"), std::string::npos)
      << rows[3].dump();
  for (int r : {1, 2, 4, 5}) {
    const bool built = rows[r]["variant"] == "clblast" ? kClblastBuilt : kOpenblasBuilt;
    if (!built) continue;
    EXPECT_EQ(rows[r]["status"], "ok") << rows[r].dump();
    EXPECT_EQ(rows[r]["ldc"], 40) << rows[r].dump();
    ASSERT_TRUE(rows[r]["err_ratio"].is_number()) << rows[r].dump();
    EXPECT_LT(rows[r]["err_ratio"].get<double>(), 16.0) << rows[r].dump();
  }
}

}  // namespace
