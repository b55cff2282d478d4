// Every variant (OpenCL kernels, CPU paths, CLBlast on the OpenCL device, OpenBLAS, cuBLAS) against
// the double reference, through the real binary on the machine's OpenCL device: sizes that divide
// no tile, alpha/beta other than 1/0, non-default parameters. A variant the registry says cannot
// run on the device (tensor cores, cuBLAS off NVIDIA) must be reported skipped with the reason.
// And proof that the check bites: a kernel that skips elements or gets them wrong must fail.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "check/verify.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::runClgemm;
using nlohmann::json;

struct Shape {
  int m, n, k;
};
struct Scalars {
  const char* alpha;
  const char* beta;
};
void PrintTo(const Shape& s, std::ostream* os) { *os << s.m << "x" << s.n << "x" << s.k; }
void PrintTo(const Scalars& s, std::ostream* os) {
  *os << "alpha=" << s.alpha << " beta=" << s.beta;
}

std::string allVariants() {
  std::string names;
  for (const auto& v : clgemm::variants()) names += (names.empty() ? "" : ",") + v.name;
  return names;
}

json runJson(const std::vector<std::string>& args, int expected_exit = 0) {
  std::vector<std::string> full = {"--format", "json", "--reps", "1", "--warmup", "0"};
  full.insert(full.end(), args.begin(), args.end());
  const auto r = runClgemm(full);
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  return clgemm_test::parseReport(r);
}

// A baseline library this build was configured without reports "skipped", and so does a variant
// the device cannot run (with the registry's reason); everything else must have run and verified,
// judged by its arithmetic's threshold.
bool built(const std::string& variant) {
#ifndef CLGEMM_HAVE_CLBLAST
  if (variant == "clblast") return false;
#endif
#ifndef CLGEMM_HAVE_OPENBLAS
  if (variant == "openblas") return false;
#endif
  (void)variant;
  return true;
}

void expectAllOk(const json& doc, std::size_t expected_rows) {
  ASSERT_TRUE(doc.contains("results"));
  ASSERT_EQ(doc["results"].size(), expected_rows);
  for (const auto& row : doc["results"]) {
    if (!built(row["variant"])) {
      EXPECT_EQ(row["status"], "skipped") << row.dump();
      EXPECT_NE(row["message"].get<std::string>().find("not built"), std::string::npos);
      continue;
    }
    if (clgemm_test::checkedAsUnsupported(row, clgemm_test::defaultDevice())) continue;
    const auto& variant = clgemm_test::registryVariant(row["variant"]);
    const double threshold = clgemm::errorThresholdFor(variant.arithmetic);
    EXPECT_EQ(row["status"], "ok") << row.dump();
    EXPECT_EQ(row["precision"], clgemm::arithmeticName(variant.arithmetic)) << row.dump();
    EXPECT_EQ(row["err_threshold"], threshold) << row.dump();
    ASSERT_TRUE(row["err_ratio"].is_number()) << row.dump();
    EXPECT_LT(row["err_ratio"].get<double>(), threshold) << row.dump();
    EXPECT_GT(row["gflops"].get<double>(), 0.0) << row.dump();
  }
}

class AllVariants : public ::testing::TestWithParam<std::tuple<Shape, Scalars>> {};

TEST_P(AllVariants, MatchTheReference) {
  const auto [shape, scalars] = GetParam();
  const json doc = runJson({"--kernel", allVariants(), "-m", std::to_string(shape.m), "-n",
                            std::to_string(shape.n), "-k", std::to_string(shape.k), "--alpha",
                            scalars.alpha, "--beta", scalars.beta});
  expectAllOk(doc, clgemm::variants().size());
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["m"], shape.m);
    EXPECT_EQ(row["n"], shape.n);
    EXPECT_EQ(row["k"], shape.k);
  }
}

INSTANTIATE_TEST_SUITE_P(
    OddSizes, AllVariants,
    ::testing::Combine(::testing::Values(Shape{1, 1, 1}, Shape{7, 7, 7}, Shape{33, 17, 9},
                                         Shape{100, 37, 129}, Shape{128, 128, 128}),
                       ::testing::Values(Scalars{"1", "0"}, Scalars{"1.5", "-0.5"})),
    [](const auto& info) {
      const Shape s = std::get<0>(info.param);
      const bool plain = std::string(std::get<1>(info.param).beta) == "0";
      return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
             (plain ? "_alpha1_beta0" : "_alpha1p5_betam0p5");
    });

// Non-default parameters: other tile shapes, rectangular work-groups, no padding.
struct ParamCase {
  const char* name;
  const char* variant;
  std::vector<std::string> defines;
};

void PrintTo(const ParamCase& c, std::ostream* os) { *os << c.name; }

class NonDefaultParameters : public ::testing::TestWithParam<ParamCase> {};

TEST_P(NonDefaultParameters, MatchTheReferenceAtOddSizes) {
  const ParamCase& c = GetParam();
  const bool unsupported =
      clgemm_test::unsupportedOnDevice(c.variant, clgemm_test::defaultDevice()).has_value();
  if (unsupported) {
    // Skipped before its parameters are resolved, so no run here checks them: they must at least
    // keep the variant's constraints, for the devices that run it.
    const auto& variant = clgemm_test::registryVariant(c.variant);
    std::vector<clgemm::UserDefine> user;
    for (const auto& d : c.defines) user.push_back(clgemm::parseDefine(d));
    EXPECT_EQ(clgemm::constraintViolations(variant, clgemm::ResolvedDefines(variant.params, user)),
              std::nullopt);
  }
  for (const Shape& s : {Shape{33, 17, 9}, Shape{100, 37, 129}}) {
    std::vector<std::string> args = {"--kernel", c.variant,
                                     "-m",       std::to_string(s.m),
                                     "-n",       std::to_string(s.n),
                                     "-k",       std::to_string(s.k),
                                     "--alpha",  "-2",
                                     "--beta",   "0.25",
                                     "--warmup", "1"};
    for (const auto& d : c.defines) args.insert(args.end(), {"-D", d});
    const json doc = runJson(args);
    expectAllOk(doc, 1);
    if (unsupported) continue;  // skipped, as expectAllOk checked: no defines were resolved
    // The report records the user's values and says where they came from.
    for (const auto& d : c.defines) {
      const auto eq = d.find('=');
      EXPECT_EQ(doc["results"][0]["defines"][d.substr(0, eq)], d.substr(eq + 1));
      EXPECT_EQ(doc["results"][0]["define_sources"][d.substr(0, eq)], "cli");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, NonDefaultParameters,
    ::testing::Values(
        ParamCase{"naive_8x4", "naive", {"WGX=8", "WGY=4"}},
        ParamCase{"naive_global_8x4", "naive-global", {"WGX=8", "WGY=4"}},
        ParamCase{"tiled_TS8", "tiled", {"TS=8"}}, ParamCase{"tiled_TS5", "tiled", {"TS=5"}},
        ParamCase{"tiled_wpt_16_2", "tiled-wpt", {"TS=16", "WPT=2"}},
        ParamCase{"tiled_wpt_15_5", "tiled-wpt", {"TS=15", "WPT=5"}},
        ParamCase{"vector_w2", "vector", {"TS=8", "WIDTH=2"}},
        ParamCase{"vector_w8", "vector", {"TS=16", "WIDTH=8"}},
        ParamCase{"vector_w16", "vector", {"TS=16", "WIDTH=16"}},
        ParamCase{"tiled_2x2_TS6", "tiled-2x2", {"TS=6"}},
        ParamCase{"prefetch_reg_TS10", "prefetch-reg", {"TS=10"}},
        ParamCase{"prefetch_local_TS6", "prefetch-local", {"TS=6"}},
        ParamCase{"transposed_b_small",
                  "transposed-b",
                  {"TSM=32", "TSN=16", "TSK=8", "WPTM=4", "PAD=0", "TT=8"}},
        ParamCase{"transposed_b_odd",
                  "transposed-b",
                  {"TSM=15", "TSN=7", "TSK=5", "WPTM=3", "PAD=2", "TT=5"}},
        ParamCase{
            "regtile_nolocal_odd", "regtile-nolocal", {"TX=2", "TY=3", "LEN=5", "WGX=8", "WGY=4"}},
        ParamCase{"regtile_nolocal_8x8", "regtile-nolocal", {"TX=8", "TY=8", "LEN=1"}},
        ParamCase{"regtile2d_rect",
                  "regtile2d",
                  {"TSM=32", "TSN=64", "TSK=8", "WPTM=4", "WPTN=8", "PAD=0"}},
        ParamCase{"regtile2d_odd",
                  "regtile2d",
                  {"TSM=24", "TSN=20", "TSK=7", "WPTM=3", "WPTN=5", "PAD=2"}},
        // BK=8: 16.5 KiB of local memory, within the 32 KiB every OpenCL device offers (pocl
        // says 32 KiB where the L2 is shared); BK=16 would need 33 KiB.
        ParamCase{"best_128x128_8x8", "best", {"BM=128", "BN=128", "BK=8", "TM=8", "TN=8"}},
        ParamCase{"best_rect_nopad",
                  "best",
                  {"BM=128", "BN=64", "BK=16", "TM=8", "TN=4", "PADA=0", "PADB=8", "GROUP_M=3"}},
        ParamCase{
            "best_small_tiles", "best", {"BM=16", "BN=32", "BK=8", "TM=4", "TN=4", "GROUP_M=1"}},
        ParamCase{"tc_tf32_64x64", "tc-tf32", {"BM=64", "BN=64", "WM=32", "WN=32", "GROUP_M=1"}},
        ParamCase{"tc_3xtf32_one_stage",
                  "tc-3xtf32",
                  {"BM=64", "BN=128", "BK=32", "WM=32", "WN=32", "STAGES=1"}},
        ParamCase{"cpu_blocked_odd", "cpu-blocked", {"BS_R=5", "BS_C=7"}},
        ParamCase{"cpu_blocked_acc_odd", "cpu-blocked-acc", {"BS_R=3", "BS_C=11"}},
        ParamCase{"cpu_packed_odd", "cpu-packed", {"MC=5", "KC=3", "NC=7"}},
        ParamCase{"cpu_packed_big", "cpu-packed", {"MC=512", "KC=512", "NC=8192"}}),
    [](const auto& info) { return std::string(info.param.name); });

// The CPU micro-kernel levels this machine can run, as the CPU itself reports them (the same test
// the host's choice makes). cpu-packed picks the highest; CLGEMM_CPU_ISA caps the choice.
std::vector<std::string> cpuMicroKernelLevels() {
  std::vector<std::string> levels;
#if defined(__x86_64__)
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") && fma)
    levels.push_back("avx512");
  if (__builtin_cpu_supports("avx2") && fma) levels.push_back("avx2");
#endif
  levels.push_back("portable");
  return levels;
}

// Every micro-kernel this CPU can run, not only the one it picks: on an AVX-512 machine the AVX2
// and portable kernels (what AVX2-only and other CPUs run) are checked too, each at its own default
// blocking and at blocks smaller than its register tile, with beta != 0.
TEST(CpuPacked, EveryMicroKernelThisCpuCanRunMatchesTheReference) {
  for (const std::string& level : cpuMicroKernelLevels()) {
    SCOPED_TRACE("CLGEMM_CPU_ISA=" + level);
    const clgemm_test::ScopedEnv isa("CLGEMM_CPU_ISA", level);
    const auto explain = runClgemm({"--explain", "--kernel", "cpu-packed"});
    ASSERT_EQ(explain.exit_code, 0) << explain.err;
    EXPECT_NE(explain.out.find(", " + level + " "), std::string::npos)
        << "cpu-packed did not pick the " << level << " micro-kernel:\n"
        << explain.out;
    for (const std::vector<std::string>& defines :
         {std::vector<std::string>{},
          std::vector<std::string>{"-D", "MC=5", "-D", "KC=3", "-D", "NC=7"}}) {
      std::vector<std::string> args = {"--kernel", "cpu-packed", "-m",  "67",     "-n",  "45", "-k",
                                       "131",      "--alpha",    "1.5", "--beta", "-0.5"};
      args.insert(args.end(), defines.begin(), defines.end());
      const json doc = runJson(args);
      ASSERT_TRUE(doc.contains("results")) << doc.dump();
      EXPECT_EQ(doc["results"][0]["status"], "ok") << doc["results"][0].dump();
    }
  }
}

TEST(Defaults, ReportedWithTheirSource) {
  const json doc = runJson({"--kernel", "regtile2d", "--size", "16"});
  const auto& row = doc["results"][0];
  EXPECT_EQ(row["defines"]["TSM"], "64");
  EXPECT_EQ(row["define_sources"]["TSM"], "default");
}

// A kernels file whose naive kernel never writes column 0 of C. The poisoned C must expose it,
// with beta = 0 (NaN left behind) and with beta != 0 (C0 left behind).
std::string kernelsSkippingColumnZero() {
  std::string text = clgemm_test::sourceKernels();
  const std::string store = "  store_c(C, row * N + col, acc, alpha, beta);\n}";
  const auto at = text.find(store);
  EXPECT_NE(at, std::string::npos) << "naive's store not found in kernels.cl";
  text.replace(at, store.size(), "  if (col > 0) store_c(C, row * N + col, acc, alpha, beta);\n}");
  return text;
}

TEST(Verification, AnUnwrittenElementFails) {
  clgemm_test::TempDir dir;
  clgemm_test::writeText(dir.file("broken.cl"), kernelsSkippingColumnZero());
  for (const char* beta : {"0", "0.5"}) {
    const auto r =
        runClgemm({"--kernels", dir.file("broken.cl"), "--kernel", "naive", "-m", "9", "-n", "5",
                   "-k", "3", "--beta", beta, "--reps", "1", "--warmup", "0"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("verification failed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(",0] ="), std::string::npos) << "should point at column 0: " << r.err;
    EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
  }
}

TEST(Verification, ASlightlyWrongSumFails) {
  // regtile2d dropping the last K-step's contribution only when K is not a multiple of TSK: the
  // kind of edge bug that passes at friendly sizes. It must pass at K = 32 and fail at K = 33.
  std::string text = clgemm_test::sourceKernels();
  const std::string loop = "for (int k0 = 0; k0 < K; k0 += TSK) {\n    // Consecutive";
  const auto at = text.find(loop, text.find("defined(KERNEL_gemm_regtile2d)"));
  ASSERT_NE(at, std::string::npos) << "regtile2d's K loop not found in kernels.cl";
  text.replace(at, loop.size(), "for (int k0 = 0; k0 + TSK <= K; k0 += TSK) {\n    // Consecutive");
  clgemm_test::TempDir dir;
  clgemm_test::writeText(dir.file("edge.cl"), text);
  const auto ok = runClgemm({"--kernels", dir.file("edge.cl"), "--kernel", "regtile2d", "--size",
                             "32", "--reps", "1", "--warmup", "0"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  const auto bad = runClgemm({"--kernels", dir.file("edge.cl"), "--kernel", "regtile2d", "-m", "32",
                              "-n", "32", "-k", "33", "--reps", "1", "--warmup", "0"});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.err.find("verification failed"), std::string::npos) << bad.err;
}

// A bare run: the default kernels and both baselines.
const std::vector<std::string> kDefaultRows = {"naive", "tiled",   "regtile2d",
                                               "best",  "clblast", "openblas"};

TEST(Formats, TableAndCsvCarryTheSameRows) {
  const auto table = runClgemm({"--size", "20", "--reps", "2", "--warmup", "1"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  for (const auto& name : kDefaultRows)
    EXPECT_NE(table.out.find("\n" + name + " "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("GFLOP/s"), std::string::npos);

  const auto csv = runClgemm({"--size", "20", "--reps", "2", "--warmup", "1", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::string header = csv.out.substr(0, csv.out.find('\n'));
  for (const char* column : {"variant", "device", "m", "n", "k", "alpha", "beta", "defines",
                             "threads", "ms_median", "ms_min", "gflops", "vs_clblast",
                             "vs_openblas", "precision", "err_ratio", "err_threshold", "status"})
    EXPECT_NE(("," + header + ",").find(std::string(",") + column + ","), std::string::npos)
        << column;
  std::size_t lines = 0;
  for (char c : csv.out) lines += c == '\n';
  EXPECT_EQ(lines, 1 + kDefaultRows.size());
}

// The helpers' share of a kernel's time: transposed-b launches transpose_b before its GEMM, so its
// row carries helper_ms, a part of ms_median; tiled launches nothing else, so its row has none.
// The table shows the column only where some row has it.
TEST(Formats, HelperTimeIsAPartOfTheMedian) {
  const std::vector<std::string> args = {"--kernel", "transposed-b,tiled", "--size", "64", "--reps",
                                         "3",        "--warmup",           "1"};
  auto json_args = args;
  json_args.insert(json_args.end(), {"--format", "json"});
  const auto r = runClgemm(json_args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["results"].size(), 2u);
  for (const auto& row : doc["results"]) {
    ASSERT_EQ(row["status"], "ok") << row.dump();
    if (row["variant"] == "transposed-b") {
      ASSERT_TRUE(row["helper_ms"].is_number()) << row.dump();
      EXPECT_GT(row["helper_ms"].get<double>(), 0.0);
      EXPECT_LE(row["helper_ms"].get<double>(), row["ms_median"].get<double>());
    } else {
      EXPECT_TRUE(row["helper_ms"].is_null()) << row.dump();
    }
  }
  const auto table = runClgemm(args);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("helpers ms"), std::string::npos) << table.out;
  const auto plain = runClgemm({"--kernel", "tiled", "--size", "64", "--reps", "1"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("helpers ms"), std::string::npos) << plain.out;
}

// Each OpenCL kernel's row says what its plan decided (the `plan` field, the CSV's last column):
// the GEMM's work-groups (tiled's 16 x 16 blocks: 7 x 7 at 100^3), and B's copy where B is stored
// transposed (tiled reads it packed). Host rows have none.
TEST(Formats, PlanSaysWhatTheKernelsPlanDecided) {
  const auto r = runClgemm({"--kernel", "tiled,openblas", "--size", "100", "--trans-b", "t",
                            "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["results"].size(), 2u);
  EXPECT_EQ(doc["results"][0]["variant"], "tiled");
  EXPECT_EQ(doc["results"][0]["plan"], "gemm=49 copies=B") << doc["results"][0].dump();
  EXPECT_EQ(doc["results"][1]["plan"], "") << doc["results"][1].dump();
  const auto nn = runClgemm(
      {"--kernel", "tiled", "--size", "64", "--reps", "1", "--warmup", "0", "--format", "csv"});
  ASSERT_EQ(nn.exit_code, 0) << nn.err;
  const std::string header = nn.out.substr(0, nn.out.find('\n'));
  EXPECT_EQ(header.substr(header.rfind(',') + 1), "plan") << header;
  const std::string row = nn.out.substr(header.size() + 1);
  EXPECT_EQ(row.substr(row.rfind(',') + 1), "gemm=16\n") << row;
}

TEST(Output, OutFileHoldsTheReport) {
  clgemm_test::TempDir dir;
  const auto r = runClgemm({"--size", "8", "--reps", "1", "--warmup", "0", "--format", "json",
                            "--out", dir.file("r.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(dir.files(), std::vector<std::string>{"r.json"});
  const json doc = json::parse(clgemm_test::readText(dir.file("r.json")));
  EXPECT_EQ(doc["results"].size(), kDefaultRows.size());
}

}  // namespace
