// The user's store: a folder of small JSON files that clgemm writes on the user's machine (device
// peaks from `clgemm peak`, tuned parameters from `clgemm tune`) and reads before the entries
// shipped in data/. Where it is, highest first: --store DIR, $CLGEMM_STORE, $XDG_DATA_HOME/clgemm,
// ~/.local/share/clgemm. Inside, one sub-folder per kind of entry (peaks/, params/), in the same
// format as data/<kind>/.
#pragma once

#include <string>

namespace clgemm {

// The store folder (it may not exist yet); empty when none can be named (no --store, no
// $CLGEMM_STORE and no $HOME).
std::string userStoreDir(const std::string& store_option);

// `store`/`sub`, or empty when `store` is empty.
std::string userStoreSubdir(const std::string& store, const std::string& sub);

// "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3": a device name as a file name.
std::string fileSlug(const std::string& name);

// Creates `dir` and its parents; a usage error naming `option` and the folder when that fails.
void ensureStoreDir(const std::string& dir, const std::string& option);

}  // namespace clgemm
