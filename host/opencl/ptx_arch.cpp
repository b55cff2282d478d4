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
  // setmaxnreg takes effect only where ptxas knows the register count at entry, which the
  // .reqntid that OpenCL's reqd_work_group_size writes does not tell it (warning C7508, and the
  // instruction is ignored): `.minnctapersm 1` beside it does (tc-tf32-ws, tc-tf32-fused).
  if (out.find("setmaxnreg") != std::string::npos) {
    const std::string reqntid = "\n.reqntid ";
    for (std::size_t pos = out.find(reqntid); pos != std::string::npos;
         pos = out.find(reqntid, pos + 1)) {
      const std::size_t end = out.find('\n', pos + 1);
      if (end == std::string::npos) break;
      out.insert(end, "\n.minnctapersm 1");
    }
  }
  return out;
}

bool hasOccupancyMarker(const std::string& ptx) {
  return ptx.find(kOccupancyMarker) != std::string::npos;
}

std::optional<std::string> applyOccupancyMarkers(const std::string& ptx) {
  if (ptx.find(".target sm_") == std::string::npos) return std::nullopt;
  std::string out = ptx;
  const std::string marker = kOccupancyMarker;
  for (std::size_t pos = out.find(marker); pos != std::string::npos;
       pos = out.find(marker, pos + 1)) {
    std::size_t digits = pos + marker.size(), end = digits;
    while (end < out.size() && std::isdigit(static_cast<unsigned char>(out[end]))) ++end;
    if (end == digits || end - digits > 4) return std::nullopt;
    const int count = std::stoi(out.substr(digits, end - digits));
    if (count < 1) return std::nullopt;
    // The entry whose body holds the marker: its directives lie between its parameters and the
    // line that opens the body.
    const std::size_t entry = out.rfind(".entry ", pos);
    if (entry == std::string::npos) return std::nullopt;
    const std::size_t body = out.find("\n{", entry);
    if (body == std::string::npos || body > pos) return std::nullopt;
    if (out.substr(entry, body - entry).find(".minnctapersm") != std::string::npos) continue;
    const std::string directive = "\n.minnctapersm " + std::to_string(count);
    out.insert(body, directive);
    pos += directive.size();
  }
  return out;
}

}  // namespace clgemm
