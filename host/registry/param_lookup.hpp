// Which values an OpenCL kernel's parameters take on a device, highest first: the user's -D, the
// user's store (clgemm tune's winners), the entries shipped in data/params, the kernel's defaults.
// A run and the tuner's starting point both come from here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "problem/gemm_shape.hpp"
#include "problem/size_list.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "store/param_store.hpp"

namespace clgemm {

struct VariantParams {
  ResolvedDefines defines;
  std::string tuned_file;           // the store or data entry used; empty when none
  std::optional<Shape> tuned_size;  // the size that entry was tuned for, where it says
  // Why that entry serves this device: "same device", "same architecture sm_90", ...
  std::string tuned_match;
};

// The user's -D defines that reach `variant`. An OpenCL kernel gets them all (its parameters and
// any other macro a custom kernels.cl reads); the other backends have no compiler, so only their
// own parameters apply (cpu-packed's blocking, say), and their rows list nothing else.
std::vector<UserDefine> definesReaching(const Variant& variant,
                                        const std::vector<UserDefine>& user);

// The transposes a tuned entry is keyed by (param_store.hpp): those of the row-major problem the
// kernel computes, "NN", "TN", "NT" or "TT". Column-major swaps A and B, so col TN is "NT".
std::string tuningTransposes(const Variant& variant, int m, int n, int k, const GemmShape& shape);

// Tuned entries that cannot be read are skipped with a note on `warnings`. `trans` (from
// tuningTransposes) picks the entries: the same transposes first, NN where none has them, and
// then tuned_match says so ("...; NN entry: none for TN"). Only entries of `precision` serve; an
// FP64 run that finds none where an FP32 entry exists gets the kernel's defaults and tuned_match
// says why the FP32 one was passed over. Among this device's entries, one tuned for another size
// than the nearest serves where its blocks fill the compute units much better (entry_fill.hpp;
// tuned_match then says so): `swapped` says the kernel computes the row-major view of a
// column-major problem, whose rows are the caller's N.
VariantParams resolveVariantParams(const Variant& variant, const std::vector<UserDefine>& user,
                                   const SearchDirs& dirs, const DeviceInfo& device,
                                   const Shape& size, std::vector<std::string>* warnings,
                                   const std::string& trans = "NN",
                                   Precision precision = Precision::kFp32, bool swapped = false);

}  // namespace clgemm
