// The registry of GEMM variants. Each entry says which kernel in kernels.cl it runs, its parameters
// with defaults, its constraints, and how the NDRange follows from the parameters and M, N, K.
// Adding a variant is adding one kernel to kernels.cl and one entry in kernels.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "defines.hpp"

namespace clgemm {

struct Param {
  std::string name;
  int default_value;
  std::string help;
};

struct LaunchShape {
  std::array<std::size_t, 2> global{};  // dimension 0 runs along N (columns), 1 along M (rows)
  std::array<std::size_t, 2> local{};
  std::string local_from;  // the defines the work-group shape follows from, for error messages
};

struct Variant {
  std::string name;     // what --kernel takes
  std::string entry;    // the __kernel function in kernels.cl
  std::string summary;  // one line for --help and the README
  std::vector<Param> params;
  // One message per violated constraint, each naming the define(s) to change.
  std::function<std::vector<std::string>(const ResolvedDefines&)> constraints;
  std::function<LaunchShape(const ResolvedDefines&, int m, int n)> shape;
  // __local bytes the kernel declares with these parameters, checked before building.
  std::function<std::size_t(const ResolvedDefines&)> local_mem_bytes;
};

// Every variant, in ladder order.
const std::vector<Variant>& variants();

// The variants named in a comma-separated list, in the order given, duplicates dropped. Unknown
// names are a usage error that lists the known ones.
std::vector<const Variant*> parseVariantList(const std::string& list);

// The default --kernel list.
inline constexpr const char* kDefaultKernels = "naive,tiled,regtile2d";

// "naive, tiled, ..." and a help paragraph with every variant's parameters and defaults.
std::string variantNames();
std::string variantHelp();

}  // namespace clgemm
