// NVIDIA's OpenCL compiler emits PTX for a GPU's plain target (sm_90 on an H100), on which the
// architecture-specific instructions (sm_90a's wgmma) do not assemble, and no build option changes
// the target. Such instructions are written in kernels.cl behind a marker comment, so the first
// build assembles without them; the PTX it returns as the program binary is then unmasked here
// and built a second time, as a binary, for the architecture-specific target.
#pragma once

#include <optional>
#include <string>

namespace clgemm {

// The comment that hides an architecture-specific instruction from the first build; it must start
// the instruction's line in the inline assembly.
inline constexpr const char* kArchSpecificMarker = "//@arch-specific ";

// The comment, followed by a count, by which a kernel asks that ptxas fit that many of its
// work-groups on one multiprocessor: OpenCL has no attribute for it (CUDA's __launch_bounds__) and
// NVIDIA's driver ignores -cl-nv-maxrregcount. The PTX of the kernel that holds it gets
// `.minnctapersm N` on its entry, and is built again (simt-async's MIN_WG_PER_CU).
inline constexpr const char* kOccupancyMarker = "//@min-ctas-per-sm ";

// True when the PTX holds masked instructions.
bool hasArchSpecificPtx(const std::string& ptx);

// The PTX with every marker removed and its `.target sm_NN` named `sm_NNa`; nullopt when the text
// is not PTX with such a target line (another vendor's binary).
std::optional<std::string> unmaskArchSpecificPtx(const std::string& ptx);

// True when the PTX holds an occupancy marker.
bool hasOccupancyMarker(const std::string& ptx);

// The PTX with `.minnctapersm N` among the directives of every entry whose body holds the marker
// with count N (an entry that has the directive already keeps its own); nullopt when the text is
// not PTX or a marker's count is not a positive number.
std::optional<std::string> applyOccupancyMarkers(const std::string& ptx);

}  // namespace clgemm
