// Output files appear complete or not at all: written to a temporary beside the target and renamed
// into place, so an interrupted or failed run never leaves a half-written file under the user's
// name.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace clgemm {

// Calls write(stream) on a temporary file in the target's directory, then renames it to `path`.
// Failure (directory missing, not writable) is a usage error naming `option` and the path.
void writeFileAtomically(const std::string& path, const std::string& option,
                         const std::function<void(std::ostream&)>& write);

// The report: to `out` when `path` (--out) is empty, else atomically into that file.
void writeReportTo(const std::string& path, std::ostream& out,
                   const std::function<void(std::ostream&)>& write);

// Fails early, before minutes of benchmarking, when `path` could not be written later.
void checkWritable(const std::string& path, const std::string& option);

}  // namespace clgemm
