// Where clgemm finds kernels.cl and data/ once installed: beside the executable, beside the module
// that holds the core (libclgemm.so, or the executable linked statically), and in that module's
// ../share/clgemm, before the source tree (opencl/kernel_source.hpp). The rule on made-up
// folders, the search on a temporary prefix, and the CLI copied into one.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "opencl/kernel_source.hpp"
#include "run_clgemm.hpp"

namespace {

namespace fs = std::filesystem;
using clgemm_test::TempDir;
using clgemm_test::writeText;
using Dirs = std::vector<std::string>;

TEST(InstallLayout, AStaticallyLinkedProgramLooksBesideItselfThenInItsPrefixsShare) {
  // The CLI in P/bin: the module is the executable.
  EXPECT_EQ(clgemm::shippedFileDirs("/p/bin", "/p/bin", "../share/clgemm"),
            (Dirs{"/p/bin", "/p/share/clgemm"}));
}

TEST(InstallLayout, AProgramUsingTheSharedLibraryLooksBesideTheLibraryAndInItsPrefixsShare) {
  // A user's program anywhere, libclgemm.so in P/lib: the program's folder first (as before),
  // then the library's, then P/share/clgemm.
  EXPECT_EQ(clgemm::shippedFileDirs("/home/u/app", "/p/lib", "../share/clgemm"),
            (Dirs{"/home/u/app", "/p/lib", "/p/share/clgemm"}));
  // A multiarch libdir (lib/x86_64-linux-gnu) reaches share/ through the configured path.
  EXPECT_EQ(
      clgemm::shippedFileDirs("/home/u/app", "/usr/lib/x86_64-linux-gnu", "../../share/clgemm"),
      (Dirs{"/home/u/app", "/usr/lib/x86_64-linux-gnu", "/usr/lib/share/clgemm",
            "/usr/share/clgemm"}));
  // Nothing known, nothing searched (the source tree and the embedded copy remain).
  EXPECT_EQ(clgemm::shippedFileDirs("", "", "../share/clgemm"), Dirs{});
}

TEST(InstallLayout, TheTestsModuleIsTheirExecutable) {
  // The tests link libclgemm.a: the core's code is in the executable, which dladdr must tell
  // from a library (its name there is argv[0], not a path to trust).
  ASSERT_FALSE(clgemm::executableDir().empty());
  EXPECT_EQ(clgemm::moduleDir(), clgemm::executableDir());
}

TEST(InstallLayout, KernelsAreFoundInAPrefixsShareBeforeTheSourceTree) {
  TempDir prefix;
  fs::create_directories(prefix.file("bin"));
  fs::create_directories(prefix.file("share/clgemm"));
  writeText(prefix.file("share/clgemm/kernels.cl"), "// installed\n");
  TempDir source;
  writeText(source.file("kernels.cl"), "// source tree\n");
  const Dirs dirs =
      clgemm::shippedFileDirs(prefix.file("bin"), prefix.file("bin"), "../share/clgemm");

  auto found = clgemm::findKernelSource(dirs, source.path());
  EXPECT_EQ(found.origin, prefix.file("share/clgemm/kernels.cl"));
  EXPECT_EQ(found.text, "// installed\n");

  // A kernels.cl beside the executable still comes first.
  writeText(prefix.file("bin/kernels.cl"), "// beside\n");
  found = clgemm::findKernelSource(dirs, source.path());
  EXPECT_EQ(found.origin, prefix.file("bin/kernels.cl"));
  fs::remove(prefix.file("bin/kernels.cl"));

  // Without the install's copy: the source tree, then the embedded copy.
  fs::remove(prefix.file("share/clgemm/kernels.cl"));
  found = clgemm::findKernelSource(dirs, source.path());
  EXPECT_EQ(found.origin, source.file("kernels.cl"));
  found = clgemm::findKernelSource(dirs, "");
  EXPECT_EQ(found.origin, "embedded copy");
  EXPECT_EQ(found.text, clgemm::kEmbeddedKernels);
}

// End to end: the CLI copied into a prefix's bin/ reads that prefix's share/clgemm/kernels.cl and
// its tuned entries (share/clgemm/data/params), with the shipped data folders in play.
TEST(InstallLayout, TheCliInAPrefixUsesItsSharedKernelsAndEntries) {
  const clgemm_test::ScopedEnv shipped_data("CLGEMM_DATA", std::nullopt);
  const auto probe = clgemm_test::runClgemm(
      {"--kernel", "naive", "--size", "4", "--reps", "1", "--format", "json"});
  ASSERT_EQ(probe.exit_code, 0) << probe.err;
  const std::string device = nlohmann::json::parse(probe.out)["device"]["name"];

  TempDir prefix;
  fs::create_directories(prefix.file("bin"));
  fs::create_directories(prefix.file("share/clgemm/data/params"));
  fs::copy_file(clgemm_test::clgemmExecutable(), prefix.file("bin/clgemm"));
  writeText(prefix.file("share/clgemm/kernels.cl"), clgemm_test::sourceKernels());
  const nlohmann::json entry = {{"device", device},
                                {"driver", "any"},
                                {"kernel", "best"},
                                {"defines", {{"BM", 32}, {"BK", 32}}}};
  writeText(prefix.file("share/clgemm/data/params/this.json"), entry.dump());
  const clgemm_test::ScopedEnv exe("CLGEMM_EXE", prefix.file("bin/clgemm"));
  const std::vector<std::string> run = {"--kernel", "best", "-m",     "70", "-n",       "45",
                                        "-k",       "33",   "--reps", "1",  "--warmup", "0"};

  const auto table = clgemm_test::runClgemm(run);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("kernels from " + prefix.file("share/clgemm/kernels.cl") + "\n"),
            std::string::npos)
      << table.out;

  // The entry is found from the executable's prefix even when the kernels come from elsewhere.
  TempDir elsewhere;
  writeText(elsewhere.file("kernels.cl"), clgemm_test::sourceKernels());
  std::vector<std::string> json_run = run;
  json_run.insert(json_run.end(), {"--kernels", elsewhere.file("kernels.cl"), "--format", "json"});
  const auto r = clgemm_test::runClgemm(json_run);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto row = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(row["status"], "ok") << row.dump();
  EXPECT_EQ(row["defines"]["BM"], "32");
  EXPECT_EQ(row["define_sources"]["BM"], "data");
  EXPECT_EQ(row["params_file"], prefix.file("share/clgemm/data/params/this.json"));
}

}  // namespace
