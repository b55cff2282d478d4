// The BLAS shim's pure parts: netlib's argument checks (the INFO of reference SGEMM, the parameter
// numbers of netlib's CBLAS in both layouts), the quick return, the environment variables, and
// which threshold a device gets from the records.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "blas/blas_args.hpp"
#include "blas/blas_device.hpp"
#include "blas/blas_threshold.hpp"

namespace {

using namespace clgemm;
using namespace clgemm::blas;
namespace fs = std::filesystem;

// A legal call (M=4, N=5, K=6, NN, packed) with one argument changed.
int info(char ta = 'N', char tb = 'N', int m = 4, int n = 5, int k = 6, int lda = 4, int ldb = 6,
         int ldc = 4) {
  return gemmInfo(ta, tb, m, n, k, lda, ldb, ldc);
}

TEST(BlasArgs, ReferenceSgemmNumbersEachIllegalArgument) {
  EXPECT_EQ(info(), 0);
  for (char t : {'N', 'n', 'T', 't', 'C', 'c'}) {
    EXPECT_EQ(info(t, 'N', 4, 5, 6, 6, 6, 4), 0) << t;  // lda 6 fits both K x M and M x K
    EXPECT_EQ(info('N', t, 4, 5, 6, 4, 6, 4), 0) << t;
  }
  EXPECT_EQ(info('X'), 1);
  EXPECT_EQ(info(' '), 1);
  EXPECT_EQ(info('N', 'R'), 2);
  EXPECT_EQ(info('N', 'N', -1), 3);
  EXPECT_EQ(info('N', 'N', 4, -1), 4);
  EXPECT_EQ(info('N', 'N', 4, 5, -1), 5);
  EXPECT_EQ(info('N', 'N', 4, 5, 6, 3), 8);         // NROWA = M = 4
  EXPECT_EQ(info('T', 'N', 4, 5, 6, 5), 8);         // NROWA = K = 6
  EXPECT_EQ(info('N', 'N', 4, 5, 6, 4, 5), 10);     // NROWB = K = 6
  EXPECT_EQ(info('N', 'T', 4, 5, 6, 4, 4), 10);     // NROWB = N = 5
  EXPECT_EQ(info('N', 'N', 4, 5, 6, 4, 6, 3), 13);  // LDC < M
  // max(1, ...): a zero leading dimension is illegal even for empty matrices.
  EXPECT_EQ(info('N', 'N', 0, 0, 0, 0, 1, 1), 8);
  EXPECT_EQ(info('N', 'N', 0, 0, 0, 1, 0, 1), 10);
  EXPECT_EQ(info('N', 'N', 0, 0, 0, 1, 1, 0), 13);
  EXPECT_EQ(info('N', 'N', 0, 0, 0, 1, 1, 1), 0);
}

TEST(BlasArgs, TheFirstFailingCheckWins) {
  EXPECT_EQ(info('X', 'Y', -1, -1, -1, 0, 0, 0), 1);
  EXPECT_EQ(info('N', 'Y', -1, -1, -1, 0, 0, 0), 2);
  EXPECT_EQ(info('N', 'N', -1, -1, -1, 0, 0, 0), 3);
  EXPECT_EQ(info('N', 'N', 4, -1, -1, 0, 0, 0), 4);
  EXPECT_EQ(info('N', 'N', 4, 5, -1, 0, 0, 0), 5);
  EXPECT_EQ(info('N', 'N', 4, 5, 6, 0, 0, 0), 8);
  EXPECT_EQ(info('N', 'N', 4, 5, 6, 4, 0, 0), 10);
}

constexpr int kRow = kCblasRowMajor, kCol = kCblasColMajor, kN = kCblasNoTrans, kT = kCblasTrans;

TEST(BlasArgs, CblasColumnMajorIsSgemmPlusOne) {
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, 4, 5, 6, 4, 6, 4), 0);
  EXPECT_EQ(cblasGemmInfo(kCol, kCblasConjTrans, kN, 4, 5, 6, 6, 6, 4), 0);
  EXPECT_EQ(cblasGemmInfo(0, kN, kN, 4, 5, 6, 4, 6, 4), 1);
  EXPECT_EQ(cblasGemmInfo(kCol, 'N', kN, 4, 5, 6, 4, 6, 4), 2);  // a character is not an enum
  EXPECT_EQ(cblasGemmInfo(kCol, kN, 114, 4, 5, 6, 4, 6, 4), 3);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, -1, 5, 6, 4, 6, 4), 4);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, 4, -1, 6, 4, 6, 4), 5);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, 4, 5, -1, 4, 6, 4), 6);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, 4, 5, 6, 3, 6, 4), 9);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, 4, 5, 6, 4, 5, 4), 11);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, 4, 5, 6, 4, 6, 3), 14);
}

TEST(BlasArgs, CblasRowMajorNamesTheWrongParameterAfterNetlibsSwap) {
  // Row-major A is M x K with lda >= K, B K x N with ldb >= N, C with ldc >= N.
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, 4, 5, 6, 6, 5, 5), 0);
  EXPECT_EQ(cblasGemmInfo(kRow, kT, kT, 4, 5, 6, 4, 6, 5), 0);
  EXPECT_EQ(cblasGemmInfo(kRow, 0, kN, 4, 5, 6, 6, 5, 5), 2);
  EXPECT_EQ(cblasGemmInfo(kRow, kN, 0, 4, 5, 6, 6, 5, 5), 3);
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, -1, 5, 6, 6, 5, 5), 4);
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, 4, -1, 6, 6, 5, 5), 5);
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, 4, 5, -1, 6, 5, 5), 6);
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, 4, 5, 6, 5, 5, 5), 9);   // lda < K
  EXPECT_EQ(cblasGemmInfo(kRow, kT, kN, 4, 5, 6, 3, 5, 5), 9);   // A^T stored K x M: lda < M
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, 4, 5, 6, 6, 4, 5), 11);  // ldb < N
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kT, 4, 5, 6, 6, 5, 5), 11);  // B^T stored N x K: ldb < K
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, 4, 5, 6, 6, 5, 4), 14);  // ldc < N
  // SGEMM checks the swapped call: N before M, ldb before lda.
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, -1, -1, 6, 6, 5, 5), 5);
  EXPECT_EQ(cblasGemmInfo(kRow, kN, kN, 4, 5, 6, 1, 1, 5), 11);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, -1, -1, 6, 4, 6, 4), 4);
  EXPECT_EQ(cblasGemmInfo(kCol, kN, kN, 4, 5, 6, 1, 1, 4), 9);
}

TEST(BlasArgs, CblasXerblaGetsThePreSwapNumberInRowMajor) {
  EXPECT_EQ(cblasXerblaInfo(4, true), 5);
  EXPECT_EQ(cblasXerblaInfo(5, true), 4);
  EXPECT_EQ(cblasXerblaInfo(9, true), 11);
  EXPECT_EQ(cblasXerblaInfo(11, true), 9);
  for (int i : {1, 2, 3, 6, 14}) EXPECT_EQ(cblasXerblaInfo(i, true), i);
  for (int i : {1, 2, 3, 4, 5, 6, 9, 11, 14}) EXPECT_EQ(cblasXerblaInfo(i, false), i);
}

TEST(BlasArgs, QuickReturnAsNetlib) {
  EXPECT_TRUE(isQuickReturn<float>(0, 5, 6, 1.f, 0.f));
  EXPECT_TRUE(isQuickReturn<float>(4, 0, 6, 1.f, 0.f));
  EXPECT_TRUE(isQuickReturn<float>(4, 5, 6, 0.f, 1.f));
  EXPECT_TRUE(isQuickReturn<double>(4, 5, 0, 2.0, 1.0));
  EXPECT_FALSE(isQuickReturn<double>(4, 5, 0, 2.0, 0.5));  // C = beta C
  EXPECT_FALSE(isQuickReturn<double>(4, 5, 6, 0.0, 0.0));  // C = 0
  EXPECT_FALSE(isQuickReturn<float>(4, 5, 6, 1.f, 1.f));
}

TEST(BlasEnv, DeviceSpec) {
  EXPECT_FALSE(parseDeviceSpec(nullptr).indices);
  EXPECT_TRUE(parseDeviceSpec(nullptr).error.empty());
  EXPECT_FALSE(parseDeviceSpec("").indices);
  const DeviceSpec ok = parseDeviceSpec("1:2");
  ASSERT_TRUE(ok.indices);
  EXPECT_EQ(ok.indices->first, 1);
  EXPECT_EQ(ok.indices->second, 2);
  for (const char* bad : {"1", "1:", ":1", "a:b", "-1:0", "0:0:0", "1 :2", "0x1:0", "9999999:0"}) {
    const DeviceSpec s = parseDeviceSpec(bad);
    EXPECT_FALSE(s.indices) << bad;
    EXPECT_NE(s.error.find(bad), std::string::npos) << s.error;
  }
}

TEST(BlasEnv, Threshold) {
  EXPECT_FALSE(parseThresholdEnv(nullptr).value);
  EXPECT_TRUE(parseThresholdEnv("").warning.empty());
  EXPECT_EQ(*parseThresholdEnv("0").value, 0u);
  EXPECT_EQ(*parseThresholdEnv("16777216").value, 16777216u);
  for (const char* bad : {"-1", "1e6", " 5", "5 ", "abc", "12345678901234567890123"}) {
    const ThresholdEnv t = parseThresholdEnv(bad);
    EXPECT_FALSE(t.value) << bad;
    EXPECT_NE(t.warning.find(std::string("CLGEMM_BLAS_THRESHOLD='") + bad + "'"), std::string::npos)
        << t.warning;
  }
}

class BlasThresholdRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("clgemm-blas-records-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root / "store");
    fs::create_directories(root / "data");
    gpu.name = "Some GPU";
    gpu.driver_version = "1.0";
    gpu.type = "GPU";
    gpu.is_gpu = true;
    cpu.name = "Some CPU";
    cpu.driver_version = "3.1";
    cpu.type = "CPU";
  }
  void TearDown() override { fs::remove_all(root); }
  void write(const std::string& dir, const std::string& file, const std::string& text) {
    std::ofstream(root / dir / file) << text;
  }
  std::vector<std::string> dirs() const {
    return {(root / "store").string(), (root / "data").string()};
  }
  fs::path root;
  DeviceInfo gpu, cpu;
};

TEST_F(BlasThresholdRecords, DefaultsByDeviceType) {
  const Threshold g = chooseThreshold({}, dirs(), gpu, Precision::kFp32);
  EXPECT_FALSE(g.never);
  EXPECT_EQ(g.min_mnk, 256u * 256 * 256);
  EXPECT_FALSE(g.onDevice(256u * 256 * 256 - 1));
  EXPECT_TRUE(g.onDevice(256u * 256 * 256));
  const Threshold c = chooseThreshold({}, dirs(), cpu, Precision::kFp32);
  EXPECT_TRUE(c.never);
  EXPECT_FALSE(c.onDevice(~0ull));
}

TEST_F(BlasThresholdRecords, EnvironmentFirstThenRecordsStoreFirstExactDriverFirst) {
  write("data", "some-gpu-fp32.json",
        R"({"device": "Some GPU", "driver": "1.0", "precision": "fp32", "threshold": 1000})");
  EXPECT_EQ(chooseThreshold({}, dirs(), gpu, Precision::kFp32).min_mnk, 1000u);
  // FP64 has no record: the default.
  EXPECT_EQ(chooseThreshold({}, dirs(), gpu, Precision::kFp64).min_mnk, 256u * 256 * 256);
  // The store's record of another driver beats the shipped one...
  write("store", "a.json",
        R"({"device": "Some GPU", "driver": "0.9", "precision": "fp32", "threshold": 2000})");
  EXPECT_EQ(chooseThreshold({}, dirs(), gpu, Precision::kFp32).min_mnk, 2000u);
  // ...and within a folder the exact driver beats another driver's.
  write("store", "b.json",
        R"({"device": "Some GPU", "driver": "1.0", "precision": "fp32", "threshold": 3000})");
  EXPECT_EQ(chooseThreshold({}, dirs(), gpu, Precision::kFp32).min_mnk, 3000u);
  // Another device's record, a broken file and a record of another precision serve nobody.
  write("store", "c.json", R"({"device": "Other", "precision": "fp64", "threshold": 1})");
  write("store", "d.json", "{not json");
  EXPECT_EQ(chooseThreshold({}, dirs(), gpu, Precision::kFp64).min_mnk, 256u * 256 * 256);
  // null: never.
  write("store", "e.json", R"({"device": "Some GPU", "precision": "fp64", "threshold": null})");
  EXPECT_TRUE(chooseThreshold({}, dirs(), gpu, Precision::kFp64).never);
  // The environment beats everything.
  ThresholdEnv env;
  env.value = 0;
  const Threshold t = chooseThreshold(env, dirs(), gpu, Precision::kFp64);
  EXPECT_FALSE(t.never);
  EXPECT_TRUE(t.onDevice(0));
  EXPECT_EQ(t.source, "CLGEMM_BLAS_THRESHOLD");
  // A CPU with a record that says the device wins from 64^3 takes it over "never".
  write("data", "some-cpu-fp32.json",
        R"({"device": "Some CPU", "driver": "2.0", "precision": "fp32", "threshold": 262144})");
  EXPECT_EQ(chooseThreshold({}, dirs(), cpu, Precision::kFp32).min_mnk, 262144u);
  EXPECT_FALSE(chooseThreshold({}, dirs(), cpu, Precision::kFp32).never);
}

TEST(BlasThresholdRecordName, SlugAndPrecision) {
  EXPECT_EQ(thresholdRecordName("NVIDIA H100 80GB HBM3", Precision::kFp64),
            "nvidia-h100-80gb-hbm3-fp64.json");
}

}  // namespace
