// The search space of `clgemm tune`: every combination of a kernel's candidate parameter values
// (from the registry, narrowed by -D and --space), pruned to those that satisfy the kernel's
// constraints and fit the device (work-group size, local memory) before anything is built.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "problem/precision.hpp"
#include "problem/problem.hpp"
#include "problem/size_list.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"

namespace clgemm {

// --space NAME=V1,V2,...: the values tried for one parameter, replacing the registry's.
struct SpaceOverride {
  std::string name;
  std::vector<int> values;
};

// Parses "NAME=V1,V2,..."; anything malformed is a usage error quoting the argument.
SpaceOverride parseSpaceOverride(const std::string& arg);

// A configuration: one value per parameter, in the order of TuneSpace::names.
using Config = std::vector<int>;

struct TuneSpace {
  std::vector<std::string> names;        // the variant's parameters, in registry order
  std::vector<std::vector<int>> values;  // the candidate values of each, ascending
  // Per parameter: a size rule (Param::size_rule) held at the value a run would use, because
  // neither -D nor --space named it. The report lists them; the stored entry leaves out those at
  // the kernel's default, so that runs keep taking the default.
  std::vector<bool> held_rule;
  std::vector<Config> valid;             // the configurations worth building, in odometer order
  std::uint64_t total = 0;               // every combination, before pruning
  // Configurations pruned, by reason, with the first one's message as an example.
  struct Exclusion {
    std::string kind;  // "constraints", "work-group size" or "local memory"
    std::size_t count = 0;
    std::string example;
  };
  std::vector<Exclusion> excluded;

  // The index of `config` in `valid`, if it is there.
  std::optional<std::size_t> find(const Config& config) const;
  // "TSM=64 TSN=64 ..."
  std::string describe(const Config& config) const;
};

// More combinations than this is a space no budget would cover meaningfully; narrow it.
inline constexpr std::uint64_t kMaxTuneCombinations = 2000000;

// The space of `variant` on `device` for problem `size`. A parameter set with -D in `user` is held
// at that value; one named in `overrides` takes those values; a size rule (Param::size_rule) is
// held at its value in `start` (the parameters a run would use now); the others take the
// registry's candidates plus their value in `start`, so the search can begin there. Usage errors:
// an override or -D for a name the variant does not have, both for the same name, a non-integer -D
// value, too many combinations. `precision` sizes the local memory each configuration needs (a
// double tile takes twice a float's).
TuneSpace buildTuneSpace(const Variant& variant, const DeviceInfo& device, const Shape& size,
                         const std::vector<UserDefine>& user,
                         const std::vector<SpaceOverride>& overrides, const Config& start,
                         Precision precision = Precision::kFp32);

// A configuration by name, e.g. {"TSM": 64, ...}: how the cache, the report and the store write it.
std::map<std::string, int> namedConfig(const std::vector<std::string>& names, const Config& config);

// What a stored entry records of `config`: every parameter but the held size rules at `variant`'s
// default (TuneSpace::held_rule), which runs then take from the kernel as before.
std::map<std::string, int> entryDefines(const Variant& variant, const TuneSpace& space,
                                        const Config& config);

// `config` with each held size rule set to its value in the space, so that a configuration from
// another entry or the defaults can seed the search.
Config withHeldRules(const TuneSpace& space, Config config);

// The defines of one configuration, the user's other -D passed through, as a run would build them.
ResolvedDefines configDefines(const Variant& variant, const TuneSpace& space, const Config& config,
                              const std::vector<UserDefine>& user);

// The compiler options one configuration builds with on `problem` (clKernelBuildOptions), so that
// the tuner can prebuild it; nothing when its defines do not resolve (the runner reports why).
std::optional<std::string> configBuildOptions(const Variant& variant, const TuneSpace& space,
                                              const Config& config,
                                              const std::vector<UserDefine>& user,
                                              const Problem& problem, const DeviceInfo& device,
                                              const std::string& extra_options);

}  // namespace clgemm
