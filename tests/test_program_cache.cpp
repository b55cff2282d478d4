// ProgramCache::prebuild, which the tuner uses to compile a batch of candidates at once: on more
// threads than this machine has cores (so the OpenCL implementation's compiler runs concurrently
// for one context), every program is built once and served by get(), and a program that does not
// compile is kept as its error, which get() throws with the compiler's log, as a serial build does.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "opencl/program.hpp"
#include "run_clgemm.hpp"
#include "util/errors.hpp"

namespace {

std::string tiledOptions(const std::string& ts) {
  return "-D CLGEMM_ONE_KERNEL -D KERNEL_gemm_tiled -D TS=" + ts;
}

TEST(ProgramCache, PrebuildCompilesEachProgramOnceOnSeveralThreads) {
  const clgemm::SelectedDevice device = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context(device.device);
  clgemm::ProgramCache cache(context, device.device, clgemm_test::sourceKernels(), "kernels.cl");
  const std::vector<std::string> options = {tiledOptions("4"), tiledOptions("8"),
                                            tiledOptions("16"), tiledOptions("8"),
                                            tiledOptions("2")};
  cache.prebuild(options, 4);
  std::vector<const clgemm::BuiltProgram*> built;
  for (const auto& o : options) {
    const clgemm::BuiltProgram& program = cache.get(o);
    EXPECT_EQ(program.options, o);
    // The kernel is there: the program was built, not merely created.
    EXPECT_NO_THROW(cl::Kernel(program.program, "gemm_tiled")) << o;
    built.push_back(&program);
  }
  EXPECT_EQ(built[1], built[3]) << "the same options were built twice";
  // A second prebuild of programs already built leaves them as they were.
  cache.prebuild(options, 4);
  for (std::size_t i = 0; i < options.size(); ++i) EXPECT_EQ(&cache.get(options[i]), built[i]);
}

TEST(ProgramCache, APrebuiltFailureIsThrownByGetWithTheCompilerLog) {
  const clgemm::SelectedDevice device = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context(device.device);
  clgemm::ProgramCache cache(context, device.device, clgemm_test::sourceKernels(), "kernels.cl");
  const std::string broken = tiledOptions("banana");
  EXPECT_NO_THROW(cache.prebuild({tiledOptions("8"), broken}, 2));
  EXPECT_NO_THROW(cache.get(tiledOptions("8")));
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      cache.get(broken);
      ADD_FAILURE() << "a program that does not compile was served";
    } catch (const clgemm::UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("with options '" + broken + "'"), std::string::npos) << what;
      EXPECT_NE(what.find("compiler log"), std::string::npos) << what;
    }
  }
}

}  // namespace
