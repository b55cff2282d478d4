#include "api/library_device.hpp"

#include <utility>

#include "opencl/kernel_source.hpp"

namespace clgemm {
namespace {

// The device's limits, with its indices in --list order where the ICD loader lists it (they only
// name it in messages; a device it does not list keeps 0 and 0).
DeviceInfo describeCallerDevice(const cl::Device& device) {
  int platform = 0, index = 0;
  try {
    for (const SelectedDevice& d : allDevices()) {
      if (d.device() == device()) {
        platform = d.info.platform_index;
        index = d.info.device_index;
        break;
      }
    }
  } catch (const std::exception&) {
    // No platform list (a runtime without the ICD loader's enumeration): the indices stay 0.
  }
  return describeDevice(device, platform, index);
}

// The kernels' source, found once per process as the command line finds it without --kernels.
const KernelSource& librarySource() {
  static const KernelSource source = loadKernelSource("");
  return source;
}

std::mutex cache_mutex;
// Never destroyed: at exit the OpenCL implementation may be torn down before this file's statics,
// and releasing programs and contexts then crashes some (oclgrind aborts with "corrupted
// double-linked list"). The process's end frees everything anyway; clgemmClearCache releases it
// while the implementation is alive.
auto& cache = *new std::map<std::pair<cl_context, cl_device_id>, std::shared_ptr<LibraryDevice>>();

}  // namespace

LibraryDevice::LibraryDevice(const cl::Context& context_, const cl::Device& device_)
    : context(context_),
      device(device_),
      info(describeCallerDevice(device_)),
      programs(context_, device_, librarySource().text, librarySource().origin),
      param_dirs(paramDirs("", librarySource().origin)) {}

std::shared_ptr<LibraryDevice> libraryDevice(cl_context context, cl_device_id device) {
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto& slot = cache[{context, device}];
  // retainObject: the cache holds its own references to the caller's context and device.
  if (!slot)
    slot = std::make_shared<LibraryDevice>(cl::Context(context, true), cl::Device(device, true));
  return slot;
}

void clearLibraryDevices() {
  std::lock_guard<std::mutex> lock(cache_mutex);
  cache.clear();
}

}  // namespace clgemm
