#include "tune/tune_space.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "run/launch.hpp"
#include "run/variant_runner.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

std::string paramNames(const Variant& v) {
  std::string names;
  for (const auto& p : v.params) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

void addExclusion(TuneSpace& space, const std::string& kind, const std::string& message) {
  for (auto& e : space.excluded) {
    if (e.kind == kind) {
      ++e.count;
      return;
    }
  }
  space.excluded.push_back({kind, 1, message});
}

// Why `defines` cannot run on the device, or nothing when it can (as far as is known before
// building); local memory counted in the problem's elements.
std::optional<ConfigIssue> configIssue(const Variant& variant, const DeviceInfo& device,
                                       const Shape& size, const ResolvedDefines& defines,
                                       Precision precision) {
  const std::size_t kElementBytes = elementBytes(precision);
  if (const auto message = constraintViolations(variant, defines))
    return ConfigIssue{"constraints", *message};
  if (auto issue = findConfigIssue(device, variant, defines, variant.shape(defines, size.m, size.n),
                                   kElementBytes))
    return issue;
  if (!variant.transpose_b_entry.empty())
    return findConfigIssue(device, variant, defines,
                           variant.transpose_b_shape(defines, size.k, size.n), kElementBytes);
  if (variant.padding) {
    if (const auto pad = variant.padding(defines, size.m, size.n, size.k))
      return findConfigIssue(device, variant, defines, variant.pad_shape(pad->m, pad->k),
                             kElementBytes);
  }
  return std::nullopt;
}

}  // namespace

SpaceOverride parseSpaceOverride(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("--space '" + arg + "': write --space NAME=V1,V2,...");
  SpaceOverride o{arg.substr(0, eq), {}};
  std::stringstream in(arg.substr(eq + 1));
  std::string item;
  while (std::getline(in, item, ',')) {
    int value = 0;
    if (!parseDefineInt(item, value))
      throw UsageError("--space '" + arg + "': '" + item +
                       "' is not an integer (decimal, no leading zeros)");
    o.values.push_back(value);
  }
  if (o.values.empty()) throw UsageError("--space '" + arg + "' lists no values");
  std::sort(o.values.begin(), o.values.end());
  o.values.erase(std::unique(o.values.begin(), o.values.end()), o.values.end());
  return o;
}

std::optional<std::size_t> TuneSpace::find(const Config& config) const {
  const auto it = std::lower_bound(valid.begin(), valid.end(), config);
  if (it == valid.end() || *it != config) return std::nullopt;
  return std::size_t(it - valid.begin());
}

std::string TuneSpace::describe(const Config& config) const {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < config.size(); ++i)
    out += (out.empty() ? "" : " ") + names[i] + "=" + std::to_string(config[i]);
  return out;
}

TuneSpace buildTuneSpace(const Variant& variant, const DeviceInfo& device, const Shape& size,
                         const std::vector<UserDefine>& user,
                         const std::vector<SpaceOverride>& overrides, const Config& start,
                         Precision precision) {
  std::map<std::string, std::string> fixed;
  for (const auto& d : user) fixed[d.name] = d.value;
  std::map<std::string, std::vector<int>> given;
  for (const auto& o : overrides) {
    const bool known = std::any_of(variant.params.begin(), variant.params.end(),
                                   [&](const Param& p) { return p.name == o.name; });
    if (!known)
      throw UsageError("--space " + o.name + ": " + variant.name + " has no parameter " + o.name +
                       "; its parameters: " + paramNames(variant));
    if (fixed.count(o.name))
      throw UsageError("--space " + o.name + " conflicts with -D " + o.name +
                       ": search it or fix it, not both");
    given[o.name] = o.values;
  }

  TuneSpace space;
  space.total = 1;
  for (std::size_t i = 0; i < variant.params.size(); ++i) {
    const Param& p = variant.params[i];
    std::vector<int> values;
    bool held = false;
    if (const auto f = fixed.find(p.name); f != fixed.end()) {
      int value = 0;
      if (!parseDefineInt(f->second, value))
        throw UsageError("-D " + p.name + "=" + f->second + ": " + p.name +
                         " must be an integer (decimal, no leading zeros)");
      values = {value};
    } else if (const auto g = given.find(p.name); g != given.end()) {
      values = g->second;
    } else if (p.size_rule && i < start.size()) {
      values = {start[i]};
      held = true;
    } else {
      values = p.candidates.empty() ? std::vector<int>{p.default_value} : p.candidates;
      if (i < start.size()) values.push_back(start[i]);
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
    }
    space.names.push_back(p.name);
    space.values.push_back(values);
    space.held_rule.push_back(held);
    space.total *= values.size();
    if (space.total > kMaxTuneCombinations)
      throw UsageError(variant.name + ": the space has more than " +
                       std::to_string(kMaxTuneCombinations) +
                       " combinations; narrow it with --space or -D");
  }

  // Odometer over the candidate values, last parameter fastest: the valid list comes out sorted,
  // which find() relies on.
  std::vector<std::size_t> at(space.names.size(), 0);
  for (std::uint64_t n = 0; n < space.total; ++n) {
    Config config(at.size());
    for (std::size_t i = 0; i < at.size(); ++i) config[i] = space.values[i][at[i]];
    const ResolvedDefines defines = configDefines(variant, space, config, user);
    if (const auto issue = configIssue(variant, device, size, defines, precision))
      addExclusion(space, issue->kind, issue->message);
    else
      space.valid.push_back(config);
    for (std::size_t i = at.size(); i-- > 0;) {
      if (++at[i] < space.values[i].size()) break;
      at[i] = 0;
    }
  }
  return space;
}

std::map<std::string, int> namedConfig(const std::vector<std::string>& names,
                                       const Config& config) {
  std::map<std::string, int> named;
  for (std::size_t i = 0; i < names.size() && i < config.size(); ++i) named[names[i]] = config[i];
  return named;
}

std::map<std::string, int> entryDefines(const Variant& variant, const TuneSpace& space,
                                        const Config& config) {
  std::map<std::string, int> named = namedConfig(space.names, config);
  for (std::size_t i = 0; i < config.size() && i < space.held_rule.size(); ++i)
    if (space.held_rule[i] && i < variant.params.size() &&
        config[i] == variant.params[i].default_value)
      named.erase(space.names[i]);
  return named;
}

Config withHeldRules(const TuneSpace& space, Config config) {
  for (std::size_t i = 0; i < config.size() && i < space.held_rule.size(); ++i)
    if (space.held_rule[i]) config[i] = space.values[i].front();
  return config;
}

ResolvedDefines configDefines(const Variant& variant, const TuneSpace& space, const Config& config,
                              const std::vector<UserDefine>& user) {
  std::vector<UserDefine> defines;
  for (std::size_t i = 0; i < space.names.size(); ++i)
    defines.push_back({space.names[i], std::to_string(config[i])});
  // The user's defines that are not parameters (e.g. a switch in a modified kernels file) pass
  // through; the parameters' own -D values are already in the configuration.
  for (const auto& d : user)
    if (std::find(space.names.begin(), space.names.end(), d.name) == space.names.end())
      defines.push_back(d);
  return ResolvedDefines(variant.params, defines);
}

std::optional<std::string> configBuildOptions(const Variant& variant, const TuneSpace& space,
                                              const Config& config,
                                              const std::vector<UserDefine>& user,
                                              const Problem& problem, const DeviceInfo& device,
                                              const std::string& extra_options) {
  try {
    return clKernelBuildOptions(variant, configDefines(variant, space, config, user), problem,
                                device, extra_options);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace clgemm
