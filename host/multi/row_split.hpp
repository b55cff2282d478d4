// How the rows of C are shared among devices (--devices): in proportion to a weight per device,
// each device a whole number of consecutive rows.
#pragma once

#include <string>
#include <vector>

namespace clgemm {

// Devices slower than this fraction of the fastest get no rows.
inline constexpr double kMinShareOfFastest = 0.01;

// Panels start at multiples of this many rows where M allows, so that a tile-aligned M keeps its
// panels tile-aligned: an uneven split from two equal devices' measured speeds (49110 against
// 49027 GFLOP/s) once gave 8199 and 8185 rows, which ran the padded path, 1.93x instead of 1.99x.
inline constexpr int kSplitGranule = 128;

// Rows of an m-row C per device, in proportion to `weights` (each > 0, a speed), summing to m.
// Rows are shared in granules of kSplitGranule (of 1 when m < kSplitGranule per device): every
// device's exact share rounded down, then the granules left over one at a time to the device that
// would finish soonest with one more (share / weight; the earlier device on a tie), and the rows
// short of a granule to the last panel. A device under kMinShareOfFastest of the fastest gets
// none.
std::vector<int> splitRows(int m, const std::vector<double>& weights);

// --split W1,W2,...: one positive weight per device, e.g. "1,3" gives the second device three
// quarters of the rows. Malformed text or the wrong count is a usage error.
std::vector<double> parseSplit(const std::string& text, std::size_t devices);

}  // namespace clgemm
