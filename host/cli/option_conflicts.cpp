#include "cli/option_conflicts.hpp"

#include <filesystem>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "registry/kernels.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// The defines the host sizes a launch from (every OpenCL kernel's parameters) and the ones it
// derives from the problem's sizes (EDGE, VEC_A, ...): both go to the compiler from the host.
std::set<std::string> hostDefines(std::set<std::string>* derived) {
  std::set<std::string> names;
  for (const auto& v : variants()) {
    if (v.backend != Backend::kOpenCl) continue;
    for (const auto& p : v.params) names.insert(p.name);
    if (v.problem_defines) {
      const RowMajorGemm packed = rowMajorGemm(64, 64, 64, gemmStorage(64, 64, 64, GemmShape{}));
      for (const auto& d : v.problem_defines(ResolvedDefines(v.params, {}), packed)) {
        names.insert(d.name);
        derived->insert(d.name);
      }
    }
  }
  return names;
}

// Whether two paths name the same file: the same text, the same path once resolved, or (for
// files that exist) the same file by another name, such as a hard link.
bool sameFile(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code ec1, ec2, ec3;
  const auto ca = std::filesystem::weakly_canonical(a, ec1);
  const auto cb = std::filesystem::weakly_canonical(b, ec2);
  if (!ec1 && !ec2 && ca == cb) return true;
  return std::filesystem::equivalent(a, b, ec3) && !ec3;
}

}  // namespace

void checkClOptions(const std::string& options) {
  const std::vector<std::string> tokens = words(options);
  if (!tokens.empty() && (tokens.back() == "-D" || tokens.back() == "-I")) {
    throw UsageError("--cl-options '" + options + "' ends with " + tokens.back() +
                     ", which needs " + (tokens.back() == "-D" ? "a NAME[=VALUE]" : "a folder") +
                     " after it");
  }
  std::set<std::string> derived;
  const std::set<std::string> host = hostDefines(&derived);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].rfind("-D", 0) != 0) continue;
    const std::string define = tokens[i] == "-D" ? tokens[i + 1] : tokens[i].substr(2);
    const std::string name = define.substr(0, define.find('='));
    if (!host.count(name)) continue;
    if (derived.count(name)) {
      throw UsageError("--cl-options '" + options + "' defines " + name +
                       ", which clgemm derives from the problem's sizes; drop it");
    }
    throw UsageError("--cl-options '" + options + "' defines " + name +
                     ", a kernel parameter clgemm sizes the launch from; give it as -D " + name +
                     "=VALUE instead");
  }
}

void rejectOverwrites(const Options& o) {
  const std::vector<std::pair<std::string, std::string>> inputs = {{"--input-a", o.input_a},
                                                                   {"--input-b", o.input_b},
                                                                   {"--input-c", o.input_c},
                                                                   {"--kernels", o.kernel_file}};
  for (const auto& [option, path] :
       {std::pair<std::string, std::string>{"--out", o.out},
        std::pair<std::string, std::string>{"--output-c", o.output_c}}) {
    if (path.empty()) continue;
    for (const auto& [input_option, input] : inputs) {
      if (input.empty() || (option == "--output-c" && input_option == "--input-c")) continue;
      if (sameFile(path, input)) {
        throw UsageError(option + " '" + path + "' names the same file as " + input_option + " '" +
                         input + "', which it would overwrite");
      }
    }
  }
  if (!o.out.empty() && !o.output_c.empty() && sameFile(o.out, o.output_c))
    throw UsageError("--out '" + o.out + "' and --output-c '" + o.output_c +
                     "' name the same file");
}

}  // namespace clgemm
