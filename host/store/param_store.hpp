// Tuned parameters per device: small JSON files, one per (device, driver, kernel, size). Two places
// hold them: the user's store (params/ in the folder of user_store.hpp), written by `clgemm tune`,
// and data/params/ for the devices we have measured. A kernel run without -D for a parameter takes
// the value from the best matching entry before falling back to the kernel's default, and the
// report says where it came from (source "store" or "data").
//
// Entry format:
//   {"device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04", "kernel": "best",
//    "size": {"m": 4096, "n": 4096, "k": 4096},   (optional: the size it was tuned for)
//    "class": {"vendor": "NVIDIA", "type": "GPU", "architecture": "sm_90", "compute_units": 132,
//              "local_mem_bytes": 49152},   (optional: lets other devices of the class borrow it)
//    "trans": "TN",   (optional, "NN" when absent: see below)
//    "precision": "fp64",   (optional, "fp32" when absent)
//    "defines": {"BM": 128, ...}, "measured": {...free-form notes...}}
//
// "trans" keys an entry by the transposes the kernel itself sees: op(A) and op(B) of the row-major
// problem it computes (RowMajorGemm's a.transposed and b.transposed; for best, its TRANS_A and
// TRANS_B). A column-major problem is the row-major one with A and B swapped and each read
// transposed, so --layout col NN is the kernel's NN and shares its entry, and --layout col TN is
// the kernel's NT. That, not the caller's words, is what moves the best tile shapes: which operand
// is read along K. Leading dimensions are not part of the key: they change a stride, not the
// tiles' loads. Entries written before the key existed (the shipped data/params) are NN.
//
// "precision" keys an entry by the problem's precision, and strictly: an FP32 entry never serves
// an FP64 run nor the reverse. Register tiles sized for floats take twice the registers as doubles
// and spill, and local tiles twice the local memory; there is no fallback as NN is for transposes.
// Entries written before the key existed are fp32.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "opencl/device_class.hpp"
#include "problem/precision.hpp"
#include "problem/size_list.hpp"

namespace clgemm {

struct TunedEntry {
  std::string file;  // where it was read from, for messages
  std::string device, driver, kernel;
  std::optional<Shape> size;  // the size it was tuned for; unset: meant for any size
  std::string trans = "NN";   // the kernel's transposes the entry was tuned for (see above)
  Precision precision = Precision::kFp32;  // the problem's precision it was tuned for
  std::map<std::string, std::string> defines;
  std::size_t dir_index = 0;             // which of the searched folders held it
  std::optional<DeviceClass> tuned_on;   // the class of the device it was tuned on, where recorded
  ClassMatch match = ClassMatch::kNone;  // how that device relates to the one asking
  // Why it serves the device asking: "same device", "same architecture sm_90", ...
  std::string matchReason() const;
};

// The folders searched for data/<sub> (params, peaks), most specific first: beside the kernels file
// in use, then in each of shippedFileDirs() (beside the executable, beside libclgemm.so, an
// install's share/clgemm), the source tree clgemm was built from. $CLGEMM_DATA replaces them
// all: DIR reads DIR/<sub> alone, and "none" reads no shipped data (what a device we have never
// seen gets, or a run that wants the kernels' defaults).
std::vector<std::string> dataDirs(const std::string& kernels_origin, const std::string& sub);

// Where entries of one kind (`sub`: params, peaks) are looked for, first folder with a match wins:
// the user's store/<sub> when a store can be named (`store_dirs` is then 1), then data/<sub> as
// dataDirs lists them.
struct SearchDirs {
  std::vector<std::string> dirs;
  std::size_t store_dirs = 0;  // how many of `dirs`, from the front, are the user's store
};
SearchDirs storeThenDataDirs(const std::string& store_option, const std::string& kernels_origin,
                             const std::string& sub);
inline SearchDirs paramDirs(const std::string& store_option, const std::string& kernels_origin) {
  return storeThenDataDirs(store_option, kernels_origin, "params");
}

// The .json files directly in `dir`, sorted so that a choice among equal entries is deterministic;
// none when it is not a readable directory.
std::vector<std::string> jsonFilesIn(const std::string& dir);

// The best entry for this device, kernel and problem size.
// - Entries for this device name come first, from the first folder that has any (the user's store
//   before the shipped data). Within it: the same driver before any other driver; then an entry
//   tuned for this very size, then the one tuned for the nearest size (by flops), then one for
//   any size.
// - Where no entry names the device, an entry of the same class serves (its "class" says what the
//   device it was tuned on was): the same architecture before the same vendor and type; among
//   those, the device nearest in compute units and local memory, then the earlier folder, then the
//   nearest size, then the first file in name order.
// - Transposes (`trans`, "NN", "TN", "NT", "TT"): every entry for these transposes ranks, in the
//   order above, before every NN entry, the fallback; entries for other transposes never serve.
// - Precision: only entries of `precision` serve (see above).
// Unreadable or malformed files are skipped with a note on `warnings`. Returns false when nothing
// matches: the kernel's defaults serve. (A run's lookup, resolveVariantParams, may then take
// another entry of the first one's set whose blocks fill the compute units better:
// registry/entry_fill.hpp.)
bool findTunedEntry(const std::vector<std::string>& dirs, const DeviceInfo& device,
                    const std::string& kernel, const Shape& size, TunedEntry& entry,
                    std::vector<std::string>* warnings = nullptr, const std::string& trans = "NN",
                    Precision precision = Precision::kFp32);

// Every entry that could serve: this device's own in findTunedEntry's order, then those of its
// class in theirs (findTunedEntry takes the first). The tuner starts from several of each: an own
// entry tuned for a distant size can be slower here than a borrowed one for this size.
std::vector<TunedEntry> rankedTunedEntries(const std::vector<std::string>& dirs,
                                           const DeviceInfo& device, const std::string& kernel,
                                           const Shape& size,
                                           std::vector<std::string>* warnings = nullptr,
                                           const std::string& trans = "NN",
                                           Precision precision = Precision::kFp32);

// The file name of the entry `clgemm tune` writes for this key, e.g.
// "nvidia-h100-80gb-hbm3-580-159-04-best-4096.json": one file per key, so tuning again replaces it.
// Transposes other than NN add theirs before the size ("...-best-tn-4096.json"), and FP64 adds
// "fp64" before those ("...-best-fp64-tn-4096.json"), so an FP32 NN entry keeps the name it
// always had and an FP64 one never replaces it.
std::string tunedEntryFileName(const std::string& device, const std::string& driver,
                               const std::string& kernel, const Shape& size,
                               const std::string& trans = "NN",
                               Precision precision = Precision::kFp32);

// Whether `trans` is one of NN, TN, NT, TT.
bool validTransKey(const std::string& trans);

}  // namespace clgemm
