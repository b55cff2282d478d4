#include "kernels.hpp"

#include <algorithm>
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

Variant openClVariant(std::string name, std::string entry, std::string summary,
                      std::vector<Param> params) {
  Variant v;
  v.name = std::move(name);
  v.backend = Backend::kOpenCl;
  v.entry = std::move(entry);
  v.summary = std::move(summary);
  v.params = std::move(params);
  return v;
}

Variant naive() {
  Variant v =
      openClVariant("naive", "gemm_naive", "one work-item per element of C, private accumulator",
                    {{"WGX", 16, "work-group width (columns of C)"},
                     {"WGY", 16, "work-group height (rows of C)"}});
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"WGX", "WGY"}, 1);
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t wx = std::size_t(d.param("WGX")), wy = std::size_t(d.param("WGY"));
    return LaunchShape{
        {roundUp(std::size_t(n), wx), roundUp(std::size_t(m), wy)}, {wx, wy}, "WGX x WGY"};
  };
  v.local_mem_bytes = [](const ResolvedDefines&) { return std::size_t(0); };
  return v;
}

Variant tiled() {
  Variant v =
      openClVariant("tiled", "gemm_tiled",
                    "TS x TS tiles of A and B in local memory, one element of C per work-item",
                    {{"TS", 16, "tile edge: the work-group is TS x TS and the K-step is TS"}});
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TS"}, 1);
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return LaunchShape{
        {roundUp(std::size_t(n), ts), roundUp(std::size_t(m), ts)}, {ts, ts}, "TS x TS"};
  };
  v.local_mem_bytes = [](const ResolvedDefines& d) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return 2 * ts * ts * sizeof(float);
  };
  return v;
}

Variant regtile2d() {
  Variant v = openClVariant(
      "regtile2d", "gemm_regtile2d",
      "TSM x TSN block per work-group, WPTM x WPTN per work-item in registers, padded local tiles",
      {{"TSM", 64, "rows of C per work-group"},
       {"TSN", 64, "columns of C per work-group"},
       {"TSK", 16, "K-step: depth of the A and B tiles in local memory"},
       {"WPTM", 4, "rows of C per work-item"},
       {"WPTN", 4, "columns of C per work-item"},
       {"PAD", 1, "floats of padding per local-memory row, against bank conflicts"}});
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TSM", "TSN", "TSK", "WPTM", "WPTN"}, 1);
    requireAtLeast(errors, d, {"PAD"}, 0);
    requireDivisible(errors, d, "TSM", "WPTM");
    requireDivisible(errors, d, "TSN", "WPTN");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t tsm = std::size_t(d.param("TSM")), tsn = std::size_t(d.param("TSN"));
    const std::size_t lx = tsn / std::size_t(d.param("WPTN"));
    const std::size_t ly = tsm / std::size_t(d.param("WPTM"));
    return LaunchShape{
        {roundUp(std::size_t(n), tsn) / tsn * lx, roundUp(std::size_t(m), tsm) / tsm * ly},
        {lx, ly},
        "TSN/WPTN x TSM/WPTM"};
  };
  v.local_mem_bytes = [](const ResolvedDefines& d) {
    const std::size_t tsk = std::size_t(d.param("TSK")), pad = std::size_t(d.param("PAD"));
    return tsk * (std::size_t(d.param("TSM")) + pad + std::size_t(d.param("TSN")) + pad) *
           sizeof(float);
  };
  return v;
}

Variant best() {
  Variant v = openClVariant(
      "best", "gemm_best",
      "the fastest: BM x BN blocks, TM x TN per work-item, float4 loads, A transposed, double-"
      "buffered local memory with register prefetch, swizzled work-group order",
      {{"BM", 64, "rows of C per work-group"},
       {"BN", 64, "columns of C per work-group"},
       {"BK", 16, "K-step (a multiple of 4)"},
       {"TM", 4, "rows of C per work-item (a multiple of 4)"},
       {"TN", 4, "columns of C per work-item (a multiple of 4)"},
       {"PADA", 4, "padding floats per row of the transposed A tile (a multiple of 4)"},
       {"PADB", 4, "padding floats per row of the B tile (a multiple of 4)"},
       {"GROUP_M", 8, "block rows per band of the swizzled work-group order"}});
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"BM", "BN", "BK", "TM", "TN", "GROUP_M"}, 1);
    requireAtLeast(errors, d, {"PADA", "PADB"}, 0);
    if (!errors.empty()) return errors;
    for (const char* name : {"BK", "TM", "TN", "PADA", "PADB"}) {
      if (d.param(name) % 4 != 0)
        errors.push_back(std::string(name) + "=" + std::to_string(d.param(name)) +
                         " must be a multiple of 4 (float4 loads)");
    }
    requireDivisible(errors, d, "BM", "TM");
    requireDivisible(errors, d, "BN", "TN");
    if (!errors.empty()) return errors;
    const int threads = (d.param("BM") / d.param("TM")) * (d.param("BN") / d.param("TN"));
    for (const char* tile : {"BM", "BN"}) {
      const int float4s = d.param(tile) * d.param("BK") / 4;
      if (float4s % threads != 0)
        errors.push_back(std::string(tile) + " x BK / 4 = " + std::to_string(float4s) +
                         " float4 loads do not divide evenly among the " + std::to_string(threads) +
                         " work-items; change " + tile + ", BK, TM or TN");
    }
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
    const std::size_t lx = bn / std::size_t(d.param("TN")), ly = bm / std::size_t(d.param("TM"));
    return LaunchShape{
        {roundUp(std::size_t(n), bn) / bn * lx, roundUp(std::size_t(m), bm) / bm * ly},
        {lx, ly},
        "BN/TN x BM/TM"};
  };
  v.local_mem_bytes = [](const ResolvedDefines& d) {
    return std::size_t(2 * d.param("BK") *
                       (d.param("BM") + d.param("PADA") + d.param("BN") + d.param("PADB"))) *
           sizeof(float);
  };
  v.problem_defines = [](const ResolvedDefines& d, int m, int n, int k) {
    const bool exact = m % d.param("BM") == 0 && n % d.param("BN") == 0 && k % d.param("BK") == 0;
    return std::vector<ResolvedDefine>{{"EDGE", exact ? "0" : "1", "problem"},
                                       {"VEC_A", k % 4 == 0 ? "1" : "0", "problem"},
                                       {"VEC_B", n % 4 == 0 ? "1" : "0", "problem"}};
  };
  return v;
}

Variant cpuVariant(std::string name, std::string summary, std::vector<Param> params,
                   std::function<void(const CpuGemm&, const ResolvedDefines&)> run) {
  Variant v;
  v.name = std::move(name);
  v.backend = Backend::kCpu;
  v.summary = std::move(summary);
  v.params = std::move(params);
  std::vector<std::string> names;
  for (const auto& p : v.params) names.push_back(p.name);
  v.constraints = [names](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, names, 1);
    return errors;
  };
  v.cpu = std::move(run);
  return v;
}

Variant cpuNaive() {
  return cpuVariant("cpu-naive", "i-k-j loops, OpenMP over rows of C", {},
                    [](const CpuGemm& g, const ResolvedDefines&) { cpuNaiveGemm(g); });
}

const std::vector<Param> kBlockParams = {{"BS_R", 32, "rows of C per block"},
                                         {"BS_C", 256, "columns of C per block"}};

Variant cpuBlocked() {
  return cpuVariant("cpu-blocked", "BS_R x BS_C blocks of C, i-k-j inside, OpenMP over blocks",
                    kBlockParams, [](const CpuGemm& g, const ResolvedDefines& d) {
                      cpuBlockedGemm(g, d.param("BS_R"), d.param("BS_C"));
                    });
}

Variant cpuBlockedAcc() {
  return cpuVariant(
      "cpu-blocked-acc",
      "blocked loops with K in steps, each 64-wide row segment summed in a register accumulator "
      "before it is added to C",
      {{"BS_R", 64, "rows of C per block"},
       {"BS_C", 256, "columns of C per block"},
       {"BS_K", 128, "K-step: the BS_K x BS_C slice of B is reused by all rows of a block"}},
      [](const CpuGemm& g, const ResolvedDefines& d) {
        cpuBlockedAccGemm(g, d.param("BS_R"), d.param("BS_C"), d.param("BS_K"));
      });
}

Variant cpuPacked() {
  const PackedBlocking b = cpuPackedDefaultBlocking();
  return cpuVariant("cpu-packed",
                    "BLIS loops: packed A and B panels, " + cpuPackedMicroKernel() +
                        " register micro-kernel (picked at run time)",
                    {{"MC", b.mc, "rows of A per packed block (L2)"},
                     {"KC", b.kc, "depth of the packed panels (L1)"},
                     {"NC", b.nc, "columns of B per packed block (L3)"}},
                    [](const CpuGemm& g, const ResolvedDefines& d) {
                      cpuPackedGemm(g, {d.param("MC"), d.param("KC"), d.param("NC")});
                    });
}

Variant baseline(std::string name, Backend backend, std::string summary) {
  Variant v;
  v.name = std::move(name);
  v.backend = backend;
  v.summary = std::move(summary);
  v.constraints = [](const ResolvedDefines&) { return std::vector<std::string>{}; };
  return v;
}

}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> all = {
      naive(),
      tiled(),
      regtile2d(),
      best(),
      cpuNaive(),
      cpuBlocked(),
      cpuBlockedAcc(),
      cpuPacked(),
      baseline("clblast", Backend::kClblast,
               "CLBlast SGEMM on the same OpenCL device and queue (row-major, no transpose)"),
      baseline("openblas", Backend::kOpenblas, "OpenBLAS cblas_sgemm on the host CPU"),
  };
  return all;
}

bool backendBuilt(Backend backend) {
  switch (backend) {
    case Backend::kClblast:
#ifdef CLGEMM_HAVE_CLBLAST
      return true;
#else
      return false;
#endif
    case Backend::kOpenblas:
#ifdef CLGEMM_HAVE_OPENBLAS
      return true;
#else
      return false;
#endif
    default:
      return true;
  }
}

std::string variantNames() {
  std::string out;
  for (const auto& v : variants()) out += (out.empty() ? "" : ", ") + v.name;
  return out;
}

namespace {

const Variant* findVariant(const std::string& name) {
  for (const auto& v : variants())
    if (v.name == name) return &v;
  return nullptr;
}

void addOnce(std::vector<const Variant*>& chosen, const Variant* v) {
  if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) chosen.push_back(v);
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ','))
    if (!name.empty()) names.push_back(name);
  return names;
}

}  // namespace

void checkConstraints(const Variant& variant, const ResolvedDefines& defines) {
  const auto violations = variant.constraints(defines);
  if (violations.empty()) return;
  std::string message = variant.name + ": ";
  for (std::size_t i = 0; i < violations.size(); ++i) message += (i ? "; " : "") + violations[i];
  throw UsageError(message);
}

std::vector<const Variant*> parseVariantList(const std::string& list) {
  std::vector<const Variant*> chosen;
  const auto names = splitList(list);
  if (names.empty())
    throw UsageError("--kernel needs at least one variant; known variants: " + variantNames());
  for (const auto& name : names) {
    if (name == "cl" || name == "cpu" || name == "all") {
      for (const auto& v : variants()) {
        const bool in_group = name == "all" || (name == "cl" && v.backend == Backend::kOpenCl) ||
                              (name == "cpu" && v.backend == Backend::kCpu);
        if (in_group) addOnce(chosen, &v);
      }
      continue;
    }
    const Variant* found = findVariant(name);
    if (!found) {
      throw UsageError("unknown kernel variant '" + name + "'; known variants: " + variantNames() +
                       "; groups: cl, cpu, all");
    }
    addOnce(chosen, found);
  }
  return chosen;
}

std::vector<const Variant*> parseCompareList(const std::string& list) {
  std::vector<const Variant*> chosen;
  for (const auto& name : splitList(list)) {
    const Variant* found = findVariant(name);
    if (!found || !found->isBaseline())
      throw UsageError("--compare takes baselines (clblast, openblas), not '" + name + "'");
    addOnce(chosen, found);
  }
  return chosen;
}

std::string variantHelp() {
  std::ostringstream s;
  s << "Kernel variants (--kernel; groups cl, cpu, all) and their parameters (-D NAME=VALUE,\n"
       "default in brackets):\n";
  for (const auto& v : variants()) {
    s << "  " << v.name << ": " << v.summary;
    if (!backendBuilt(v.backend)) s << " [not built]";
    s << "\n";
    for (const auto& p : v.params)
      s << "      " << p.name << " [" << p.default_value << "] " << p.help << "\n";
  }
  return s.str();
}

}  // namespace clgemm
