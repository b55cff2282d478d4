// simt-async, best's FP32 arithmetic on NVIDIA's asynchronous copies: where it runs (NVIDIA,
// compute capability 8.0 and up, the registry's reason everywhere else, end to end through the
// real binary on the machine's device), its constraints and local memory, and its kernel itself
// on the machine's device with SA_PTX = 0, the plain copies that stand in for cp.async there:
// every element of C at tile-multiple shapes whose K-steps wrap the ring of buffers unevenly,
// against a double-precision reference, with and without beta.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kernels_program.hpp"
#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "opencl/program.hpp"
#include "problem/gemm_shape.hpp"
#include "problem/host_matrix.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "run/kernel_plan.hpp"
#include "run/launch.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm::DeviceInfo;
using clgemm_test::registryVariant;
using clgemm_test::runClgemm;

DeviceInfo gpu(const std::string& vendor, std::optional<int> major, std::optional<int> minor) {
  DeviceInfo d;
  d.name = "Test GPU";
  d.vendor = vendor;
  d.is_gpu = true;
  d.nv_cc_major = major;
  d.nv_cc_minor = minor;
  return d;
}

// ------------------------------------------------------------------------------------------------
// Where it runs.

TEST(SimtAsyncUnsupportedOn, OtherVendorsAreRefusedWithTheReason) {
  const auto& v = registryVariant("simt-async");
  for (const char* vendor : {"Advanced Micro Devices, Inc.", "Intel(R) Corporation", ""}) {
    const auto why = clgemm::unsupportedOn(v, gpu(vendor, std::nullopt, std::nullopt));
    ASSERT_TRUE(why.has_value()) << vendor;
    EXPECT_NE(why->find("needs an NVIDIA GPU (cp.async through inline PTX)"), std::string::npos)
        << *why;
  }
}

TEST(SimtAsyncUnsupportedOn, NvidiaBeforeAmpereOrWithoutItsComputeCapabilityIsRefused) {
  const auto& v = registryVariant("simt-async");
  const auto old = clgemm::unsupportedOn(v, gpu("NVIDIA Corporation", 7, 5));
  ASSERT_TRUE(old.has_value());
  EXPECT_NE(old->find("8.0 or newer (cp.async)"), std::string::npos) << *old;
  EXPECT_NE(old->find("has 7.5"), std::string::npos) << *old;
  const auto unknown =
      clgemm::unsupportedOn(v, gpu("NVIDIA Corporation", std::nullopt, std::nullopt));
  ASSERT_TRUE(unknown.has_value());
  EXPECT_NE(unknown->find("cl_nv_device_attribute_query"), std::string::npos) << *unknown;
}

TEST(SimtAsyncUnsupportedOn, AmpereAndHopperRunIt) {
  const auto& v = registryVariant("simt-async");
  for (const auto& [major, minor] :
       {std::pair{8, 0}, std::pair{8, 9}, std::pair{9, 0}, std::pair{10, 0}}) {
    EXPECT_EQ(clgemm::unsupportedOn(v, gpu("NVIDIA Corporation", major, minor)), std::nullopt)
        << major << "." << minor;
  }
}

TEST(SimtAsyncRun, SkippedWithTheReasonWhereTheDeviceCannotRunIt) {
  const auto& device = clgemm_test::defaultDevice();
  const auto why = clgemm_test::unsupportedOnDevice("simt-async", device);
  const auto r = runClgemm({"--kernel", "simt-async,best", "-m", "130", "-n", "200", "-k", "70",
                            "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = clgemm_test::parseReport(r);
  ASSERT_EQ(doc["results"].size(), 2u) << r.out;
  const auto& row = doc["results"][0];
  EXPECT_EQ(row["variant"], "simt-async");
  if (why) {
    EXPECT_EQ(row["status"], "skipped") << row.dump();
    EXPECT_EQ(row["message"], *why) << row.dump();
  } else {  // an NVIDIA GPU: padded to its tiles, verified
    EXPECT_EQ(row["status"], "ok") << row.dump();
  }
  EXPECT_EQ(doc["results"][1]["status"], "ok") << doc["results"][1].dump();
}

TEST(SimtAsyncRun, TuningWhereItCannotRunIsRefused) {
  const auto why = clgemm_test::unsupportedOnDevice("simt-async", clgemm_test::defaultDevice());
  if (!why) GTEST_SKIP() << clgemm_test::defaultDevice().name << " can run simt-async";
  const auto r = runClgemm({"tune", "--kernel", "simt-async", "--size", "64"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("clgemm: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(*why), std::string::npos) << r.err;
}

TEST(SimtAsyncRun, Fp64IsRefused) {
  const auto r = runClgemm({"--kernel", "simt-async", "--size", "64", "--precision", "fp64",
                            "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = clgemm_test::parseReport(r);
  ASSERT_EQ(doc["results"].size(), 1u) << r.out;
  EXPECT_EQ(doc["results"][0]["status"], "skipped") << doc.dump();
  EXPECT_NE(doc["results"][0]["message"].get<std::string>().find("fp32 only"), std::string::npos)
      << doc.dump();
}

// ------------------------------------------------------------------------------------------------
// Constraints and resources.

std::optional<std::string> violations(const std::vector<std::string>& args) {
  const auto& v = registryVariant("simt-async");
  return clgemm::constraintViolations(v, clgemm_test::definesOf(v, args));
}

TEST(SimtAsyncConstraints, DefaultsAndTheShapesItWasTunedOverAreValid) {
  EXPECT_EQ(violations({}), std::nullopt);
  EXPECT_EQ(violations({"BM=256", "BN=64", "TM=16", "TN=8", "STAGES=3"}), std::nullopt);
  EXPECT_EQ(violations({"BM=128", "BN=256", "TN=16", "STAGES=2"}), std::nullopt);
  EXPECT_EQ(violations({"BM=64", "BN=64", "TN=4", "BK=16", "STAGES=2"}), std::nullopt);
}

TEST(SimtAsyncConstraints, EachViolationNamesItsDefines) {
  const auto stages = violations({"STAGES=1"});
  ASSERT_TRUE(stages);
  EXPECT_NE(stages->find("STAGES=1 must be 2 to 8"), std::string::npos) << *stages;
  const auto tn = violations({"TN=6"});
  ASSERT_TRUE(tn);
  EXPECT_NE(tn->find("TN=6 must be a multiple of 4"), std::string::npos) << *tn;
  // Each work-item copies A at one column of the tile: 64 x 64 / (8 x 8) = 64 work-items are no
  // multiple of BK = 128.
  const auto bk = violations({"BM=64", "BN=64", "BK=128"});
  ASSERT_TRUE(bk);
  EXPECT_NE(bk->find("multiple of BK=128"), std::string::npos) << *bk;
  const auto odd = violations({"BK=7"});
  ASSERT_TRUE(odd);
  EXPECT_NE(odd->find("BK=7 must be even"), std::string::npos) << *odd;
  const auto b = violations({"BM=64", "BN=32", "TM=8", "TN=4", "BK=2"});
  ASSERT_TRUE(b);
  EXPECT_NE(b->find("BN x BK / 4"), std::string::npos) << *b;
}

TEST(SimtAsyncConstraints, LocalMemoryCountsEveryStage) {
  const auto& v = registryVariant("simt-async");
  const auto d = clgemm_test::definesOf(v, {"STAGES=3", "BK=8"});
  // 3 stages x 8 k x (128 + 4 + 128 + 4) floats.
  EXPECT_EQ(v.local_mem_bytes(d, sizeof(float)), std::size_t(3 * 8 * 264 * 4));
}

// ------------------------------------------------------------------------------------------------
// The kernel itself, with plain copies for cp.async (SA_PTX = 0), on the machine's device.

struct Tiles {
  int bm, bn, bk, tm, tn, stages;
  int akm = 0;   // A_KM: A given as A^T (K x M), read by 16-byte copies
  int edge = 0;  // EDGE: sizes off the tiles; 1: N a multiple of 4, 2: not (VEC_N = 0)
};

std::string label(const Tiles& t) {
  return std::to_string(t.bm) + "x" + std::to_string(t.bn) + "x" + std::to_string(t.bk) + "_" +
         std::to_string(t.tm) + "x" + std::to_string(t.tn) + "_s" + std::to_string(t.stages) +
         (t.akm ? "_at" : "") + (t.edge ? t.edge == 2 ? "_edge_unaligned" : "_edge" : "");
}

// The worst |C - reference| over every element of an m x n x k product (row-major, packed), each
// relative to |alpha| sum_p |A_ip B_pj| + 1, the reference summed in double; a NaN counts as
// infinite. beta = 0 does not read c0.
template <typename T>
double worstRelativeError(const std::vector<T>& a, const std::vector<T>& b,
                          const std::vector<T>& c0, const std::vector<T>& got, int m, int n, int k,
                          double alpha, double beta) {
  double worst = 0.0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0.0, bound = 0.0;
      for (int p = 0; p < k; ++p) {
        const double x = double(a[std::size_t(i) * k + p]) * double(b[std::size_t(p) * n + j]);
        sum += x;
        bound += std::fabs(x);
      }
      const std::size_t at = std::size_t(i) * n + j;
      double want = alpha * sum;
      if (beta != 0.0) want += beta * double(c0[at]);
      const double err = std::fabs(double(got[at]) - want) / (std::fabs(alpha) * bound + 1.0);
      if (!(err <= worst)) worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
    }
  }
  return worst;
}

class SimtAsyncKernel : public ::testing::TestWithParam<Tiles> {
 protected:
  // The kernel with the tiles and plain copies, built once per test.
  void SetUp() override {
    const Tiles t = GetParam();
    program_ = clgemm_test::buildKernels(
        context_, device_,
        "-D CLGEMM_ONE_KERNEL -D KERNEL_gemm_simt_async -D SA_PTX=0 -D BM=" + std::to_string(t.bm) +
            " -D BN=" + std::to_string(t.bn) + " -D BK=" + std::to_string(t.bk) +
            " -D TM=" + std::to_string(t.tm) + " -D TN=" + std::to_string(t.tn) +
            " -D STAGES=" + std::to_string(t.stages) + " -D A_KM=" + std::to_string(t.akm) +
            " -D EDGE=" + (t.edge ? "1" : "0") + " -D VEC_N=" + (t.edge == 2 ? "0" : "1"));
  }

  // C = alpha A B + beta C on the device for an M x N x K problem (tile multiples unless EDGE);
  // returns the worst |C - reference| / (|A| |B| row-column norm bound) over every element.
  double worstError(int m, int n, int k, float alpha, float beta, unsigned seed) {
    if (!program_) return std::numeric_limits<double>::infinity();  // the build failure is reported
    const Tiles t = GetParam();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n);
    for (float& x : a) x = value(rng);
    for (float& x : b) x = value(rng);
    // beta = 0 must not read C: NaN there would show.
    for (float& x : c) x = beta == 0.0f ? std::numeric_limits<float>::quiet_NaN() : value(rng);
    // With A_KM the kernel reads A^T, K x M.
    std::vector<float> at(a.size());
    for (int i = 0; i < m; ++i)
      for (int p = 0; p < k; ++p) at[std::size_t(p) * m + i] = a[std::size_t(i) * k + p];
    cl::Buffer da(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * sizeof(float),
                  t.akm ? at.data() : a.data());
    cl::Buffer db(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * sizeof(float),
                  b.data());
    cl::Buffer dc(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.size() * sizeof(float),
                  c.data());
    cl::Kernel kernel(*program_, "gemm_simt_async");
    kernel.setArg(0, m);
    kernel.setArg(1, n);
    kernel.setArg(2, k);
    kernel.setArg(3, alpha);
    kernel.setArg(4, beta);
    kernel.setArg(5, da);
    kernel.setArg(6, db);
    kernel.setArg(7, dc);
    const std::size_t lx = std::size_t(t.bn / t.tn), ly = std::size_t(t.bm / t.tm);
    const std::size_t blocks_n = std::size_t((n + t.bn - 1) / t.bn),
                      blocks_m = std::size_t((m + t.bm - 1) / t.bm);
    queue_.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(blocks_n * lx, blocks_m * ly),
                                cl::NDRange(lx, ly));
    std::vector<float> out(c.size());
    queue_.enqueueReadBuffer(dc, CL_TRUE, 0, out.size() * sizeof(float), out.data());
    return worstRelativeError(a, b, c, out, m, n, k, alpha, beta);
  }

  const clgemm::SelectedDevice device_ = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context_{device_.device};
  cl::CommandQueue queue_{context_, device_.device};
  std::optional<cl::Program> program_;
};

// K-steps: one (fewer than the stages), and 7 and 11 (the ring wraps part of the way round);
// two block rows and three block columns, so that the swizzled order and both tile corners count.
TEST_P(SimtAsyncKernel, EveryElementMatchesTheReference) {
  const Tiles t = GetParam();
  if (t.edge) {
    // Off the tiles (at least a block; the host pads smaller problems): the last block row and
    // column moved back over the ones before them by a few rows and columns and by all but one
    // (or four), a partial last K-step and a K shorter than one step; N a multiple of 4 (edge 1)
    // or odd (edge 2: B's lines start anywhere).
    const int odd = t.edge == 2 ? 1 : 0;
    for (const int steps : {1, 7, 11}) {
      SCOPED_TRACE("K-steps " + std::to_string(steps));
      const int m = 2 * t.bm - 3, n = 3 * t.bn - 4 - odd, k = steps * t.bk - 1;
      EXPECT_LT(worstError(m, n, k, 1.0f, 0.0f, 11u * steps), 1e-5);
      EXPECT_LT(worstError(m, n, k, 1.5f, 0.5f, 13u * steps), 1e-5);
      EXPECT_LT(worstError(t.bm + 1, t.bn + 4 + odd, k + 2, 1.5f, 0.5f, 17u * steps), 1e-5);
    }
    EXPECT_LT(worstError(t.bm, t.bn + 8 - odd, 1, 1.5f, 0.5f, 19u), 1e-5);
    return;
  }
  for (const int steps : {1, 7, 11}) {
    SCOPED_TRACE("K-steps " + std::to_string(steps));
    EXPECT_LT(worstError(2 * t.bm, 3 * t.bn, steps * t.bk, 1.0f, 0.0f, 11u * steps), 1e-5);
    EXPECT_LT(worstError(2 * t.bm, 3 * t.bn, steps * t.bk, 1.5f, 0.5f, 13u * steps), 1e-5);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, SimtAsyncKernel,
    ::testing::Values(Tiles{128, 128, 8, 8, 8, 4}, Tiles{256, 64, 8, 16, 8, 3},
                      Tiles{64, 64, 16, 8, 4, 2}, Tiles{64, 128, 8, 8, 16, 5},
                      Tiles{128, 128, 16, 8, 8, 2, 1}, Tiles{256, 64, 8, 16, 8, 3, 1},
                      Tiles{64, 128, 8, 8, 16, 5, 1},
                      // sizes off the tiles, N a multiple of 4 (edge 1) or odd (edge 2)
                      Tiles{128, 128, 16, 8, 8, 2, 0, 1}, Tiles{128, 128, 32, 8, 8, 2, 0, 1},
                      Tiles{256, 64, 8, 16, 8, 3, 0, 1}, Tiles{64, 128, 32, 8, 8, 4, 0, 1},
                      Tiles{128, 128, 16, 8, 8, 2, 0, 2}, Tiles{256, 64, 8, 16, 8, 3, 0, 2},
                      Tiles{64, 128, 32, 8, 8, 4, 0, 2}),
    [](const auto& info) { return label(info.param); });

// ------------------------------------------------------------------------------------------------
// The host's choice of A's form (A_KM) and the copies it makes, through the plan the command line
// and the library run (KernelPlan), with the kernel's plain copies (SA_PTX = 0) on the machine's
// device: which form each stored shape gets, how many launches, and every element of C.

struct PlanCase {
  std::string name;
  int m, n, k;
  clgemm::GemmShape shape;
  std::vector<std::string> defines;
  bool a_transposed;  // A_KM as derived
  int launches;       // copies and the GEMM
};

TEST(SimtAsyncPlan, AIsReadTransposedWhereItIsFreeOrFromAtFromAndEdgesBelowPadFrom) {
  using clgemm::Layout;
  using clgemm::Trans;
  clgemm::Variant v = registryVariant("simt-async");
  v.unsupported = nullptr;  // plain copies (SA_PTX = 0) run anywhere
  const clgemm::SelectedDevice device = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context(device.device);
  cl::CommandQueue queue(context, device.device);
  clgemm::ProgramCache programs(context, device.device, clgemm_test::sourceKernels(), "kernels.cl");
  const std::vector<std::string> tiles = {"BM=64", "BN=64", "BK=8", "TM=8", "TN=4"};
  const auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), tiles.begin(), tiles.end());
    return extra;
  };
  const std::vector<PlanCase> cases = {
      // Tile multiples, row-major NN: below AT_FROM as before (no copy); from it a transposing
      // copy.
      {"NN below AT_FROM", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN},
       with({}), false, 1},
      {"NN from AT_FROM", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN},
       with({"AT_FROM=0"}), true, 2},
      // A stored transposed and packed: read as it is, no copy.
      {"TN packed", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN}, with({}),
       true, 1},
      // ... with gaps between its lines: one copy, which packs it.
      {"TN lda 136", 128, 192, 40, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN, 136},
       with({}), true, 2},
      // Odd sizes from PAD_FROM (PAD_FROM_UNALIGNED where N is not a multiple of 4) or smaller
      // than a block: padding copies of A, B, C (in and out, beta != 0) anyway, so A^T.
      {"NN padded from PAD_FROM", 130, 68, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({"PAD_FROM=0"}), true, 5},
      {"col NT padded below a block", 70, 50, 13,
       clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kT}, with({}), true, 5},
      {"NN padded from PAD_FROM_UNALIGNED", 130, 70, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({"PAD_FROM_UNALIGNED=0"}), true,
       5},
      // Otherwise the kernel's edges, A read as it is (M x K): no copy for NN, one that
      // transposes a stored A^T back, one for the column-major problem's transposed operand
      // (whose kernel view is 70 x 132: C^T).
      {"NN edge", 130, 68, 13, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({}),
       false, 1},
      {"TN edge", 130, 68, 13, clgemm::GemmShape{Layout::kRow, Trans::kT, Trans::kN}, with({}),
       false, 2},
      {"col NT edge", 132, 70, 13, clgemm::GemmShape{Layout::kCol, Trans::kN, Trans::kT}, with({}),
       false, 2},
      {"NN edge, N not a multiple of 4", 130, 70, 13,
       clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN}, with({}), false, 1},
      {"NN edge, N odd", 131, 67, 13, clgemm::GemmShape{Layout::kRow, Trans::kN, Trans::kN},
       with({}), false, 1},
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (const PlanCase& c : cases) {
    SCOPED_TRACE(c.name);
    const clgemm::GemmStorage stored = clgemm::gemmStorage(c.m, c.n, c.k, c.shape);
    const clgemm::RowMajorGemm rm = clgemm::rowMajorGemm(c.m, c.n, c.k, stored);
    clgemm::KernelPlan plan(v, clgemm_test::definesOf(v, c.defines),
                            clgemm::PlanTarget{device.info, device.device, programs},
                            clgemm::Precision::kFp32, rm, "-D SA_PTX=0", nullptr);
    bool found = false;
    for (const auto& d : plan.derived()) {
      if (d.name != "A_KM") continue;
      found = true;
      EXPECT_EQ(d.value, c.a_transposed ? "1" : "0");
    }
    EXPECT_TRUE(found) << "no A_KM among the derived defines";

    // The kernel's view: A rm.m x rm.k, B rm.k x rm.n, C rm.m x rm.n, each stored as rm says.
    std::vector<double> a(std::size_t(rm.m) * rm.k), b(std::size_t(rm.k) * rm.n),
        c0(std::size_t(rm.m) * rm.n);
    for (auto* x : {&a, &b, &c0})
      for (double& e : *x) e = double(float(value(rng)));
    const auto upload = [&](const std::vector<double>& logical, const clgemm::MatrixStorage& st) {
      clgemm::HostMatrix h = clgemm::storeMatrix(logical, st, clgemm::Precision::kFp32);
      return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h.bytes(), h.data());
    };
    const cl::Buffer ka = upload(a, rm.a), kb = upload(b, rm.b), dc = upload(c0, rm.c);
    // The plan takes the caller's A and B; for a column-major problem the kernel's A is B.
    const clgemm::PlanOperands operands{rm.swapped ? kb : ka, rm.swapped ? ka : kb, dc};
    const float alpha = 1.5f, beta = 0.5f;
    const auto launches =
        plan.bind(operands, alpha, beta, [&](std::size_t count, const std::string&, bool zeroed) {
          cl::Buffer buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(count, 1) * 4);
          if (zeroed) queue.enqueueFillBuffer(buffer, 0.0f, 0, std::max<std::size_t>(count, 1) * 4);
          return buffer;
        });
    EXPECT_EQ(int(launches.size()), c.launches);
    clgemm::enqueueLaunches(queue, launches);
    clgemm::HostMatrix out(clgemm::Precision::kFp32, rm.c.count());
    queue.enqueueReadBuffer(dc, CL_TRUE, 0, out.bytes(), out.data());
    const std::vector<double> got = clgemm::gatherMatrix(out, rm.c);
    EXPECT_LT(worstRelativeError(a, b, c0, got, rm.m, rm.n, rm.k, alpha, beta), 1e-5);
  }
}

}  // namespace
