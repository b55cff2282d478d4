// Theoretical occupancy against cases worked out by hand, each with its arithmetic, and the
// per-architecture table against the CUDA C++ Programming Guide's figures.
#include <gtest/gtest.h>

#include "report/occupancy.hpp"

namespace {

using clgemm::ComputeUnitLimits;
using clgemm::KernelUse;
using clgemm::Occupancy;

ComputeUnitLimits nvidia(int major, int minor) {
  const auto limits = clgemm::nvidiaComputeUnitLimits(major, minor);
  EXPECT_TRUE(limits.has_value()) << major << "." << minor;
  return limits.value_or(ComputeUnitLimits{});
}

Occupancy occupancy(const ComputeUnitLimits& limits, int items, std::optional<int> registers,
                    std::uint64_t local_bytes) {
  KernelUse use;
  use.group_items = items;
  use.registers_per_item = registers;
  use.local_bytes = local_bytes;
  return clgemm::theoreticalOccupancy(limits, use);
}

TEST(OccupancyTable, GeForceGT240IsComputeCapability12) {
  const auto l = nvidia(1, 2);
  EXPECT_EQ(l.max_items, 1024);
  EXPECT_EQ(l.max_groups, 8);
  EXPECT_EQ(l.max_group_items, 512);
  EXPECT_EQ(l.registers, 16384);
  EXPECT_EQ(l.max_registers_per_item, 124);
  EXPECT_EQ(l.register_unit, 512);
  EXPECT_FALSE(l.registers_per_warp);
  EXPECT_EQ(l.local_bytes, 16u * 1024);
}

TEST(OccupancyTable, HopperAndAmpere) {
  const auto h100 = nvidia(9, 0);
  EXPECT_EQ(h100.name, "NVIDIA sm_90 (compute capability 9.0)");
  EXPECT_EQ(h100.max_items, 2048);
  EXPECT_EQ(h100.max_groups, 32);
  EXPECT_EQ(h100.registers, 65536);
  EXPECT_EQ(h100.register_unit, 256);
  EXPECT_TRUE(h100.registers_per_warp);
  EXPECT_EQ(h100.local_bytes, 228u * 1024);
  EXPECT_EQ(h100.max_local_per_group, 227u * 1024);
  EXPECT_EQ(h100.local_reserved_per_group, 1024u);
  EXPECT_EQ(h100.local_unit, 128u);

  const auto a100 = nvidia(8, 0);
  EXPECT_EQ(a100.max_items, 2048);
  EXPECT_EQ(a100.max_groups, 32);
  EXPECT_EQ(a100.local_bytes, 164u * 1024);
  EXPECT_EQ(a100.local_reserved_per_group, 1024u);

  const auto ga102 = nvidia(8, 6);
  EXPECT_EQ(ga102.max_items, 1536);
  EXPECT_EQ(ga102.max_groups, 16);
  EXPECT_EQ(ga102.local_bytes, 100u * 1024);

  const auto ada = nvidia(8, 9);
  EXPECT_EQ(ada.max_items, 1536);
  EXPECT_EQ(ada.max_groups, 24);
  EXPECT_EQ(ada.local_bytes, 100u * 1024);
}

TEST(OccupancyTable, VoltaAndTuring) {
  const auto v100 = nvidia(7, 0);
  EXPECT_EQ(v100.max_items, 2048);
  EXPECT_EQ(v100.max_groups, 32);
  EXPECT_EQ(v100.local_bytes, 96u * 1024);
  EXPECT_EQ(v100.local_reserved_per_group, 0u);

  const auto turing = nvidia(7, 5);
  EXPECT_EQ(turing.max_items, 1024);
  EXPECT_EQ(turing.max_groups, 16);
  EXPECT_EQ(turing.local_bytes, 64u * 1024);
}

TEST(OccupancyTable, EveryListedCapabilityIsKnown) {
  const int listed[][2] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}, {2, 1}, {3, 0},  {3, 2}, {3, 5},
                           {3, 7}, {5, 0}, {5, 2}, {5, 3}, {6, 0}, {6, 1}, {6, 2},  {7, 0}, {7, 2},
                           {7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 0}, {10, 0}, {12, 0}};
  for (const auto& cc : listed) {
    const auto l = clgemm::nvidiaComputeUnitLimits(cc[0], cc[1]);
    ASSERT_TRUE(l.has_value()) << cc[0] << "." << cc[1];
    EXPECT_GT(l->max_items, 0);
    EXPECT_GT(l->max_groups, 0);
    EXPECT_GT(l->registers, 0);
    EXPECT_GT(l->local_bytes, 0u);
    EXPECT_EQ(l->max_items % l->warp_size, 0);
  }
}

TEST(OccupancyTable, UnknownCapabilityIsNullopt) {
  EXPECT_FALSE(clgemm::nvidiaComputeUnitLimits(4, 0).has_value());
  EXPECT_FALSE(clgemm::nvidiaComputeUnitLimits(6, 3).has_value());
  EXPECT_FALSE(clgemm::nvidiaComputeUnitLimits(0, 0).has_value());
  EXPECT_FALSE(clgemm::nvidiaComputeUnitLimits(99, 0).has_value());
}

TEST(Occupancy, GT240TutorialIsLimitedByRegisters) {
  // 16x16 = 256 items = 8 warps; registers per group: roundup(34 * 8 * 32, 512) = 8704;
  // by registers 16384 / 8704 = 1 group; by items (1024/32 = 32) / 8 = 4; by groups 8;
  // 1 group * 8 warps / 32 = 25%.
  const auto o = occupancy(nvidia(1, 2), 256, 34, 0);
  EXPECT_EQ(o.groups_per_unit, 1);
  EXPECT_DOUBLE_EQ(o.fraction, 0.25);
  EXPECT_EQ(o.limited_by, "registers");
}

TEST(Occupancy, GT240WithFewRegistersTiesRegistersAndItemsAtFull) {
  // roundup(16 * 8 * 32, 512) = 4096: 16384 / 4096 = 4 groups; by items 32 / 8 = 4; by groups 8.
  // The tie names work-items; 4 * 8 / 32 = 100%.
  const auto o = occupancy(nvidia(1, 2), 256, 16, 0);
  EXPECT_EQ(o.groups_per_unit, 4);
  EXPECT_DOUBLE_EQ(o.fraction, 1.0);
  EXPECT_EQ(o.limited_by, "work-items");
}

TEST(Occupancy, Sm1xRoundsAGroupsWarpsUpToPairs) {
  // 160 items = 5 warps, allocated as 6: roundup(22 * 6 * 32 = 4224, 512) = 4608;
  // 16384 / 4608 = 3 groups (with 5 warps it would be roundup(3520, 512) = 3584, 4 groups);
  // by items 32 / 5 = 6; 3 * 5 / 32 = 46.875%.
  const auto o = occupancy(nvidia(1, 2), 160, 22, 0);
  EXPECT_EQ(o.groups_per_unit, 3);
  EXPECT_DOUBLE_EQ(o.fraction, 15.0 / 32.0);
  EXPECT_EQ(o.limited_by, "registers");
}

TEST(Occupancy, Sm1xGroupOver512ItemsDoesNotFit) {
  const auto o = occupancy(nvidia(1, 2), 1024, 8, 0);
  EXPECT_EQ(o.groups_per_unit, 0);
  EXPECT_DOUBLE_EQ(o.fraction, 0.0);
  EXPECT_EQ(o.limited_by, "work-items");
}

TEST(Occupancy, H100BestKernelIsLimitedByRegisters) {
  // 256 items = 8 warps. Registers per warp roundup(126 * 32 = 4032, 256) = 4096; each of the 4
  // sub-partitions holds 65536 / 4 = 16384, i.e. 4 warps: 16 warps, 16 / 8 = 2 groups.
  // Local 2*16*(128+4+128+4)*4 = 33792, + 1024 reserved = 34816 (a multiple of 128):
  // 233472 / 34816 = 6 groups. By items 64 / 8 = 8, by groups 32. 2 * 8 / 64 = 25%.
  const auto o = occupancy(nvidia(9, 0), 256, 126, 2 * 16 * (128 + 4 + 128 + 4) * 4);
  EXPECT_EQ(o.groups_per_unit, 2);
  EXPECT_DOUBLE_EQ(o.fraction, 0.25);
  EXPECT_EQ(o.limited_by, "registers");
}

TEST(Occupancy, H100SmallGroupWith64Registers) {
  // 128 items = 4 warps; 64 * 32 = 2048 registers per warp; 16384 / 2048 = 8 warps per
  // sub-partition, 32 in all: 32 / 4 = 8 groups. By items 64 / 4 = 16, by groups 32, by local
  // (0 + 1024 reserved) 233472 / 1024 = 228. 8 * 4 / 64 = 50%.
  const auto o = occupancy(nvidia(9, 0), 128, 64, 0);
  EXPECT_EQ(o.groups_per_unit, 8);
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.limited_by, "registers");
}

TEST(Occupancy, H100RoundsRegisterWarpsDownPerSubPartition) {
  // 96 items = 3 warps; 40 * 32 = 1280 registers per warp; 16384 / 1280 = 12 warps per
  // sub-partition, 48 in all (not 65536 / 1280 = 51): 48 / 3 = 16 groups (not 17).
  // By items 64 / 3 = 21. 16 * 3 / 64 = 75%.
  const auto o = occupancy(nvidia(9, 0), 96, 40, 0);
  EXPECT_EQ(o.groups_per_unit, 16);
  EXPECT_DOUBLE_EQ(o.fraction, 0.75);
  EXPECT_EQ(o.limited_by, "registers");
}

TEST(Occupancy, H100IsLimitedByLocalMemory) {
  // 48 KiB + 1 KiB reserved = 50176 bytes (392 * 128): 233472 / 50176 = 4 groups.
  // Registers 32 * 32 = 1024 per warp: 16 per sub-partition, 64 warps, 64 / 8 = 8 groups;
  // by items 64 / 8 = 8. 4 * 8 / 64 = 50%.
  const auto o = occupancy(nvidia(9, 0), 256, 32, 48 * 1024);
  EXPECT_EQ(o.groups_per_unit, 4);
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.limited_by, "local memory");
}

TEST(Occupancy, H100IsLimitedByWorkGroups) {
  // 32 items = 1 warp; registers 1024 per warp, 64 warps, 64 groups; by items 64; by local 228;
  // by groups 32. 32 * 1 / 64 = 50%.
  const auto o = occupancy(nvidia(9, 0), 32, 32, 0);
  EXPECT_EQ(o.groups_per_unit, 32);
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.limited_by, "work-groups");
}

TEST(Occupancy, UnknownRegistersLimitNothing) {
  // As H100BestKernelIsLimitedByRegisters without the register count: local memory gives 6
  // groups (233472 / 34816), items 8, groups 32. 6 * 8 / 64 = 75%.
  const auto o = occupancy(nvidia(9, 0), 256, std::nullopt, 33792);
  EXPECT_EQ(o.groups_per_unit, 6);
  EXPECT_DOUBLE_EQ(o.fraction, 0.75);
  EXPECT_EQ(o.limited_by, "local memory");
}

TEST(Occupancy, GroupTooLargeForTheRegistersDoesNotFit) {
  // 1024 items = 32 warps of roundup(255 * 32 = 8160, 256) = 8192 registers: 262144 > 65536.
  const auto o = occupancy(nvidia(9, 0), 1024, 255, 0);
  EXPECT_EQ(o.groups_per_unit, 0);
  EXPECT_DOUBLE_EQ(o.fraction, 0.0);
  EXPECT_EQ(o.limited_by, "registers");
}

TEST(Occupancy, LocalMemoryPerGroupIsCappedAt227KiB) {
  // 227 KiB + 1 KiB reserved = 228 KiB: exactly one group; one byte more does not fit.
  EXPECT_EQ(occupancy(nvidia(9, 0), 256, 32, 227 * 1024).groups_per_unit, 1);
  const auto o = occupancy(nvidia(9, 0), 256, 32, 227 * 1024 + 1);
  EXPECT_EQ(o.groups_per_unit, 0);
  EXPECT_EQ(o.limited_by, "local memory");
}

TEST(Occupancy, HardwareCheckRoundsAGroupsWarpsUpToSubPartitions) {
  // Kepler GK210 (3.7): 131072 registers per SM but 65536 per group. 736 items = 23 warps of
  // 88 * 32 = 2816 registers: 64768 allocated fits, but the hardware counts 2816 * 24 = 67584
  // (warps rounded up to 4 sub-partitions) > 65536, so no group launches.
  const auto o = occupancy(nvidia(3, 7), 736, 88, 0);
  EXPECT_EQ(o.groups_per_unit, 0);
  EXPECT_EQ(o.limited_by, "registers");
}

TEST(Occupancy, AmpereConsumerHasFewerWarpSlots) {
  // 8.6: 1536 items = 48 warps. 256 items = 8 warps, 32 registers: 64 warps by registers,
  // 8 groups; by items 48 / 8 = 6; by groups 16. 6 * 8 / 48 = 100%.
  const auto o = occupancy(nvidia(8, 6), 256, 32, 0);
  EXPECT_EQ(o.groups_per_unit, 6);
  EXPECT_DOUBLE_EQ(o.fraction, 1.0);
  EXPECT_EQ(o.limited_by, "work-items");
}

TEST(Occupancy, EmptyGroupFitsNothing) {
  const auto o = occupancy(nvidia(9, 0), 0, 32, 0);
  EXPECT_EQ(o.groups_per_unit, 0);
  EXPECT_EQ(o.limited_by, "work-items");
}

// simt-async's 64 x 128 x 16 build in two stages: 25620 bytes of local memory (ptxas's 25600 of
// tiles and 20 more), 256 bytes per float added to every row of both tiles (2 stages x 16 rows x
// 2 tiles x 4 bytes). On sm_90 a group takes roundUp(bytes + 1024, 128) of the 233472.
TEST(SpareLocalFloats, TheLeastMultipleOf32ThatHoldsTheGroupsPerUnit) {
  const auto h100 = nvidia(9, 0);
  // 8 groups as built (26752 per group). Three: more than 233472 / 4 = 58368 per group, so
  // 25620 + 256 f + 1024 > 58368: f = 128 (59520 per group, 3.9), not 96 (51328, 4.5).
  EXPECT_EQ(clgemm::spareLocalFloatsToHold(h100, 25620, 3, 256, 32, 227u * 1024), 128);
  // Four: more than 46694 per group: 96 (4.5 -> 4), not 64 (43136, 5.4).
  EXPECT_EQ(clgemm::spareLocalFloatsToHold(h100, 25620, 4, 256, 32, 227u * 1024), 96);
  // One: more than 116736 per group: 352 (116864, 1.997), not 320 (108672, 2.1).
  EXPECT_EQ(clgemm::spareLocalFloatsToHold(h100, 25620, 1, 256, 32, 227u * 1024), 352);
  // Already held to 8 or more: nothing to add.
  EXPECT_EQ(clgemm::spareLocalFloatsToHold(h100, 25620, 8, 256, 32, 227u * 1024), 0);
  EXPECT_EQ(clgemm::spareLocalFloatsToHold(h100, 25620, 12, 256, 32, 227u * 1024), 0);
}

TEST(SpareLocalFloats, NothingWhereTheGroupWouldPassItsLimitOrNoCountIsAsked) {
  const auto h100 = nvidia(9, 0);
  // Three groups need 57345 bytes or more: not within a 48 KiB limit.
  EXPECT_FALSE(clgemm::spareLocalFloatsToHold(h100, 25620, 3, 256, 32, 48u * 1024).has_value());
  // Zero groups, or floats of no bytes, are no answer.
  EXPECT_FALSE(clgemm::spareLocalFloatsToHold(h100, 25620, 0, 256, 32, 227u * 1024).has_value());
  EXPECT_FALSE(clgemm::spareLocalFloatsToHold(h100, 25620, 3, 0, 32, 227u * 1024).has_value());
}

TEST(OccupancyDescribe, OneLine) {
  Occupancy o;
  o.groups_per_unit = 1;
  o.fraction = 0.25;
  o.limited_by = "registers";
  EXPECT_EQ(clgemm::describe(o), "25% (1 group/CU, registers)");
  o.groups_per_unit = 3;
  o.fraction = 15.0 / 32.0;
  o.limited_by = "local memory";
  EXPECT_EQ(clgemm::describe(o), "46.9% (3 groups/CU, local memory)");
  EXPECT_EQ(clgemm::describe(occupancy(nvidia(9, 0), 1024, 255, 0)),
            "0% (no group fits: registers)");
}

}  // namespace
