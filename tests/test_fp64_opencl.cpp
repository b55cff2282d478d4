// Every OpenCL kernel in FP64 (#26, --precision fp64): kernels.cl's REAL is double when the host
// adds -D FP64=1, so the ladder, best and their copies compute in double from the FP32 source.
// Through the real binary on the machine's device: every shape at odd sizes, verified in units of
// DBL_EPSILON (a kernel that still summed in float would be off by ~1e8 of them), best's aligned
// REAL4 paths and its padding copies, the FP64 define and the doubled local memory in the report,
// and the local-memory check that must refuse, before building, a tile that fits only in FP32.
// Without a device with cl_khr_fp64 every OpenCL row must be skipped naming the extension
// (fp64Refusal), which the unit tests below check on a described device.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "registry/kernels.hpp"
#include "report/kernel_figures.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::runClgemm;
using nlohmann::json;

// The error ratio's limit for a kernel that computes in double (err_ratio in DBL_EPSILON units).
constexpr double kMaxErrRatio = 16;

struct Case {
  int m, n, k;
  int lda, ldb, ldc;
};

const std::vector<std::string> kEveryShape = {"--layout", "row,col",   "--trans-a",
                                              "n,t",      "--trans-b", "n,t"};
constexpr int kShapes = 8;

std::string describe(const Case& c) {
  return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " lda " +
         std::to_string(c.lda) + " ldb " + std::to_string(c.ldb) + " ldc " + std::to_string(c.ldc);
}

// `variants` in FP64 in all eight shapes of `c`, as JSON; `extra` adds options. Expects exit 0.
json sweepFp64(const std::string& variants, const Case& c,
               const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"--kernel",    variants,
                                   "--precision", "fp64",
                                   "--format",    "json",
                                   "--reps",      "1",
                                   "--warmup",    "0",
                                   "--alpha",     "1.5",
                                   "--beta",      "-0.5",
                                   "--check",     "full",
                                   "-m",          std::to_string(c.m),
                                   "-n",          std::to_string(c.n),
                                   "-k",          std::to_string(c.k),
                                   "--lda",       std::to_string(c.lda),
                                   "--ldb",       std::to_string(c.ldb),
                                   "--ldc",       std::to_string(c.ldc)};
  args.insert(args.end(), kEveryShape.begin(), kEveryShape.end());
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, 0) << variants << " at " << describe(c) << "\n" << r.err;
  json doc = clgemm_test::parseReport(r);
  if (!doc.contains("results")) doc["results"] = json::array();
  return doc;
}

// Every variant has its eight rows: a variant that cannot run FP64 here skipped with
// fp64Refusal's reason (the tensor cores; every OpenCL kernel on a device without cl_khr_fp64),
// one the device cannot run at all skipped as the registry says, every other one verified in
// double (FP64=1 among its defines, err_ratio within kMaxErrRatio DBL_EPSILONs).
void expectAllOkInFp64(const json& doc, const std::string& what) {
  const clgemm::DeviceInfo& device = clgemm_test::defaultDevice();
  std::map<std::string, int> count;
  for (const auto& row : doc["results"]) {
    const std::string name = row.value("variant", "");
    ++count[name];
    const std::string at = name + " at " + what + ": " + row.dump();
    if (const auto why = clgemm::fp64Refusal(clgemm_test::registryVariant(name), &device)) {
      EXPECT_EQ(row["status"], "skipped") << at;
      EXPECT_EQ(row["message"], *why) << at;
      continue;
    }
    if (clgemm_test::checkedAsUnsupported(row, device)) continue;
    EXPECT_EQ(row["status"], "ok") << at;
    EXPECT_EQ(row["defines"].value("FP64", ""), "1") << at;
    EXPECT_EQ(row["define_sources"].value("FP64", ""), "problem") << at;
    ASSERT_TRUE(row["err_ratio"].is_number()) << at;
    EXPECT_LT(row["err_ratio"].get<double>(), kMaxErrRatio) << at;
  }
  for (const auto& [name, n] : count) EXPECT_EQ(n, kShapes) << name << " at " << what;
}

// Odd sizes, leading dimensions larger than any line they hold and not multiples of 4; the second
// with K and the lines longer than a tile of any kernel.
const Case kSmall{33, 17, 9, 40, 21, 50};
const Case kLarger{100, 37, 129, 131, 133, 103};

// best in the kernel: padding copies out of reach (tuned parameters may start them at 0).
const std::vector<std::string> kInKernel = {"-D", "PAD_FROM=1000000"};

TEST(Fp64OpenCl, EveryKernelInEveryShapeAtOddSizes) {
  for (const Case& c : {kSmall, kLarger}) {
    const json doc = sweepFp64("cl", c, kInKernel);
    std::map<std::string, int> rows;
    for (const auto& row : doc["results"]) ++rows[row.value("variant", "")];
    for (const auto& v : clgemm::variants())
      if (v.backend == clgemm::Backend::kOpenCl)
        EXPECT_EQ(rows.count(v.name), 1u) << v.name << " has no rows at " << describe(c);
    expectAllOkInFp64(doc, describe(c));
  }
}

// best's REAL4 paths in double: exact tile multiples (EDGE = 0) with every line a multiple of 4
// elements (VEC_A, VEC_B, VEC_C: aligned 32-byte loads and stores), and its padding copies
// (PAD_FROM = 0) at odd sizes, in every shape.
TEST(Fp64OpenCl, BestAlignedAndWithPaddingCopies) {
  const Case aligned{128, 64, 32, 136, 132, 140};
  const json doc = sweepFp64("best", aligned, kInKernel);
  expectAllOkInFp64(doc, describe(aligned));
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["defines"].value("EDGE", ""), "0") << row.dump();
    EXPECT_EQ(row["defines"].value("VEC_A", ""), "1") << row.dump();
    EXPECT_EQ(row["defines"].value("VEC_B", ""), "1") << row.dump();
    EXPECT_EQ(row["defines"].value("VEC_C", ""), "1") << row.dump();
  }
  const json padded = sweepFp64("best", kSmall, {"-D", "PAD_FROM=0"});
  expectAllOkInFp64(padded, describe(kSmall) + " PAD_FROM=0");
  for (const auto& row : padded["results"])
    EXPECT_TRUE(row["defines"].contains("PADDED_M")) << row.dump();
}

// One process, both precisions: the FP64 rows name FP64=1 and their kernels declare twice the
// local memory of the FP32 ones (the compiled kernel's figure, as the report gives it).
TEST(Fp64OpenCl, Fp64RowsNameTheDefineAndDoubleTheLocalMemory) {
  const auto r = runClgemm({"--kernel", "tiled,best", "--precision", "fp32,fp64", "-m", "33", "-n",
                            "17", "-k", "9", "--reps", "1", "--warmup", "0", "--format", "json",
                            "-D", "PAD_FROM=1000000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = clgemm_test::parseReport(r);
  ASSERT_TRUE(doc.contains("results")) << r.err;
  std::map<std::string, std::map<bool, std::uint64_t>> local;  // variant -> fp64 -> bytes
  for (const auto& row : doc["results"]) {
    ASSERT_EQ(row["status"], "ok") << row.dump();
    const bool fp64 = row["defines"].contains("FP64");
    if (fp64) EXPECT_EQ(row["defines"]["FP64"], "1") << row.dump();
    ASSERT_TRUE(row["resources"].is_object()) << row.dump();
    local[row["variant"]][fp64] = row["resources"].value("local_mem_bytes", std::uint64_t(0));
  }
  for (const char* name : {"tiled", "best"}) {
    ASSERT_EQ(local[name].size(), 2u) << name << ": one row per precision expected";
    EXPECT_GT(local[name][false], 0u) << name;
    EXPECT_EQ(local[name][true], 2 * local[name][false]) << name;
  }
}

// The registry's local memory for best (BM = BN = 256, TM = TN = 8, PADA = PADB = 4) at the
// smallest BK whose FP32 tiles fit the device's local memory but whose FP64 tiles do not, if any.
std::optional<int> bkFittingOnlyInFp32(std::uint64_t device_local) {
  const clgemm::Variant& best = clgemm_test::registryVariant("best");
  for (int bk = 16; bk <= 1024; bk *= 2) {
    const clgemm::ResolvedDefines d(
        best.params,
        {{"BM", "256"}, {"BN", "256"}, {"BK", std::to_string(bk)}, {"TM", "8"}, {"TN", "8"}});
    if (best.local_mem_bytes(d, sizeof(float)) <= device_local &&
        best.local_mem_bytes(d, sizeof(double)) > device_local)
      return bk;
  }
  return std::nullopt;
}

// A tile that fits the device's local memory in FP32 but not in FP64 is refused before building
// in FP64, naming the defines to change (exit 2), where FP32 runs it.
TEST(Fp64OpenCl, ConfigCheckCountsDoubleTheLocalMemory) {
  const clgemm::DeviceInfo& device = clgemm_test::defaultDevice();
  if (!device.has_fp64) GTEST_SKIP() << device.name << " has no cl_khr_fp64";
  // What a work-group may have (NVIDIA's arrays may take more than CL_DEVICE_LOCAL_MEM_SIZE).
  const std::uint64_t local = clgemm::groupLocalMemLimit(device);
  const auto bk = bkFittingOnlyInFp32(local);
  if (!bk) GTEST_SKIP() << "no best tile fits " << local << " bytes in FP32 only";
  const std::vector<std::string> args = {"--kernel",   "best",
                                         "-D",         "BM=256",
                                         "-D",         "BN=256",
                                         "-D",         "BK=" + std::to_string(*bk),
                                         "-D",         "TM=8",
                                         "-D",         "TN=8",
                                         "-D",         "PAD_FROM=1000000",
                                         "-m",         "16",
                                         "-n",         "16",
                                         "-k",         "16",
                                         "--reps",     "1",
                                         "--warmup",   "0",
                                         "--precision"};
  auto fp32 = args;
  fp32.push_back("fp32");
  const auto ok = runClgemm(fp32);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  auto fp64 = args;
  fp64.push_back("fp64");
  const auto refused = runClgemm(fp64);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("bytes of local memory in fp64"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("BM/BN/BK"), std::string::npos) << refused.err;
}

// Every variant that builds in FP64 counts its local memory and its traffic in the element size
// it is given: twice the FP32 figures in FP64 (kernels.cl's REAL is the only element type of the
// ladder, best and their helpers).
TEST(Fp64Registry, ByteCountsFollowTheElementSize) {
  for (const auto& v : clgemm::variants()) {
    if (v.backend != clgemm::Backend::kOpenCl || !v.fp64) continue;
    const clgemm::ResolvedDefines d(v.params, {});
    ASSERT_TRUE(v.local_mem_bytes) << v.name;
    EXPECT_EQ(v.local_mem_bytes(d, sizeof(double)), 2 * v.local_mem_bytes(d, sizeof(float)))
        << v.name;
    EXPECT_EQ(v.local_mem_bytes(d), v.local_mem_bytes(d, sizeof(float))) << v.name;
    ASSERT_TRUE(v.global_bytes) << v.name;
    for (const auto& [m, n, k] : {std::array<int, 3>{33, 17, 9}, std::array<int, 3>{512, 256, 64}})
      EXPECT_DOUBLE_EQ(v.global_bytes(d, m, n, k, sizeof(double)),
                       2 * v.global_bytes(d, m, n, k, sizeof(float)))
          << v.name << " at " << m << "x" << n << "x" << k;
  }
}

clgemm::DeviceInfo describedDevice(bool has_fp64) {
  clgemm::DeviceInfo d;
  d.name = has_fp64 ? "a device with doubles" : "a device without doubles";
  d.vendor = "Example";
  d.type = "GPU";
  d.is_gpu = true;
  d.has_fp64 = has_fp64;
  return d;
}

// fp64Refusal: an OpenCL kernel on a device without cl_khr_fp64 is refused naming the extension
// and the kernel; a library baseline (its own DGEMM) is not; an FP32-only kernel (the tensor
// cores) is refused on any device, naming its arithmetic.
TEST(Fp64Refusal, NamesTheMissingExtension) {
  const clgemm::DeviceInfo without = describedDevice(false);
  const clgemm::DeviceInfo with = describedDevice(true);
  for (const char* name : {"naive", "transposed-b", "best"}) {
    const clgemm::Variant& v = clgemm_test::registryVariant(name);
    const auto why = clgemm::fp64Refusal(v, &without);
    ASSERT_TRUE(why.has_value()) << name;
    EXPECT_NE(why->find("cl_khr_fp64"), std::string::npos) << *why;
    EXPECT_NE(why->find(name), std::string::npos) << *why;
    EXPECT_NE(why->find(without.name), std::string::npos) << *why;
    EXPECT_FALSE(clgemm::fp64Refusal(v, &with).has_value()) << name;
    EXPECT_FALSE(clgemm::fp64Refusal(v, nullptr).has_value()) << name;
  }
  bool baseline_seen = false;
  for (const auto& v : clgemm::variants()) {
    if (v.backend != clgemm::Backend::kClblast && v.backend != clgemm::Backend::kOpenblas) continue;
    baseline_seen = true;
    EXPECT_FALSE(clgemm::fp64Refusal(v, &without).has_value()) << v.name;
  }
  EXPECT_TRUE(baseline_seen) << "no CLBlast or OpenBLAS baseline in the registry";
  const auto tc = clgemm::fp64Refusal(clgemm_test::registryVariant("tc-tf32"), &with);
  ASSERT_TRUE(tc.has_value());
  EXPECT_NE(tc->find("tf32 only"), std::string::npos) << *tc;
}

}  // namespace
