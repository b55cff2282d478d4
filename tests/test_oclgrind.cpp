// Every OpenCL kernel under oclgrind, a simulator that checks each memory access: out-of-bounds
// reads and writes, data races in local and global memory, uses of uninitialised values and OpenCL
// API misuse. A kernel can pass verification and still read past a buffer or race (the value read
// may happen to be right), so these runs fail on any report in oclgrind's log, whatever the exit
// code. Labelled "oclgrind" in ctest: `ctest -L oclgrind` runs only these.
//
// Kernels are built with -cl-opt-disable here: oclgrind 21.10's uninitialised-value checker stops
// with "Unsupported instruction: freeze" on the optimiser's output for best and transposed-b.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "run_clgemm.hpp"

namespace {

using clgemm_test::runProgram;
using clgemm_test::TempDir;
using nlohmann::json;

struct Shape {
  int m, n, k;
};

// Odd sizes that divide no tile, the smallest problem, and one that is an exact multiple of the
// default tiles (so best runs its EDGE = 0 path).
const std::vector<Shape> kShapes = {{33, 17, 9}, {20, 45, 11}, {1, 1, 1}, {64, 64, 32}};

// One non-default parameter set per OpenCL kernel: other tile shapes, odd values where allowed.
const std::map<std::string, std::vector<std::string>> kOtherParams = {
    {"naive-global", {"WGX=8", "WGY=4"}},
    {"naive", {"WGX=4", "WGY=8"}},
    {"tiled", {"TS=5"}},
    {"tiled-wpt", {"TS=12", "WPT=3"}},
    {"vector", {"TS=16", "WIDTH=8"}},
    {"tiled-2x2", {"TS=6"}},
    {"prefetch-reg", {"TS=10"}},
    {"prefetch-local", {"TS=6"}},
    {"transposed-b", {"TSM=15", "TSN=7", "TSK=5", "WPTM=3", "PAD=2", "TT=5"}},
    {"regtile-nolocal", {"TX=2", "TY=3", "LEN=5", "WGX=8", "WGY=4"}},
    {"regtile2d", {"TSM=24", "TSN=20", "TSK=7", "WPTM=3", "WPTN=5", "PAD=2"}},
    {"best", {"BM=32", "BN=16", "BK=8", "TM=4", "TN=4", "PADA=0", "PADB=8", "GROUP_M=3"}},
};

struct OclgrindRun {
  int exit_code = -1;
  std::string log;  // everything oclgrind reported
  json report;      // clgemm's JSON report
  std::string err;
};

// clgemm under oclgrind with every checker on; `kernels` replaces the repository's kernels.cl.
OclgrindRun underOclgrind(const std::string& variant, const Shape& s,
                          const std::vector<std::string>& defines,
                          const std::string& kernels = "") {
  TempDir dir;
  const std::string log = dir.file("oclgrind.log");
  std::vector<std::string> command = {"oclgrind",
                                      "--data-races",
                                      "--uninitialized",
                                      "--check-api",
                                      "--log",
                                      log,
                                      clgemm_test::clgemmExecutable(),
                                      "--kernel",
                                      variant,
                                      "-m",
                                      std::to_string(s.m),
                                      "-n",
                                      std::to_string(s.n),
                                      "-k",
                                      std::to_string(s.k),
                                      "--alpha",
                                      "1.5",
                                      "--beta",
                                      "-0.5",
                                      "--reps",
                                      "1",
                                      "--warmup",
                                      "0",
                                      "--format",
                                      "json",
                                      "--cl-options",
                                      "-cl-opt-disable"};
  for (const auto& d : defines) command.insert(command.end(), {"-D", d});
  if (!kernels.empty()) command.insert(command.end(), {"--kernels", kernels});
  const auto r = runProgram(command);
  OclgrindRun run;
  run.exit_code = r.exit_code;
  run.log = clgemm_test::readText(log);
  run.err = r.err;
  try {
    run.report = json::parse(r.out);
  } catch (const json::exception&) {
    run.report = json::object();
  }
  return run;
}

std::string describe(const Shape& s, const std::vector<std::string>& defines) {
  std::string text = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  for (const auto& d : defines) text += " " + d;
  return text;
}

std::vector<std::string> openClVariants() {
  std::vector<std::string> names;
  for (const auto& v : clgemm::variants())
    if (v.backend == clgemm::Backend::kOpenCl) names.push_back(v.name);
  return names;
}

class Oclgrind : public ::testing::TestWithParam<std::string> {};

TEST_P(Oclgrind, CleanWithDefaultAndOtherParameters) {
  const std::string& variant = GetParam();
  const auto other = kOtherParams.find(variant);
  ASSERT_NE(other, kOtherParams.end())
      << variant << " has no non-default parameter set in kOtherParams: add one";
  for (const auto& defines : {std::vector<std::string>{}, other->second}) {
    for (const Shape& s : kShapes) {
      const OclgrindRun run = underOclgrind(variant, s, defines);
      const std::string what = variant + " at " + describe(s, defines);
      EXPECT_EQ(run.log, "") << what << ": oclgrind reported:\n" << run.log;
      EXPECT_EQ(run.exit_code, 0) << what << "\n" << run.err;
      ASSERT_TRUE(run.report.contains("results")) << what << "\n" << run.err;
      EXPECT_EQ(run.report["results"][0]["status"], "ok") << what << "\n" << run.err;
    }
  }
}

// best's other way with sizes that divide no tile: padding copies in and out (forced here; on a
// GPU they start at PAD_FROM = 4000), C copied in as well (beta = -0.5).
TEST(OclgrindPadding, BestPaddingCopiesAreClean) {
  for (const Shape& s : {Shape{33, 17, 9}, Shape{20, 45, 11}, Shape{1, 1, 1}}) {
    const OclgrindRun run = underOclgrind("best", s, {"PAD_FROM=0"});
    const std::string what = "best at " + describe(s, {"PAD_FROM=0"});
    EXPECT_EQ(run.log, "") << what << ": oclgrind reported:\n" << run.log;
    EXPECT_EQ(run.exit_code, 0) << what << "\n" << run.err;
    ASSERT_TRUE(run.report.contains("results")) << what << "\n" << run.err;
    EXPECT_EQ(run.report["results"][0]["status"], "ok") << what << "\n" << run.err;
    EXPECT_TRUE(run.report["results"][0]["defines"].contains("PADDED_M")) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryOpenClKernel, Oclgrind, ::testing::ValuesIn(openClVariants()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

// The harness itself: planted faults that verification alone might miss must show in the log.
std::string plant(const std::string& anchor_after, const std::string& from, const std::string& to) {
  std::string text = clgemm_test::sourceKernels();
  const auto at = text.find(from, text.find(anchor_after));
  if (at == std::string::npos) return "";
  return text.replace(at, from.size(), to);
}

TEST(OclgrindHarness, ReportsAnOutOfBoundsRead) {
  // naive reading one element further along A: the last row runs past the end of the buffer.
  const std::string text =
      plant("defined(KERNEL_gemm_naive)\n", "A[row * K + k]", "A[row * K + k + 1]");
  ASSERT_FALSE(text.empty()) << "naive's load of A not found in kernels.cl";
  TempDir dir;
  clgemm_test::writeText(dir.file("oob.cl"), text);
  const OclgrindRun run = underOclgrind("naive", {5, 3, 4}, {}, dir.file("oob.cl"));
  EXPECT_NE(run.log.find("Invalid read"), std::string::npos) << run.log;
}

TEST(OclgrindHarness, ReportsALocalMemoryRace) {
  // tiled without its second barrier: the next tile overwrites local memory other work-items are
  // still reading. Several K-steps are needed for the race to happen.
  const std::string text =
      plant("defined(KERNEL_gemm_tiled)\n",
            "for (int k = 0; k < TS; ++k) acc += Asub[lrow][k] * Bsub[k][lcol];\n    barrier("
            "CLK_LOCAL_MEM_FENCE);",
            "for (int k = 0; k < TS; ++k) acc += Asub[lrow][k] * Bsub[k][lcol];");
  ASSERT_FALSE(text.empty()) << "tiled's inner loop not found in kernels.cl";
  TempDir dir;
  clgemm_test::writeText(dir.file("race.cl"), text);
  const OclgrindRun run = underOclgrind("tiled", {8, 8, 24}, {"TS=4"}, dir.file("race.cl"));
  EXPECT_NE(run.log.find("data race"), std::string::npos) << run.log;
}

}  // namespace
