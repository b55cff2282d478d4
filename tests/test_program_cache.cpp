// ProgramCache::prebuild, which the tuner uses to compile a batch of candidates at once: on more
// threads than this machine has cores (so the OpenCL implementation's compiler runs concurrently
// for one context), every program is built once and served by get(), and a program that does not
// compile is kept as its error, which get() throws with the compiler's log, as a serial build does.
// --save-programs: every program built, by get() or prebuild(), written once under a name of its
// kernel and options, with its options and log beside it; a failed build writes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "opencl/program.hpp"
#include "opencl/program_save.hpp"
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

TEST(ProgramCache, SavedNamesFollowTheKernelTheDeviceAndTheOptions) {
  using clgemm::savedProgramStem;
  EXPECT_EQ(savedProgramStem(tiledOptions("8"), "cpu").rfind("gemm_tiled-", 0), 0u);
  EXPECT_EQ(savedProgramStem(tiledOptions("8"), "cpu"), savedProgramStem(tiledOptions("8"), "cpu"));
  EXPECT_NE(savedProgramStem(tiledOptions("8"), "cpu"),
            savedProgramStem(tiledOptions("16"), "cpu"));
  EXPECT_NE(savedProgramStem(tiledOptions("8"), "cpu"), savedProgramStem(tiledOptions("8"), "gpu"));
  EXPECT_EQ(savedProgramStem("-D TS=8", "cpu").rfind("program-", 0), 0u);
}

TEST(ProgramCache, SavesEachProgramItBuildsOnceWithItsOptions) {
  const clgemm::SelectedDevice device = clgemm::selectDevice(std::nullopt, std::nullopt);
  const cl::Context context(device.device);
  clgemm::ProgramCache cache(context, device.device, clgemm_test::sourceKernels(), "kernels.cl");
  const clgemm_test::TempDir saved;
  std::filesystem::remove(saved.path());
  clgemm::prepareSavedProgramsDir(saved.path());  // created where missing
  cache.saveTo(saved.path());
  cache.get(tiledOptions("8"));
  cache.get(tiledOptions("8"));  // served from the cache: nothing new
  EXPECT_NO_THROW(cache.prebuild({tiledOptions("4"), tiledOptions("banana")}, 2));

  std::set<std::string> expected;
  for (const std::string& ts : {"8", "4"}) {
    const std::string options = tiledOptions(ts);
    const std::string stem =
        clgemm::savedProgramStem(options, device.device.getInfo<CL_DEVICE_NAME>());
    const std::vector<std::string> files = saved.files();
    const bool ptx = std::count(files.begin(), files.end(), stem + ".ptx") > 0;
    const std::string binary = stem + (ptx ? ".ptx" : ".bin");
    expected.insert(binary);
    expected.insert(stem + ".txt");
    EXPECT_GT(std::filesystem::file_size(saved.file(binary)), 0u) << binary;
    // The binary is the program's: built again from it, the kernel is there.
    if (!ptx) {
      const std::string bytes = clgemm_test::readText(saved.file(binary));
      cl::Program again(
          context, {device.device},
          cl::Program::Binaries{std::vector<unsigned char>(bytes.begin(), bytes.end())});
      again.build({device.device}, options.c_str());
      EXPECT_NO_THROW(cl::Kernel(again, "gemm_tiled")) << binary;
    }
    EXPECT_NE(clgemm_test::readText(saved.file(stem + ".txt")).find("options: " + options + "\n"),
              std::string::npos);
  }
  // No file for the build that failed, none left half-written.
  EXPECT_EQ(saved.files(), std::vector<std::string>(expected.begin(), expected.end()));
}

// End to end: a run writes its kernels' programs where --save-programs says, creating the folder.
TEST(ProgramCache, ARunSavesTheProgramsOfItsKernels) {
  const clgemm_test::TempDir store, programs;
  std::filesystem::remove(programs.path());
  const auto r =
      clgemm_test::runClgemm({"--kernel", "naive,tiled", "--size", "16", "--reps", "1", "--warmup",
                              "0", "--store", store.path(), "--save-programs", programs.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> kernels;
  for (const std::string& name : programs.files())
    kernels.insert(name.substr(0, name.find('-')) + name.substr(name.rfind('.')));
  EXPECT_TRUE(kernels.count("gemm_naive.txt") && kernels.count("gemm_tiled.txt"))
      << ::testing::PrintToString(kernels);
  EXPECT_EQ(programs.files().size(), 4u) << ::testing::PrintToString(programs.files());
}

}  // namespace
