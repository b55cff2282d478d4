// The tensor-core kernels tc-tf32 and tc-3xtf32: which devices can run them, the arithmetic they
// report and the error threshold that follows from it (and that verification applies), their
// constraints and local memory, kernels.cl still building as a whole without them, and end to end
// through the real binary on the machine's device: where that device cannot run them (pocl's CPU
// in CI), they are skipped with the reason, tuning them is refused and so is a --devices run.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check/reference.hpp"
#include "check/result_check.hpp"
#include "check/verify.hpp"
#include "csv_table.hpp"
#include "kernels_program.hpp"
#include "opencl/device.hpp"
#include "opencl/ptx_arch.hpp"
#include "problem/problem.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"
#include "util/errors.hpp"

namespace {

using clgemm::Arithmetic;
using clgemm::DeviceInfo;
using clgemm_test::definesOf;
using clgemm_test::registryVariant;
using clgemm_test::runClgemm;
using nlohmann::json;

const std::vector<std::string> kTensorCore = {"tc-tf32", "tc-3xtf32"};

DeviceInfo amdGpu() {
  DeviceInfo d;
  d.name = "gfx90a:sramecc+:xnack-";
  d.vendor = "Advanced Micro Devices, Inc.";
  d.is_gpu = true;
  return d;
}

// An NVIDIA GPU; compute capability as the driver reports it (cl_nv_device_attribute_query), or
// none where it does not.
DeviceInfo nvidiaGpu(std::optional<int> major, std::optional<int> minor) {
  DeviceInfo d;
  d.name = "NVIDIA Test GPU";
  d.vendor = "NVIDIA Corporation";
  d.is_gpu = true;
  d.nv_cc_major = major;
  d.nv_cc_minor = minor;
  return d;
}

// ------------------------------------------------------------------------------------------------
// Where they run.

TEST(TensorCoresUnsupportedOn, OtherVendorsNeedAnNvidiaGpu) {
  for (const auto& name : kTensorCore) {
    const auto why = clgemm::unsupportedOn(registryVariant(name), amdGpu());
    ASSERT_TRUE(why.has_value()) << name;
    EXPECT_NE(why->find("NVIDIA"), std::string::npos) << *why;
    EXPECT_NE(why->find("Advanced Micro Devices, Inc."), std::string::npos) << *why;
  }
}

TEST(TensorCoresUnsupportedOn, NvidiaWithoutComputeCapabilityNamesTheExtension) {
  for (const auto& name : kTensorCore) {
    const auto why =
        clgemm::unsupportedOn(registryVariant(name), nvidiaGpu(std::nullopt, std::nullopt));
    ASSERT_TRUE(why.has_value()) << name;
    EXPECT_NE(why->find("cl_nv_device_attribute_query"), std::string::npos) << *why;
  }
}

TEST(TensorCoresUnsupportedOn, TuringIsTooOldAndSaysWhatItHas) {
  for (const auto& name : kTensorCore) {
    const auto why = clgemm::unsupportedOn(registryVariant(name), nvidiaGpu(7, 5));
    ASSERT_TRUE(why.has_value()) << name;
    EXPECT_NE(why->find("7.5"), std::string::npos) << *why;
    EXPECT_NE(why->find("8.0"), std::string::npos) << *why;  // what it needs
  }
}

TEST(TensorCoresUnsupportedOn, AmpereAndHopperRunThem) {
  for (const auto& name : kTensorCore) {
    EXPECT_EQ(clgemm::unsupportedOn(registryVariant(name), nvidiaGpu(8, 0)), std::nullopt) << name;
    EXPECT_EQ(clgemm::unsupportedOn(registryVariant(name), nvidiaGpu(8, 6)), std::nullopt) << name;
    EXPECT_EQ(clgemm::unsupportedOn(registryVariant(name), nvidiaGpu(9, 0)), std::nullopt) << name;
  }
}

// The wgmma of tc-tf32-wg and its successors and tc-3xtf32-wg and -ws exists on compute
// capability 9.0 only: not on Ampere, nor on what follows.
TEST(TensorCoresUnsupportedOn, WarpgroupMmaNeedsHopperAndSaysSo) {
  for (const char* name : {"tc-tf32-wg", "tc-tf32-tma", "tc-tf32-rs", "tc-tf32-ws", "tc-tf32-fused",
                           "tc-3xtf32-wg", "tc-3xtf32-ws", "tc-3xtf32-f16"}) {
    SCOPED_TRACE(name);
    const auto& wg = registryVariant(name);
    EXPECT_EQ(clgemm::unsupportedOn(wg, nvidiaGpu(9, 0)), std::nullopt);
    for (const auto& [major, minor] : {std::pair{8, 0}, std::pair{8, 9}, std::pair{10, 0}}) {
      const auto why = clgemm::unsupportedOn(wg, nvidiaGpu(major, minor));
      ASSERT_TRUE(why.has_value()) << major << "." << minor;
      EXPECT_NE(why->find("9.0"), std::string::npos) << *why;
      EXPECT_NE(why->find(std::to_string(major) + "." + std::to_string(minor)), std::string::npos)
          << *why;
    }
    // What stops tc-tf32 stops it first, with the same words.
    EXPECT_EQ(clgemm::unsupportedOn(wg, amdGpu()),
              clgemm::unsupportedOn(registryVariant("tc-tf32"), amdGpu()));
    EXPECT_EQ(clgemm::unsupportedOn(wg, nvidiaGpu(7, 5)),
              clgemm::unsupportedOn(registryVariant("tc-tf32"), nvidiaGpu(7, 5)));
  }
}

TEST(TensorCoresUnsupportedOn, Fp32KernelsAndCpuPathsRunAnywhere) {
  const std::vector<DeviceInfo> devices = {amdGpu(), nvidiaGpu(std::nullopt, std::nullopt),
                                           nvidiaGpu(7, 5), nvidiaGpu(8, 0), nvidiaGpu(9, 0)};
  EXPECT_FALSE(registryVariant("best").unsupported) << "best has no device requirement";
  std::size_t checked = 0;
  for (const auto& v : clgemm::variants()) {
    // The baselines are the libraries' business (cuBLAS: NVIDIA only; test_cublas).
    if (v.isBaseline() || v.arithmetic != Arithmetic::kFp32) continue;
    if (v.unsupported) {  // NVIDIA's inline PTX in FP32 (simt-async; test_simt_async)
      const auto why = clgemm::unsupportedOn(v, amdGpu());
      ASSERT_TRUE(why.has_value()) << v.name;
      EXPECT_NE(why->find("NVIDIA"), std::string::npos) << *why;
      EXPECT_EQ(clgemm::unsupportedOn(v, nvidiaGpu(9, 0)), std::nullopt) << v.name;
      continue;
    }
    for (const auto& d : devices)
      EXPECT_EQ(clgemm::unsupportedOn(v, d), std::nullopt) << v.name << " on " << d.vendor;
    ++checked;
  }
  EXPECT_GT(checked, 10u);
}

// ------------------------------------------------------------------------------------------------
// Arithmetic and error threshold.

TEST(TensorCoresArithmetic, NamesAndThresholds) {
  EXPECT_EQ(clgemm::arithmeticName(Arithmetic::kFp32), "fp32");
  EXPECT_EQ(clgemm::arithmeticName(Arithmetic::kTf32), "tf32");
  EXPECT_EQ(clgemm::arithmeticName(Arithmetic::k3xTf32), "3xtf32");
  EXPECT_EQ(clgemm::kErrorRatioThreshold, 16.0);
  EXPECT_EQ(clgemm::kTf32ErrorRatioThreshold, 16.0 * 8192.0);

  const auto& tf32 = registryVariant("tc-tf32");
  EXPECT_EQ(tf32.arithmetic, Arithmetic::kTf32);
  EXPECT_EQ(clgemm::arithmeticName(tf32.arithmetic), "tf32");
  EXPECT_EQ(clgemm::errorThresholdFor(tf32.arithmetic), 16.0 * 8192.0);

  // Three TF32 products buy back FP32 accuracy: held to the FP32 threshold.
  const auto& x3 = registryVariant("tc-3xtf32");
  EXPECT_EQ(x3.arithmetic, Arithmetic::k3xTf32);
  EXPECT_EQ(clgemm::arithmeticName(x3.arithmetic), "3xtf32");
  EXPECT_EQ(clgemm::errorThresholdFor(x3.arithmetic), clgemm::kErrorRatioThreshold);
  EXPECT_EQ(clgemm::errorThresholdFor(x3.arithmetic), 16.0);
  // The wgmma pair: the same arithmetic, the same thresholds.
  EXPECT_EQ(registryVariant("tc-tf32-wg").arithmetic, Arithmetic::kTf32);
  EXPECT_EQ(registryVariant("tc-3xtf32-wg").arithmetic, Arithmetic::k3xTf32);
}

TEST(TensorCoresArithmetic, OnlyTf32VariantsGetTheTf32Threshold) {
  std::size_t fp32 = 0;
  for (const auto& v : clgemm::variants()) {
    const double threshold = clgemm::errorThresholdFor(v.arithmetic);
    EXPECT_EQ(threshold == clgemm::kTf32ErrorRatioThreshold, v.arithmetic == Arithmetic::kTf32)
        << v.name << " (" << clgemm::arithmeticName(v.arithmetic) << ") is judged by " << threshold;
    if (v.arithmetic == Arithmetic::kFp32) {
      EXPECT_EQ(threshold, 16.0) << v.name;
      EXPECT_EQ(clgemm::arithmeticName(v.arithmetic), "fp32") << v.name;
      ++fp32;
    }
  }
  EXPECT_GT(fp32, 10u);
}

// A C from the double reference rounded to float (held as doubles, as the runners return results),
// with one element off by an error ratio of about 1000: over the FP32 threshold, well under the
// TF32 one.
struct PerturbedC {
  clgemm::Problem problem;
  clgemm::Reference ref;
  std::vector<double> c;
  std::size_t row = 5, col = 7;
  double ratio = 0.0;
};

PerturbedC perturbedC() {
  PerturbedC p;
  p.problem = clgemm::makeRandomProblem(17, 13, 29, 1.5f, 0.0f, 7);
  p.ref = clgemm::computeReference(p.problem);
  for (double x : p.ref.c) p.c.push_back(double(float(x)));
  const std::size_t i = p.row * 13 + p.col;
  p.c[i] = double(float(p.ref.c[i] + 1000.0 * double(FLT_EPSILON) * p.ref.magnitude[i]));
  p.ratio = clgemm::errorRatio(p.c[i], p.ref.c[i], p.ref.magnitude[i]);
  return p;
}

TEST(TensorCoresThreshold, VerifyAppliesTheThresholdItIsGiven) {
  const PerturbedC p = perturbedC();
  ASSERT_NEAR(p.ratio, 1000.0, 1.0);

  // Unperturbed, it passes either way: rounding the reference to float costs half a unit.
  std::vector<double> exact;
  for (double x : p.ref.c) exact.push_back(double(float(x)));
  EXPECT_TRUE(clgemm::verify(p.ref, exact, 13).passed);

  const auto fp32 = clgemm::verify(p.ref, p.c, 13, clgemm::kErrorRatioThreshold);
  EXPECT_FALSE(fp32.passed);
  EXPECT_EQ(fp32.failures, 1u);
  EXPECT_EQ(fp32.threshold, clgemm::kErrorRatioThreshold);
  EXPECT_DOUBLE_EQ(fp32.max_ratio, p.ratio);
  EXPECT_EQ(fp32.worst_row, p.row);
  EXPECT_EQ(fp32.worst_col, p.col);
  EXPECT_NE(fp32.describe().find("threshold 16"), std::string::npos) << fp32.describe();

  const auto tf32 = clgemm::verify(p.ref, p.c, 13, clgemm::kTf32ErrorRatioThreshold);
  EXPECT_TRUE(tf32.passed) << tf32.describe();
  EXPECT_EQ(tf32.failures, 0u);
  EXPECT_EQ(tf32.threshold, clgemm::kTf32ErrorRatioThreshold);
  EXPECT_DOUBLE_EQ(tf32.max_ratio, p.ratio);

  // Without one, the FP32 threshold.
  const auto fallback = clgemm::verify(p.ref, p.c, 13);
  EXPECT_FALSE(fallback.passed);
  EXPECT_EQ(fallback.threshold, clgemm::kErrorRatioThreshold);
}

TEST(TensorCoresThreshold, ResultCheckPassesItOnFullAndSampled) {
  const PerturbedC p = perturbedC();
  for (const auto mode : {clgemm::CheckMode::kFull, clgemm::CheckMode::kSampled}) {
    const clgemm::ResultCheck check(p.problem, mode, 3);
    const std::string kind = check.kind();
    EXPECT_EQ(kind, mode == clgemm::CheckMode::kFull ? "full" : "sampled");

    const auto fp32 = check(p.c, clgemm::errorThresholdFor(Arithmetic::kFp32));
    EXPECT_FALSE(fp32.passed) << kind;
    EXPECT_EQ(fp32.threshold, clgemm::kErrorRatioThreshold) << kind;

    const auto fallback = check(p.c);
    EXPECT_FALSE(fallback.passed) << kind;
    EXPECT_EQ(fallback.threshold, clgemm::kErrorRatioThreshold) << kind;

    const auto tf32 = check(p.c, clgemm::errorThresholdFor(Arithmetic::kTf32));
    EXPECT_TRUE(tf32.passed) << kind << ": " << tf32.describe();
    EXPECT_EQ(tf32.threshold, clgemm::kTf32ErrorRatioThreshold) << kind;

    // 3xTF32 is held to FP32's.
    const auto x3 = check(p.c, clgemm::errorThresholdFor(Arithmetic::k3xTf32));
    EXPECT_FALSE(x3.passed) << kind;
    EXPECT_EQ(x3.threshold, clgemm::kErrorRatioThreshold) << kind;
  }
}

// ------------------------------------------------------------------------------------------------
// Constraints and local memory.

// The default shape (row-major, NN, packed) of an m x n x k problem, as problem_defines sees it.
clgemm::RowMajorGemm packed(int m, int n, int k) {
  return clgemm::rowMajorGemm(m, n, k, clgemm::gemmStorage(m, n, k, clgemm::GemmShape{}));
}

// tc-3xtf32-wg packs two floats per element of B (one of A), which its 32-bit indices must still
// reach: a problem whose B fits one plane but not two is refused before anything is built, and
// A's single plane is allowed what tc-tf32-wg allows.
TEST(TensorCoresPacking, TwoPlanesMustFitThe32BitIndices) {
  const auto& x3 = registryVariant("tc-3xtf32-wg");
  EXPECT_NO_THROW(x3.problem_defines(definesOf(x3, {}), packed(16384, 16384, 16384)));
  EXPECT_NO_THROW(x3.problem_defines(definesOf(x3, {}), packed(32768, 128, 32768)));
  try {
    x3.problem_defines(definesOf(x3, {}), packed(64, 32768, 32768));
    ADD_FAILURE() << "2 x 32768 x 32768 packed floats of B accepted";
  } catch (const clgemm::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("64x32768x32768"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("packed B, 2 x 32768 x 32768"), std::string::npos)
        << e.what();
  }
  const auto& tf32 = registryVariant("tc-tf32-wg");
  EXPECT_NO_THROW(tf32.problem_defines(definesOf(tf32, {}), packed(128, 32768, 32768)));
}

// Each buffer of the warpgroup kernels' ring holds a K-step's tile of A and of B, two planes of B
// for tc-3xtf32-wg, and an mbarrier of 8 bytes.
TEST(TensorCoresPacking, TheWarpgroupRingHoldsATileOfEachOperandPerBuffer) {
  const auto& x3 = registryVariant("tc-3xtf32-wg");
  EXPECT_EQ(x3.local_mem_bytes(definesOf(x3, {})), 4u * (64 + 2 * 128) * 16 * 4 + 4 * 8);
  EXPECT_EQ(x3.local_mem_bytes(definesOf(x3, {"BM=128", "BN=64", "BK=16", "STAGES=3"})),
            3u * (128 + 2 * 64) * 16 * 4 + 3 * 8);
  const auto& tf32 = registryVariant("tc-tf32-wg");
  EXPECT_EQ(tf32.local_mem_bytes(definesOf(tf32, {})), 3u * (128 + 256) * 32 * 4 + 3 * 8);
  EXPECT_EQ(x3.pack_planes, (std::array<int, 2>{1, 2}));
  EXPECT_EQ(tf32.pack_planes, (std::array<int, 2>{1, 1}));
}

std::optional<std::string> violations(const std::string& name,
                                      const std::vector<std::string>& args) {
  const auto& v = registryVariant(name);
  return clgemm::constraintViolations(v, definesOf(v, args));
}

// The message, or a test failure when the defines were accepted.
std::string refused(const std::string& name, const std::vector<std::string>& args) {
  const auto why = violations(name, args);
  if (!why) {
    std::string given;
    for (const auto& a : args) given += " " + a;
    ADD_FAILURE() << name << " accepted" << given;
    return "";
  }
  return *why;
}

TEST(TensorCoresConstraints, DefaultsAndASmallerBlockAreValid) {
  for (const auto& name : kTensorCore) {
    EXPECT_EQ(violations(name, {}), std::nullopt) << name;
    EXPECT_EQ(violations(name, {"BM=64", "BN=128", "WM=32", "WN=32", "BK=16"}), std::nullopt)
        << name;
  }
}

TEST(TensorCoresConstraints, EachViolationNamesItsDefines) {
  for (const auto& name : kTensorCore) {
    const std::string bk = refused(name, {"BK=8"});
    EXPECT_NE(bk.find("BK"), std::string::npos) << bk;
    EXPECT_NE(bk.find("multiple of 16"), std::string::npos) << bk;
    EXPECT_EQ(bk.rfind(name + ": ", 0), 0u) << bk;

    const std::string wn = refused(name, {"WN=12"});
    EXPECT_NE(wn.find("WN"), std::string::npos) << wn;

    const std::string bm = refused(name, {"BM=96", "WM=64"});
    EXPECT_NE(bm.find("BM"), std::string::npos) << bm;
    EXPECT_NE(bm.find("WM"), std::string::npos) << bm;

    const std::string stages = refused(name, {"STAGES=3"});
    EXPECT_NE(stages.find("STAGES"), std::string::npos) << stages;
    EXPECT_EQ(violations(name, {"STAGES=1"}), std::nullopt) << name;
  }
}

// Sums and totals of a 64 x 256 block would take every register of tc-3xtf32-wg's work-items.
TEST(TensorCoresConstraints, ThreeTf32WgTakesBlocksOf64Or128Columns) {
  EXPECT_EQ(violations("tc-3xtf32-wg", {"BN=64"}), std::nullopt);
  const std::string bn = refused("tc-3xtf32-wg", {"BN=256"});
  EXPECT_NE(bn.find("BN=256 must be 64 or 128"), std::string::npos) << bn;
  EXPECT_EQ(violations("tc-tf32-wg", {"BN=256"}), std::nullopt);
  EXPECT_NE(refused("tc-tf32-wg", {"BN=96"}).find("BN=96 must be 64, 128 or 256"),
            std::string::npos);
}

// The warpgroup kernels' ring refills a buffer once every warpgroup has waited for the wgmmas
// that read it, so two buffers already keep one K-step in flight; one would copy into the buffer
// being multiplied.
TEST(TensorCoresConstraints, TheWarpgroupRingTakesTwoToEightBuffers) {
  for (const char* name : {"tc-tf32-wg", "tc-3xtf32-wg"}) {
    EXPECT_EQ(violations(name, {"STAGES=2"}), std::nullopt) << name;
    EXPECT_EQ(violations(name, {"STAGES=8"}), std::nullopt) << name;
    for (const char* stages : {"STAGES=1", "STAGES=9"}) {
      const std::string why = refused(name, {stages});
      EXPECT_NE(why.find(std::string(stages) + " must be 2 to 8"), std::string::npos) << why;
    }
  }
}

// tc-tf32-tma's tensor copies lay a row of A's tile out in one swizzle of 32, 64 or 128 bytes, and
// a copy's box has at most 256 rows; A is not packed, B is, and a helper writes A's tensor map.
TEST(TensorCoresConstraints, TheTensorCopiesTakeRowsOf8To32FloatsAndBoxesOfAtMost256) {
  for (const char* bk : {"BK=8", "BK=16", "BK=32"})
    EXPECT_EQ(violations("tc-tf32-tma", {bk}), std::nullopt) << bk;
  for (const char* bk : {"BK=24", "BK=64"}) {
    const std::string why = refused("tc-tf32-tma", {bk});
    EXPECT_NE(why.find(std::string(bk) + " must be 8, 16 or 32"), std::string::npos) << why;
  }
  EXPECT_EQ(violations("tc-tf32-wg", {"BK=64"}), std::nullopt);  // packed A has no such limit
  const std::string bm = refused("tc-tf32-tma", {"BM=320", "BN=64", "STAGES=2"});
  EXPECT_NE(bm.find("BM=320 must be at most 256"), std::string::npos) << bm;

  const auto& tma = registryVariant("tc-tf32-tma");
  EXPECT_EQ(tma.pack_planes, (std::array<int, 2>{0, 1}));
  EXPECT_EQ(tma.pack_entry, "pack_operand");
  EXPECT_EQ(tma.tensor_map_entry, "set_tensor_map_address");
  ASSERT_TRUE(tma.a_box);
  EXPECT_EQ(tma.a_box(definesOf(tma, {})), (std::pair<int, int>{128, 32}));
  EXPECT_TRUE(registryVariant("tc-tf32-wg").tensor_map_entry.empty());
  // The same ring as tc-tf32-wg's: a tile of A and one of B per buffer, and an mbarrier.
  EXPECT_EQ(tma.local_mem_bytes(definesOf(tma, {})), 3u * (128 + 256) * 32 * 4 + 3 * 8);
}

// tc-tf32-rs reads A as tc-tf32-tma does, and keeps two blocks' wgmmas in flight while it loads
// the next block's A registers: four 8-k blocks per K-step, so BK is 32 only.
TEST(TensorCoresConstraints, RegisterAKeepsFourBlocksOf8K) {
  EXPECT_EQ(violations("tc-tf32-rs", {}), std::nullopt);
  for (const char* bk : {"BK=8", "BK=16"}) {
    const std::string why = refused("tc-tf32-rs", {bk});
    EXPECT_NE(why.find(std::string(bk) + " must be 32"), std::string::npos) << why;
  }
  // The tensor copies' limits come first, as tc-tf32-tma's.
  const std::string wide = refused("tc-tf32-rs", {"BK=64"});
  EXPECT_NE(wide.find("BK=64 must be 8, 16 or 32"), std::string::npos) << wide;
  const auto& rs = registryVariant("tc-tf32-rs");
  const auto& tma = registryVariant("tc-tf32-tma");
  EXPECT_EQ(rs.pack_planes, tma.pack_planes);
  EXPECT_EQ(rs.tensor_map_entry, tma.tensor_map_entry);
  EXPECT_EQ(rs.arithmetic, clgemm::Arithmetic::kTf32);
  EXPECT_EQ(rs.local_mem_bytes(definesOf(rs, {})), tma.local_mem_bytes(definesOf(tma, {})));
}

// tc-tf32-ws and tc-tf32-fused: tc-tf32-rs's warpgroups plus a copying warpgroup, in work-groups
// of warps; a second mbarrier per buffer; BM 64 or 128 (at 128 the copying warpgroup hands its
// registers over). tc-tf32-fused packs B itself: no packing launch for B, and its bookkeeping
// holds three counters and a flag per chunk of B (N/BN block columns of K/BK K-steps).
TEST(TensorCoresConstraints, WarpSpecialisedKernelsAddACopyingWarpgroup) {
  const auto& rs = registryVariant("tc-tf32-rs");
  for (const char* name : {"tc-tf32-ws", "tc-tf32-fused"}) {
    SCOPED_TRACE(name);
    const auto& v = registryVariant(name);
    EXPECT_EQ(violations(name, {}), std::nullopt);
    EXPECT_EQ(violations(name, {"BM=64"}), std::nullopt);
    for (const char* bm : {"BM=192", "BM=256"}) {
      const std::string why = refused(name, {bm});
      EXPECT_NE(why.find(std::string(bm) + " must be 64 or 128"), std::string::npos) << why;
    }
    // tc-tf32-rs's limits hold as well.
    EXPECT_NE(refused(name, {"BK=16"}).find("BK=16 must be 32"), std::string::npos);
    const auto shape = v.shape(definesOf(v, {}), 4096, 4096);
    EXPECT_EQ(shape.local[0], 32u);
    EXPECT_EQ(shape.local[1], 12u);  // two warpgroups of four warps, and four copying warps
    EXPECT_EQ(shape.global[0], 4096u / 256 * 32);
    EXPECT_EQ(shape.global[1], 4096u / 128 * 12);
    EXPECT_EQ(v.shape(definesOf(v, {"BM=64"}), 4096, 4096).local[1], 8u);
    EXPECT_EQ(v.tensor_map_entry, rs.tensor_map_entry);
    EXPECT_EQ(v.pack_planes, rs.pack_planes);
    EXPECT_EQ(v.arithmetic, clgemm::Arithmetic::kTf32);
  }
  const auto& ws = registryVariant("tc-tf32-ws");
  const auto& fused = registryVariant("tc-tf32-fused");
  const auto d = definesOf(ws, {});
  EXPECT_EQ(ws.local_mem_bytes(d), rs.local_mem_bytes(definesOf(rs, {})) + 3 * 8);
  EXPECT_EQ(fused.local_mem_bytes(definesOf(fused, {})), ws.local_mem_bytes(d) + 4);
  EXPECT_FALSE(ws.gemm_packs_b);
  ASSERT_TRUE(fused.gemm_packs_b);
  EXPECT_EQ(fused.gemm_packs_b(definesOf(fused, {}), 4096, 8192), 3u + 16 * 256);
  EXPECT_EQ(fused.gemm_packs_b(definesOf(fused, {"BN=128"}), 4096, 8192), 3u + 32 * 256);
}

// tc-3xtf32-ws: tc-3xtf32-wg's arithmetic (B in two planes, CHUNK) in tc-tf32-ws's pipeline (A by
// its tensor map into registers, BK 32, a copying warpgroup), with two warpgroups by default and
// the totals always in registers (no TOTALS_MEM), so at most 128 columns.
TEST(TensorCoresConstraints, ThreeTf32WsSplitsInTheWarpSpecialisedPipeline) {
  const auto& x3 = registryVariant("tc-3xtf32-ws");
  const auto& ws = registryVariant("tc-tf32-ws");
  const auto d = definesOf(x3, {});
  EXPECT_EQ(violations("tc-3xtf32-ws", {}), std::nullopt);
  EXPECT_EQ(d.param("BM"), 128);
  EXPECT_EQ(d.param("BN"), 128);
  EXPECT_EQ(d.param("BK"), 32);
  EXPECT_EQ(d.param("STAGES"), 4);
  EXPECT_EQ(d.param("CHUNK"), 2);
  for (const auto& p : x3.params) EXPECT_NE(p.name, "TOTALS_MEM");
  EXPECT_EQ(x3.arithmetic, clgemm::Arithmetic::k3xTf32);
  EXPECT_EQ(x3.builds_on, "tc-3xtf32-wg");
  EXPECT_EQ(x3.pack_planes, (std::array<int, 2>{0, 2}));
  EXPECT_EQ(x3.tensor_map_entry, ws.tensor_map_entry);
  EXPECT_FALSE(x3.gemm_packs_b);
  // Per buffer: A's tile, B's two planes, a full and an empty mbarrier.
  EXPECT_EQ(x3.local_mem_bytes(d), 4u * 32 * 4 * (128 + 2 * 128) + 4 * 8 + 4 * 8);
  EXPECT_EQ(x3.shape(d, 4096, 4096).local[1], 12u);
  EXPECT_EQ(x3.shape(d, 4096, 4096).global[0], 4096u / 128 * 32);
  EXPECT_EQ(x3.shape(definesOf(x3, {"BM=64"}), 4096, 4096).local[1], 8u);
  const auto expectRefused = [](const std::vector<std::string>& args, const std::string& what) {
    const std::string why = refused("tc-3xtf32-ws", args);
    EXPECT_NE(why.find(what), std::string::npos) << why;
  };
  expectRefused({"BN=256"}, "BN=256 must be 64 or 128");
  expectRefused({"BK=16"}, "BK=16 must be 32");
  expectRefused({"BM=256"}, "BM=256 must be 64 or 128");
  expectRefused({"CHUNK=0"}, "CHUNK");
  // B's two planes must fit the 32-bit indices, as tc-3xtf32-wg's.
  EXPECT_THROW(x3.problem_defines(d, packed(128, 32768, 32768)), clgemm::UsageError);
  EXPECT_NO_THROW(x3.problem_defines(d, packed(32768, 128, 32768)));
}

// tc-3xtf32-f16: tc-3xtf32-ws's parameters, limits and pipeline, with line_scale first, B's two
// planes (TF32 and FP16 pairs, the same bytes), and its own entry.
TEST(TensorCoresConstraints, ThreeTf32F16IsTheWsPipelineWithLineScales) {
  const auto& f16 = registryVariant("tc-3xtf32-f16");
  const auto& x3 = registryVariant("tc-3xtf32-ws");
  const auto d = definesOf(f16, {});
  EXPECT_EQ(violations("tc-3xtf32-f16", {}), std::nullopt);
  EXPECT_EQ(f16.entry, "gemm_tc_3xtf32_f16");
  EXPECT_EQ(f16.builds_on, "tc-3xtf32-ws");
  EXPECT_EQ(f16.arithmetic, clgemm::Arithmetic::k3xTf32);  // judged by the FP32 threshold
  EXPECT_EQ(f16.line_scale_entry, "line_scale");
  EXPECT_TRUE(x3.line_scale_entry.empty());
  EXPECT_EQ(f16.pack_planes, x3.pack_planes);
  EXPECT_EQ(f16.tensor_map_entry, x3.tensor_map_entry);
  ASSERT_EQ(f16.params.size(), x3.params.size());
  for (std::size_t i = 0; i < f16.params.size(); ++i) {
    EXPECT_EQ(f16.params[i].name, x3.params[i].name);
    EXPECT_EQ(f16.params[i].default_value, x3.params[i].default_value);
  }
  EXPECT_EQ(f16.local_mem_bytes(d), x3.local_mem_bytes(definesOf(x3, {})));
  // line_scale reads A and B once more than tc-3xtf32-ws's traffic.
  EXPECT_DOUBLE_EQ(
      f16.global_bytes(d, 4096, 2048, 1024) - x3.global_bytes(definesOf(x3, {}), 4096, 2048, 1024),
      4.0 * (4096.0 + 2048.0) * 1024.0);
  const std::string why = refused("tc-3xtf32-f16", {"BK=16"});
  EXPECT_NE(why.find("BK=16 must be 32"), std::string::npos) << why;
}

TEST(TensorCoresConstraints, LocalMemoryOfTheDefaults) {
  for (const auto& name : kTensorCore) {
    const auto& v = registryVariant(name);
    const auto d = definesOf(v, {});
    ASSERT_EQ(d.param("BM"), 128);
    ASSERT_EQ(d.param("BN"), 128);
    ASSERT_EQ(d.param("BK"), 16);
    ASSERT_EQ(d.param("STAGES"), 2);
    // Per stage: A as BM rows of BK + 8, B as BK/2 row pairs of 2*BN + 8 floats.
    EXPECT_EQ(v.local_mem_bytes(d), 2u * (128 * 24 + 8 * 264) * 4) << name;
    // One stage, half of it.
    EXPECT_EQ(v.local_mem_bytes(definesOf(v, {"STAGES=1"})), (128u * 24 + 8 * 264) * 4) << name;
  }
}

// ------------------------------------------------------------------------------------------------
// kernels.cl: the tensor-core section compiles only when named, so the whole file (no
// CLGEMM_ONE_KERNEL: oclgrind, offline compilers) still builds on any device.

TEST(TensorCoresKernelsCl, TheirSectionIsCompiledOnlyWhenNamed) {
  const std::string text = clgemm_test::sourceKernels();
  EXPECT_NE(text.find("\n#if defined(KERNEL_gemm_tc_tf32) || defined(KERNEL_gemm_tc_3xtf32)\n"),
            std::string::npos);
  for (const auto& name : kTensorCore)
    EXPECT_EQ(text.find("!defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_" +
                        registryVariant(name).entry + ")"),
              std::string::npos)
        << name << "'s section must stay out of whole-file builds";
}

TEST(TensorCoresKernelsCl, TheWarpgroupSectionMasksEveryWgmmaInstruction) {
  const std::string text = clgemm_test::sourceKernels();
  // The section's guard (continued over lines ending in a backslash) names every wgmma kernel.
  const std::size_t guard = text.find("\n#if defined(KERNEL_gemm_tc_tf32_wg) || ");
  ASSERT_NE(guard, std::string::npos);
  std::size_t guard_end = guard + 1;
  while (text.compare(text.find('\n', guard_end) - 1, 1, "\\") == 0)
    guard_end = text.find('\n', guard_end) + 1;
  const std::string guard_text = text.substr(guard, text.find('\n', guard_end) - guard);
  for (const char* entry :
       {"gemm_tc_tf32_wg", "gemm_tc_tf32_tma", "gemm_tc_tf32_rs", "gemm_tc_tf32_ws",
        "gemm_tc_tf32_fused", "gemm_tc_3xtf32_wg", "gemm_tc_3xtf32_ws"})
    EXPECT_NE(guard_text.find(std::string("defined(KERNEL_") + entry + ")"), std::string::npos)
        << entry << " missing from\n"
        << guard_text;
  // Every wgmma instruction behind the marker (the first build targets sm_90, where they would
  // not assemble), and at least the ones the pipeline needs.
  std::size_t masked = 0;
  for (std::size_t at = text.find("wgmma."); at != std::string::npos;
       at = text.find("wgmma.", at + 1)) {
    const std::size_t line = text.rfind('\n', at) + 1;
    const std::string before = text.substr(line, at - line);
    if (before.find("asm") == std::string::npos && before.find('"') == std::string::npos)
      continue;  // prose in a comment
    EXPECT_NE(before.find(clgemm::kArchSpecificMarker), std::string::npos)
        << text.substr(line, text.find('\n', at) - line);
    ++masked;
  }
  EXPECT_GE(masked, 7u);  // fence, commit, two waits, three shapes
  // tc-tf32-tma's tensormap.replace is sm_90a's too.
  const std::size_t replace = text.find("tensormap.replace");
  ASSERT_NE(replace, std::string::npos);
  const std::size_t line = text.rfind('\n', replace) + 1;
  EXPECT_NE(text.substr(line, replace - line).find(clgemm::kArchSpecificMarker), std::string::npos);
}

TEST(TensorCoresKernelsCl, TheWholeFileBuildsOnTheDeviceWithoutThem) {
  const clgemm::SelectedDevice device = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context(device.device);
  const auto program = clgemm_test::buildKernels(context, device, "");  // the whole file
  ASSERT_TRUE(program);
  // CL_PROGRAM_KERNEL_NAMES: the kernels, separated by semicolons.
  const std::string names = ";" + program->getInfo<CL_PROGRAM_KERNEL_NAMES>() + ";";
  for (const auto& v : clgemm::variants()) {
    if (v.backend != clgemm::Backend::kOpenCl) continue;
    // The inline-PTX kernels (tc-*, simt-async), which only NVIDIA's GPUs run, are compiled
    // only when named.
    const bool nvidia_only = bool(v.unsupported);
    EXPECT_EQ(names.find(";" + v.entry + ";") != std::string::npos, !nvidia_only)
        << v.entry << " in " << names;
  }
}

// ------------------------------------------------------------------------------------------------
// End to end on the machine's device.

const std::vector<std::string> kRun = {
    "--kernel", "tc-tf32,tc-3xtf32,best", "--size", "48", "--reps", "1", "--warmup", "0"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(TensorCoresRun, JsonSaysSkippedWithTheReasonOrVerifiedByTheirThreshold) {
  const auto r = runClgemm(with(kRun, {"--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = clgemm_test::parseReport(r);
  ASSERT_EQ(doc["results"].size(), 3u) << r.out;
  const auto& tf32 = doc["results"][0];
  const auto& x3 = doc["results"][1];
  const auto& best = doc["results"][2];
  EXPECT_EQ(tf32["variant"], "tc-tf32");
  EXPECT_EQ(x3["variant"], "tc-3xtf32");
  EXPECT_EQ(best["variant"], "best");
  EXPECT_EQ(tf32["precision"], "tf32");
  EXPECT_EQ(x3["precision"], "3xtf32");
  EXPECT_EQ(best["precision"], "fp32");
  for (const json* row : {&tf32, &x3}) {
    if (clgemm_test::checkedAsUnsupported(*row, clgemm_test::defaultDevice())) {
      // The reason names what is missing: an NVIDIA GPU (where the device is not one).
      EXPECT_NE((*row)["message"].get<std::string>().find("NVIDIA"), std::string::npos)
          << row->dump();
      continue;
    }
    // An Ampere or newer NVIDIA GPU: they ran, each judged by its own threshold.
    EXPECT_EQ((*row)["status"], "ok") << row->dump();
    const double threshold =
        clgemm::errorThresholdFor(registryVariant((*row)["variant"]).arithmetic);
    EXPECT_EQ((*row)["err_threshold"], threshold) << row->dump();
    EXPECT_LT((*row)["err_ratio"].get<double>(), threshold) << row->dump();
  }
  EXPECT_EQ(best["status"], "ok") << best.dump();
  EXPECT_EQ(best["err_threshold"], 16.0) << best.dump();
  EXPECT_GT(best["gflops"].get<double>(), 0.0) << best.dump();
  EXPECT_EQ(doc["err_ratio_threshold"], 16.0);
}

TEST(TensorCoresRun, CsvHasPrecisionAndThresholdColumns) {
  const auto r = runClgemm(with(kRun, {"--format", "csv"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const clgemm_test::Csv csv = clgemm_test::parseCsv(r.out);
  ASSERT_EQ(csv.rows.size(), 3u) << r.out;
  const auto tf32 = csv.find("tc-tf32"), x3 = csv.find("tc-3xtf32"), best = csv.find("best");
  ASSERT_TRUE(tf32 && x3 && best) << r.out;
  EXPECT_EQ(csv.at(*tf32, "precision"), "tf32");
  EXPECT_EQ(csv.at(*x3, "precision"), "3xtf32");
  EXPECT_EQ(csv.at(*best, "precision"), "fp32");
  EXPECT_EQ(csv.at(*best, "err_threshold"), "16");
  EXPECT_EQ(csv.at(*best, "status"), "ok");
  const auto& device = clgemm_test::defaultDevice();
  for (const auto& [row, name] : {std::pair{*tf32, "tc-tf32"}, std::pair{*x3, "tc-3xtf32"}}) {
    if (const auto why = clgemm_test::unsupportedOnDevice(name, device)) {
      EXPECT_EQ(csv.at(row, "status"), "skipped") << name;
      EXPECT_EQ(csv.at(row, "message"), *why) << name;
      EXPECT_EQ(csv.at(row, "err_threshold"), "") << name;  // never judged
      EXPECT_EQ(csv.at(row, "gflops"), "") << name;
    } else {
      EXPECT_EQ(csv.at(row, "status"), "ok") << name;
      EXPECT_EQ(std::stod(csv.at(row, "err_threshold")),
                clgemm::errorThresholdFor(registryVariant(name).arithmetic))
          << name;
    }
  }
}

TEST(TensorCoresRun, TableHasAPrecisionColumn) {
  const auto r = runClgemm(kRun);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto header = r.out.find("\nvariant ");
  ASSERT_NE(header, std::string::npos) << r.out;
  const std::string line = r.out.substr(header + 1, r.out.find('\n', header + 1) - header - 1);
  EXPECT_NE(line.find(" precision "), std::string::npos) << line;
  for (const char* value : {"\ntc-tf32 ", "\ntc-3xtf32 ", "\nbest "})
    EXPECT_NE(r.out.find(value), std::string::npos) << value << " row missing:\n" << r.out;
  EXPECT_NE(r.out.find(" tf32 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" 3xtf32 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" fp32 "), std::string::npos) << r.out;
  // Where they cannot run, the reasons follow the table.
  for (const auto& name : kTensorCore)
    if (const auto why = clgemm_test::unsupportedOnDevice(name, clgemm_test::defaultDevice()))
      EXPECT_NE(r.out.find(name + ": " + *why), std::string::npos) << r.out;
}

TEST(TensorCoresRun, TuningWhereTheyCannotRunIsRefused) {
  const auto why = clgemm_test::unsupportedOnDevice("tc-tf32", clgemm_test::defaultDevice());
  if (!why) GTEST_SKIP() << clgemm_test::defaultDevice().name << " can run tc-tf32";
  const auto r = runClgemm({"tune", "--kernel", "tc-tf32", "--size", "32"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("clgemm: error: cannot tune: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("NVIDIA"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(*why), std::string::npos) << r.err;
}

TEST(TensorCoresRun, ADeviceThatCannotRunThemCannotTakePartInASplit) {
  const clgemm::DeviceInfo device = clgemm::selectDevice(0, 0).info;
  const auto why = clgemm_test::unsupportedOnDevice("tc-3xtf32", device);
  if (!why) GTEST_SKIP() << device.name << " (0:0) can run tc-3xtf32";
  const auto r = runClgemm({"--devices", "0:0", "--kernel", "tc-3xtf32", "--size", "32"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot take part"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(*why), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("NVIDIA"), std::string::npos) << r.err;
}

}  // namespace
