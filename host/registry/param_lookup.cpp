#include "registry/param_lookup.hpp"

namespace clgemm {

std::vector<UserDefine> definesReaching(const Variant& variant,
                                        const std::vector<UserDefine>& user) {
  if (variant.backend == Backend::kOpenCl) return user;
  std::vector<UserDefine> own;
  for (const auto& d : user)
    for (const auto& p : variant.params)
      if (p.name == d.name) own.push_back(d);
  return own;
}

VariantParams resolveVariantParams(const Variant& variant, const std::vector<UserDefine>& user,
                                   const SearchDirs& dirs, const DeviceInfo& device,
                                   const Shape& size, std::vector<std::string>* warnings) {
  TunedEntry tuned;
  if (!findTunedEntry(dirs.dirs, device, variant.name, size, tuned, warnings))
    return {ResolvedDefines(variant.params, user), "", std::nullopt, ""};
  // "store" or "data" for this device's own entry; a borrowed one says what it shares with it.
  std::string source = tuned.dir_index < dirs.store_dirs ? "store" : "data";
  if (tuned.match == ClassMatch::kArchitecture) source += ":architecture";
  if (tuned.match == ClassMatch::kVendor) source += ":vendor";
  return {ResolvedDefines(variant.params, user, tuned.defines, source), tuned.file, tuned.size,
          tuned.matchReason()};
}

}  // namespace clgemm
