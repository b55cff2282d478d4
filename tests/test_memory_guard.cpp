// The memory half of the check: canaries around every matrix and the inputs compared with their
// originals. The host-side pieces are tested directly; the device side by planting stray writes in
// a copy of kernels.cl and running the real binary on the machine's OpenCL device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "check/memory_check.hpp"
#include "csv_table.hpp"
#include "problem/problem.hpp"
#include "run_clgemm.hpp"
#include "session/host_operands.hpp"

namespace {

using clgemm::ChangedElements;
using clgemm::GuardedHostMatrix;
using clgemm::HostOperands;
using clgemm::MemoryCheck;
using clgemm_test::plantedKernels;
using clgemm_test::runClgemm;
using clgemm_test::TempDir;
using clgemm_test::writeText;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ------------------------------------------------------------------------------------------------
// Host side.

TEST(Canary, IsANaNThatOrdinaryNaNsAreNot) {
  EXPECT_TRUE(std::isnan(clgemm::canaryValue()));
  EXPECT_TRUE(clgemm::isCanary(clgemm::canaryValue()));
  // A kernel that writes NaN into a guard is still caught: the payload differs.
  EXPECT_FALSE(clgemm::isCanary(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_FALSE(clgemm::isCanary(0.0f));
}

TEST(GuardedHostMatrix, UntouchedIsClean) {
  GuardedHostMatrix c("C", 100, clgemm::Precision::kFp32);
  for (std::size_t i = 0; i < c.size(); ++i) c.as<float>()[i] = float(i);
  MemoryCheck out;
  c.checkGuards(out);
  EXPECT_TRUE(out.clean()) << out.describe();
  // FP64: the matrix is 100 doubles, every one of them writable without touching a guard.
  GuardedHostMatrix d("C", 100, clgemm::Precision::kFp64);
  for (std::size_t i = 0; i < d.size(); ++i) d.as<double>()[i] = double(i);
  d.checkGuards(out);
  EXPECT_TRUE(out.clean()) << out.describe();
}

TEST(GuardedHostMatrix, NamesWritesPastEitherEnd) {
  GuardedHostMatrix c("C", 100, clgemm::Precision::kFp32);
  c.as<float>()[100] = 1.0f;  // just past the end
  c.as<float>()[103] = 2.0f;  // three further
  c.as<float>()[-5] = 3.0f;   // before the start
  MemoryCheck out;
  c.checkGuards(out);
  ASSERT_EQ(out.findings.size(), 2u) << out.describe();
  EXPECT_EQ(out.findings[0], "1 float written before the start of C (the nearest 5 before it)");
  EXPECT_EQ(out.findings[1], "2 floats written after the end of C (the nearest 1 past it)");
  EXPECT_EQ(out.describe(),
            "memory check failed: 1 float written before the start of C (the nearest 5 before "
            "it); 2 floats written after the end of C (the nearest 1 past it)");
}

// The guards hold the float canary in either precision, so a double written past an FP64 matrix
// shows as the two floats it overwrote.
TEST(GuardedHostMatrix, Fp64WritesPastEitherEndAreFound) {
  GuardedHostMatrix c("C", 100, clgemm::Precision::kFp64);
  c.as<double>()[100] = 1.0;  // just past the end
  c.as<double>()[-1] = 2.0;   // just before the start
  MemoryCheck out;
  c.checkGuards(out);
  ASSERT_EQ(out.findings.size(), 2u) << out.describe();
  EXPECT_EQ(out.findings[0], "2 floats written before the start of C (the nearest 1 before it)");
  EXPECT_EQ(out.findings[1], "2 floats written after the end of C (the nearest 1 past it)");
}

TEST(ChangedElements, NamesTheFirstChangeAcrossSlices) {
  const std::vector<float> original = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<float> now = original;
  now[7] = -1.0f;
  now[10] = -2.0f;
  ChangedElements changed;
  // Two slices of 6, as the device comparison reads them.
  changed.scan(now.data(), original.data(), 6, 0);
  changed.scan(now.data() + 6, original.data() + 6, 6, 6);
  EXPECT_EQ(changed.count(), 2u);
  MemoryCheck out;
  changed.report("B", 4, out);  // 3 x 4: element 7 is B[1,3]
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0], "B changed: 2 elements differ, the first B[1,3] = -1 instead of 8");
}

TEST(ChangedElements, ComparesBitsSoNaNEqualsItselfAndSignedZerosDiffer) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> original = {nan, 0.0f};
  const std::vector<float> same = {nan, 0.0f};
  const std::vector<float> negative_zero = {nan, -0.0f};
  ChangedElements unchanged, changed;
  unchanged.scan(same.data(), original.data(), 2, 0);
  changed.scan(negative_zero.data(), original.data(), 2, 0);
  EXPECT_EQ(unchanged.count(), 0u);
  EXPECT_EQ(changed.count(), 1u);
}

// FP64 elements compared as doubles: a change in the low bits a float would not hold is found,
// and reported with the double's value.
TEST(ChangedElements, Fp64ComparesWholeDoubles) {
  const std::vector<double> original = {1.0, 2.0, 0.1, 4.0};
  std::vector<double> now = original;
  now[2] = std::nextafter(0.1, 1.0);  // the same float, another double
  ChangedElements changed;
  changed.scan(now.data(), original.data(), 4, 0, clgemm::Precision::kFp64);
  EXPECT_EQ(changed.count(), 1u);
  MemoryCheck out;
  changed.report("A", 2, out);  // 2 x 2: element 2 is A[1,0]
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_TRUE(contains(out.findings[0], "A changed: 1 element differs, the first A[1,0] = "))
      << out.findings[0];
}

TEST(HostOperands, CleanAfterAnHonestProduct) {
  const clgemm::Problem p = clgemm::makeRandomProblem(7, 5, 3, 1.0f, 0.5f, 1);
  HostOperands ops(p);
  ops.resetC();
  for (int i = 0; i < p.m * p.n; ++i) ops.c<float>()[i] += ops.a<float>()[i % (p.m * p.k)];
  EXPECT_TRUE(ops.check().clean()) << ops.check().describe();
  std::vector<double> c;
  ops.copyCTo(c);
  EXPECT_EQ(c.size(), std::size_t(p.m * p.n));
}

TEST(HostOperands, ResetCIsNaNWithoutBetaAndC0With) {
  const clgemm::Problem zero_beta = clgemm::makeRandomProblem(4, 3, 2, 1.0f, 0.0f, 1);
  HostOperands a(zero_beta);
  a.resetC();
  std::vector<double> c;
  a.copyCTo(c);
  for (double v : c) EXPECT_TRUE(std::isnan(v));

  const clgemm::Problem with_beta = clgemm::makeRandomProblem(4, 3, 2, 1.0f, 2.0f, 1);
  HostOperands b(with_beta);
  b.resetC();
  b.copyCTo(c);
  EXPECT_EQ(c, with_beta.c0);
}

TEST(HostOperands, FindsChangedInputsAndOverrunC) {
  const clgemm::Problem p = clgemm::makeRandomProblem(4, 3, 2, 1.0f, 0.0f, 1);
  HostOperands ops(p);
  const_cast<float*>(ops.a<float>())[5] = 9.0f;  // A is 4 x 2: A[2,1]
  ops.c<float>()[12] = 1.0f;                     // one past the end of 4 x 3
  const MemoryCheck out = ops.check();
  ASSERT_EQ(out.findings.size(), 2u) << out.describe();
  EXPECT_EQ(out.findings[0], "1 float written after the end of C (the nearest 1 past it)");
  EXPECT_TRUE(contains(out.findings[1], "A changed: 1 element differs, the first A[2,1] = 9"))
      << out.findings[1];
}

// The same in FP64: C0 comes back with every one of its 53 bits, and a double written into A or
// past C is found.
TEST(HostOperands, Fp64ResetCopyAndCheck) {
  const clgemm::Precision fp64 = clgemm::Precision::kFp64;
  const clgemm::Problem zero_beta = clgemm::makeRandomProblem(4, 3, 2, 1.0, 0.0, 1, {}, fp64);
  HostOperands a(zero_beta);
  a.resetC();
  std::vector<double> c;
  a.copyCTo(c);
  for (double v : c) EXPECT_TRUE(std::isnan(v));

  const clgemm::Problem with_beta = clgemm::makeRandomProblem(4, 3, 2, 1.0, 2.0, 1, {}, fp64);
  HostOperands b(with_beta);
  b.resetC();
  b.copyCTo(c);
  EXPECT_EQ(c, with_beta.c0);
  EXPECT_TRUE(b.check().clean()) << b.check().describe();

  const clgemm::Problem p = clgemm::makeRandomProblem(4, 3, 2, 1.0, 0.0, 1, {}, fp64);
  HostOperands ops(p);
  const_cast<double*>(ops.a<double>())[5] = 9.0;  // A is 4 x 2: A[2,1]
  ops.c<double>()[12] = 1.0;                      // one past the end of 4 x 3
  const MemoryCheck out = ops.check();
  ASSERT_EQ(out.findings.size(), 2u) << out.describe();
  EXPECT_EQ(out.findings[0], "2 floats written after the end of C (the nearest 1 past it)");
  EXPECT_TRUE(contains(out.findings[1], "A changed: 1 element differs, the first A[2,1] = 9"))
      << out.findings[1];
}

// ------------------------------------------------------------------------------------------------
// On the device: kernels.cl with a stray write planted in gemm_naive, run beside an honest tiled.

const std::vector<std::string> kOddSize = {"-m",     "33", "-n",       "17", "-k",       "9",
                                           "--reps", "2",  "--warmup", "1",  "--format", "csv"};

struct PlantedRun {
  clgemm_test::RunResult result;
  clgemm_test::Csv csv;
};

PlantedRun runPlanted(const std::string& code, std::vector<std::string> extra = {}) {
  TempDir dir;
  writeText(dir.file("kernels.cl"), plantedKernels("gemm_naive", code));
  std::vector<std::string> args = {"--kernel", "naive,tiled", "--kernels", dir.file("kernels.cl")};
  args.insert(args.end(), kOddSize.begin(), kOddSize.end());
  args.insert(args.end(), extra.begin(), extra.end());
  PlantedRun run{runClgemm(args), {}};
  run.csv = clgemm_test::parseCsv(run.result.out);
  return run;
}

// The planted naive row fails with `finding` in its message and on stderr; tiled, run after it on
// the same buffers, passes: the guards were refilled and the inputs restored.
void expectCaught(const PlantedRun& run, const std::string& finding) {
  const auto& r = run.result;
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto naive = run.csv.find("naive");
  const auto tiled = run.csv.find("tiled");
  ASSERT_TRUE(naive && tiled) << r.out;
  EXPECT_EQ(run.csv.at(*naive, "status"), "FAIL");
  EXPECT_TRUE(contains(run.csv.at(*naive, "message"), "memory check failed: " + finding))
      << run.csv.at(*naive, "message");
  EXPECT_TRUE(contains(r.err, "clgemm: naive: ")) << r.err;
  EXPECT_TRUE(contains(r.err, finding)) << r.err;
  EXPECT_EQ(run.csv.at(*tiled, "status"), "ok") << run.csv.at(*tiled, "message");
}

TEST(DeviceGuards, HonestKernelsAndBaselinesPass) {
  std::vector<std::string> args = {"--kernel", "cl,cpu-packed", "--compare", "clblast,openblas"};
  args.insert(args.end(), kOddSize.begin(), kOddSize.end());
  const auto r = runClgemm(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "memory check")) << r.out;
}

TEST(DeviceGuards, AWritePastTheEndOfCIsCaughtThoughCVerifies) {
  // The last work-item also writes six floats past C; every element of C is still right.
  const auto run = runPlanted(
      "  if (get_global_id(0) == 0 && get_global_id(1) == 0)\n"
      "    C[M * N + 5] = 1.0f;\n");
  expectCaught(run, "1 float written after the end of C (the nearest 6 past it)");
  // C itself verified: the memory check alone failed the row.
  EXPECT_FALSE(contains(run.csv.at(*run.csv.find("naive"), "message"), "verification failed"));
}

TEST(DeviceGuards, AWriteBeforeTheStartOfCIsCaught) {
  const auto run =
      runPlanted("  if (get_global_id(0) == 0 && get_global_id(1) == 0) C[-2] = 1.0f;\n");
  expectCaught(run, "1 float written before the start of C (the nearest 2 before it)");
}

TEST(DeviceGuards, AWriteIntoBIsCaughtAndUndoneForTheNextVariant) {
  // B is 9 x 17: its last element is B[8,16].
  const auto run = runPlanted(
      "  if (get_global_id(0) == 0 && get_global_id(1) == 0)\n"
      "    ((__global float*)B)[K * N - 1] = 42.0f;\n",
      {"--check", "full"});
  expectCaught(run, "B changed: 1 element differs, the first B[8,16] = 42 instead of ");
}

TEST(DeviceGuards, AWritePastTheEndOfAIsCaught) {
  const auto run = runPlanted(
      "  if (get_global_id(0) == 0 && get_global_id(1) == 0)\n"
      "    ((__global float*)A)[M * K] = 0.0f;\n");
  expectCaught(run, "1 float written after the end of A (the nearest 1 past it)");
}

TEST(DeviceGuards, ATuneCandidateThatOverrunsCNeverWins) {
  TempDir store, dir;
  // With PAD=2 the kernel also writes past C: its C is right, and it must still never be ranked.
  writeText(
      dir.file("kernels.cl"),
      plantedKernels("gemm_regtile2d",
                     "#if PAD == 2\n"
                     "  if (get_global_id(0) == 0 && get_global_id(1) == 0) C[M * N] = 0.0f;\n"
                     "#endif\n"));
  const auto r = runClgemm({"tune",    "--kernel",   "regtile2d",
                            "--size",  "48",         "--space",
                            "PAD=1,2", "-D",         "TSM=16",
                            "-D",      "TSN=16",     "-D",
                            "TSK=8",   "-D",         "WPTM=2",
                            "-D",      "WPTN=2",     "--reps",
                            "2",       "--kernels",  dir.file("kernels.cl"),
                            "--store", store.path(), "--format",
                            "json",    "--progress", "off"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["candidates"].size(), 2u) << r.out;
  for (const auto& c : doc["candidates"]) {
    if (c["defines"]["PAD"] == 2) {
      EXPECT_EQ(c["status"], "FAIL") << c.dump();
      EXPECT_TRUE(c["rank"].is_null());
      EXPECT_TRUE(contains(c["reason"].get<std::string>(), "written after the end of C"))
          << c.dump();
    } else {
      EXPECT_EQ(c["status"], "ok") << c.dump();
    }
  }
  EXPECT_EQ(doc["winner"]["PAD"], 1);
}

}  // namespace
