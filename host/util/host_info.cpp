#include "util/host_info.hpp"

#include <omp.h>
#include <unistd.h>

#include <fstream>

namespace clgemm {

std::string hostCpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  }
  return "host CPU";
}

int hostCores() { return omp_get_num_procs(); }

std::uint64_t hostMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return std::uint64_t(pages) * std::uint64_t(page_size);
}

}  // namespace clgemm
