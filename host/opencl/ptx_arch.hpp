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

// True when the PTX holds masked instructions.
bool hasArchSpecificPtx(const std::string& ptx);

// The PTX with every marker removed and its `.target sm_NN` named `sm_NNa`; nullopt when the text
// is not PTX with such a target line (another vendor's binary).
std::optional<std::string> unmaskArchSpecificPtx(const std::string& ptx);

}  // namespace clgemm
