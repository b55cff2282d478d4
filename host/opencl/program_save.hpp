// --save-programs: each program a run builds, written where the user can read it. On NVIDIA's
// driver the program binary is the PTX (ptxas -arch=sm_90a and cuobjdump -sass turn it into the
// SASS whose FMA share and registers kernel work is judged by); elsewhere it is whatever the
// driver returns (pocl: its own format), kept as is.
#pragma once

#include <string>

#include "opencl/opencl.hpp"
#include "opencl/program.hpp"

namespace clgemm {

// The kernel a set of build options compiles (its -D KERNEL_ name, else "program") and a hash of
// the device's name and the options: "gemm_simt_async-0123456789abcdef". The same build always
// gives the same name; one for another device (--devices) another.
std::string savedProgramStem(const std::string& options, const std::string& device_name);

// Creates `dir` where missing; a usage error naming --save-programs when it is a file or cannot
// be written, checked before anything is built or timed.
void prepareSavedProgramsDir(const std::string& dir);

// Writes `built` into `dir` as STEM.ptx (the PTX, its NUL padding removed, which ptxas refuses)
// or STEM.bin, and STEM.txt (the build options and the compiler's log), each file whole or not
// at all.
void saveBuiltProgram(const BuiltProgram& built, const cl::Device& device, const std::string& dir);

}  // namespace clgemm
