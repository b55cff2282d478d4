#include "opencl/ptx_arch.hpp"

#include <cctype>

namespace clgemm {

bool hasArchSpecificPtx(const std::string& ptx) {
  return ptx.find(kArchSpecificMarker) != std::string::npos;
}

std::optional<std::string> unmaskArchSpecificPtx(const std::string& ptx) {
  // The target line: ".target sm_90" (possibly followed by ", debug" and the like).
  const std::string target = ".target sm_";
  std::size_t at = ptx.find(target);
  if (at == std::string::npos) return std::nullopt;
  std::size_t digits_end = at + target.size();
  while (digits_end < ptx.size() && std::isdigit(static_cast<unsigned char>(ptx[digits_end])))
    ++digits_end;
  if (digits_end == at + target.size()) return std::nullopt;

  std::string out = ptx;
  if (digits_end >= out.size() || out[digits_end] != 'a') out.insert(digits_end, "a");

  const std::string marker = kArchSpecificMarker;
  for (std::size_t pos = out.find(marker); pos != std::string::npos; pos = out.find(marker, pos))
    out.erase(pos, marker.size());
  return out;
}

}  // namespace clgemm
