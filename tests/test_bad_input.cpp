// End-to-end checks of clgemm's refusals: every bad option, define, variant, device or input file
// must end in "clgemm: error: ..." naming the culprit, with the documented exit code, without a
// crash and without leaving a report or a result file behind. Each case runs the real binary.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "run_clgemm.hpp"

namespace {

using clgemm_test::runClgemm;
using clgemm_test::TempDir;

// ------------------------------------------------------------------------------------------------
// Hand-made .npy files, so each part of the header can be corrupted on its own.

// The header dict as numpy.lib.format writes it.
std::string npyDict(const std::string& descr, const std::string& fortran_order,
                    const std::string& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran_order + ", 'shape': " + shape +
         ", }";
}

// A format 1.0 file: magic, version, little-endian uint16 header length, the dict padded with
// spaces and ended by '\n' so that magic + version + length + header is a multiple of 64 bytes,
// then `data_bytes` bytes of data (float32 values 0.25, 0.5, ... where they fit).
std::string npyFile(const std::string& dict, std::size_t data_bytes) {
  std::string header = dict;
  const std::size_t unpadded = 6 + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::string bytes = "\x93NUMPY";
  bytes.push_back('\x01');
  bytes.push_back('\x00');
  bytes.push_back(char(header.size() & 0xff));
  bytes.push_back(char(header.size() >> 8));
  bytes += header;
  for (std::size_t i = 0; i < data_bytes; i += 4) {
    const float value = 0.25f * float(i / 4 % 7 + 1) * ((i / 4) % 2 ? -1.0f : 1.0f);
    char raw[4];
    std::memcpy(raw, &value, 4);  // the test hosts are little-endian, like the files
    bytes.append(raw, std::min<std::size_t>(4, data_bytes - i));
  }
  return bytes;
}

// A valid rows x cols float32 C-order matrix.
std::string npyMatrix(std::size_t rows, std::size_t cols) {
  return npyFile(
      npyDict("<f4", "False", "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")"),
      rows * cols * 4);
}

// Every input file a case may name, written fresh into its own directory for each test.
void writeInputs(const TempDir& in) {
  using clgemm_test::writeText;
  writeText(in.file("a45.npy"), npyMatrix(4, 5));
  writeText(in.file("b53.npy"), npyMatrix(5, 3));
  writeText(in.file("b63.npy"), npyMatrix(6, 3));
  writeText(in.file("c43.npy"), npyMatrix(4, 3));
  writeText(in.file("c34.npy"), npyMatrix(3, 4));
  // 4 x 5 needs 80 bytes of data; 76 are there.
  writeText(in.file("a_truncated.npy"), npyFile(npyDict("<f4", "False", "(4, 5)"), 76));
  writeText(in.file("a_f8.npy"), npyFile(npyDict("<f8", "False", "(4, 5)"), 160));
  writeText(in.file("a_fortran.npy"), npyFile(npyDict("<f4", "True", "(4, 5)"), 80));
  writeText(in.file("a_1d.npy"), npyFile(npyDict("<f4", "False", "(20,)"), 80));
  writeText(in.file("bad.cl"), "__kernel void gemm_naive(const int M, {\n");
}

// ------------------------------------------------------------------------------------------------
// The table.

struct BadCase {
  std::string name;
  // "@IN/" is replaced by the directory holding the inputs, "@OUT/" by an empty directory that
  // must still be empty afterwards.
  std::vector<std::string> args;
  int exit_code;
  // Each must appear in stderr: the option, define, variant or file at fault, and the problem.
  std::vector<std::string> culprit;
};

// Just the name: gtest_discover_tests puts the printed parameter into the ctest name.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

std::string commandLine(const std::vector<std::string>& args) {
  std::string line = "clgemm";
  for (const auto& a : args) line += " '" + a + "'";
  return line;
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Small and quick: the device is a 2-core CPU. --out into the directory that must stay empty.
const std::vector<std::string> kQuick = {"--reps", "1", "--warmup", "0"};
const std::vector<std::string> kSmall =
    std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8"} + kQuick;
const std::vector<std::string> kOut = {"--out", "@OUT/report.txt"};
const std::vector<std::string> kOutputC = {"--output-c", "@OUT/c.npy"};
const std::vector<std::string> kInputs = {"--input-a", "@IN/a45.npy", "--input-b", "@IN/b53.npy"};

std::vector<BadCase> badCases() {
  return {
      // Options.
      {"UnknownOption", std::vector<std::string>{"--bogus"} + kSmall + kOut, 2, {"bogus"}},
      {"UnknownVariant",
       std::vector<std::string>{"--kernel", "naive,nope"} + kSmall + kOut,
       2,
       {"'nope'", "naive", "tiled", "regtile2d"}},
      {"EmptyVariantList",
       std::vector<std::string>{"--kernel", ","} + kSmall + kOut,
       2,
       {"--kernel", "regtile2d"}},
      {"DeviceOutOfRange",
       std::vector<std::string>{"--device", "99"} + kSmall + kOut,
       2,
       {"--device 99", "available devices", "platform 0 device 0"}},
      {"PlatformOutOfRange",
       std::vector<std::string>{"--platform", "99"} + kSmall + kOut,
       2,
       {"--platform 99", "available devices", "platform 0 device 0"}},
      {"MZero",
       std::vector<std::string>{"-m", "0", "-n", "8", "-k", "8"} + kQuick + kOut,
       2,
       {"-m 0", "positive"}},
      {"MNegative",
       std::vector<std::string>{"-m", "-3", "-n", "8", "-k", "8"} + kQuick + kOut,
       2,
       {"-m -3", "positive"}},
      {"MNotANumber",
       std::vector<std::string>{"-m", "abc", "-n", "8", "-k", "8"} + kQuick + kOut,
       2,
       {"-m 'abc'", "integer"}},
      {"NFraction",
       std::vector<std::string>{"-m", "8", "-n", "1.5", "-k", "8"} + kQuick + kOut,
       2,
       {"-n '1.5'", "integer"}},
      {"KEmpty",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", ""} + kQuick + kOut,
       2,
       {"-k ''", "integer"}},
      {"MHuge",
       std::vector<std::string>{"-m", "99999999999", "-n", "8", "-k", "8"} + kQuick + kOut,
       2,
       {"-m '99999999999'"}},
      {"SizeConflictsWithM",
       std::vector<std::string>{"--size", "8", "-m", "8"} + kQuick + kOut,
       2,
       {"--size", "-m"}},
      {"RepsZero",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "0", "--warmup", "0"} +
           kOut,
       2,
       {"--reps 0", "positive"}},
      {"WarmupNegative",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "1", "--warmup", "-1"} +
           kOut,
       2,
       {"--warmup -1"}},
      {"AlphaNotANumber",
       std::vector<std::string>{"--alpha", "abc"} + kSmall + kOut,
       2,
       {"--alpha 'abc'", "finite"}},
      {"BetaInfinite",
       std::vector<std::string>{"--beta", "inf"} + kSmall + kOut,
       2,
       {"--beta 'inf'", "finite"}},
      {"FormatXml",
       std::vector<std::string>{"--format", "xml"} + kSmall + kOut,
       2,
       {"--format 'xml'", "table", "csv", "json"}},

      // Defines.
      {"DefineWithoutEquals",
       std::vector<std::string>{"-D", "TS"} + kSmall + kOut,
       2,
       {"'TS'", "="}},
      {"DefineEmptyName",
       std::vector<std::string>{"-D", "=4"} + kSmall + kOut,
       2,
       {"'=4'", "empty name"}},
      {"DefineEmptyValue",
       std::vector<std::string>{"-D", "TS="} + kSmall + kOut,
       2,
       {"'TS='", "empty value"}},
      {"DefineNotAnIdentifier",
       std::vector<std::string>{"-D", "1X=3"} + kSmall + kOut,
       2,
       {"'1X'", "macro name"}},
      {"DefineValueWithSpace",
       std::vector<std::string>{"-D", "FOO=1 2"} + kSmall + kOut,
       2,
       {"FOO=1 2", "spaces"}},
      {"ParamNotAnInteger",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=abc"} + kSmall + kOut,
       2,
       {"TS=abc", "integer"}},
      {"DefineBreaksBuild",
       std::vector<std::string>{"--kernel", "tiled", "-D", "K=5"} + kSmall + kOut,
       2,
       {"K=5", "compiler log"}},
      {"ConstraintViolated",
       std::vector<std::string>{"--kernel", "regtile2d", "-D", "WPTM=3"} + kSmall + kOut,
       2,
       {"regtile2d", "TSM", "WPTM=3"}},
      {"VectorWidthNotOpenClType",
       std::vector<std::string>{"--kernel", "vector", "-D", "WIDTH=3"} + kSmall + kOut,
       2,
       {"vector", "WIDTH=3", "2, 4, 8 or 16"}},
      {"OddTwoByTwoTile",
       std::vector<std::string>{"--kernel", "tiled-2x2", "-D", "TS=7"} + kSmall + kOut,
       2,
       {"tiled-2x2", "TS=7", "even"}},
      {"WptDoesNotDivideTile",
       std::vector<std::string>{"--kernel", "tiled-wpt", "-D", "WPT=3"} + kSmall + kOut,
       2,
       {"tiled-wpt", "TS=32", "WPT=3"}},
      {"TransposeTileTooLarge",
       std::vector<std::string>{"--kernel", "transposed-b", "-D", "TT=128"} + kSmall + kOut,
       2,
       {"transposed-b", "work-group", "TT x TT"}},
      {"ParamZero",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=0"} + kSmall + kOut,
       2,
       {"TS=0", "at least 1"}},
      {"WorkGroupTooLarge",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=128"} + kSmall + kOut,
       2,
       {"tiled", "work-group", "TS x TS"}},
      {"LocalMemoryTooLarge",
       std::vector<std::string>{"--kernel", "regtile2d", "-D", "TSM=1024", "-D", "TSN=1024", "-D",
                                "TSK=512", "-D", "WPTM=64", "-D", "WPTN=64"} +
           kSmall + kOut,
       2,
       {"regtile2d", "local memory", "TSK"}},

      // Sizes the device cannot hold.
      {"AllocationTooLarge",
       std::vector<std::string>{"--size", "200000"} + kQuick + kOut,
       3,
       {"CL_INVALID_BUFFER_SIZE", "200000", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"}},

      // Kernel files.
      {"KernelsFileMissing",
       std::vector<std::string>{"--kernels", "@IN/missing.cl"} + kSmall + kOut,
       2,
       {"--kernels", "missing.cl"}},
      {"KernelsFileSyntaxError",
       std::vector<std::string>{"--kernels", "@IN/bad.cl", "--kernel", "naive"} + kSmall + kOut,
       2,
       {"@IN/bad.cl", "compiler log"}},

      // Output files.
      {"OutIntoMissingDirectory",
       std::vector<std::string>{"--out", "@OUT/missing/report.txt"} + kSmall,
       2,
       {"--out", "@OUT/missing/report.txt"}},
      {"OutputCIntoMissingDirectory",
       kInputs + kQuick + kOut + std::vector<std::string>{"--output-c", "@OUT/missing/c.npy"},
       2,
       {"--output-c", "@OUT/missing/c.npy"}},
      {"OutIsADirectory", std::vector<std::string>{"--out", "@IN/"} + kSmall, 2, {"--out", "@IN/"}},
      {"OutEqualsOutputC",
       kInputs + kQuick + std::vector<std::string>{"--out", "@OUT/x", "--output-c", "@OUT/x"},
       2,
       {"--out", "--output-c", "@OUT/x"}},
      {"OutSameFileAsOutputCByAnotherPath",
       kInputs + kQuick + std::vector<std::string>{"--out", "@OUT/x", "--output-c", "@OUT/./x"},
       2,
       {"--out", "--output-c", "same file"}},

      // Inputs that go together.
      {"InputAWithoutInputB",
       std::vector<std::string>{"--input-a", "@IN/a45.npy"} + kQuick + kOut,
       2,
       {"--input-a", "--input-b"}},
      {"InputBWithoutInputA",
       std::vector<std::string>{"--input-b", "@IN/b53.npy"} + kQuick + kOut,
       2,
       {"--input-a", "--input-b"}},
      {"InputCWithoutInputs",
       std::vector<std::string>{"--input-c", "@IN/c43.npy", "--beta", "1"} + kSmall + kOut,
       2,
       {"--input-c"}},
      {"OutputCWithNoCheck",
       kInputs + kQuick + kOut + kOutputC + std::vector<std::string>{"--no-check"},
       2,
       {"--output-c", "--no-check"}},

      // .npy inputs.
      {"NpyMissing",
       std::vector<std::string>{"--input-a", "@IN/nothere.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "nothere.npy", "cannot open"}},
      {"NpyTruncated",
       std::vector<std::string>{"--input-a", "@IN/a_truncated.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_truncated.npy", "truncated"}},
      {"NpyFloat64",
       std::vector<std::string>{"--input-a", "@IN/a_f8.npy", "--input-b", "@IN/b53.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-a", "a_f8.npy", "'<f8'"}},
      {"NpyFortranOrder",
       std::vector<std::string>{"--input-a", "@IN/a_fortran.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_fortran.npy", "Fortran"}},
      {"Npy1D",
       std::vector<std::string>{"--input-a", "@IN/a_1d.npy", "--input-b", "@IN/b53.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-a", "a_1d.npy", "(20,)", "2-D"}},
      {"NpyBadInputB",
       std::vector<std::string>{"--input-a", "@IN/a45.npy", "--input-b", "@IN/a_f8.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-b", "a_f8.npy", "'<f8'"}},
      {"NpyInnerDimensionMismatch",
       std::vector<std::string>{"--input-a", "@IN/a45.npy", "--input-b", "@IN/b63.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-b", "b63.npy", "6 x 3", "4 x 5", "B needs 5 rows"}},
      {"MConflictsWithInputA",
       kInputs + std::vector<std::string>{"-m", "7"} + kQuick + kOut + kOutputC,
       2,
       {"-m 7", "--input-a", "4"}},
      {"NConflictsWithInputB",
       kInputs + std::vector<std::string>{"-n", "7"} + kQuick + kOut + kOutputC,
       2,
       {"-n 7", "--input-b", "3"}},
      {"InputCWrongShape",
       kInputs + std::vector<std::string>{"--input-c", "@IN/c34.npy", "--beta", "1"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-c", "c34.npy", "3 x 4", "4 x 3"}},
  };
}

std::string substitute(std::string s, const TempDir& in, const TempDir& out) {
  for (const auto& [token, dir] :
       {std::pair<std::string, std::string>{"@IN/", in.path() + "/"},
        std::pair<std::string, std::string>{"@OUT/", out.path() + "/"}}) {
    for (std::size_t at = s.find(token); at != std::string::npos;
         at = s.find(token, at + dir.size()))
      s.replace(at, token.size(), dir);
  }
  return s;
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, FailsNamingTheCulprit) {
  const BadCase& c = GetParam();
  TempDir in, out;
  writeInputs(in);
  std::vector<std::string> args;
  for (const auto& a : c.args) args.push_back(substitute(a, in, out));

  const auto r = runClgemm(args);
  SCOPED_TRACE(commandLine(args) + "\nstderr:\n" + r.err);
  ASSERT_NE(r.exit_code, -1) << "clgemm crashed";
  EXPECT_EQ(r.exit_code, c.exit_code);
  EXPECT_NE(r.err.find("clgemm: error: "), std::string::npos);
  for (const auto& part : c.culprit) {
    const std::string expected = substitute(part, in, out);
    EXPECT_NE(r.err.find(expected), std::string::npos) << "stderr lacks '" << expected << "'";
  }
  // Nothing was reported as if the run had happened.
  EXPECT_EQ(r.out, "");
  // Neither the report, nor C, nor a temporary of either is left behind.
  EXPECT_EQ(out.files(), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Cases, BadInput, ::testing::ValuesIn(badCases()),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                           return info.param.name;
                         });

// The table must not pass by everything failing: the same kind of invocation with valid arguments
// runs, exits 0 and writes its files.
TEST(BadInputControl, ValidRunWritesReport) {
  TempDir out;
  const auto r = runClgemm(std::vector<std::string>{"--kernel", "tiled", "-D", "TS=8", "--format",
                                                    "csv", "--out", out.file("report.txt")} +
                           kSmall);
  SCOPED_TRACE("stderr:\n" + r.err);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err.find("error"), std::string::npos);
  EXPECT_EQ(out.files(), std::vector<std::string>{"report.txt"});
  const std::string report = clgemm_test::readText(out.file("report.txt"));
  EXPECT_NE(report.find("tiled"), std::string::npos) << report;
  EXPECT_NE(report.find("TS=8"), std::string::npos) << report;
}

TEST(BadInputControl, ValidNpyInputsWriteOutputC) {
  TempDir in, out;
  writeInputs(in);
  std::vector<std::string> args;
  for (const auto& a : kInputs +
                           std::vector<std::string>{"--input-c", "@IN/c43.npy", "--beta", "0.5",
                                                    "--kernel", "naive"} +
                           kQuick + kOut + kOutputC)
    args.push_back(substitute(a, in, out));
  const auto r = runClgemm(args);
  SCOPED_TRACE("stderr:\n" + r.err);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(out.files(), (std::vector<std::string>{"c.npy", "report.txt"}));
  // A header padded to a multiple of 64 bytes, then 4 x 3 floats.
  const std::string c = clgemm_test::readText(out.file("c.npy"));
  EXPECT_EQ(c.rfind("\x93NUMPY", 0), 0u);
  ASSERT_GT(c.size(), 4u * 3 * 4);
  EXPECT_EQ((c.size() - 4 * 3 * 4) % 64, 0u) << c.size();
  EXPECT_NE(c.find("'shape': (4, 3)"), std::string::npos);
}

// A run whose --out passes the early check but which fails later (a define that breaks the build)
// leaves neither the report nor a temporary, and does not touch an existing report.
TEST(BadInputLateFailure, BuildFailureLeavesNoOutFile) {
  TempDir out;
  const auto r = runClgemm(std::vector<std::string>{"--kernel", "naive,tiled", "-D", "K=5", "--out",
                                                    out.file("report.txt")} +
                           kSmall);
  SCOPED_TRACE("stderr:\n" + r.err);
  ASSERT_NE(r.exit_code, -1);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("compiler log"), std::string::npos);
  EXPECT_EQ(out.files(), std::vector<std::string>{});
}

TEST(BadInputLateFailure, BuildFailureKeepsExistingReport) {
  TempDir out;
  clgemm_test::writeText(out.file("report.txt"), "previous report\n");
  const auto r = runClgemm(
      std::vector<std::string>{"--kernel", "tiled", "-D", "K=5", "--out", out.file("report.txt")} +
      kSmall);
  SCOPED_TRACE("stderr:\n" + r.err);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(out.files(), std::vector<std::string>{"report.txt"});
  EXPECT_EQ(clgemm_test::readText(out.file("report.txt")), "previous report\n");
}

}  // namespace
