// Theoretical occupancy of a work-group on one compute unit, worked out as NVIDIA's CUDA occupancy
// calculator (cuda_occupancy.h) does: how many groups the registers, the local memory, the
// work-group slots and the work-item slots each let reside, the smallest of them, and the share of
// the unit's warp slots those groups fill. Pure arithmetic: the numbers come from the caller (the
// kernel's ptxas report and CL_KERNEL_LOCAL_MEM_SIZE) and from the per-architecture table here,
// because OpenCL reports neither registers nor per-SM limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace clgemm {

struct ComputeUnitLimits {
  std::string name;                 // e.g. "NVIDIA sm_90 (compute capability 9.0)"
  int warp_size = 32;               // work-items scheduled together
  int max_items = 0;                // resident work-items per compute unit (threads per SM)
  int max_groups = 0;               // resident work-groups per compute unit (blocks per SM)
  int max_group_items = 1024;       // largest work-group the hardware launches (512 on sm_1x)
  int registers = 0;                // 32-bit registers per compute unit
  int max_registers_per_group = 0;  // registers one work-group may hold; 0: all of `registers`
  int max_registers_per_item = 255;
  int register_unit = 256;         // registers are allocated in units of this many...
  bool registers_per_warp = true;  // ...per warp (sm_20 and later) or per work-group (sm_1x)
  // Warps take registers in multiples of this many. Per warp, the register file is split evenly
  // between this many sub-partitions (4 on sm_30 and later), so the warps that fit are rounded
  // down to a multiple of it; per work-group (sm_1x, 2), a group's warps are rounded up to one.
  int warp_allocation_unit = 1;
  std::uint64_t local_bytes = 0;          // local (shared) memory per compute unit usable by groups
  std::uint64_t max_local_per_group = 0;  // most one group may use; 0: no limit but local_bytes
  std::uint64_t local_unit = 128;         // local memory allocation granularity per group
  std::uint64_t local_reserved_per_group = 0;  // e.g. 1 KiB per block on sm_80 and later
};

// Per-SM limits for an NVIDIA compute capability, from the CUDA C++ Programming Guide's
// "Technical Specifications per Compute Capability" and the allocation granularities of
// cuda_occupancy.h. Local memory is the largest shared-memory carveout, which the driver picks
// when occupancy needs it; max_local_per_group is CUDA's opt-in maximum, while NVIDIA's OpenCL
// lets a group have only CL_DEVICE_LOCAL_MEM_SIZE (48 KiB on the H100).
// std::nullopt for a capability not in the table.
std::optional<ComputeUnitLimits> nvidiaComputeUnitLimits(int major, int minor);

struct KernelUse {
  int group_items = 0;                    // work-items per work-group
  std::optional<int> registers_per_item;  // unknown on most drivers: then registers limit nothing
  // Local memory per work-group: CL_KERNEL_LOCAL_MEM_SIZE, which on NVIDIA is ptxas's "bytes
  // smem" (the declared arrays plus 4 bytes; 1 with none) without the per-group reserve.
  std::uint64_t local_bytes = 0;
};

inline constexpr const char* kLimitRegisters = "registers";
inline constexpr const char* kLimitLocalMemory = "local memory";
inline constexpr const char* kLimitWorkGroups = "work-groups";
inline constexpr const char* kLimitWorkItems = "work-items";

struct Occupancy {
  int groups_per_unit = 0;  // resident work-groups per compute unit
  double fraction = 0.0;    // resident warps / maximum warps per compute unit (0..1)
  // The limit that sets groups_per_unit: one of the kLimit names above. When several give the
  // same count, the first of work-items, work-groups, registers, local memory is named: the
  // hardware's fixed slots are a ceiling for this group size that no saving of registers or local
  // memory gets past, so naming those would promise a gain that is not there. With 0 groups it
  // names what one group does not fit in (too many items, registers or bytes).
  std::string limited_by;
};

Occupancy theoreticalOccupancy(const ComputeUnitLimits& limits, const KernelUse& use);

// The least multiple of `step` floats (`bytes_per_float` bytes each) that, added to a work-group's
// `local_bytes`, lets a compute unit hold at most `groups` of its work-groups by local memory
// alone, keeping a group's local memory within `max_local_per_group` bytes; nothing where none does
// (or `groups` < 1). Where the local memory already holds it to `groups`, 0.
std::optional<int> spareLocalFloatsToHold(const ComputeUnitLimits& limits,
                                          std::uint64_t local_bytes, int groups,
                                          std::size_t bytes_per_float, int step,
                                          std::uint64_t max_local_per_group);

// "25% (1 group/CU, registers)", "37.5% (3 groups/CU, local memory)",
// "0% (no group fits: registers)".
std::string describe(const Occupancy& occupancy);

}  // namespace clgemm
