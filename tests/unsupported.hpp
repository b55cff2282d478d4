// Which variants can run on the device a test's clgemm run uses, and what a report row of one that
// cannot must say. The registry decides (clgemm::unsupportedOn with the device's description),
// never a list of names in a test: a variant that needs hardware the device lacks (the tensor-core
// kernels off NVIDIA's Ampere and newer, cuBLAS off NVIDIA) is reported "skipped" with the reason,
// and every test that runs all variants checks exactly that for it. Header-only: it needs
// clgemm_core, which the test executables link and the support library does not.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"

namespace clgemm_test {

// The device a clgemm run without --platform and --device picks (the first GPU, else the first
// device), described once per test process.
inline const clgemm::DeviceInfo& defaultDevice() {
  static const clgemm::DeviceInfo info = clgemm::selectDevice(std::nullopt, std::nullopt).info;
  return info;
}

inline const clgemm::Variant& registryVariant(const std::string& name) {
  for (const auto& v : clgemm::variants())
    if (v.name == name) return v;
  throw std::runtime_error("no variant " + name + " in the registry");
}

// The variant's parameters resolved with `args` ("NAME=VALUE") as -D, for constraint tests.
inline clgemm::ResolvedDefines definesOf(const clgemm::Variant& v,
                                         const std::vector<std::string>& args) {
  std::vector<clgemm::UserDefine> user;
  for (const auto& a : args) user.push_back(clgemm::parseDefine(a));
  return clgemm::ResolvedDefines(v.params, user);
}

// Why `variant` cannot run on `device`, as the registry says, or nothing when it can.
inline std::optional<std::string> unsupportedOnDevice(const std::string& variant,
                                                      const clgemm::DeviceInfo& device) {
  return clgemm::unsupportedOn(registryVariant(variant), device);
}

// Checks a report row (JSON) as the registry expects it on `device`: where the row's variant cannot
// run there, exactly status "skipped", the registry's reason as the message (naming NVIDIA where
// the device is not NVIDIA's: every such variant needs an NVIDIA GPU), the precision, and no timing
// or verification. Returns whether the row was such a row, so the caller checks the others as
// variants that ran.
inline bool checkedAsUnsupported(const nlohmann::json& row, const clgemm::DeviceInfo& device) {
  const std::string name = row.value("variant", "");
  const auto why = unsupportedOnDevice(name, device);
  if (!why) return false;
  EXPECT_EQ(row["status"], "skipped")
      << name << " cannot run on " << device.name << " (" << *why << ")\n"
      << row.dump();
  EXPECT_EQ(row["message"], *why) << row.dump();
  if (device.vendor.find("NVIDIA") == std::string::npos)
    EXPECT_NE(why->find("NVIDIA"), std::string::npos) << name << ": " << *why;
  EXPECT_EQ(row["precision"], clgemm::arithmeticName(registryVariant(name).arithmetic))
      << row.dump();
  EXPECT_TRUE(row["gflops"].is_null()) << row.dump();
  EXPECT_TRUE(row["ms_median"].is_null()) << row.dump();
  EXPECT_TRUE(row["err_ratio"].is_null()) << row.dump();
  return true;
}

}  // namespace clgemm_test
