// The one place that configures and includes the Khronos C++ bindings, so every file agrees on the
// target version: OpenCL 1.2 APIs only, which every driver we target (NVIDIA, AMD, Intel, pocl)
// has.
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif

#include <CL/opencl.hpp>
