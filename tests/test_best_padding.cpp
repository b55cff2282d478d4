// best at sizes that are not multiples of its tiles, by padding copies: A, B and C copied into
// zero-padded scratch matrices, the GEMM run on those as an exact problem, C copied back. By
// default this path is chosen from PAD_FROM = 4000 up; here PAD_FROM forces it at small sizes, on
// the machine's real OpenCL device, and planted faults in the copy kernel show the checks see
// them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "run_clgemm.hpp"

namespace {

using clgemm_test::runClgemm;
using clgemm_test::TempDir;
using clgemm_test::writeText;
using nlohmann::json;

struct Shape {
  int m, n, k;
};

std::vector<std::string> sizeArgs(const Shape& s) {
  return {"-m", std::to_string(s.m), "-n", std::to_string(s.n), "-k", std::to_string(s.k)};
}

std::string describe(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// One run of best as JSON; `extra` adds options (defines, --beta, --kernels).
json runBest(const Shape& s, const std::vector<std::string>& extra, int expected_exit = 0) {
  std::vector<std::string> args = {"--kernel", "best", "--format", "json",
                                   "--reps",   "2",    "--warmup", "0"};
  const auto size = sizeArgs(s);
  args.insert(args.end(), size.begin(), size.end());
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, expected_exit) << describe(s) << "\n" << r.err;
  return clgemm_test::parseReport(r);
}

int roundUp(int x, int to) { return (x + to - 1) / to * to; }

// The default tiles: BM = BN = 64, BK = 16.
const std::vector<std::string> kForceCopies = {"-D", "PAD_FROM=0", "-D", "BM=64",
                                               "-D", "BN=64",      "-D", "BK=16"};

TEST(BestPadding, CopiesGiveTheRightCWhereverTheEdgesAre) {
  // Every dimension odd; only M; only N; only K; K below one tile; M and N below one tile.
  for (const Shape& s : {Shape{33, 17, 9}, Shape{100, 64, 32}, Shape{64, 37, 32},
                         Shape{64, 64, 129}, Shape{128, 64, 5}, Shape{7, 3, 64}}) {
    for (const char* beta : {"0", "0.25"}) {
      std::vector<std::string> extra = kForceCopies;
      extra.insert(extra.end(), {"--alpha", "-2", "--beta", beta});
      const json doc = runBest(s, extra);
      ASSERT_TRUE(doc.contains("results")) << describe(s);
      const json& row = doc["results"][0];
      const std::string what = describe(s) + " beta " + beta;
      EXPECT_EQ(row["status"], "ok") << what << ": " << row.dump();
      // The GEMM ran on the padded problem, as an exact one, and the report says so.
      EXPECT_EQ(row["defines"]["PADDED_M"], std::to_string(roundUp(s.m, 64))) << what;
      EXPECT_EQ(row["defines"]["PADDED_N"], std::to_string(roundUp(s.n, 64))) << what;
      EXPECT_EQ(row["defines"]["PADDED_K"], std::to_string(roundUp(s.k, 16))) << what;
      EXPECT_EQ(row["defines"]["EDGE"], "0") << what;
      EXPECT_EQ(row["define_sources"]["PADDED_M"], "problem") << what;
      // The reported size is the user's.
      EXPECT_EQ(row["m"], s.m);
      EXPECT_EQ(row["n"], s.n);
      EXPECT_EQ(row["k"], s.k);
    }
  }
}

TEST(BestPadding, PadFromChoosesBetweenCopiesAndEdgeHandlingInTheKernel) {
  // PAD_FROM compares the harmonic mean of M, N and K: 40 here, and 60 for 120 x 120 x 30.
  for (const auto& [shape, mean] : {std::pair{Shape{40, 40, 40}, 40}, {Shape{120, 120, 30}, 60}}) {
    const json copies = runBest(shape, {"-D", "PAD_FROM=" + std::to_string(mean)});
    ASSERT_TRUE(copies.contains("results"));
    EXPECT_EQ(copies["results"][0]["status"], "ok");
    EXPECT_TRUE(copies["results"][0]["defines"].contains("PADDED_M")) << describe(shape);
    EXPECT_EQ(copies["results"][0]["defines"]["EDGE"], "0");

    const json edges = runBest(shape, {"-D", "PAD_FROM=" + std::to_string(mean + 1)});
    ASSERT_TRUE(edges.contains("results"));
    EXPECT_EQ(edges["results"][0]["status"], "ok");
    EXPECT_FALSE(edges["results"][0]["defines"].contains("PADDED_M")) << describe(shape);
    EXPECT_EQ(edges["results"][0]["defines"]["EDGE"], "1");
  }
  // The default leaves small sizes to the kernel.
  const json plain = runBest({100, 37, 129}, {});
  ASSERT_TRUE(plain.contains("results"));
  EXPECT_EQ(plain["results"][0]["status"], "ok");
  EXPECT_FALSE(plain["results"][0]["defines"].contains("PADDED_M"));
}

TEST(BestPadding, ExactMultiplesAreNeverCopied) {
  const json doc = runBest({128, 64, 32}, kForceCopies);
  ASSERT_TRUE(doc.contains("results"));
  EXPECT_EQ(doc["results"][0]["status"], "ok");
  EXPECT_FALSE(doc["results"][0]["defines"].contains("PADDED_M"));
  EXPECT_EQ(doc["results"][0]["defines"]["EDGE"], "0");
}

TEST(BestPadding, ANegativePadFromIsRefused) {
  const auto r = runClgemm({"--kernel", "best", "--size", "16", "-D", "PAD_FROM=-1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("PAD_FROM"), std::string::npos) << r.err;
}

// A copy of kernels.cl with `code` planted in the copies' loop over the work-item's lines
// (copy_matrix_block, which copy_matrix and copy_matrix_pair run for each block), after the bounds
// check (variables r, c, rows, cols, src_rows, src_cols, dst and the block's bx, by in scope;
// `continue` goes on to the next line), run by best with copies forced at 33 x 17 x 9.
clgemm_test::RunResult runPlantedCopy(const std::string& code) {
  TempDir dir;
  std::string text = clgemm_test::sourceKernels();
  const std::string anchor = "if (r >= rows || c >= cols) return;\n";
  const auto at = text.find(anchor, text.find("void copy_matrix_block("));
  EXPECT_NE(at, std::string::npos) << "copy_matrix's bounds check not found in kernels.cl";
  if (at != std::string::npos) text.insert(at + anchor.size(), code);
  writeText(dir.file("kernels.cl"), text);
  std::vector<std::string> args = {"--kernel", "best", "--kernels", dir.file("kernels.cl"),
                                   "--reps",   "1",    "--warmup",  "0"};
  args.insert(args.end(), kForceCopies.begin(), kForceCopies.end());
  const auto size = sizeArgs({33, 17, 9});
  args.insert(args.end(), size.begin(), size.end());
  return runClgemm(args);
}

TEST(BestPadding, PaddingThatIsNotZeroFailsVerification) {
  // The padding filled with ones: the padded K columns of A meet the padded K rows of B.
  const auto r = runPlantedCopy(
      "    if (r >= src_rows || c >= src_cols) { dst[r * cols + c] = 1.0f; continue; }\n");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("verification failed"), std::string::npos) << r.err;
}

TEST(BestPadding, ACopyWritingPastItsScratchMatrixIsCaught) {
  // Each copy into a padded matrix also writes three floats past its end, from the first
  // work-item of its first block (A's and B's copies run in one launch, copy_matrix_pair).
  const auto r = runPlantedCopy(
      "    if (bx == 0 && by == 0 && get_local_id(0) == 0 && get_local_id(1) == 0 &&\n"
      "        rows * cols > src_rows * src_cols)\n"
      "      dst[rows * cols + 2] = 0.0f;\n");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("memory check failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("after the end of A padded"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("after the end of B padded"), std::string::npos) << r.err;
}

}  // namespace
