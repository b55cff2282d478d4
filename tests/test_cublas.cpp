// The cuBLAS baselines (cublas, cublas-tf32): registered as baselines, taken by --compare, and on a
// device they cannot run on (pocl in CI, which is no NVIDIA GPU) reported as skipped with the
// reason, not as a failure. Where the CUDA libraries do not load, the reason names the library.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuda/cuda_library.hpp"
#include "opencl/device.hpp"
#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::registryVariant;
using clgemm_test::runClgemm;
using nlohmann::json;

bool hasNvidiaOpenClDevice() {
  for (const auto& d : clgemm::allDevices())
    if (d.info.vendor.find("NVIDIA") != std::string::npos) return true;
  return false;
}

TEST(Cublas, BothAreBaselinesOnTheOpenClDevicesGpu) {
  const auto& fp32 = registryVariant("cublas");
  const auto& tf32 = registryVariant("cublas-tf32");
  for (const auto* v : {&fp32, &tf32}) {
    EXPECT_EQ(v->backend, clgemm::Backend::kCublas) << v->name;
    EXPECT_TRUE(v->isBaseline()) << v->name;
    EXPECT_TRUE(v->needsOpenCl()) << v->name;
    EXPECT_TRUE(v->unsupported) << v->name;
  }
  EXPECT_EQ(fp32.arithmetic, clgemm::Arithmetic::kFp32);
  EXPECT_EQ(tf32.arithmetic, clgemm::Arithmetic::kTf32);
  EXPECT_TRUE(clgemm::backendBuilt(clgemm::Backend::kCublas));  // always: loaded at run time
}

TEST(Cublas, CompareTakesThem) {
  const auto chosen = clgemm::parseCompareList("cublas,cublas-tf32,cublas");
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_EQ(chosen[0]->name, "cublas");
  EXPECT_EQ(chosen[1]->name, "cublas-tf32");
  try {
    clgemm::parseCompareList("cublass");
    FAIL() << "unknown baseline accepted";
  } catch (const clgemm::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cublas, cublas-tf32"), std::string::npos) << e.what();
  }
}

TEST(Cublas, UnknownBaselineMessageListsThem) {
  const auto r = runClgemm({"--kernel", "naive", "--compare", "foo", "--size", "5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'foo'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cublas"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cublas-tf32"), std::string::npos) << r.err;
}

// Not an NVIDIA GPU: skipped with the vendor named, before any CUDA library is looked for.
TEST(Cublas, OtherVendorsAreSkippedWithTheReason) {
  clgemm::DeviceInfo cpu;
  cpu.name = "Some CPU";
  cpu.vendor = "GenuineIntel";
  for (const char* name : {"cublas", "cublas-tf32"}) {
    const auto why = clgemm::unsupportedOn(registryVariant(name), cpu);
    ASSERT_TRUE(why) << name;
    EXPECT_NE(why->find("NVIDIA"), std::string::npos) << *why;
    EXPECT_NE(why->find("Some CPU is from GenuineIntel"), std::string::npos) << *why;
  }
}

// An NVIDIA GPU: runnable exactly when the CUDA libraries load, else the loader's reason.
TEST(Cublas, OnNvidiaTheLoaderDecides) {
  clgemm::DeviceInfo gpu;
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.vendor = "NVIDIA Corporation";
  const auto& problem = clgemm::CudaLibrary::get().problem();
  for (const char* name : {"cublas", "cublas-tf32"}) {
    const auto why = clgemm::unsupportedOn(registryVariant(name), gpu);
    EXPECT_EQ(why, problem) << name;
  }
  if (problem) {
    const bool names_library =
        problem->rfind("libcudart.so could not be loaded (dlopen: ", 0) == 0 ||
        problem->rfind("libcublas.so could not be loaded (dlopen: ", 0) == 0 ||
        problem->find(" has no ") != std::string::npos;
    EXPECT_TRUE(names_library) << *problem;
    EXPECT_NE(problem->find("install"), std::string::npos) << *problem;
  }
}

TEST(Cublas, PciBusIdIsCudasForm) {
  EXPECT_EQ(clgemm::pciBusId({0, 0x1b, 6, 0}), "0000:1b:06.0");
  EXPECT_EQ(clgemm::pciBusId({2, 0xc1, 0x1f, 1}), "0002:c1:1f.1");
}

TEST(Cublas, StatusNames) {
  EXPECT_EQ(clgemm::cublasStatusName(15), "CUBLAS_STATUS_NOT_SUPPORTED (15)");
  EXPECT_EQ(clgemm::cublasStatusName(99), "cublasStatus_t (99)");
}

// End to end on the machine's OpenCL device: on anything but an NVIDIA GPU both rows are skipped
// with the reason, and the run still succeeds.
TEST(Cublas, SkippedRowsOnANonNvidiaDevice) {
  if (hasNvidiaOpenClDevice()) GTEST_SKIP() << "an NVIDIA GPU is present; cuBLAS may run here";
  const auto r = runClgemm({"--kernel", "naive", "--compare", "cublas,cublas-tf32", "--size", "16",
                            "--reps", "1", "--warmup", "0", "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json doc = clgemm_test::parseReport(r);
  ASSERT_EQ(doc["results"].size(), 3u) << doc.dump();
  EXPECT_EQ(doc["results"][0]["status"], "ok") << doc.dump();
  for (int i : {1, 2}) {
    const auto& row = doc["results"][i];
    EXPECT_EQ(row["variant"], i == 1 ? "cublas" : "cublas-tf32");
    EXPECT_EQ(row["status"], "skipped") << row.dump();
    EXPECT_NE(row["message"].get<std::string>().find("NVIDIA"), std::string::npos) << row.dump();
  }
  EXPECT_EQ(doc["results"][2]["precision"], "tf32") << doc["results"][2].dump();
}

// On an NVIDIA GPU with the CUDA libraries: cuBLAS's runs verify, and every timed run's stream
// waited at its gate for the whole call to be enqueued (none went on by the gate's timeout, which
// the row's message would name), in both math modes and with beta != 0 (C uploaded before each).
TEST(Cublas, OnAnNvidiaGpuEveryTimedRunWaitsForTheWholeCall) {
  if (!hasNvidiaOpenClDevice() || clgemm::CudaLibrary::get().problem())
    GTEST_SKIP() << "no NVIDIA GPU with the CUDA libraries here";
  const auto r = runClgemm({"--kernel", "naive", "--compare", "cublas,cublas-tf32", "--size", "96",
                            "--beta", "0.5", "--reps", "30", "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json doc = clgemm_test::parseReport(r);
  ASSERT_EQ(doc["results"].size(), 3u) << doc.dump();
  for (int i : {1, 2}) {
    const auto& row = doc["results"][i];
    EXPECT_EQ(row["status"], "ok") << row.dump();
    EXPECT_EQ(row["message"].get<std::string>().find("gate"), std::string::npos) << row.dump();
  }
}

// A bare clgemm keeps its two baselines: cuBLAS runs only when asked for.
TEST(Cublas, NotADefaultBaseline) {
  const auto r = runClgemm({"--size", "8", "--reps", "1", "--warmup", "0", "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json doc = clgemm_test::parseReport(r);
  for (const auto& row : doc["results"]) {
    EXPECT_NE(row["variant"], "cublas") << row.dump();
    EXPECT_NE(row["variant"], "cublas-tf32") << row.dump();
  }
}

}  // namespace
