// ptxas's resource report as NVIDIA's OpenCL compiler leaves it in the program build log under
// -cl-nv-verbose: registers, spills and stack of each kernel. OpenCL itself reports none of these,
// and the register count is what the occupancy (occupancy.hpp) of an NVIDIA kernel turns on.
// Other vendors' logs hold no such report and give nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace clgemm {

struct PtxasFunction {
  std::string name;  // the entry function (the OpenCL kernel's name)
  int registers = 0;
  int spill_store_bytes = 0;
  int spill_load_bytes = 0;
  int stack_bytes = 0;
};

// Every entry function the log reports, in the log's order (ptxas on the H100 goes through a
// program's kernels in reverse source order); empty when the log has no ptxas report.
// An entry is one named by "Compiling entry function 'NAME'" that has a "Used N registers" line
// after it (before the next entry); its stack and spills come from the "N bytes stack frame, ..."
// line under "Function properties for NAME", before or after, and stay 0 when there is none.
// Properties of functions that are not entries (called device functions) are left out.
// Tolerates CRLF line endings, any spacing, and other fields in any order on those lines.
std::vector<PtxasFunction> parsePtxasReport(const std::string& log);

// The first reported function named `entry`, if any.
std::optional<PtxasFunction> findPtxasFunction(const std::vector<PtxasFunction>& functions,
                                               const std::string& entry);

}  // namespace clgemm
