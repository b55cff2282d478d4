// --devices: the OpenCL devices one GEMM is split across.
#pragma once

#include <string>
#include <vector>

#include "opencl/device.hpp"

namespace clgemm {

// One entry of --devices: a device and how the user named it ("0:1").
struct ListedDevice {
  SelectedDevice selected;
  std::string label;  // PLATFORM:DEVICE
};

// A comma-separated list of PLATFORM:DEVICE pairs, "gpus" (every GPU on every platform) or "all"
// (every device), in the order given. A device may appear twice: it then gets two contexts and
// queues, as two devices would. An entry that is malformed or names no device is a usage error
// naming it and listing the devices there are.
std::vector<ListedDevice> selectDevices(const std::string& list);

}  // namespace clgemm
