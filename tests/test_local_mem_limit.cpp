// How much local memory a work-group may declare (groupLocalMemLimit) and what the launch check
// does with it. NVIDIA's OpenCL reports 48 KiB (CL_DEVICE_LOCAL_MEM_SIZE), which binds only
// __local kernel arguments: kernels whose __local arrays take CUDA's per-block maximum build and
// run (measured on an H100, docs/performance.md), so on NVIDIA GPUs of a known compute capability
// the check allows that maximum, and everywhere else the reported size. Pure host logic on
// described devices: no device is needed.
#include <gtest/gtest.h>

#include <string>

#include "opencl/device.hpp"
#include "registry/kernels.hpp"
#include "report/kernel_figures.hpp"
#include "run/launch.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::definesOf;
using clgemm_test::registryVariant;

clgemm::DeviceInfo described(std::uint64_t local_bytes, std::optional<int> major = std::nullopt,
                             std::optional<int> minor = std::nullopt) {
  clgemm::DeviceInfo d;
  d.name = "described GPU";
  d.vendor = major ? "NVIDIA Corporation" : "Some Vendor";
  d.is_gpu = true;
  d.max_work_group_size = 1024;
  d.max_work_item_sizes = {1024, 1024, 64};
  d.local_mem_bytes = local_bytes;
  d.nv_cc_major = major;
  d.nv_cc_minor = minor;
  return d;
}

TEST(GroupLocalMemLimit, NvidiaGetsCudasPerBlockMaximum) {
  EXPECT_EQ(clgemm::groupLocalMemLimit(described(49152, 9, 0)), 227u * 1024);  // H100, H200
  EXPECT_EQ(clgemm::groupLocalMemLimit(described(49152, 8, 0)), 163u * 1024);  // A100
  EXPECT_EQ(clgemm::groupLocalMemLimit(described(49152, 8, 9)), 99u * 1024);   // Ada
  EXPECT_EQ(clgemm::groupLocalMemLimit(described(49152, 7, 5)), 64u * 1024);   // Turing
}

TEST(GroupLocalMemLimit, ElsewhereTheReportedSize) {
  EXPECT_EQ(clgemm::groupLocalMemLimit(described(65536)), 65536u);  // not NVIDIA
  // A capability the table does not know yet: nothing beyond what the driver says.
  EXPECT_EQ(clgemm::groupLocalMemLimit(described(49152, 11, 0)), 49152u);
  // Before Volta CUDA's maximum was 48 KiB too.
  EXPECT_EQ(clgemm::groupLocalMemLimit(described(49152, 6, 1)), 49152u);
}

// tc-tf32-wg's defaults take 147 KiB: allowed on a described H100, refused with the limit named
// where the driver's 48 KiB is all there is; past 227 KiB refused on the H100 too.
TEST(GroupLocalMemLimit, TheLaunchCheckUsesIt) {
  const auto& v = registryVariant("tc-tf32-wg");
  const auto defaults = definesOf(v, {});
  const auto shape = v.shape(defaults, 4096, 4096);
  ASSERT_GT(v.local_mem_bytes(defaults, sizeof(float)), 49152u);
  EXPECT_EQ(clgemm::findConfigIssue(described(49152, 9, 0), v, defaults, shape, sizeof(float)),
            std::nullopt);

  const auto small = clgemm::findConfigIssue(described(49152), v, defaults, shape, sizeof(float));
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->kind, "local memory");
  EXPECT_NE(small->message.find("a work-group may have 49152"), std::string::npos)
      << small->message;

  const auto big = definesOf(v, {"BM=256", "BN=256", "BK=32", "STAGES=4"});
  const auto too_much = clgemm::findConfigIssue(described(49152, 9, 0), v, big,
                                                v.shape(big, 4096, 4096), sizeof(float));
  ASSERT_TRUE(too_much.has_value());
  EXPECT_NE(too_much->message.find("a work-group may have " + std::to_string(227 * 1024)),
            std::string::npos)
      << too_much->message;
}

}  // namespace
