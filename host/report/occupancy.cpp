#include "report/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>

namespace clgemm {
namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr int kUnlimited = INT_MAX;

// What most architectures since sm_30 share; each case below sets what differs.
ComputeUnitLimits modern(int major, int minor) {
  ComputeUnitLimits l;
  l.name = "NVIDIA sm_" + std::to_string(major * 10 + minor) + " (compute capability " +
           std::to_string(major) + "." + std::to_string(minor) + ")";
  l.max_items = 2048;
  l.max_groups = 32;
  l.registers = 65536;
  l.max_registers_per_group = 65536;
  l.register_unit = 256;
  l.warp_allocation_unit = 4;
  l.local_unit = 256;
  return l;
}

// sm_80 and later: 128-byte shared memory granularity and 1 KiB the driver keeps per block.
ComputeUnitLimits ampereOrLater(int major, int minor, int max_items, int max_groups,
                                std::uint64_t local_kib) {
  ComputeUnitLimits l = modern(major, minor);
  l.max_items = max_items;
  l.max_groups = max_groups;
  l.local_bytes = local_kib * kKiB;
  l.local_reserved_per_group = kKiB;
  l.max_local_per_group = l.local_bytes - l.local_reserved_per_group;
  l.local_unit = 128;
  return l;
}

std::int64_t roundUp(std::int64_t x, std::int64_t unit) { return (x + unit - 1) / unit * unit; }
std::uint64_t roundUp(std::uint64_t x, std::uint64_t unit) { return (x + unit - 1) / unit * unit; }

int clampGroups(std::int64_t groups) {
  return static_cast<int>(std::min<std::int64_t>(groups, kUnlimited));
}

// Groups the registers let reside, as cudaOccMaxBlocksPerSMRegsLimit works it out (64-bit so that
// no absurd group size overflows).
int groupsByRegisters(const ComputeUnitLimits& l, std::int64_t regs, std::int64_t warps_per_group) {
  if (regs > l.max_registers_per_item) return 0;  // no compiler emits this; it could not launch
  const std::int64_t group_cap =
      l.max_registers_per_group > 0 ? l.max_registers_per_group : l.registers;
  const std::int64_t unit = std::max(1, l.warp_allocation_unit);
  const std::int64_t reg_unit = std::max(1, l.register_unit);
  if (!l.registers_per_warp) {
    const std::int64_t per_group =
        roundUp(regs * roundUp(warps_per_group, unit) * l.warp_size, reg_unit);
    if (per_group == 0) return kUnlimited;
    return per_group > group_cap ? 0 : clampGroups(l.registers / per_group);
  }
  const std::int64_t per_warp = roundUp(regs * l.warp_size, reg_unit);
  if (per_warp == 0) return kUnlimited;
  // The hardware checks a group against the per-group limit as if its warps were spread over
  // every sub-partition: unrounded registers times warps rounded up to the partitions.
  const std::int64_t assumed = regs * l.warp_size * roundUp(warps_per_group, unit);
  if (assumed > group_cap || per_warp * warps_per_group > group_cap) return 0;
  // Each sub-partition holds its own slice of the register file and a warp lives in one slice.
  const std::int64_t warps = l.registers / unit / per_warp * unit;
  return clampGroups(warps / warps_per_group);
}

int groupsByLocalMemory(const ComputeUnitLimits& l, std::uint64_t bytes) {
  if (l.max_local_per_group > 0 && bytes > l.max_local_per_group) return 0;
  // The reserve counts even for a kernel with no local memory, as in cuda_occupancy.h; at 1 KiB
  // it allows 100 or more groups, past every work-group limit, so it never decides alone.
  const std::uint64_t per_group =
      roundUp(bytes + l.local_reserved_per_group, std::max<std::uint64_t>(1, l.local_unit));
  if (per_group == 0) return kUnlimited;
  return static_cast<int>(std::min<std::uint64_t>(l.local_bytes / per_group, kUnlimited));
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", fraction * 100.0);
  std::string s = text;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s + "%";
}

}  // namespace

std::optional<ComputeUnitLimits> nvidiaComputeUnitLimits(int major, int minor) {
  const int cc = major * 10 + minor;
  ComputeUnitLimits l;
  switch (cc) {
    case 10:
    case 11:
    case 12:
    case 13:
      // Tesla: registers per block in units of 256 (512 from 1.2), warps in pairs.
      l = modern(major, minor);
      l.max_items = cc >= 12 ? 1024 : 768;
      l.max_groups = 8;
      l.max_group_items = 512;
      l.registers = cc >= 12 ? 16384 : 8192;
      l.max_registers_per_group = l.registers;
      l.max_registers_per_item = 124;
      l.register_unit = cc >= 12 ? 512 : 256;
      l.registers_per_warp = false;
      l.warp_allocation_unit = 2;
      l.local_bytes = l.max_local_per_group = 16 * kKiB;
      l.local_unit = 512;
      return l;
    case 20:
    case 21:
      // Fermi: 48 KiB with the shared-preferring L1 split; registers per warp in units of 64
      // (cuda_occupancy.h uses 128 for a few register counts, not modelled).
      l = modern(major, minor);
      l.max_items = 1536;
      l.max_groups = 8;
      l.registers = l.max_registers_per_group = 32768;
      l.max_registers_per_item = 63;
      l.register_unit = 64;
      l.warp_allocation_unit = 2;
      l.local_bytes = l.max_local_per_group = 48 * kKiB;
      l.local_unit = 128;
      return l;
    case 30:
    case 32:
    case 35:
    case 37:
      // Kepler: 48 KiB with the shared-preferring L1 split (112 KiB per SM on GK210).
      l = modern(major, minor);
      l.max_groups = 16;
      if (cc == 30) l.max_registers_per_item = 63;
      if (cc == 32) l.max_registers_per_group = 32768;
      if (cc == 37) l.registers = 131072;
      l.local_bytes = (cc == 37 ? 112 : 48) * kKiB;
      l.max_local_per_group = 48 * kKiB;
      return l;
    case 50:
    case 52:
    case 53:
      l = modern(major, minor);
      if (cc == 53) l.max_registers_per_group = 32768;
      l.local_bytes = (cc == 52 ? 96 : 64) * kKiB;
      l.max_local_per_group = 48 * kKiB;
      return l;
    case 60:
    case 61:
    case 62:
      // GP100 has two sub-partitions per SM, the others four.
      l = modern(major, minor);
      if (cc == 60) l.warp_allocation_unit = 2;
      if (cc == 62) l.max_registers_per_group = 32768;
      l.local_bytes = (cc == 61 ? 96 : 64) * kKiB;
      l.max_local_per_group = 48 * kKiB;
      return l;
    case 70:
    case 72:
      l = modern(major, minor);
      l.local_bytes = l.max_local_per_group = 96 * kKiB;
      return l;
    case 75:
      l = modern(major, minor);
      l.max_items = 1024;
      l.max_groups = 16;
      l.local_bytes = l.max_local_per_group = 64 * kKiB;
      return l;
    case 80:
      return ampereOrLater(major, minor, 2048, 32, 164);
    case 86:
      return ampereOrLater(major, minor, 1536, 16, 100);
    case 87:
      return ampereOrLater(major, minor, 1536, 16, 164);
    case 89:
      return ampereOrLater(major, minor, 1536, 24, 100);
    case 90:
    case 100:
      return ampereOrLater(major, minor, 2048, 32, 228);
    case 120:
      return ampereOrLater(major, minor, 1536, 24, 100);
    default:
      return std::nullopt;
  }
}

Occupancy theoreticalOccupancy(const ComputeUnitLimits& limits, const KernelUse& use) {
  Occupancy o;
  const int warp_size = std::max(1, limits.warp_size);
  const int max_warps = limits.max_items / warp_size;
  if (use.group_items <= 0 || max_warps <= 0) {
    o.limited_by = kLimitWorkItems;
    return o;
  }
  const int warps_per_group = (use.group_items - 1) / warp_size + 1;
  const int by_items = use.group_items > limits.max_group_items ? 0 : max_warps / warps_per_group;
  const int by_registers = use.registers_per_item
                               ? groupsByRegisters(limits, *use.registers_per_item, warps_per_group)
                               : kUnlimited;
  const int by_local = groupsByLocalMemory(limits, use.local_bytes);
  // In the tie order documented in the header: the first strict minimum wins.
  const std::pair<int, const char*> candidates[] = {{by_items, kLimitWorkItems},
                                                    {limits.max_groups, kLimitWorkGroups},
                                                    {by_registers, kLimitRegisters},
                                                    {by_local, kLimitLocalMemory}};
  o.groups_per_unit = kUnlimited;
  for (const auto& [groups, name] : candidates) {
    if (groups < o.groups_per_unit) {
      o.groups_per_unit = groups;
      o.limited_by = name;
    }
  }
  o.fraction = double(o.groups_per_unit) * warps_per_group / max_warps;
  return o;
}

std::optional<int> spareLocalFloatsToHold(const ComputeUnitLimits& limits,
                                          std::uint64_t local_bytes, int groups,
                                          std::size_t bytes_per_float, int step,
                                          std::uint64_t max_local_per_group) {
  if (groups < 1 || step < 1 || bytes_per_float == 0) return std::nullopt;
  for (int floats = 0;; floats += step) {
    const std::uint64_t bytes = local_bytes + std::uint64_t(floats) * bytes_per_float;
    if (bytes > max_local_per_group) return std::nullopt;
    const int held = groupsByLocalMemory(limits, bytes);
    if (held < 1) return std::nullopt;
    if (held <= groups) return floats;
  }
}

std::string describe(const Occupancy& occupancy) {
  if (occupancy.groups_per_unit == 0) return "0% (no group fits: " + occupancy.limited_by + ")";
  std::ostringstream s;
  s << percent(occupancy.fraction) << " (" << occupancy.groups_per_unit
    << (occupancy.groups_per_unit == 1 ? " group" : " groups") << "/CU, " << occupancy.limited_by
    << ")";
  return s.str();
}

}  // namespace clgemm
