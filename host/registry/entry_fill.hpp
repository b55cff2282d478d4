// Which of a device's tuned entries serves a size none of them was tuned for: the nearest size's
// (param_store.hpp's order) unless another entry's blocks spread much more evenly over the
// device's compute units there. A GEMM with one work-group per block of C takes about as long as
// its busiest compute unit's share of the blocks; where the nearest size's blocks leave that unit
// a whole block more than its neighbours and another entry's smaller or larger blocks do not, the
// nearest is the slower. On the H100 (132 SMs), the 2048^3 entry's 128 x 128 blocks put 2 on
// some SMs at 1536^3 (144 blocks) and the 1024^3 entry's 64 x 128 blocks 3 (288): 32768 against
// 24576 elements of C, and 0.271 against 0.204 ms (docs/performance.md, 2026-11-27 session 11).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "opencl/device.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "store/param_store.hpp"

namespace clgemm {

// The elements of C the busiest of `compute_units` computes when an m x n C is cut in blocks of
// `block` (rows, columns), one per work-group, spread as evenly as whole blocks go.
long long busiestUnitElements(long long m, long long n, std::pair<int, int> block,
                              int compute_units);

// How much less the busiest compute unit must compute with another entry's blocks than with the
// nearest size's before that entry is taken. Entries with the same share tie; between blocks of
// different shapes the rate per element differs by a few percent (64 x 128 against 128 x 128 at
// 2048^3 on the H100: 5% slower for the same share), so a smaller share wins from 10% less.
inline constexpr double kFillMargin = 0.10;

struct FillChoice {
  std::size_t index = 0;  // in the ranked entries: 0 where the nearest size's entry stays
  std::string why;        // where another was taken: what it fills better, for the report
};

// Among `ranked` (rankedTunedEntries' order, the nearest size first), the entry to use for an
// m x n x k problem whose kernel computes m_rows x n_cols of C (the caller's m and n, swapped for
// a column-major problem). Only the first entry's peers compete: the same device, driver, folder
// and transposes, tuned for a size (a set tuned together); not where the first was tuned for
// this very size, the variant does not say its blocks (Variant::work_group_block) or the device
// its compute units. Each entry's blocks are its defines as the user's -D leave them, and they
// cover C less any edge strips (Variant::edge_strips) those defines leave to other work-groups.
FillChoice chooseEntryByFill(const Variant& variant, const std::vector<UserDefine>& user,
                             const std::vector<TunedEntry>& ranked, const DeviceInfo& device,
                             const Shape& size, int m_rows, int n_cols);

}  // namespace clgemm
