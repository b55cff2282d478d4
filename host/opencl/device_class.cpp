#include "opencl/device_class.hpp"

#include <cctype>
#include <cmath>

namespace clgemm {
namespace {

bool contains(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

// Whether a '-'-separated piece of a pocl device name is part of an LLVM CPU name ("skylake",
// "avx512", "znver3", "x86-64"): lower case, digits and '_' only. The CPU's brand string that
// follows it has capitals, spaces or parentheses.
bool isLlvmCpuPiece(const std::string& piece) {
  if (piece.empty()) return false;
  for (const char c : piece)
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

// "pthread-skylake-avx512-Intel(R) Xeon(R) ..." -> "skylake-avx512": the pieces after pocl's
// driver name ("pthread", "cpu", "basic") up to the brand.
std::string poclCpuTarget(const std::string& name) {
  const auto first = name.find('-');
  if (first == std::string::npos) return "";
  std::string target;
  std::size_t at = first + 1;
  while (at < name.size()) {
    const auto dash = name.find('-', at);
    const std::string piece =
        name.substr(at, dash == std::string::npos ? std::string::npos : dash - at);
    // The last piece is the brand, never the target.
    if (dash == std::string::npos || !isLlvmCpuPiece(piece)) break;
    target += (target.empty() ? "" : "-") + piece;
    at = dash + 1;
  }
  return target;
}

// "gfx90a:sramecc+:xnack-" -> "gfx90a"; "" when the name is not a gfx target.
std::string amdGfxTarget(const std::string& name) {
  if (name.rfind("gfx", 0) != 0) return "";
  std::size_t end = 3;
  while (end < name.size() && std::isalnum(static_cast<unsigned char>(name[end]))) ++end;
  return end > 3 ? name.substr(0, end) : "";
}

double logRatio(double a, double b) {
  if (a <= 0.0 || b <= 0.0) return 10.0;  // unknown: farther than any two real devices
  return std::abs(std::log(a / b));
}

}  // namespace

std::string vendorFamily(const std::string& cl_vendor) {
  if (contains(cl_vendor, "NVIDIA")) return "NVIDIA";
  if (contains(cl_vendor, "Advanced Micro Devices") || contains(cl_vendor, "AMD")) return "AMD";
  if (contains(cl_vendor, "Intel")) return "Intel";
  return cl_vendor;
}

std::string deviceArchitecture(const DeviceInfo& device, std::optional<unsigned> intel_ip_version) {
  if (device.nv_cc_major && device.nv_cc_minor)
    return "sm_" + std::to_string(*device.nv_cc_major * 10 + *device.nv_cc_minor);
  if (device.platform_name == "Portable Computing Language") return poclCpuTarget(device.name);
  const std::string vendor = vendorFamily(device.vendor);
  if (vendor == "AMD") return amdGfxTarget(device.name);
  if (vendor == "Intel" && intel_ip_version) {
    // cl_version: major in bits 22-31, minor in 12-21, the revision (a stepping) below.
    const unsigned v = *intel_ip_version;
    return "intel-ip-" + std::to_string(v >> 22) + "." + std::to_string((v >> 12) & 0x3ff);
  }
  return "";
}

DeviceClass classOf(const DeviceInfo& device) {
  return {vendorFamily(device.vendor), device.type, device.architecture, device.compute_units,
          device.local_mem_bytes};
}

ClassMatch classMatch(const DeviceClass& entry, const DeviceClass& device) {
  if (entry.type != device.type) return ClassMatch::kNone;
  // An architecture names one vendor's chips, except pocl's LLVM CPU targets, which Intel's and
  // AMD's CPUs share: the same target is the same instruction set and the same generated code.
  if (!entry.architecture.empty() && entry.architecture == device.architecture)
    return ClassMatch::kArchitecture;
  if (!entry.vendor.empty() && entry.vendor == device.vendor) return ClassMatch::kVendor;
  return ClassMatch::kNone;
}

double hardwareDistance(const DeviceClass& a, const DeviceClass& b) {
  return logRatio(a.compute_units, b.compute_units) +
         logRatio(double(a.local_mem_bytes), double(b.local_mem_bytes));
}

std::string classMatchReason(ClassMatch match, const DeviceClass& entry) {
  switch (match) {
    case ClassMatch::kDevice:
      return "same device";
    case ClassMatch::kArchitecture:
      return "same architecture " + entry.architecture;
    case ClassMatch::kVendor:
      return "same vendor and type: " + entry.vendor + " " + entry.type;
    case ClassMatch::kNone:
      break;
  }
  return "";
}

nlohmann::json classJson(const DeviceClass& c) {
  return {{"vendor", c.vendor},
          {"type", c.type},
          {"architecture", c.architecture},
          {"compute_units", c.compute_units},
          {"local_mem_bytes", c.local_mem_bytes}};
}

DeviceClass classFromJson(const nlohmann::json& j) {
  DeviceClass c;
  c.vendor = j.value("vendor", "");
  c.type = j.value("type", "");
  c.architecture = j.value("architecture", "");
  c.compute_units = j.value("compute_units", 0u);
  c.local_mem_bytes = j.value("local_mem_bytes", std::uint64_t(0));
  return c;
}

}  // namespace clgemm
