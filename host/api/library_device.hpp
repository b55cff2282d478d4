// What the library keeps per OpenCL context and device between calls: the device's limits, the
// built programs (ProgramCache, by compiler options) and the parameters found per problem, so a
// call after the first builds nothing and reads no tuned entry. Shared by every thread: a call
// holds the device's mutex while it plans (the program cache is not thread-safe), not while its
// kernels run.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "opencl/program.hpp"
#include "problem/precision.hpp"
#include "registry/defines.hpp"
#include "store/param_store.hpp"

namespace clgemm {

struct LibraryDevice {
  LibraryDevice(const cl::Context& context, const cl::Device& device);

  cl::Context context;
  cl::Device device;
  DeviceInfo info;
  ProgramCache programs;
  SearchDirs param_dirs;  // the user's store, then the shipped data/params (as the CLI's)
  std::mutex mutex;       // held while planning: programs and found_params are not thread-safe

  // The parameters found per problem: m, n, k, the kernel-view transposes, the precision.
  using ParamKey = std::tuple<int, int, int, std::string, Precision>;
  std::map<ParamKey, ResolvedDefines> found_params;
};

// The cached LibraryDevice of this context and device, made at the first call. Several threads
// may call it at once; the pointer stays valid after clearLibraryDevices().
std::shared_ptr<LibraryDevice> libraryDevice(cl_context context, cl_device_id device);

// Forgets every cached device (clgemmClearCache): their programs and context references go when
// the last call using them returns.
void clearLibraryDevices();

}  // namespace clgemm
