#include "registry/param_lookup.hpp"

#include "registry/entry_fill.hpp"

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

std::string tuningTransposes(const Variant& variant, int m, int n, int k, const GemmShape& shape) {
  // A kernel that does not take the shape itself runs on packed NN copies, whatever the shape.
  if (!variant.shapes_in_kernel) return "NN";
  const RowMajorGemm kernel = rowMajorGemm(m, n, k, gemmStorage(m, n, k, shape));
  return std::string(kernel.a.transposed ? "T" : "N") + (kernel.b.transposed ? "T" : "N");
}

VariantParams resolveVariantParams(const Variant& variant, const std::vector<UserDefine>& user,
                                   const SearchDirs& dirs, const DeviceInfo& device,
                                   const Shape& size, std::vector<std::string>* warnings,
                                   const std::string& trans, Precision precision, bool swapped) {
  const std::vector<TunedEntry> ranked =
      rankedTunedEntries(dirs.dirs, device, variant.name, size, warnings, trans, precision);
  if (ranked.empty()) {
    // An entry of the other precision would have served but must not: say so, so a reader of the
    // report sees why a tuned kernel runs its defaults (and that `clgemm tune --precision` fixes
    // it).
    std::string match;
    const Precision other = precision == Precision::kFp64 ? Precision::kFp32 : Precision::kFp64;
    TunedEntry passed_over;
    if (findTunedEntry(dirs.dirs, device, variant.name, size, passed_over, nullptr, trans, other))
      match = "no " + precisionName(precision) + " entry (" + passed_over.file + " is " +
              precisionName(other) + ", tuned for " +
              (other == Precision::kFp32 ? "floats" : "doubles") +
              "): kernel defaults; clgemm tune --precision " + precisionName(precision) +
              " makes one";
    return {ResolvedDefines(variant.params, user), "", std::nullopt, match};
  }
  // The nearest size's entry, or one of its set whose blocks fill the compute units better.
  const FillChoice fill = chooseEntryByFill(variant, user, ranked, device, size,
                                            swapped ? size.n : size.m, swapped ? size.m : size.n);
  const TunedEntry& tuned = ranked[fill.index];
  // "store" or "data" for this device's own entry; a borrowed one says what it shares with it.
  std::string source = tuned.dir_index < dirs.store_dirs ? "store" : "data";
  if (tuned.match == ClassMatch::kArchitecture) source += ":architecture";
  if (tuned.match == ClassMatch::kVendor) source += ":vendor";
  std::string match = tuned.matchReason();
  // The fallback is worth saying: the parameters were tuned for other loads than this problem's.
  if (tuned.trans != trans)
    match += std::string(match.empty() ? "" : "; ") + "NN entry: none for " + trans;
  if (!fill.why.empty()) match += std::string(match.empty() ? "" : "; ") + fill.why;
  return {ResolvedDefines(variant.params, user, tuned.defines, source), tuned.file, tuned.size,
          match};
}

}  // namespace clgemm
