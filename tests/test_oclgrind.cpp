// Every OpenCL kernel under oclgrind, a simulator that checks each memory access: out-of-bounds
// reads and writes, data races in local and global memory, uses of uninitialised values and OpenCL
// API misuse. A kernel can pass verification and still read past a buffer or race (the value read
// may happen to be right), so these runs fail on any report in oclgrind's log, whatever the exit
// code. Labelled "oclgrind" in ctest: `ctest -L oclgrind` runs only these.
//
// Kernels are built with -cl-opt-disable here: oclgrind 21.10's uninitialised-value checker stops
// with "Unsupported instruction: freeze" on the optimiser's output for best and transposed-b.
//
// A kernel the registry says oclgrind's device cannot run (the tensor-core ones, which need
// NVIDIA's compiler and GPU) must be reported skipped with the reason, cleanly. Their section of
// kernels.cl is compiled only when named, so the file still builds as a whole (no
// CLGEMM_ONE_KERNEL), as oclgrind's and offline compilers take it; OclgrindWholeFile checks that.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "opencl/device.hpp"
#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::runProgram;
using clgemm_test::TempDir;
using nlohmann::json;

// oclgrind's device as the registry sees it, read from oclgrind's own runtime (its ICD library,
// found by CMake beside the oclgrind it found), so the test asks clgemm::unsupportedOn about the
// device the runs below use instead of guessing. Any failure to open it fails the test that asks.
const clgemm::DeviceInfo& oclgrindDevice() {
  static const clgemm::DeviceInfo info = [] {
    const std::string library = CLGEMM_OCLGRIND_ICD;
    if (library.empty() || library.find("NOTFOUND") != std::string::npos)
      throw std::runtime_error("oclgrind's runtime (liboclgrind-rt-icd.so) was not found by CMake");
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error("dlopen " + library + ": " + dlerror());
    using GetPlatforms = cl_int (*)(cl_uint, cl_platform_id*, cl_uint*);
    const auto get = reinterpret_cast<GetPlatforms>(dlsym(handle, "clIcdGetPlatformIDsKHR"));
    cl_platform_id platform = nullptr;
    cl_uint count = 0;
    if (!get || get(1, &platform, &count) != CL_SUCCESS || count == 0)
      throw std::runtime_error(library + " gave no OpenCL platform");
    std::vector<cl::Device> devices;
    cl::Platform(platform).getDevices(CL_DEVICE_TYPE_ALL, &devices);
    if (devices.empty()) throw std::runtime_error(library + " has no device");
    return clgemm::describeDevice(devices[0], 0, 0);
  }();
  return info;
}

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
    {"simt-async", {"BM=64", "BN=64", "BK=8", "TM=8", "TN=4", "STAGES=3", "PADB=0", "GROUP_M=3"}},
    {"tc-tf32", {"BM=64", "BN=64", "WM=32", "WN=32", "GROUP_M=3"}},
    {"tc-3xtf32", {"BM=64", "BN=128", "BK=32", "WM=32", "WN=32", "STAGES=1"}},
    {"tc-tf32-wg", {"BM=64", "BN=256", "BK=16", "STAGES=3", "GROUP_M=3"}},
    {"tc-tf32-tma", {"BM=64", "BN=128", "BK=16", "STAGES=2", "GROUP_M=3"}},
    {"tc-tf32-rs", {"BM=64", "BN=128", "STAGES=2", "GROUP_M=3"}},
    {"tc-tf32-ws", {"BM=64", "BN=128", "STAGES=2", "GROUP_M=3"}},
    {"tc-tf32-fused", {"BM=64", "BN=128", "STAGES=2", "GROUP_M=3"}},
    {"tc-3xtf32-wg", {"BM=128", "BN=64", "STAGES=3", "GROUP_M=3", "CHUNK=3", "TOTALS_MEM=1"}},
    {"tc-3xtf32-ws", {"BM=64", "BN=64", "STAGES=2", "GROUP_M=3", "CHUNK=3"}},
    {"tc-3xtf32-f16", {"BM=64", "BN=64", "STAGES=2", "GROUP_M=3", "CHUNK=3"}},
};

// beta != 0 reads C0 into every result; beta = 0, the default and most common call, must never
// read C (it holds NaN then): the kernels take another path, which oclgrind checks as well.
struct Scalars {
  std::string alpha, beta;
};
const Scalars kWithC{"1.5", "-0.5"};
const Scalars kWithoutC{"1.5", "0"};

struct OclgrindRun {
  int exit_code = -1;
  std::string log;  // everything oclgrind reported
  json report;      // clgemm's JSON report
  std::string err;
};

// clgemm under oclgrind with every checker on; `kernels` replaces the repository's kernels.cl.
// `build_options` go to oclgrind's compiler after clgemm's own options.
// `extra` adds clgemm options (e.g. a shape).
OclgrindRun underOclgrind(const std::string& variant, const Shape& s,
                          const std::vector<std::string>& defines, const std::string& kernels = "",
                          const std::string& build_options = "", const Scalars& scalars = kWithC,
                          const std::vector<std::string>& extra = {}) {
  TempDir dir;
  const std::string log = dir.file("oclgrind.log");
  std::vector<std::string> command = {"oclgrind",
                                      "--data-races",
                                      "--uninitialized",
                                      "--check-api",
                                      "--log",
                                      log,
                                      "--build-options",
                                      build_options,
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
                                      scalars.alpha,
                                      "--beta",
                                      scalars.beta,
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
  command.insert(command.end(), extra.begin(), extra.end());
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

std::string describe(const Shape& s, const std::vector<std::string>& defines,
                     const Scalars& scalars = kWithC) {
  std::string text = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                     " alpha " + scalars.alpha + " beta " + scalars.beta;
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

// Every shape with both parameter sets, once with beta != 0 and once with beta = 0. A kernel
// oclgrind's device cannot run (as the registry says) is checked to be skipped with the registry's
// reason, and without a report from oclgrind.
void expectCleanEverywhere(const std::string& variant, const Scalars& scalars) {
  const auto other = kOtherParams.find(variant);
  ASSERT_NE(other, kOtherParams.end())
      << variant << " has no non-default parameter set in kOtherParams: add one";
  const clgemm::DeviceInfo& device = oclgrindDevice();
  for (const auto& defines : {std::vector<std::string>{}, other->second}) {
    for (const Shape& s : kShapes) {
      const OclgrindRun run = underOclgrind(variant, s, defines, "", "", scalars);
      const std::string what = variant + " at " + describe(s, defines, scalars);
      EXPECT_EQ(run.log, "") << what << ": oclgrind reported:\n" << run.log;
      EXPECT_EQ(run.exit_code, 0) << what << "\n" << run.err;
      ASSERT_TRUE(run.report.contains("results")) << what << "\n" << run.err;
      const json& row = run.report["results"][0];
      if (!clgemm_test::checkedAsUnsupported(row, device))
        EXPECT_EQ(row["status"], "ok") << what << "\n" << run.err;
    }
  }
}

TEST_P(Oclgrind, CleanWithBetaNonZero) { expectCleanEverywhere(GetParam(), kWithC); }

TEST_P(Oclgrind, CleanWithBetaZero) { expectCleanEverywhere(GetParam(), kWithoutC); }

// The tensor-core kernels need NVIDIA's compiler and GPU: oclgrind's simulated device is neither.
TEST(OclgrindDevice, CannotRunTheTensorCoreKernels) {
  for (const char* name :
       {"tc-tf32", "tc-3xtf32", "tc-tf32-wg", "tc-tf32-tma", "tc-tf32-rs", "tc-tf32-ws",
        "tc-tf32-fused", "tc-3xtf32-wg", "tc-3xtf32-ws", "tc-3xtf32-f16"}) {
    const auto why = clgemm_test::unsupportedOnDevice(name, oclgrindDevice());
    ASSERT_TRUE(why.has_value()) << name << " on " << oclgrindDevice().name;
    EXPECT_NE(why->find("NVIDIA"), std::string::npos) << *why;
  }
}

// kernels.cl as a whole, as oclgrind's compiler (or an offline one) takes it without
// CLGEMM_ONE_KERNEL: every section but the tensor cores' compiles, and a kernel from it runs
// clean. The -U after clgemm's -D CLGEMM_ONE_KERNEL makes the build a whole-file one.
const std::string kWholeFile = "-U CLGEMM_ONE_KERNEL";

TEST(OclgrindWholeFile, BuildsAndRunsClean) {
  const OclgrindRun run = underOclgrind("naive", {33, 17, 9}, {}, "", kWholeFile);
  EXPECT_EQ(run.log, "") << "oclgrind reported:\n" << run.log;
  EXPECT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(run.report.contains("results")) << run.err;
  EXPECT_EQ(run.report["results"][0]["status"], "ok") << run.err;
}

TEST(OclgrindWholeFile, CompilesTheOtherSectionsToo) {
  // The harness: an #error in best's section breaks naive's build only in a whole-file build.
  std::string text = clgemm_test::sourceKernels();
  const std::string guard = "defined(KERNEL_gemm_best)\n";
  const auto at = text.find(guard);
  ASSERT_NE(at, std::string::npos) << "best's section not found in kernels.cl";
  text.insert(at + guard.size(), "#error planted in best's section\n");
  TempDir dir;
  clgemm_test::writeText(dir.file("planted.cl"), text);
  const OclgrindRun one = underOclgrind("naive", {5, 3, 4}, {}, dir.file("planted.cl"));
  EXPECT_EQ(one.exit_code, 0) << one.err;
  const OclgrindRun whole =
      underOclgrind("naive", {5, 3, 4}, {}, dir.file("planted.cl"), kWholeFile);
  EXPECT_EQ(whole.exit_code, 2) << whole.err;
  EXPECT_NE(whole.err.find("planted in best's section"), std::string::npos) << whole.err;
}

TEST(OclgrindWholeFile, TheTensorCoreSectionIsLeftOut) {
  // Its inline PTX is NVIDIA's extension: compiled in (named), the same whole-file build fails.
  const OclgrindRun run =
      underOclgrind("naive", {5, 3, 4}, {}, "", kWholeFile + " -D KERNEL_gemm_tc_tf32");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("asm"), std::string::npos) << run.err;
}

// best's other way with sizes that divide no tile: padding copies in and out (forced here; on a
// GPU they start at PAD_FROM = 4000), C copied in as well at beta = -0.5 and not at beta = 0.
TEST(OclgrindPadding, BestPaddingCopiesAreClean) {
  for (const Scalars& scalars : {kWithC, kWithoutC}) {
    for (const Shape& s : {Shape{33, 17, 9}, Shape{20, 45, 11}, Shape{1, 1, 1}}) {
      const OclgrindRun run = underOclgrind("best", s, {"PAD_FROM=0"}, "", "", scalars);
      const std::string what = "best at " + describe(s, {"PAD_FROM=0"}, scalars);
      EXPECT_EQ(run.log, "") << what << ": oclgrind reported:\n" << run.log;
      EXPECT_EQ(run.exit_code, 0) << what << "\n" << run.err;
      ASSERT_TRUE(run.report.contains("results")) << what << "\n" << run.err;
      EXPECT_EQ(run.report["results"][0]["status"], "ok") << what << "\n" << run.err;
      EXPECT_TRUE(run.report["results"][0]["defines"].contains("PADDED_M")) << what;
    }
  }
}

// Shapes (#26): a column-major problem with gaps between every matrix's lines, TN and NT (the
// kernel's NT and TN: one operand read across its stored lines, the other along them): best reads
// them in the kernel (with edges; PAD_FROM out of reach), tiled through copy_matrix's copies in
// and out. A read of a gap would be a NaN and fail verification; oclgrind checks every access
// besides. One shape per process: oclgrind 21.10 reports values read from buffers allocated after
// others were freed (a later size or shape of one run) as uninitialised, even where they verify.
TEST(OclgrindShapes, ColumnMajorTransposesWithGapsAreClean) {
  const std::vector<std::string> gaps = {"--layout", "col", "--lda", "40",
                                         "--ldb",    "21",  "--ldc", "50"};
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"best", {"PAD_FROM=100000"}}, {"tiled", {}}};
  for (const auto& [variant, defines] : runs) {
    for (const auto& [trans_a, trans_b] : {std::pair{"t", "n"}, std::pair{"n", "t"}}) {
      std::vector<std::string> shape = gaps;
      shape.insert(shape.end(), {"--trans-a", trans_a, "--trans-b", trans_b});
      const OclgrindRun run = underOclgrind(variant, {33, 17, 9}, defines, "", "", kWithC, shape);
      const std::string what =
          variant + " col " + trans_a + trans_b + " at " + describe({33, 17, 9}, defines);
      EXPECT_EQ(run.log, "") << what << ": oclgrind reported:\n" << run.log;
      EXPECT_EQ(run.exit_code, 0) << what << "\n" << run.err;
      ASSERT_TRUE(run.report.contains("results")) << what << "\n" << run.err;
      EXPECT_EQ(run.report["results"][0]["status"], "ok") << what << "\n" << run.err;
    }
  }
}

// FP64 (#26, kernels.cl's REAL = double with -D FP64=1): best in the kernel at odd sizes in a
// column-major shape with gaps, at an exact tile multiple (EDGE = 0, the aligned REAL4 loads and
// stores, 32 bytes each in double) and with padding copies; tiled through copy_matrix's copies in
// and out. oclgrind's device has 32 KiB of local memory: best's default tiles need 34816 bytes in
// double (the host refuses them before building), so its rows are padded by 0 here (exactly
// 32 KiB) or take kOtherParams' smaller tiles.
TEST(OclgrindFp64, BestAndTiledAreClean) {
  const std::vector<std::string> fp64 = {"--precision", "fp64"};
  std::vector<std::string> col_gaps = {"--layout", "col",   "--lda", "40",        "--ldb",
                                       "21",       "--ldc", "50",    "--trans-a", "t"};
  col_gaps.insert(col_gaps.end(), fp64.begin(), fp64.end());
  const std::vector<std::string> fitting = {"PADA=0", "PADB=0"};
  const auto with = [](std::vector<std::string> defines, const std::string& more) {
    defines.push_back(more);
    return defines;
  };
  struct Run {
    std::string variant;
    Shape shape;
    std::vector<std::string> defines, extra;
  };
  const std::vector<Run> runs = {
      {"best", {33, 17, 9}, with(fitting, "PAD_FROM=100000"), col_gaps},
      {"best", {33, 17, 9}, with(kOtherParams.at("best"), "PAD_FROM=100000"), fp64},
      {"best", {64, 64, 32}, with(fitting, "PAD_FROM=100000"), fp64},
      {"best", {33, 17, 9}, with(fitting, "PAD_FROM=0"), fp64},
      {"tiled", {33, 17, 9}, {}, col_gaps},
  };
  for (const Run& r : runs) {
    const OclgrindRun run = underOclgrind(r.variant, r.shape, r.defines, "", "", kWithC, r.extra);
    const std::string what = r.variant + " in fp64 at " + describe(r.shape, r.defines);
    EXPECT_EQ(run.log, "") << what << ": oclgrind reported:\n" << run.log;
    EXPECT_EQ(run.exit_code, 0) << what << "\n" << run.err;
    ASSERT_TRUE(run.report.contains("results")) << what << "\n" << run.err;
    const json& row = run.report["results"][0];
    EXPECT_EQ(row["status"], "ok") << what << "\n" << run.err;
    EXPECT_EQ(row["defines"].value("FP64", ""), "1") << what << ": " << row.dump();
  }
}

// The whole file builds with FP64 = 1 as well (every section in double where it uses REAL, the
// FP32-only ones unchanged), and a kernel from it runs clean.
TEST(OclgrindFp64, WholeFileBuildsAndRunsClean) {
  const OclgrindRun run =
      underOclgrind("naive", {33, 17, 9}, {}, "", kWholeFile, kWithC, {"--precision", "fp64"});
  EXPECT_EQ(run.log, "") << "oclgrind reported:\n" << run.log;
  EXPECT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(run.report.contains("results")) << run.err;
  EXPECT_EQ(run.report["results"][0]["status"], "ok") << run.err;
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
