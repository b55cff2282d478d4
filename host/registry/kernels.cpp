#include "registry/kernels.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>

#include "check/verify.hpp"
#include "opencl/device.hpp"
#include "registry/families.hpp"
#include "util/errors.hpp"

namespace clgemm {

const std::vector<Variant>& variants() {
  // The families in the ladder's order: --list, --help and the tests see the variants so.
  static const std::vector<Variant> all = [] {
    std::vector<Variant> listed;
    for (const auto family :
         {ladderVariants, bestVariants, tensorCoreVariants, cpuPathVariants, baselineVariants}) {
      std::vector<Variant> members = family();
      listed.insert(listed.end(), std::make_move_iterator(members.begin()),
                    std::make_move_iterator(members.end()));
    }
    return listed;
  }();
  return all;
}

std::string arithmeticName(Arithmetic arithmetic) {
  switch (arithmetic) {
    case Arithmetic::kTf32:
      return "tf32";
    case Arithmetic::k3xTf32:
      return "3xtf32";
    default:
      return "fp32";
  }
}

double errorThresholdFor(Arithmetic arithmetic) {
  return arithmetic == Arithmetic::kTf32 ? kTf32ErrorRatioThreshold : kErrorRatioThreshold;
}

std::optional<std::string> fp64Refusal(const Variant& variant, const DeviceInfo* device) {
  if (!variant.fp64)
    return variant.name + " computes in " + arithmeticName(variant.arithmetic) +
           " only (--precision fp64 runs the OpenCL kernels of the ladder, best and the "
           "libraries' DGEMMs)";
  if (variant.backend == Backend::kOpenCl && device && !device->has_fp64)
    return device->name + " has no double precision (cl_khr_fp64): " + variant.name +
           " cannot run in fp64";
  return std::nullopt;
}

std::string defaultShapeOnlyReason(const Variant& variant, const std::string& shape_label) {
  return variant.name + " computes row-major, untransposed, packed matrices only (not " +
         shape_label +
         "); cpu-packed packs any layout, and the OpenCL kernels and baselines take "
         "every shape";
}

std::optional<std::string> unsupportedOn(const Variant& variant, const DeviceInfo& device) {
  if (!variant.unsupported) return std::nullopt;
  return variant.unsupported(device);
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

std::optional<std::string> constraintViolations(const Variant& variant,
                                                const ResolvedDefines& defines) {
  const auto violations = variant.constraints(defines);
  if (violations.empty()) return std::nullopt;
  std::string message = variant.name + ": ";
  for (std::size_t i = 0; i < violations.size(); ++i) message += (i ? "; " : "") + violations[i];
  return message;
}

void checkConstraints(const Variant& variant, const ResolvedDefines& defines) {
  if (const auto message = constraintViolations(variant, defines)) throw UsageError(*message);
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

std::string baselineNames() {
  std::string out;
  for (const auto& v : variants())
    if (v.isBaseline()) out += (out.empty() ? "" : ", ") + v.name;
  return out;
}

std::vector<const Variant*> parseCompareList(const std::string& list) {
  std::vector<const Variant*> chosen;
  for (const auto& name : splitList(list)) {
    const Variant* found = findVariant(name);
    if (!found || !found->isBaseline())
      throw UsageError("--compare takes baselines (" + baselineNames() + "), not '" + name + "'");
    addOnce(chosen, found);
  }
  return chosen;
}

std::string explainVariants(const std::vector<const Variant*>& chosen) {
  std::size_t width = 0;
  for (const Variant* v : chosen) width = std::max(width, v->name.size());
  std::ostringstream s;
  for (const Variant* v : chosen) {
    s << v->name << std::string(width - v->name.size() + 2, ' ');
    if (!v->builds_on.empty()) s << "(on " << v->builds_on << ") ";
    s << (v->adds.empty() ? v->summary : v->adds) << "\n";
  }
  return s.str();
}

std::string variantHelp() {
  std::ostringstream s;
  s << "Kernel variants (--kernel; groups cl, cpu, all) and their parameters (-D NAME=VALUE,\n"
       "default in brackets):\n";
  for (const auto& v : variants()) {
    s << "  " << v.name << ": " << v.summary;
    if (!backendBuilt(v.backend)) s << " [not built]";
    s << "\n";
    for (const auto& p : v.params) {
      s << "      " << p.name << " [" << p.default_value << "] " << p.help;
      if (p.size_rule) s << "; a size rule: `clgemm tune` holds it unless --space names it";
      s << "\n";
    }
  }
  return s.str();
}

}  // namespace clgemm
