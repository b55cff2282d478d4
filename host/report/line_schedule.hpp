#pragma once

#include <vector>

namespace clgemm {

// A stretch of a launch's line of work-groups that each take the same time: `count` of them,
// `length` each (a whole tile 1, a part of a tile split along K in `parts` 1 / parts).
struct LineRun {
  long long count = 0;
  double length = 1.0;
};

// When the last work-group of a line (its runs in launch order) ends, where the device runs
// `places` at once and each place takes the next in line as soon as it is free, as NVIDIA's
// GPUs hand out work-groups; in the units of the runs' lengths, 0 for no places or work-groups.
// KernelPlan compares two counts of places with it: a build that holds fewer work-groups per
// compute unit must not make the line end later.
double lineMakespan(const std::vector<LineRun>& runs, long long places);

}  // namespace clgemm
