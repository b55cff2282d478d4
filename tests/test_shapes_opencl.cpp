// Every OpenCL kernel in every BLAS shape (#26), through the real binary on the machine's device:
// both layouts, the four transpose pairs, leading dimensions larger than the rows, alpha and beta
// not 1 and 0, at sizes that divide no tile. Each run is verified against the reference and
// memory-checked (C's gaps included). The ladder kernels and the tensor cores get timed copies;
// best takes the shapes in the kernel (TRANS_A, TRANS_B, lda/ldb/ldc), so its defines are checked
// too, and a planted best that ignores ldc must be caught. The sweeps batch every shape of a size
// into one clgemm process (--layout row,col --trans-a n,t --trans-b n,t).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::runClgemm;
using clgemm_test::TempDir;
using nlohmann::json;

// A size and leading dimensions that fit every one of the eight shapes of the sweep (each ld at
// least the longest line it may hold, and larger).
struct Case {
  int m, n, k;
  int lda, ldb, ldc;
};

const std::vector<std::string> kEveryShape = {"--layout", "row,col",   "--trans-a",
                                              "n,t",      "--trans-b", "n,t"};
constexpr int kShapes = 8;

std::vector<std::string> caseArgs(const Case& c) {
  return {"-m",    std::to_string(c.m),   "-n",    std::to_string(c.n),
          "-k",    std::to_string(c.k),   "--lda", std::to_string(c.lda),
          "--ldb", std::to_string(c.ldb), "--ldc", std::to_string(c.ldc)};
}

std::string describe(const Case& c) {
  return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " lda " +
         std::to_string(c.lda) + " ldb " + std::to_string(c.ldb) + " ldc " + std::to_string(c.ldc);
}

// `variants` in all eight shapes of `c`, as JSON; `extra` adds options. Expects exit 0.
json sweep(const std::string& variants, const Case& c, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"--kernel", variants,   "--format", "json",    "--reps",
                                   "1",        "--warmup", "0",        "--alpha", "1.5",
                                   "--beta",   "-0.5",     "--check",  "full"};
  const auto sizes = caseArgs(c);
  args.insert(args.end(), sizes.begin(), sizes.end());
  args.insert(args.end(), kEveryShape.begin(), kEveryShape.end());
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, 0) << variants << " at " << describe(c) << "\n" << r.err;
  json doc = clgemm_test::parseReport(r);
  if (!doc.contains("results")) doc["results"] = json::array();
  return doc;
}

// Rows per variant, in the order they ran.
std::map<std::string, std::vector<json>> byVariant(const json& doc) {
  std::map<std::string, std::vector<json>> rows;
  for (const auto& row : doc["results"]) rows[row.value("variant", "")].push_back(row);
  return rows;
}

// Every variant ran (or, where the device cannot run it, was skipped as the registry says) in all
// eight shapes, verified and memory-checked.
void expectAllOk(const json& doc, const std::string& what) {
  const auto rows = byVariant(doc);
  for (const auto& [name, list] : rows) {
    EXPECT_EQ(list.size(), std::size_t(kShapes)) << name << " at " << what;
    for (const auto& row : list) {
      if (clgemm_test::checkedAsUnsupported(row, clgemm_test::defaultDevice())) continue;
      EXPECT_EQ(row["status"], "ok") << name << " at " << what << ": " << row.dump();
    }
  }
}

std::vector<std::string> openClKernels() {
  std::vector<std::string> names;
  for (const auto& v : clgemm::variants())
    if (v.backend == clgemm::Backend::kOpenCl) names.push_back(v.name);
  return names;
}

// best in the kernel: padding copies out of reach (the parameters tuned for pocl start them at 0).
const std::vector<std::string> kInKernel = {"-D", "PAD_FROM=1000000"};

// Odd sizes, leading dimensions not multiples of 4; the second with K and the lines longer than
// a tile of any kernel.
const Case kSmall{33, 17, 9, 40, 21, 50};
const Case kLarger{100, 37, 129, 131, 133, 103};

TEST(ShapesOpenCl, EveryKernelInEveryShapeAtOddSizes) {
  for (const Case& c : {kSmall, kLarger}) {
    const json doc = sweep("cl", c);
    const auto rows = byVariant(doc);
    // Every OpenCL kernel has its eight rows, the tensor-core ones refused off NVIDIA.
    for (const auto& name : openClKernels())
      EXPECT_EQ(rows.count(name), 1u) << name << " has no rows at " << describe(c);
    expectAllOk(doc, describe(c));
    expectAllOk(sweep("best", c, kInKernel), describe(c) + " best in the kernel");
  }
}

// best's defines in one shape (the row of a one-shape run).
json bestDefines(const Case& c, const std::vector<std::string>& shape,
                 const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"--kernel", "best", "--format", "json", "--reps", "1",
                                   "--warmup", "0",    "--alpha",  "1.5",  "--beta", "-0.5"};
  const auto sizes = caseArgs(c);
  args.insert(args.end(), sizes.begin(), sizes.end());
  args.insert(args.end(), shape.begin(), shape.end());
  args.insert(args.end(), extra.begin(), extra.end());
  if (extra.empty()) args.insert(args.end(), kInKernel.begin(), kInKernel.end());
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, 0) << describe(c) << "\n" << r.err;
  const json doc = clgemm_test::parseReport(r);
  if (!doc.contains("results") || doc["results"].empty()) return json::object();
  EXPECT_EQ(doc["results"][0]["status"], "ok") << doc["results"][0].dump();
  return doc["results"][0]["defines"];
}

// Exact tile multiples (EDGE = 0) with every leading dimension a multiple of 4: the aligned
// float4 paths in every shape; then a line not a multiple of 4 turns off exactly its operand's.
TEST(ShapesOpenCl, BestAtTileMultiplesWithAlignedAndUnalignedLines) {
  const Case aligned{128, 64, 32, 136, 132, 140};
  expectAllOk(sweep("best", aligned, kInKernel), describe(aligned));
  const json d = bestDefines(aligned, {"--layout", "col", "--trans-a", "t", "--trans-b", "n"});
  EXPECT_EQ(d.value("EDGE", ""), "0") << d.dump();
  EXPECT_EQ(d.value("VEC_A", ""), "1") << d.dump();
  EXPECT_EQ(d.value("VEC_B", ""), "1") << d.dump();
  EXPECT_EQ(d.value("VEC_C", ""), "1") << d.dump();
  // Column-major TN is the row-major problem C^T = B^T A with the operands swapped: the kernel's
  // A is B^T, N x K, whose rows are B's stored columns (untransposed); its B is A (K x M in its
  // view), stored as M lines of K (A is K x M column-major): read transposed.
  EXPECT_EQ(d.value("TRANS_A", ""), "0") << d.dump();
  EXPECT_EQ(d.value("TRANS_B", ""), "1") << d.dump();
  // Column-major NN is the kernel's NN (a column-major matrix is its transpose row-major), and
  // column-major TT its TT.
  const json nn = bestDefines(aligned, {"--layout", "col"});
  EXPECT_EQ(nn.value("TRANS_A", ""), "0") << nn.dump();
  EXPECT_EQ(nn.value("TRANS_B", ""), "0") << nn.dump();
  const json tt = bestDefines(aligned, {"--layout", "col", "--trans-a", "t", "--trans-b", "t"});
  EXPECT_EQ(tt.value("TRANS_A", ""), "1") << tt.dump();
  EXPECT_EQ(tt.value("TRANS_B", ""), "1") << tt.dump();

  const Case unaligned{128, 64, 32, 137, 133, 141};
  expectAllOk(sweep("best", unaligned, kInKernel), describe(unaligned));
  const json u = bestDefines(unaligned, {"--trans-b", "t"});
  EXPECT_EQ(u.value("VEC_A", ""), "0") << u.dump();
  EXPECT_EQ(u.value("VEC_B", ""), "0") << u.dump();
  EXPECT_EQ(u.value("VEC_C", ""), "0") << u.dump();
  EXPECT_EQ(u.value("TRANS_A", ""), "0") << u.dump();
  EXPECT_EQ(u.value("TRANS_B", ""), "1") << u.dump();
}

// Edges in the kernel (EDGE = 1) with aligned lines: the float4 groups at the right edge are
// clamped to the last whole one, along N (B, C) and along M (TRANS_A's A).
TEST(ShapesOpenCl, BestWithEdgesAndAlignedLines) {
  const Case c{100, 36, 132, 140, 136, 104};
  expectAllOk(sweep("best", c, kInKernel), describe(c));
  const json d = bestDefines(c, {"--trans-a", "t"});
  EXPECT_EQ(d.value("EDGE", ""), "1") << d.dump();
  EXPECT_EQ(d.value("VEC_A", ""), "1") << d.dump();
  EXPECT_EQ(d.value("VEC_C", ""), "1") << d.dump();
}

// With padding copies (forced by PAD_FROM = 0) the copies take the shape: the kernel runs packed
// NN on the padded problem in every shape.
TEST(ShapesOpenCl, BestPaddingCopiesTakeEveryShape) {
  for (const Case& c : {kSmall, kLarger}) {
    expectAllOk(sweep("best", c, {"-D", "PAD_FROM=0"}), describe(c) + " PAD_FROM=0");
    const json d = bestDefines(c, {"--layout", "col", "--trans-a", "t", "--trans-b", "t"},
                               {"-D", "PAD_FROM=0"});
    EXPECT_EQ(d.value("TRANS_A", ""), "0") << d.dump();
    EXPECT_EQ(d.value("TRANS_B", ""), "0") << d.dump();
    EXPECT_TRUE(d.contains("PADDED_M")) << d.dump();
  }
}

// The default shape builds best as before the shapes: NN, C's alignment that of B's rows.
TEST(ShapesOpenCl, BestDefaultShapeIsPackedNn) {
  const auto r = runClgemm({"--kernel", "best", "--format", "json", "--reps", "1", "--warmup", "0",
                            "--size", "64", "-D", "PAD_FROM=1000000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = clgemm_test::parseReport(r);
  ASSERT_TRUE(doc.contains("results")) << r.err;
  const json d = doc["results"][0]["defines"];
  EXPECT_EQ(d.value("EDGE", ""), "0") << d.dump();
  EXPECT_EQ(d.value("TRANS_A", ""), "0") << d.dump();
  EXPECT_EQ(d.value("TRANS_B", ""), "0") << d.dump();
  EXPECT_EQ(d.value("VEC_A", ""), "1") << d.dump();
  EXPECT_EQ(d.value("VEC_B", ""), "1") << d.dump();
  EXPECT_EQ(d.value("VEC_C", ""), "1") << d.dump();
}

// Planted faults: each makes best ignore one leading dimension, which only a shape with gaps can
// show. Ignoring ldc writes C's rows N apart, into the gaps (a memory-check finding) and leaves
// rows unwritten (a verification failure).
clgemm_test::RunResult runPlanted(const std::string& code, const std::vector<std::string>& shape) {
  TempDir dir;
  clgemm_test::writeText(dir.file("kernels.cl"), clgemm_test::plantedKernels("gemm_best", code));
  std::vector<std::string> args = {"--kernel", "best", "--kernels", dir.file("kernels.cl"),
                                   "--reps",   "1",    "--warmup",  "0",
                                   "--beta",   "0.5",  "-D",        "PAD_FROM=1000000"};
  const auto sizes = caseArgs(kSmall);
  args.insert(args.end(), sizes.begin(), sizes.end());
  args.insert(args.end(), shape.begin(), shape.end());
  return runClgemm(args);
}

TEST(ShapesOpenCl, ABestThatIgnoresLdcIsCaught) {
  const auto r = runPlanted("#define ldc N\n", {"--layout", "col"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.err.find("memory check failed") != std::string::npos ||
              r.err.find("verification failed") != std::string::npos)
      << r.err;
}

// Right values, and one more float in the gap after C's first line (in the kernel's row-major
// view): only the memory check of C's gaps can see it.
TEST(ShapesOpenCl, ABestThatWritesIntoCsGapsIsCaught) {
  const auto r = runPlanted("if (get_global_id(0) == 0 && get_global_id(1) == 0) C[N] = 1.0f;\n",
                            {"--layout", "col", "--trans-a", "t"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("memory check failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("verification failed"), std::string::npos) << r.err;
}

TEST(ShapesOpenCl, ABestThatIgnoresLdaIsCaught) {
  // TRANS_A's lines are M long: ignoring lda reads them M apart.
  const auto r = runPlanted("#define lda (TRANS_A ? M : K)\n", {"--trans-a", "t"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("verification failed"), std::string::npos) << r.err;
}

}  // namespace
