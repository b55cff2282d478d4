// Command-line parsing: the option names other issues and scripts rely on, and the form checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/options.hpp"
#include "commands/run_options.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "run_clgemm.hpp"
#include "util/errors.hpp"

namespace {

clgemm::Options parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv = {"clgemm"};
  argv.insert(argv.end(), args.begin(), args.end());
  return clgemm::parseOptions(int(argv.size()), argv.data());
}

std::string usageMessage(std::initializer_list<const char*> args) {
  try {
    parse(args);
  } catch (const clgemm::UsageError& e) {
    EXPECT_EQ(e.code(), clgemm::kExitUsage);
    return e.what();
  }
  ADD_FAILURE() << "no usage error";
  return "";
}

TEST(Options, DefaultsMatchTheDocumentation) {
  const auto o = parse({});
  EXPECT_EQ(o.kernels, "naive,tiled,regtile2d,best");
  EXPECT_FALSE(o.m || o.n || o.k);
  EXPECT_FALSE(o.platform || o.device);
  EXPECT_EQ(o.alpha, 1.0f);
  EXPECT_EQ(o.beta, 0.0f);
  EXPECT_EQ(o.warmup, 2);
  EXPECT_EQ(o.reps, 10);
  EXPECT_TRUE(o.check);
  EXPECT_EQ(o.format, clgemm::Format::kTable);
  EXPECT_TRUE(o.defines.empty());
}

TEST(Options, ReadsEveryOption) {
  const auto o =
      parse({"--platform", "1",         "--device",   "2",        "--kernel", "tiled,naive",
             "-m",         "7",         "-n",         "8",        "-k",       "9",
             "--alpha",    "1.5",       "--beta",     "-0.5",     "--reps",   "3",
             "--warmup",   "0",         "--no-check", "--format", "csv",      "--out",
             "r.csv",      "--kernels", "my.cl",      "--seed",   "7"});
  EXPECT_EQ(*o.platform, 1);
  EXPECT_EQ(*o.device, 2);
  EXPECT_EQ(o.kernels, "tiled,naive");
  EXPECT_EQ(*o.m, 7);
  EXPECT_EQ(*o.n, 8);
  EXPECT_EQ(*o.k, 9);
  EXPECT_FLOAT_EQ(o.alpha, 1.5f);
  EXPECT_FLOAT_EQ(o.beta, -0.5f);
  EXPECT_EQ(o.reps, 3);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_FALSE(o.check);
  EXPECT_EQ(o.format, clgemm::Format::kCsv);
  EXPECT_EQ(o.out, "r.csv");
  EXPECT_EQ(o.kernel_file, "my.cl");
  EXPECT_EQ(o.seed, 7u);
}

// The BLAS shape (#26): defaults, lists in the order given, and every combination swept.
TEST(Options, ShapeOptionsAndTheirSweep) {
  const auto d = parse({});
  ASSERT_EQ(clgemm::gemmShapes(d).size(), 1u);
  EXPECT_TRUE(clgemm::gemmShapes(d).front().isDefault());
  const auto o = parse({"--layout", "col,row", "--trans-a", "t", "--trans-b", "n,t", "--lda", "50",
                        "--ldb", "60", "--ldc", "70"});
  const auto shapes = clgemm::gemmShapes(o);
  ASSERT_EQ(shapes.size(), 4u);
  EXPECT_EQ(clgemm::shapeLabel(shapes[0]), "col TN lda=50 ldb=60 ldc=70");
  EXPECT_EQ(clgemm::shapeLabel(shapes[1]), "col TT lda=50 ldb=60 ldc=70");
  EXPECT_EQ(clgemm::shapeLabel(shapes[2]), "row TN lda=50 ldb=60 ldc=70");
  EXPECT_EQ(clgemm::shapeLabel(shapes[3]), "row TT lda=50 ldb=60 ldc=70");
}

// Each bad value names its option (test_bad_input.cpp runs them end to end: exit 2).
TEST(Options, BadShapeValuesNameTheirOption) {
  EXPECT_NE(usageMessage({"--layout", "diag"}).find("--layout 'diag' is not one of row, col"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--trans-a", "x"}).find("--trans-a 'x' is not one of n, t"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--trans-b", "n,,t"}).find("--trans-b 'n,,t' has an empty item"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--trans-a", "n,n"}).find("--trans-a 'n,n' names n twice"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--lda", "0"}).find("--lda 0 must be positive"), std::string::npos);
  EXPECT_NE(usageMessage({"--lda=-3"}).find("--lda -3 must be positive"), std::string::npos);
  EXPECT_NE(usageMessage({"--lda", "abc"}).find("--lda 'abc' is not an integer"),
            std::string::npos);
  EXPECT_NE(usageMessage({"tune", "--trans-a", "n,t"}).find("clgemm tune searches one problem"),
            std::string::npos);
  EXPECT_NE(
      usageMessage({"peak", "--layout", "col"}).find("--layout does not apply to clgemm peak"),
      std::string::npos);
  EXPECT_NE(usageMessage({"--devices", "all", "--trans-a", "t"})
                .find("--devices does not go with --trans-a"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--input-a", "a.npy", "--input-b", "b.npy", "--layout", "row,col"})
                .find("--input-a is one problem: give one value to --layout"),
            std::string::npos);
}

// --precision: a list sweeps in the order given; alpha and beta take any finite double when every
// run is FP64 and what a float holds otherwise (test_bad_input.cpp runs the refusals end to end).
TEST(Options, PrecisionAndItsScalars) {
  using clgemm::Precision;
  EXPECT_EQ(parse({}).precisions, std::vector<Precision>{Precision::kFp32});
  EXPECT_EQ(parse({"--precision", "fp64,fp32"}).precisions,
            (std::vector<Precision>{Precision::kFp64, Precision::kFp32}));
  const auto fp64 = parse({"--precision", "fp64", "--alpha", "1e300", "--beta", "-2.5e-300"});
  EXPECT_EQ(fp64.alpha, 1e300);
  EXPECT_EQ(fp64.beta, -2.5e-300);
  // A double's digits are kept for FP64, not rounded to float.
  EXPECT_EQ(parse({"--precision", "fp64", "--alpha", "0.1"}).alpha, 0.1);
  EXPECT_EQ(parse({"--alpha", "0.1"}).alpha, double(0.1f));
  EXPECT_NE(
      usageMessage({"--alpha", "1e300"}).find("--alpha '1e300' is beyond the range of a float"),
      std::string::npos);
  EXPECT_NE(usageMessage({"--precision", "fp32,fp64", "--beta", "1e300"})
                .find("--precision fp64 takes any finite double"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--precision", "fp64", "--alpha", "1e400"})
                .find("--alpha '1e400' is beyond the range of a double"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--precision", "fp64", "--alpha", "inf"}).find("is not a finite number"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--precision", "fp64", "--alpha", "x"}).find("--alpha 'x'"),
            std::string::npos);
  EXPECT_NE(
      usageMessage({"--precision", "fp16"}).find("--precision 'fp16' is not one of fp32, fp64"),
      std::string::npos);
  EXPECT_NE(usageMessage({"--precision", "fp32,,fp64"})
                .find("--precision 'fp32,,fp64' has an empty item"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--precision", "fp32,fp32"}).find("names fp32 twice"), std::string::npos);
  EXPECT_NE(usageMessage({"tune", "--kernel", "tiled", "--precision", "fp32,fp64"})
                .find("clgemm tune searches one problem: give one value to --precision"),
            std::string::npos);
  EXPECT_NE(usageMessage({"peak", "--precision", "fp64"})
                .find("--precision does not apply to clgemm peak"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--devices", "all", "--precision", "fp64"})
                .find("--devices does not go with --precision"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--input-a", "a.npy", "--input-b", "b.npy", "--precision", "fp32,fp64"})
                .find("--input-a is one problem: give one value to --precision"),
            std::string::npos);
}

TEST(Options, SizeSetsAllThreeDimensions) {
  const auto o = parse({"--size", "33"});
  EXPECT_EQ(*o.m, 33);
  EXPECT_EQ(*o.n, 33);
  EXPECT_EQ(*o.k, 33);
}

TEST(Options, DefinesInBothSpellingsKeepOrderAndCommas) {
  const auto o = parse({"-D", "TSM=128", "-DTSN=64", "-D", "EXTRA=1,2"});
  ASSERT_EQ(o.defines.size(), 3u);
  EXPECT_EQ(o.defines[0].name, "TSM");
  EXPECT_EQ(o.defines[0].value, "128");
  EXPECT_EQ(o.defines[1].name, "TSN");
  EXPECT_EQ(o.defines[1].value, "64");
  EXPECT_EQ(o.defines[2].value, "1,2");
}

TEST(Options, JsonFormat) { EXPECT_EQ(parse({"--format", "json"}).format, clgemm::Format::kJson); }

TEST(Options, MalformedValuesNameTheOption) {
  EXPECT_NE(usageMessage({"-m", "0"}).find("-m 0"), std::string::npos);
  EXPECT_NE(usageMessage({"-n", "x"}).find("-n 'x'"), std::string::npos);
  EXPECT_NE(usageMessage({"-k", "-1"}).find("-k -1"), std::string::npos);
  EXPECT_NE(usageMessage({"--size", "12abc"}).find("--size"), std::string::npos);
  EXPECT_NE(usageMessage({"--reps", "0"}).find("--reps"), std::string::npos);
  EXPECT_NE(usageMessage({"--warmup", "-1"}).find("--warmup"), std::string::npos);
  EXPECT_NE(usageMessage({"--alpha", "one"}).find("--alpha"), std::string::npos);
  EXPECT_NE(usageMessage({"--beta", "nan"}).find("--beta"), std::string::npos);
  EXPECT_NE(usageMessage({"--platform", "-1"}).find("--platform"), std::string::npos);
  EXPECT_NE(usageMessage({"-m", "99999999999"}).find("-m"), std::string::npos);
  EXPECT_NE(usageMessage({"--format", "xml"}).find("xml"), std::string::npos);
}

TEST(Options, MalformedDefines) {
  EXPECT_NE(usageMessage({"-D", "TSM"}).find("no '='"), std::string::npos);
  EXPECT_NE(usageMessage({"-D", "=3"}).find("empty name"), std::string::npos);
  EXPECT_NE(usageMessage({"-D", "TSM="}).find("empty value"), std::string::npos);
  EXPECT_NE(usageMessage({"-D", "9X=3"}).find("'9X'"), std::string::npos);
  EXPECT_NE(usageMessage({"-D", "A-B=3"}).find("'A-B'"), std::string::npos);
}

// Found by tests/fuzz/fuzz_defines: the host must read a parameter's value as the compiler, which
// gets the text, does: "010" is octal 8 to it, " 16" two tokens, and a NUL (from a tuned entry's
// JSON) ends the option string.
TEST(Options, DefineIntegersReadAsTheCompilerReadsThem) {
  for (const auto& [text, expected] : std::vector<std::pair<std::string, int>>{
           {"16", 16}, {"0", 0}, {"-3", -3}, {"+4", 4}, {"2147483647", 2147483647}}) {
    int value = -1;
    EXPECT_TRUE(clgemm::parseDefineInt(text, value)) << text;
    EXPECT_EQ(value, expected) << text;
  }
  for (const std::string text :
       {"", "-", "010", "-08", "00", " 16", "16 ", "0x10", "2147483648", "1e3"}) {
    int value = 0;
    EXPECT_FALSE(clgemm::parseDefineInt(text, value)) << "'" << text << "'";
  }
  for (const std::string text : {std::string("\0", 1), std::string("16\0x", 4)}) {
    int value = 0;
    EXPECT_FALSE(clgemm::parseDefineInt(text, value)) << text.size() << " bytes";
  }
  try {
    clgemm::ResolvedDefines({{"TS", 16, "tile size"}}, {{"TS", "010"}});
    ADD_FAILURE() << "TS=010 accepted";
  } catch (const clgemm::UsageError& e) {
    EXPECT_NE(
        std::string(e.what()).find("TS=010: TS must be an integer (decimal, no leading zeros)"),
        std::string::npos)
        << e.what();
  }
}

TEST(Options, Conflicts) {
  EXPECT_NE(usageMessage({"--size", "8", "-n", "4"}).find("-n"), std::string::npos);
  EXPECT_NE(usageMessage({"--input-a", "a.npy"}).find("--input-b"), std::string::npos);
  EXPECT_NE(usageMessage({"--input-c", "c.npy"}).find("--input-c"), std::string::npos);
  EXPECT_NE(usageMessage(
                {"--input-a", "a.npy", "--input-b", "b.npy", "--output-c", "c.npy", "--no-check"})
                .find("--no-check"),
            std::string::npos);
  EXPECT_NE(usageMessage({"--out", "x.npy", "--input-a", "a.npy", "--input-b", "b.npy",
                          "--output-c", "x.npy"})
                .find("same file"),
            std::string::npos);
}

TEST(Options, UnknownOptionsAndStrayArguments) {
  EXPECT_NE(usageMessage({"--bogus"}).find("bogus"), std::string::npos);
  EXPECT_NE(usageMessage({"stray"}).find("'stray'"), std::string::npos);
  EXPECT_NE(usageMessage({"-m"}).find("m"), std::string::npos);  // value missing
}

// The subcommand may come after options (`clgemm --kernels my.cl tune ...`); an option's value
// that happens to read "tune" stays a value.
TEST(Options, TheSubcommandMayFollowOptions) {
  EXPECT_EQ(parse({"tune", "--kernel", "best", "--budget", "5"}).command, clgemm::Command::kTune);
  const auto after = parse({"--kernel", "best", "tune", "--budget", "5"});
  EXPECT_EQ(after.command, clgemm::Command::kTune);
  EXPECT_EQ(after.kernels, "best");
  EXPECT_EQ(after.budget, 5);
  EXPECT_EQ(parse({"--reps", "3", "peak"}).command, clgemm::Command::kPeak);
  const auto value = parse({"--out", "tune", "--size", "8"});
  EXPECT_EQ(value.command, clgemm::Command::kRun);
  EXPECT_EQ(value.out, "tune");
  EXPECT_EQ(parse({"--out=tune", "--size", "8"}).command, clgemm::Command::kRun);
  // Only one subcommand: a second is a stray argument.
  EXPECT_NE(usageMessage({"tune", "--kernel", "best", "peak"}).find("'peak'"), std::string::npos);
}

TEST(Options, VariantListsAreCheckedByName) {
  const auto chosen = clgemm::parseVariantList("regtile2d,naive,regtile2d");
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_EQ(chosen[0]->name, "regtile2d");
  EXPECT_EQ(chosen[1]->name, "naive");
  try {
    clgemm::parseVariantList("naive,fastest");
    FAIL() << "unknown variant accepted";
  } catch (const clgemm::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'fastest'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("regtile2d"), std::string::npos);
  }
  EXPECT_THROW(clgemm::parseVariantList(","), clgemm::UsageError);
}

TEST(Options, HelpListsEveryVariantWithItsParameters) {
  const std::string help = clgemm::helpText();
  for (const auto& v : clgemm::variants()) {
    EXPECT_NE(help.find(v.name + ":"), std::string::npos) << v.name;
    for (const auto& p : v.params) {
      const auto at = help.find(p.name + " [" + std::to_string(p.default_value) + "]");
      ASSERT_NE(at, std::string::npos) << v.name << " " << p.name;
      // A size rule says the tuner holds it, on its own line.
      const std::string line = help.substr(at, help.find('\n', at) - at);
      EXPECT_EQ(line.find("a size rule: `clgemm tune` holds it") != std::string::npos, p.size_rule)
          << line;
    }
  }
  EXPECT_NE(help.find("--input-a"), std::string::npos);
}

}  // namespace

namespace {

// Where the section of kernels.cl that defines `entry`'s defaults starts: the one-line #if naming
// KERNEL_<entry> that is followed by the #ifndef defaults. Most sections also compile in a
// whole-file build (#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_<entry>)); the tensor-core
// one only when named (#if defined(KERNEL_gemm_tc_tf32) || defined(KERNEL_gemm_tc_3xtf32)).
std::size_t sectionOf(const std::string& text, const std::string& entry) {
  const std::string named = "defined(KERNEL_" + entry + ")";
  for (std::size_t line = 0; line < text.size();) {
    const std::size_t end = std::min(text.find('\n', line), text.size());
    const std::string_view current(text.data() + line, end - line);
    if (current.rfind("#if ", 0) == 0 && current.find(named) != std::string_view::npos &&
        current.back() != '\\' && text.compare(end, 9, "\n#ifndef ") == 0)
      return line;
    line = end + 1;
  }
  return std::string::npos;
}

// kernels.cl and the registry both state each OpenCL parameter's default (the file's #ifndef
// defaults make it usable on its own); they must agree.
TEST(Registry, DefaultsMatchKernelsCl) {
  const std::string text = clgemm_test::sourceKernels();
  for (const auto& v : clgemm::variants()) {
    if (v.backend != clgemm::Backend::kOpenCl) continue;
    const auto section = sectionOf(text, v.entry);
    ASSERT_NE(section, std::string::npos) << v.entry;
    const auto end = text.find("__kernel", section);
    for (const auto& p : v.params) {
      const std::string define = "#define " + p.name + " " + std::to_string(p.default_value);
      const auto at = text.find(define, section);
      EXPECT_TRUE(at != std::string::npos && at < end)
          << v.name << ": kernels.cl lacks '" << define << "' before its kernel";
    }
  }
}

}  // namespace
