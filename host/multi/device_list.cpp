#include "multi/device_list.hpp"

#include <cctype>

#include "util/errors.hpp"

namespace clgemm {
namespace {

std::string labelOf(const DeviceInfo& d) {
  return std::to_string(d.platform_index) + ":" + std::to_string(d.device_index);
}

// A non-negative decimal index, or -1.
int indexOf(const std::string& text) {
  if (text.empty() || text.size() > 6) return -1;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  return std::stoi(text);
}

}  // namespace

std::vector<ListedDevice> selectDevices(const std::string& list) {
  const std::vector<SelectedDevice> all = allDevices();
  std::vector<ListedDevice> chosen;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string entry = list.substr(start, comma - start);
    if (entry == "gpus" || entry == "all") {
      std::size_t found = 0;
      for (const auto& d : all) {
        if (entry == "gpus" && !d.info.is_gpu) continue;
        chosen.push_back({d, labelOf(d.info)});
        ++found;
      }
      if (found == 0)
        throw UsageError("--devices '" + entry + "': no " +
                         (entry == "gpus" ? std::string("GPU") : std::string("device")) +
                         " found; available devices:" + availableDevices());
    } else {
      const std::size_t colon = entry.find(':');
      const int p = colon == std::string::npos ? -1 : indexOf(entry.substr(0, colon));
      const int d = colon == std::string::npos ? -1 : indexOf(entry.substr(colon + 1));
      if (p < 0 || d < 0)
        throw UsageError("--devices '" + list + "': '" + entry +
                         "' is not PLATFORM:DEVICE (e.g. 0:1), 'gpus' or 'all'");
      const SelectedDevice* match = nullptr;
      for (const auto& candidate : all)
        if (candidate.info.platform_index == p && candidate.info.device_index == d)
          match = &candidate;
      if (!match)
        throw UsageError("--devices '" + list + "': there is no device " + entry +
                         "; available devices:" + availableDevices());
      chosen.push_back({*match, labelOf(match->info)});
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return chosen;
}

}  // namespace clgemm
