// encodeSwizzledFloatTiles (cuda/tensor_map.hpp), which tc-tf32-tma's plan calls, where it cannot
// encode: a box row with no swizzle is refused before the CUDA driver is asked, and on a machine
// without NVIDIA's driver (CI's) the error names libcuda.so.1. The encoding itself needs the driver
// and a GPU; tc-tf32-tma's results on the H100 and the H200 check it (docs/performance.md).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "opencl/device.hpp"
#include "cuda/tensor_map.hpp"
#include "util/errors.hpp"

namespace {

std::string encodeError(int box_cols) {
  clgemm::DeviceInfo device;
  device.name = "described GPU";
  try {
    clgemm::encodeSwizzledFloatTiles(device, 256, 256, 256, 128, box_cols);
  } catch (const clgemm::RuntimeError& e) {
    return e.what();
  }
  return "";
}

TEST(TensorMap, ABoxRowWithoutASwizzleIsRefusedNamingIt) {
  const std::string why = encodeError(12);
  EXPECT_NE(why.find("256 x 256 matrix in 128 x 12 boxes"), std::string::npos) << why;
  EXPECT_NE(why.find("12 floats has no swizzle (8, 16 or 32 floats"), std::string::npos) << why;
}

TEST(TensorMap, WithoutNvidiasDriverTheErrorNamesIt) {
  if (void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(cuda);
    GTEST_SKIP() << "this machine has libcuda.so.1";
  }
  const std::string why = encodeError(32);
  EXPECT_NE(why.find("tensor map of a 256 x 256 matrix"), std::string::npos) << why;
  EXPECT_NE(why.find("libcuda.so.1 (NVIDIA's CUDA driver) could not be loaded"), std::string::npos)
      << why;
}

}  // namespace
