// Builds kernels.cl for a device with a set of -D options, keeps the build log, and caches built
// programs by their options so each configuration compiles once per run.
#pragma once

#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

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
  // Builds the programs of these options that are not built yet, up to `threads` at once, so that
  // later get() calls find them; a build that fails is kept as its error, which get() throws. The
  // tuner's candidates spend most of their time in the compiler (0.5-0.7 s each on an H200's
  // host, 5-7 s under pocl), and OpenCL compiles programs of one context on several threads.
  void prebuild(const std::vector<std::string>& options, unsigned threads);
  // Forgets every built program (kernels made from them stay valid): the tuner builds hundreds of
  // configurations, each once.
  void clear() {
    built_.clear();
    failed_.clear();
  }
  const std::string& origin() const { return origin_; }
  // From now on every program built is also written into `dir` (--save-programs; see
  // program_save.hpp); empty: none.
  void saveTo(std::string dir) { save_dir_ = std::move(dir); }

 private:
  // Builds one program; touches no member but the (const) context, device and source, so several
  // may run at once.
  BuiltProgram build(const std::string& options) const;
  // Where the PTX the driver returned holds ptx_arch.hpp's markers (arch-specific instructions,
  // an occupancy request), builds it again from that PTX, rewritten.
  void rebuildFromMarkedPtx(BuiltProgram& built) const;

  cl::Context context_;
  cl::Device device_;
  std::string source_;
  std::string origin_;
  std::map<std::string, BuiltProgram> built_;
  std::map<std::string, std::exception_ptr> failed_;  // prebuilt, failed: get() throws the error
  std::string save_dir_;
};

}  // namespace clgemm
