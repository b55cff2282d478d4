// The CPU paths (cpu/): OpenMP loops on the host, run and verified like the kernels.
#include "registry/families.hpp"

namespace clgemm {
namespace {

using namespace family;

Variant cpuVariant(std::string name, std::string summary, std::vector<Param> params,
                   std::function<void(const CpuGemm&, const ResolvedDefines&)> run) {
  Variant v;
  v.name = std::move(name);
  v.backend = Backend::kCpu;
  v.summary = std::move(summary);
  v.params = std::move(params);
  // The naive and blocked loops index packed row-major matrices; cpuPacked() lifts this.
  v.default_shape_only = true;
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
  Variant v = cpuVariant("cpu-packed",
                         "BLIS loops: packed A and B panels, " + cpuPackedMicroKernel() +
                             " register micro-kernel (picked at run time)",
                         {{"MC", b.mc, "rows of A per packed block (L2)"},
                          {"KC", b.kc, "depth of the packed panels (L1)"},
                          {"NC", b.nc, "columns of B per packed block (L3)"}},
                         [](const CpuGemm& g, const ResolvedDefines& d) {
                           cpuPackedGemm(g, {d.param("MC"), d.param("KC"), d.param("NC")});
                         });
  // Its packing reads op(A) and op(B) through their strides and it writes C through its own, so
  // it takes every layout, transpose and leading dimension (cpu/cpu_packed.cpp).
  v.default_shape_only = false;
  return v;
}

}  // namespace

std::vector<Variant> cpuPathVariants() {
  return {
      cpuNaive(),
      cpuBlocked(),
      cpuBlockedAcc(),
      cpuPacked(),
  };
}

}  // namespace clgemm
