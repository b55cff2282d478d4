// Builds kernels.cl for a device with a set of -D options, keeps the build log, and caches built
// programs by their options so each configuration compiles once per run.
#pragma once

#include <map>
#include <string>

#include "opencl/opencl.hpp"

namespace clgemm {

struct BuiltProgram {
  cl::Program program;
  std::string options;
  std::string log;  // the compiler's log, also on success (-cl-nv-verbose puts ptxas's report here)
};

class ProgramCache {
 public:
  // `origin` names the source in messages (the kernels file, or "embedded copy").
  ProgramCache(cl::Context context, cl::Device device, std::string source, std::string origin);

  // Builds (or returns the cached) program for these compiler options. A build failure is a usage
  // error whose message carries the options and the compiler's log, since a define broke it.
  const BuiltProgram& get(const std::string& options);
  // Forgets every built program (kernels made from them stay valid): the tuner builds hundreds of
  // configurations, each once.
  void clear() { built_.clear(); }
  const std::string& origin() const { return origin_; }

 private:
  void rebuildArchSpecific(BuiltProgram& built);

  cl::Context context_;
  cl::Device device_;
  std::string source_;
  std::string origin_;
  std::map<std::string, BuiltProgram> built_;
};

}  // namespace clgemm
