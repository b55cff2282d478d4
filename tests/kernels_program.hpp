// kernels.cl built straight through OpenCL on the machine's device, for the tests that launch one
// of its kernels themselves (a helper kernel, a kernel the registry runs only elsewhere).
// Header-only, as unsupported.hpp: it needs clgemm_core, which the test executables link.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "run_clgemm.hpp"

namespace clgemm_test {

// The repository's kernels.cl built for `device` with `options`; where it does not build, a test
// failure showing the options and the build log, and nothing.
inline std::optional<cl::Program> buildKernels(const cl::Context& context,
                                               const clgemm::SelectedDevice& device,
                                               const std::string& options) {
  cl::Program program(context, sourceKernels());
  try {
    program.build({device.device}, options.c_str());
  } catch (const cl::Error&) {
    ADD_FAILURE() << "kernels.cl does not build on " << device.info.name << " with \"" << options
                  << "\":\n"
                  << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device);
    return std::nullopt;
  }
  return program;
}

}  // namespace clgemm_test
