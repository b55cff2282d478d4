#include "kernels.hpp"

#include <sstream>

#include "errors.hpp"

namespace clgemm {
namespace {

std::size_t roundUp(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Every parameter of a variant must be at least `minimum`.
void requireAtLeast(std::vector<std::string>& errors, const ResolvedDefines& d,
                    const std::vector<std::string>& names, int minimum) {
  for (const auto& name : names) {
    if (d.param(name) < minimum)
      errors.push_back(name + "=" + std::to_string(d.param(name)) + " must be at least " +
                       std::to_string(minimum));
  }
}

void requireDivisible(std::vector<std::string>& errors, const ResolvedDefines& d,
                      const std::string& tile, const std::string& per_item) {
  const int t = d.param(tile), w = d.param(per_item);
  if (t > 0 && w > 0 && t % w != 0)
    errors.push_back(tile + "=" + std::to_string(t) + " is not divisible by " + per_item + "=" +
                     std::to_string(w) + "; change " + tile + " or " + per_item);
}

Variant naive() {
  return {"naive",
          "gemm_naive",
          "one work-item per element of C, private accumulator",
          {{"WGX", 16, "work-group width (columns of C)"},
           {"WGY", 16, "work-group height (rows of C)"}},
          [](const ResolvedDefines& d) {
            std::vector<std::string> errors;
            requireAtLeast(errors, d, {"WGX", "WGY"}, 1);
            return errors;
          },
          [](const ResolvedDefines& d, int m, int n) {
            const std::size_t wx = std::size_t(d.param("WGX")), wy = std::size_t(d.param("WGY"));
            return LaunchShape{
                {roundUp(std::size_t(n), wx), roundUp(std::size_t(m), wy)}, {wx, wy}, "WGX x WGY"};
          },
          [](const ResolvedDefines&) { return std::size_t(0); }};
}

Variant tiled() {
  return {"tiled",
          "gemm_tiled",
          "TS x TS tiles of A and B in local memory, one element of C per work-item",
          {{"TS", 16, "tile edge: the work-group is TS x TS and the K-step is TS"}},
          [](const ResolvedDefines& d) {
            std::vector<std::string> errors;
            requireAtLeast(errors, d, {"TS"}, 1);
            return errors;
          },
          [](const ResolvedDefines& d, int m, int n) {
            const std::size_t ts = std::size_t(d.param("TS"));
            return LaunchShape{
                {roundUp(std::size_t(n), ts), roundUp(std::size_t(m), ts)}, {ts, ts}, "TS x TS"};
          },
          [](const ResolvedDefines& d) {
            const std::size_t ts = std::size_t(d.param("TS"));
            return 2 * ts * ts * sizeof(float);
          }};
}

Variant regtile2d() {
  return {"regtile2d",
          "gemm_regtile2d",
          "TSM x TSN block per work-group, WPTM x WPTN per work-item in registers, padded local "
          "tiles",
          {{"TSM", 64, "rows of C per work-group"},
           {"TSN", 64, "columns of C per work-group"},
           {"TSK", 16, "K-step: depth of the A and B tiles in local memory"},
           {"WPTM", 4, "rows of C per work-item"},
           {"WPTN", 4, "columns of C per work-item"},
           {"PAD", 1, "floats of padding per local-memory row, against bank conflicts"}},
          [](const ResolvedDefines& d) {
            std::vector<std::string> errors;
            requireAtLeast(errors, d, {"TSM", "TSN", "TSK", "WPTM", "WPTN"}, 1);
            requireAtLeast(errors, d, {"PAD"}, 0);
            requireDivisible(errors, d, "TSM", "WPTM");
            requireDivisible(errors, d, "TSN", "WPTN");
            return errors;
          },
          [](const ResolvedDefines& d, int m, int n) {
            const std::size_t lx = std::size_t(d.param("TSN") / d.param("WPTN"));
            const std::size_t ly = std::size_t(d.param("TSM") / d.param("WPTM"));
            const std::size_t groups_x =
                roundUp(std::size_t(n), std::size_t(d.param("TSN"))) / std::size_t(d.param("TSN"));
            const std::size_t groups_y =
                roundUp(std::size_t(m), std::size_t(d.param("TSM"))) / std::size_t(d.param("TSM"));
            return LaunchShape{{groups_x * lx, groups_y * ly}, {lx, ly}, "TSN/WPTN x TSM/WPTM"};
          },
          [](const ResolvedDefines& d) {
            const std::size_t tsk = std::size_t(d.param("TSK")), pad = std::size_t(d.param("PAD"));
            return tsk * (std::size_t(d.param("TSM")) + pad + std::size_t(d.param("TSN")) + pad) *
                   sizeof(float);
          }};
}

}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> all = {naive(), tiled(), regtile2d()};
  return all;
}

std::string variantNames() {
  std::string out;
  for (const auto& v : variants()) out += (out.empty() ? "" : ", ") + v.name;
  return out;
}

std::vector<const Variant*> parseVariantList(const std::string& list) {
  std::vector<const Variant*> chosen;
  std::stringstream in(list);
  std::string name;
  bool any = false;
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    any = true;
    const Variant* found = nullptr;
    for (const auto& v : variants())
      if (v.name == name) found = &v;
    if (!found)
      throw UsageError("unknown kernel variant '" + name + "'; known variants: " + variantNames());
    bool seen = false;
    for (const auto* c : chosen) seen = seen || c == found;
    if (!seen) chosen.push_back(found);
  }
  if (!any)
    throw UsageError("--kernel needs at least one variant; known variants: " + variantNames());
  return chosen;
}

std::string variantHelp() {
  std::ostringstream s;
  s << "Kernel variants (--kernel) and their parameters (-D NAME=VALUE, default in brackets):\n";
  for (const auto& v : variants()) {
    s << "  " << v.name << ": " << v.summary << "\n";
    for (const auto& p : v.params)
      s << "      " << p.name << " [" << p.default_value << "] " << p.help << "\n";
  }
  return s.str();
}

}  // namespace clgemm
