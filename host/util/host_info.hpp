// What the host CPU is, for CPU rows in the report and the default --threads.
#pragma once

#include <cstdint>
#include <string>

namespace clgemm {

// "AMD EPYC 9B14" from /proc/cpuinfo's model name; "host CPU" where it cannot be read.
std::string hostCpuName();

// Cores OpenMP may use (the default for --threads).
int hostCores();
// The host's physical memory in bytes; 0 where it cannot be read.
std::uint64_t hostMemoryBytes();

}  // namespace clgemm
