// The date a run is recorded under, for reports and stored entries.
#pragma once

#include <string>

namespace clgemm {

// Today as YYYY-MM-DD in UTC, so runs on machines in different time zones sort together.
std::string runDate();

}  // namespace clgemm
