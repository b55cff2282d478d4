// End-to-end checks of clgemm's refusals: every bad option, define, variant, device or input file
// must end in "clgemm: error: ..." naming the culprit, with the documented exit code, without a
// crash, without leaving a report or a result file behind and without touching its inputs. Each
// case runs the real binary.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "report/kernel_figures.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

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
  writeText(in.file("a_3d.npy"), npyFile(npyDict("<f4", "False", "(2, 2, 5)"), 80));
  writeText(in.file("a_big_endian.npy"), npyFile(npyDict(">f4", "False", "(4, 5)"), 80));
  writeText(in.file("a_no_rows.npy"), npyFile(npyDict("<f4", "False", "(0, 5)"), 0));
  writeText(in.file("a_trailing.npy"), npyFile(npyDict("<f4", "False", "(4, 5)"), 84));
  writeText(in.file("a_header_cut.npy"), npyMatrix(4, 5).substr(0, 20));
  writeText(in.file("a_empty.npy"), "");
  writeText(in.file("a_text.npy"), "0.25 0.5 0.75\n1 2 3\n");
  writeText(in.file("c_truncated.npy"), npyFile(npyDict("<f4", "False", "(4, 3)"), 44));
  writeText(in.file("c_f8.npy"), npyFile(npyDict("<f8", "False", "(4, 3)"), 96));
  writeText(in.file("c_fortran.npy"), npyFile(npyDict("<f4", "True", "(4, 3)"), 48));
  writeText(in.file("b_fortran.npy"), npyFile(npyDict("<f4", "True", "(5, 3)"), 60));
  std::filesystem::create_symlink("a45.npy", in.file("a_link.npy"));
  std::filesystem::create_directory(in.file("dir"));
  writeText(in.file("bad.cl"), "__kernel void gemm_naive(const int M, {\n");
  writeText(in.file("empty.cl"), "");
  writeText(in.file("kernels.cl"), clgemm_test::sourceKernels());
}

// What the input directory holds, file by file (directories as "<dir>"), to show that a refused
// run wrote over none of its inputs.
std::map<std::string, std::string> snapshot(const TempDir& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = entry.path().filename();
    files[name] = entry.is_directory() ? "<dir>" : clgemm_test::readText(entry.path());
  }
  return files;
}

// A directory no file can be created in, for the "@RO/" cases. chmod 0555 stops everyone but
// root (and holders of CAP_DAC_OVERRIDE, as in many CI containers); there clgemm must still
// fail, so the case falls back to a directory of a pseudo file system where nobody can create a
// file. Either way the directory is probed first: a case that could write there proves nothing.
class UnwritableDir {
 public:
  UnwritableDir() {
    ::chmod(own_.path().c_str(), 0555);
    for (const std::string& candidate : {own_.path(), std::string("/sys"), std::string("/proc")}) {
      if (std::filesystem::is_directory(candidate) && !canCreateFileIn(candidate)) {
        path_ = candidate;
        break;
      }
    }
  }
  ~UnwritableDir() { ::chmod(own_.path().c_str(), 0755); }
  UnwritableDir(const UnwritableDir&) = delete;
  UnwritableDir& operator=(const UnwritableDir&) = delete;

  // Empty when no unwritable directory was found.
  const std::string& path() const { return path_; }
  // The names in the chmod-ed directory: it must stay empty.
  std::vector<std::string> ownFiles() const { return own_.files(); }

 private:
  static bool canCreateFileIn(const std::string& dir) {
    const std::string probe = dir + "/clgemm-write-probe-" + std::to_string(::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return false;
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
  }

  TempDir own_;
  std::string path_;
};

// ------------------------------------------------------------------------------------------------
// The table.

struct BadCase {
  std::string name;
  // "@IN/" is replaced by the directory holding the inputs (which must be unchanged afterwards),
  // "@OUT/" by an empty directory that must still be empty afterwards, "@RO/" by a directory in
  // which no file can be created (see UnwritableDir).
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
// clgemm peak with a store in the directory that must stay empty.
const std::vector<std::string> kPeak = {"peak", "--store", "@OUT/store"};

// "input-a" -> "InputA", "m" -> "M": an option's name as part of a test name.
std::string camel(const std::string& option) {
  std::string name;
  bool upper = true;
  for (const char c : option) {
    if (c == '-') {
      upper = true;
      continue;
    }
    name += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

// Every option of a benchmark run that takes a value (clgemm --help), as typed.
const std::vector<std::string> kValueOptions = {
    "--platform", "--device",  "--kernel",     "--compare",      "--threads",  "-D",
    "-m",         "-n",        "-k",           "--size",         "--sizes",    "--alpha",
    "--beta",     "--warmup",  "--reps",       "--check",        "--progress", "--store",
    "--seed",     "--format",  "--out",        "--input-a",      "--input-b",  "--input-c",
    "--output-c", "--kernels", "--cl-options", "--layout",       "--trans-a",  "--trans-b",
    "--lda",      "--ldb",     "--ldc",        "--save-programs"};

// Options that belong to another command, refused by `clgemm peak` with a value that would be
// valid elsewhere (test_peak.cpp covers --size, --sizes, -m, -D, --kernel and --check).
const std::vector<std::vector<std::string>> kNotForPeak = {{"--threads", "2"},
                                                           {"--save-programs", "@OUT/programs"},
                                                           {"--seed", "7"},
                                                           {"--warmup", "1"},
                                                           {"--alpha", "2"},
                                                           {"--compare", "clblast"},
                                                           {"--no-check"},
                                                           {"--input-a", "@IN/a45.npy"},
                                                           {"--output-c", "@OUT/c.npy"},
                                                           {"--kernels", "@IN/kernels.cl"},
                                                           {"--cl-options", "-cl-mad-enable"},
                                                           {"--build-log"},
                                                           {"--explain"},
                                                           {"--budget", "3"},
                                                           {"--space", "TS=8,16"}};

std::vector<BadCase> badCases() {
  std::vector<BadCase> cases = {
      // Options: unknown ones, the wrong command, flags given values.
      {"UnknownOption", std::vector<std::string>{"--bogus"} + kSmall + kOut, 2, {"bogus"}},
      {"UnknownCommandWord",
       std::vector<std::string>{"peek"} + kSmall + kOut,
       2,
       {"unexpected argument 'peek'"}},
      // The subcommand may follow options, which must then be its own.
      {"PeakAfterOptionsItDoesNotTake",
       kSmall + kOut + std::vector<std::string>{"peak"},
       2,
       {"does not apply to clgemm peak"}},
      {"ValueIsTheNextOption",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "--warmup", "0"} + kOut,
       2,
       {"--reps", "missing its value", "'--warmup'"}},
      {"OutValueIsTheNextOption",
       kSmall + std::vector<std::string>{"--out", "--no-check"},
       2,
       {"--out", "missing its value", "'--no-check'"}},
      {"FlagGivenFalse",
       std::vector<std::string>{"--no-check=false"} + kSmall + kOut,
       2,
       {"--no-check=false", "takes no value"}},
      {"TuneOptionBudget",
       std::vector<std::string>{"--budget", "5"} + kSmall + kOut,
       2,
       {"--budget", "clgemm tune"}},
      {"TuneOptionTime",
       std::vector<std::string>{"--time", "5"} + kSmall + kOut,
       2,
       {"--time", "clgemm tune"}},
      {"TuneOptionStrategy",
       std::vector<std::string>{"--strategy", "full"} + kSmall + kOut,
       2,
       {"--strategy", "clgemm tune"}},
      {"TuneOptionSpace",
       std::vector<std::string>{"--space", "TS=8,16"} + kSmall + kOut,
       2,
       {"--space", "clgemm tune"}},
      {"ListWithDevice",
       std::vector<std::string>{"--list", "--device", "0"},
       2,
       {"--list", "--device"}},
      {"ListWithExplain",
       std::vector<std::string>{"--list", "--explain"},
       2,
       {"--list", "--explain"}},
      {"ExplainWithCompare",
       std::vector<std::string>{"--explain", "--kernel", "naive", "--compare", "clblast"},
       2,
       {"--explain", "--compare"}},

      // --platform, --device.
      {"DeviceOutOfRange",
       std::vector<std::string>{"--device", "99"} + kSmall + kOut,
       2,
       {"--device 99", "available devices", "platform 0 device 0"}},
      {"PlatformOutOfRange",
       std::vector<std::string>{"--platform", "99"} + kSmall + kOut,
       2,
       {"--platform 99", "available devices", "platform 0 device 0"}},
      {"PlatformNotANumber",
       std::vector<std::string>{"--platform", "nvidia"} + kSmall + kOut,
       2,
       {"--platform 'nvidia'", "integer"}},
      {"PlatformNegative",
       std::vector<std::string>{"--platform", "-1"} + kSmall + kOut,
       2,
       {"--platform -1", ">= 0"}},
      {"PlatformHuge",
       std::vector<std::string>{"--platform", "99999999999"} + kSmall + kOut,
       2,
       {"--platform '99999999999'", "out of range"}},
      {"DeviceNotANumber",
       std::vector<std::string>{"--device", "gpu"} + kSmall + kOut,
       2,
       {"--device 'gpu'", "integer"}},
      {"DeviceNegative",
       std::vector<std::string>{"--device", "-1"} + kSmall + kOut,
       2,
       {"--device -1", ">= 0"}},

      // --kernel, --compare.
      {"UnknownVariant",
       std::vector<std::string>{"--kernel", "naive,nope"} + kSmall + kOut,
       2,
       {"'nope'", "naive", "tiled", "regtile2d"}},
      {"UnknownGroup",
       std::vector<std::string>{"--kernel", "cl,gpu"} + kSmall + kOut,
       2,
       {"'gpu'", "groups: cl, cpu, all"}},
      {"VariantListWithSpace",
       std::vector<std::string>{"--kernel", "naive, tiled"} + kSmall + kOut,
       2,
       {"' tiled'"}},
      {"EmptyVariantList",
       std::vector<std::string>{"--kernel", ","} + kSmall + kOut,
       2,
       {"--kernel", "regtile2d"}},
      {"CompareUnknownBaseline",
       std::vector<std::string>{"--compare", "clblast,mkl"} + kSmall + kOut,
       2,
       {"--compare", "'mkl'", "clblast, openblas"}},
      {"CompareEmpty",
       std::vector<std::string>{"--compare", ""} + kSmall + kOut,
       2,
       {"--compare ''", "no baseline"}},

      // --threads.
      {"ThreadsZero",
       std::vector<std::string>{"--threads", "0"} + kSmall + kOut,
       2,
       {"--threads 0", "positive"}},
      {"ThreadsNegative",
       std::vector<std::string>{"--threads", "-4"} + kSmall + kOut,
       2,
       {"--threads -4", "positive"}},
      {"ThreadsNotANumber",
       std::vector<std::string>{"--threads", "all"} + kSmall + kOut,
       2,
       {"--threads 'all'", "integer"}},
      {"ThreadsHuge",
       std::vector<std::string>{"--threads", "99999999999"} + kSmall + kOut,
       2,
       {"--threads '99999999999'", "out of range"}},
      // Within int, but OpenMP would crash or abort starting them (a CPU path runs here).
      {"ThreadsBeyondLimit",
       std::vector<std::string>{"--threads", "100000", "--kernel", "cpu-packed"} + kSmall + kOut,
       2,
       {"--threads 100000", "at most"}},

      // --alpha, --beta.
      {"AlphaNotANumber",
       std::vector<std::string>{"--alpha", "abc"} + kSmall + kOut,
       2,
       {"--alpha 'abc'", "finite"}},
      {"AlphaEmpty",
       std::vector<std::string>{"--alpha", ""} + kSmall + kOut,
       2,
       {"--alpha ''", "finite"}},
      {"AlphaNan",
       std::vector<std::string>{"--alpha", "nan"} + kSmall + kOut,
       2,
       {"--alpha 'nan'", "finite"}},
      {"AlphaBeyondFloat",
       std::vector<std::string>{"--alpha", "1e39"} + kSmall + kOut,
       2,
       {"--alpha '1e39'", "range of a float"}},
      {"BetaInfinite",
       std::vector<std::string>{"--beta", "inf"} + kSmall + kOut,
       2,
       {"--beta 'inf'", "finite"}},
      {"BetaNan",
       std::vector<std::string>{"--beta", "-nan"} + kSmall + kOut,
       2,
       {"--beta '-nan'", "finite"}},
      {"BetaTooSmallForFloat",
       std::vector<std::string>{"--beta", "1e-40"} + kSmall + kOut,
       2,
       {"--beta '1e-40'", "too small for a float"}},

      // --warmup, --reps.
      {"RepsZero",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "0", "--warmup", "0"} +
           kOut,
       2,
       {"--reps 0", "positive"}},
      {"RepsNegative",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "-5", "--warmup", "0"} +
           kOut,
       2,
       {"--reps -5", "positive"}},
      {"RepsNotANumber",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "ten", "--warmup", "0"} +
           kOut,
       2,
       {"--reps 'ten'", "integer"}},
      {"RepsHuge",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "99999999999",
                                "--warmup", "0"} +
           kOut,
       2,
       {"--reps '99999999999'", "out of range"}},
      {"WarmupNegative",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "1", "--warmup", "-1"} +
           kOut,
       2,
       {"--warmup -1"}},
      {"WarmupFraction",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "8", "--reps", "1", "--warmup", "0.5"} +
           kOut,
       2,
       {"--warmup '0.5'", "integer"}},

      // --check, --no-check, --progress, --seed, --format, --store.
      {"CheckBogus",
       std::vector<std::string>{"--check", "some"} + kSmall + kOut,
       2,
       {"--check 'some'", "auto, full, sampled"}},
      {"CheckConflictsWithNoCheck",
       std::vector<std::string>{"--check", "full", "--no-check"} + kSmall + kOut,
       2,
       {"--check full", "--no-check"}},
      {"ProgressBogus",
       std::vector<std::string>{"--progress", "yes"} + kSmall + kOut,
       2,
       {"--progress 'yes'", "auto, on, off"}},
      {"SeedNotANumber",
       std::vector<std::string>{"--seed", "0x2a"} + kSmall + kOut,
       2,
       {"--seed '0x2a'", "integer"}},
      {"SeedNegative",
       std::vector<std::string>{"--seed", "-1"} + kSmall + kOut,
       2,
       {"--seed -1", ">= 0"}},
      {"SeedBeyond64Bits",
       std::vector<std::string>{"--seed", "18446744073709551616"} + kSmall + kOut,
       2,
       {"--seed '18446744073709551616'", "out of range"}},
      {"FormatXml",
       std::vector<std::string>{"--format", "xml"} + kSmall + kOut,
       2,
       {"--format 'xml'", "table", "csv", "json"}},
      {"FormatUpperCase",
       std::vector<std::string>{"--format", "CSV"} + kSmall + kOut,
       2,
       {"--format 'CSV'", "table, csv, json"}},
      {"StoreEmpty",
       std::vector<std::string>{"--store", ""} + kSmall + kOut,
       2,
       {"--store", "folder name"}},
      {"StoreIsAFile",
       std::vector<std::string>{"--store", "@IN/a45.npy"} + kSmall + kOut,
       2,
       {"--store '@IN/a45.npy'", "not a folder"}},
      {"SaveProgramsEmpty",
       std::vector<std::string>{"--save-programs", ""} + kSmall + kOut,
       2,
       {"--save-programs", "folder name"}},
      {"SaveProgramsIsAFile",
       std::vector<std::string>{"--save-programs", "@IN/a45.npy"} + kSmall + kOut,
       2,
       {"--save-programs '@IN/a45.npy'", "not a folder"}},
      {"SaveProgramsUnwritable",
       std::vector<std::string>{"--save-programs", "@RO/programs"} + kSmall + kOut,
       2,
       {"--save-programs", "'@RO/programs"}},
      {"TuneSavePrograms",
       std::vector<std::string>{"tune", "--store", "@OUT/store", "--kernel", "tiled",
                                "--save-programs", "@OUT/programs"} +
           kSmall,
       2,
       {"--save-programs does not apply to clgemm tune"}},

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
      {"ParamBeyondInt",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=99999999999"} + kSmall + kOut,
       2,
       {"TS=99999999999", "integer"}},
      // The compiler would read 010 as octal 8 while the host sizes the launch for 10.
      {"ParamLeadingZero",
       std::vector<std::string>{"--kernel", "transposed-b", "-D", "TT=010"} + kSmall + kOut,
       2,
       {"TT=010", "leading zero"}},
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
       std::vector<std::string>{"--kernel", "transposed-b", "-D", "TT=@SIDE_PAST_MAX_WG@"} +
           kSmall + kOut,
       2,
       {"transposed-b", "work-group", "TT x TT"}},
      {"ParamZero",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=0"} + kSmall + kOut,
       2,
       {"TS=0", "at least 1"}},
      {"ParamNegative",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=-4"} + kSmall + kOut,
       2,
       {"TS=-4", "at least 1"}},
      {"CpuParamZero",
       std::vector<std::string>{"--kernel", "cpu-blocked", "-D", "BS_R=0"} + kSmall + kOut,
       2,
       {"cpu-blocked", "BS_R=0", "at least 1"}},
      {"WorkGroupTooLarge",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=@SIDE_PAST_MAX_WG@"} + kSmall + kOut,
       2,
       {"tiled", "work-group", "TS x TS"}},
      // TS x TS work-items overflow 32 bits.
      {"WorkGroupIntMax",
       std::vector<std::string>{"--kernel", "tiled", "-D", "TS=2147483647"} + kSmall + kOut,
       2,
       {"tiled", "work-group", "TS x TS"}},
      {"LocalMemoryTooLarge",
       std::vector<std::string>{"--kernel", "regtile2d", "-D", "TSM=1024", "-D", "TSN=1024", "-D",
                                "TSK=@REGTILE2D_1024_TSK_PAST_LOCAL_MEM@", "-D", "WPTM=64", "-D",
                                "WPTN=64"} +
           kSmall + kOut,
       2,
       {"regtile2d", "local memory", "TSK"}},
      {"LocalMemoryIntMax",
       std::vector<std::string>{"--kernel", "regtile2d", "-D", "TSK=2147483647"} + kSmall + kOut,
       2,
       {"regtile2d", "local memory", "TSK"}},
      {"BestTileIntMax",
       std::vector<std::string>{"--kernel", "best", "-D", "BK=2147483644"} + kSmall + kOut,
       2,
       {"best", "BK"}},
      // Private arrays of (TX + TY) x LEN floats, 128 KiB per work-item: far beyond any register
      // file, and on pocl a work-group's private memory lives on its thread's stack.
      {"PrivateMemoryTooLarge",
       std::vector<std::string>{"--kernel", "regtile-nolocal", "-D", "LEN=4096"} + kSmall + kOut,
       2,
       {"regtile-nolocal", "LEN"}},

      // Sizes: -m, -n, -k, --size, --sizes.
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
       {"-m '99999999999'", "out of range"}},
      {"KHugeNegative",
       std::vector<std::string>{"-m", "8", "-n", "8", "-k", "-99999999999"} + kQuick + kOut,
       2,
       {"-k '-99999999999'", "out of range"}},
      {"SizeZero", std::vector<std::string>{"--size", "0"} + kQuick + kOut, 2, {"--size 0"}},
      {"SizeHuge",
       std::vector<std::string>{"--size", "4294967296"} + kQuick + kOut,
       2,
       {"--size '4294967296'", "out of range"}},
      {"SizeConflictsWithM",
       std::vector<std::string>{"--size", "8", "-m", "8"} + kQuick + kOut,
       2,
       {"--size", "-m"}},
      {"SizesConflictsWithSize",
       std::vector<std::string>{"--sizes", "8,16", "--size", "8"} + kQuick + kOut,
       2,
       {"--sizes", "--size"}},
      {"SizesConflictsWithN",
       std::vector<std::string>{"--sizes", "8,16", "-n", "8"} + kQuick + kOut,
       2,
       {"--sizes", "-n"}},
      {"SizesEmpty",
       std::vector<std::string>{"--sizes", ""} + kQuick + kOut,
       2,
       {"--sizes", "needs a list"}},
      {"SizesZero",
       std::vector<std::string>{"--sizes", "0"} + kQuick + kOut,
       2,
       {"'0'", "at least 1"}},
      {"SizesNotNumbers",
       std::vector<std::string>{"--sizes", "a,b"} + kQuick + kOut,
       2,
       {"--sizes", "'a'"}},
      {"SizesNegative",
       std::vector<std::string>{"--sizes", "8,-16"} + kQuick + kOut,
       2,
       {"--sizes", "'-16'"}},
      {"SizesEmptyItem",
       std::vector<std::string>{"--sizes", "8,,16"} + kQuick + kOut,
       2,
       {"'8,,16'", "empty item"}},
      {"SizesTrailingComma",
       std::vector<std::string>{"--sizes", "8,"} + kQuick + kOut,
       2,
       {"'8,'", "empty item"}},
      {"SizesHuge",
       std::vector<std::string>{"--sizes", "99999999999"} + kQuick + kOut,
       2,
       {"'99999999999'", "2^31-1"}},
      {"SizesShapeTwoDims",
       std::vector<std::string>{"--sizes", "8x8"} + kQuick + kOut,
       2,
       {"'8x8'", "MxNxK"}},
      {"SizesShapeFourDims",
       std::vector<std::string>{"--sizes", "8x8x8x8"} + kQuick + kOut,
       2,
       {"'8x8x8x8'", "MxNxK"}},
      {"SizesShapeZeroDim",
       std::vector<std::string>{"--sizes", "8x0x8"} + kQuick + kOut,
       2,
       {"'8x0x8'", "N 0"}},
      {"SizesShapeHugeDim",
       std::vector<std::string>{"--sizes", "8x8x99999999999"} + kQuick + kOut,
       2,
       {"'8x8x99999999999'", "K beyond 2^31-1"}},
      {"SizesRangeToZero",
       std::vector<std::string>{"--sizes", "1:0:x2"} + kQuick + kOut,
       2,
       {"'1:0:x2'", "TO 0"}},
      {"SizesRangeBackwards",
       std::vector<std::string>{"--sizes", "8:4:x2"} + kQuick + kOut,
       2,
       {"'8:4:x2'", "backwards"}},
      {"SizesRangeFactorOne",
       std::vector<std::string>{"--sizes", "8:64:x1"} + kQuick + kOut,
       2,
       {"'8:64:x1'", "FACTOR 1"}},
      {"SizesRangeStepZero",
       std::vector<std::string>{"--sizes", "8:64:+0"} + kQuick + kOut,
       2,
       {"'8:64:+0'", "STEP 0"}},
      {"SizesRangeWithoutStep",
       std::vector<std::string>{"--sizes", "8:64"} + kQuick + kOut,
       2,
       {"'8:64'", "FROM:TO:xFACTOR"}},
      {"SizesRangeBadStep",
       std::vector<std::string>{"--sizes", "8:64:*2"} + kQuick + kOut,
       2,
       {"'8:64:*2'", "step '*2'"}},
      {"SizesRangeTooLong",
       std::vector<std::string>{"--sizes", "1:2147483647:+1"} + kQuick + kOut,
       2,
       {"'1:2147483647:+1'", "longer than"}},

      // Sizes the device cannot hold, checked before anything is allocated.
      {"AllocationTooLarge",
       std::vector<std::string>{"--size", "@SIDE_PAST_MAX_ALLOC@"} + kQuick + kOut,
       3,
       {"CL_INVALID_BUFFER_SIZE", "@SIDE_PAST_MAX_ALLOC@", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"}},
      {"CTooLargeFromMAndN",
       std::vector<std::string>{"-m", "@SIDE_PAST_MAX_ALLOC@", "-n", "@SIDE_PAST_MAX_ALLOC@", "-k",
                                "8"} +
           kQuick + kOut,
       3,
       {"CL_INVALID_BUFFER_SIZE", "M=@SIDE_PAST_MAX_ALLOC@ N=@SIDE_PAST_MAX_ALLOC@ K=8",
        "CL_DEVICE_MAX_MEM_ALLOC_SIZE"}},
      {"ATooLargeFromK",
       std::vector<std::string>{"-m", "64", "-n", "8", "-k", "@K_PAST_MAX_ALLOC_AT_M64@"} + kQuick +
           kOut,
       3,
       {"CL_INVALID_BUFFER_SIZE", "K=@K_PAST_MAX_ALLOC_AT_M64@", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"}},
      {"AllDimensionsIntMax",
       std::vector<std::string>{"-m", "2147483647", "-n", "2147483647", "-k", "2147483647"} +
           kQuick + kOut,
       3,
       {"M=2147483647 N=2147483647 K=2147483647", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"}},
      // The last size of a sweep is checked before the first runs.
      {"SweepSizeTooLarge",
       std::vector<std::string>{"--sizes", "8,@SIDE_PAST_MAX_ALLOC@x@SIDE_PAST_MAX_ALLOC@x8"} +
           kQuick + kOut,
       3,
       {"M=@SIDE_PAST_MAX_ALLOC@ N=@SIDE_PAST_MAX_ALLOC@ K=8", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"}},
      // Without an OpenCL device the host's memory is the limit: A alone would be 2^64 bytes.
      {"CpuPathSizeBeyondHostMemory",
       std::vector<std::string>{"--kernel", "cpu-naive", "-m", "2147483647", "-n", "1", "-k",
                                "2147483647"} +
           kQuick + kOut,
       3,
       {"M=2147483647", "K=2147483647"}},

      // Kernel files and compiler options.
      {"KernelsFileMissing",
       std::vector<std::string>{"--kernels", "@IN/missing.cl"} + kSmall + kOut,
       2,
       {"--kernels", "missing.cl"}},
      {"KernelsFileIsADirectory",
       std::vector<std::string>{"--kernels", "@IN/dir"} + kSmall + kOut,
       2,
       {"--kernels", "@IN/dir"}},
      {"KernelsFileEmptyName",
       std::vector<std::string>{"--kernels", ""} + kSmall + kOut,
       2,
       {"--kernels", "file name"}},
      {"KernelsFileSyntaxError",
       std::vector<std::string>{"--kernels", "@IN/bad.cl", "--kernel", "naive"} + kSmall + kOut,
       2,
       {"@IN/bad.cl", "compiler log"}},
      {"KernelsFileLacksTheKernel",
       std::vector<std::string>{"--kernels", "@IN/empty.cl", "--kernel", "naive"} + kSmall + kOut,
       2,
       {"naive", "gemm_naive", "@IN/empty.cl"}},
      {"ClOptionsBreakBuild",
       std::vector<std::string>{"--kernel", "naive", "--cl-options", "-cl-no-such-option"} +
           kSmall + kOut,
       2,
       {"-cl-no-such-option", "compiler log"}},
      // pocl crashes on a -D or -I with nothing after it.
      {"ClOptionsEndWithD",
       std::vector<std::string>{"--kernel", "naive", "--cl-options", "-cl-mad-enable -D"} + kSmall +
           kOut,
       2,
       {"--cl-options", "ends with -D"}},
      {"ClOptionsEndWithI",
       std::vector<std::string>{"--kernel", "naive", "--cl-options", "-cl-mad-enable -I"} + kSmall +
           kOut,
       2,
       {"--cl-options", "ends with -I"}},
      {"ClOptionsDefineAParameter",
       std::vector<std::string>{"--kernel", "naive", "--cl-options", "-DWGX=3"} + kSmall + kOut,
       2,
       {"--cl-options", "WGX", "-D WGX=VALUE"}},
      {"ClOptionsDefineADerivedDefine",
       std::vector<std::string>{"--kernel", "best", "--cl-options", "-D EDGE=0"} + kSmall + kOut,
       2,
       {"--cl-options", "EDGE", "sizes"}},

      // Output files.
      {"OutIntoMissingDirectory",
       std::vector<std::string>{"--out", "@OUT/missing/report.txt"} + kSmall,
       2,
       {"--out", "@OUT/missing/report.txt"}},
      {"OutIntoReadOnlyDirectory",
       std::vector<std::string>{"--out", "@RO/report.txt"} + kSmall,
       2,
       {"--out", "cannot write '@RO/report.txt'"}},
      {"OutUnderARegularFile",
       std::vector<std::string>{"--out", "@IN/a45.npy/report.txt"} + kSmall,
       2,
       {"--out", "@IN/a45.npy/report.txt", "Not a directory"}},
      {"OutIsADirectory", std::vector<std::string>{"--out", "@IN/"} + kSmall, 2, {"--out", "@IN/"}},
      {"OutEmptyName", std::vector<std::string>{"--out", ""} + kSmall, 2, {"--out", "file name"}},
      {"OutputCIntoMissingDirectory",
       kInputs + kQuick + kOut + std::vector<std::string>{"--output-c", "@OUT/missing/c.npy"},
       2,
       {"--output-c", "@OUT/missing/c.npy"}},
      {"OutputCIntoReadOnlyDirectory",
       kInputs + kQuick + kOut + std::vector<std::string>{"--output-c", "@RO/c.npy"},
       2,
       {"--output-c", "cannot write '@RO/c.npy'"}},
      {"OutputCIsADirectory",
       kInputs + kQuick + kOut + std::vector<std::string>{"--output-c", "@IN/dir"},
       2,
       {"--output-c", "@IN/dir", "Is a directory"}},
      {"OutputCEmptyName",
       kInputs + kQuick + kOut + std::vector<std::string>{"--output-c", ""},
       2,
       {"--output-c", "file name"}},
      {"OutEqualsOutputC",
       kInputs + kQuick + std::vector<std::string>{"--out", "@OUT/x", "--output-c", "@OUT/x"},
       2,
       {"--out", "--output-c", "@OUT/x"}},
      {"OutSameFileAsOutputCByAnotherPath",
       kInputs + kQuick + std::vector<std::string>{"--out", "@OUT/x", "--output-c", "@OUT/./x"},
       2,
       {"--out", "--output-c", "same file"}},
      {"OutOverwritesInputA",
       kInputs + kQuick + std::vector<std::string>{"--out", "@IN/a45.npy"},
       2,
       {"--out '@IN/a45.npy'", "--input-a", "overwrite"}},
      {"OutputCOverwritesInputB",
       kInputs + kQuick + kOut + std::vector<std::string>{"--output-c", "@IN/./b53.npy"},
       2,
       {"--output-c '@IN/./b53.npy'", "--input-b", "overwrite"}},
      {"OutputCOverwritesInputAThroughALink",
       kInputs + kQuick + kOut + std::vector<std::string>{"--output-c", "@IN/a_link.npy"},
       2,
       {"--output-c '@IN/a_link.npy'", "--input-a", "overwrite"}},
      {"OutOverwritesKernelsFile",
       std::vector<std::string>{"--kernels", "@IN/kernels.cl", "--kernel", "naive", "--out",
                                "@IN/kernels.cl"} +
           kSmall,
       2,
       {"--out", "--kernels", "overwrite"}},
      {"OutputCWithSizes",
       std::vector<std::string>{"--sizes", "8,16"} + kQuick + kOut + kOutputC,
       2,
       {"--output-c", "--sizes"}},

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
      {"SizesWithInputs",
       kInputs + std::vector<std::string>{"--sizes", "8,16"} + kQuick + kOut,
       2,
       {"--sizes", "--input-a"}},
      {"MConflictsWithInputA",
       kInputs + std::vector<std::string>{"-m", "7"} + kQuick + kOut + kOutputC,
       2,
       {"-m 7", "--input-a", "4"}},
      {"KConflictsWithInputA",
       kInputs + std::vector<std::string>{"-k", "7"} + kQuick + kOut + kOutputC,
       2,
       {"-k 7", "--input-a", "5"}},
      {"NConflictsWithInputB",
       kInputs + std::vector<std::string>{"-n", "7"} + kQuick + kOut + kOutputC,
       2,
       {"-n 7", "--input-b", "3"}},

      // .npy inputs.
      {"NpyMissing",
       std::vector<std::string>{"--input-a", "@IN/nothere.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "nothere.npy", "cannot open"}},
      {"NpyIsADirectory",
       std::vector<std::string>{"--input-a", "@IN/dir", "--input-b", "@IN/b53.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-a", "@IN/dir"}},
      {"NpyEmptyFile",
       std::vector<std::string>{"--input-a", "@IN/a_empty.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_empty.npy", "not a .npy file"}},
      {"NpyText",
       std::vector<std::string>{"--input-a", "@IN/a_text.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_text.npy", "not a .npy file"}},
      {"NpyHeaderTruncated",
       std::vector<std::string>{"--input-a", "@IN/a_header_cut.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_header_cut.npy", "truncated"}},
      {"NpyTruncated",
       std::vector<std::string>{"--input-a", "@IN/a_truncated.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_truncated.npy", "truncated"}},
      {"NpyTrailingBytes",
       std::vector<std::string>{"--input-a", "@IN/a_trailing.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_trailing.npy", "after the data"}},
      {"NpyFloat64",
       std::vector<std::string>{"--input-a", "@IN/a_f8.npy", "--input-b", "@IN/b53.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-a", "a_f8.npy", "'<f8'"}},
      {"NpyBigEndian",
       std::vector<std::string>{"--input-a", "@IN/a_big_endian.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_big_endian.npy", "'>f4'"}},
      {"NpyFortranOrder",
       std::vector<std::string>{"--input-a", "@IN/a_fortran.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_fortran.npy", "Fortran", "--layout col"}},
      {"Npy1D",
       std::vector<std::string>{"--input-a", "@IN/a_1d.npy", "--input-b", "@IN/b53.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-a", "a_1d.npy", "(20,)", "2-D"}},
      {"Npy3D",
       std::vector<std::string>{"--input-a", "@IN/a_3d.npy", "--input-b", "@IN/b53.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-a", "a_3d.npy", "(2, 2, 5)", "2-D"}},
      {"NpyNoRows",
       std::vector<std::string>{"--input-a", "@IN/a_no_rows.npy", "--input-b", "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a_no_rows.npy", "(0, 5)", "empty"}},
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
      {"InputCWrongShape",
       kInputs + std::vector<std::string>{"--input-c", "@IN/c34.npy", "--beta", "1"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-c", "c34.npy", "3 x 4", "4 x 3"}},
      {"InputCMissing",
       kInputs + std::vector<std::string>{"--input-c", "@IN/nothere.npy", "--beta", "1"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-c", "nothere.npy", "cannot open"}},
      {"InputCTruncated",
       kInputs + std::vector<std::string>{"--input-c", "@IN/c_truncated.npy", "--beta", "1"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-c", "c_truncated.npy", "truncated"}},
      {"InputCFloat64",
       kInputs + std::vector<std::string>{"--input-c", "@IN/c_f8.npy", "--beta", "1"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-c", "c_f8.npy", "'<f8'"}},
      {"InputCFortranOrder",
       kInputs + std::vector<std::string>{"--input-c", "@IN/c_fortran.npy", "--beta", "1"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-c", "c_fortran.npy", "Fortran", "--layout col"}},

      // The BLAS shape (#26): each bad value of --layout, --trans-a/b and --lda/ldb/ldc.
      {"LayoutNotAWord",
       kSmall + kOut + std::vector<std::string>{"--layout", "diag"},
       2,
       {"--layout 'diag'", "row, col"}},
      {"TransANotAWord",
       kSmall + kOut + std::vector<std::string>{"--trans-a", "x"},
       2,
       {"--trans-a 'x'", "n, t"}},
      {"TransBEmptyItem",
       kSmall + kOut + std::vector<std::string>{"--trans-b", "n,,t"},
       2,
       {"--trans-b 'n,,t'", "empty item"}},
      {"TransATwice",
       kSmall + kOut + std::vector<std::string>{"--trans-a", "n,n"},
       2,
       {"--trans-a 'n,n'", "twice"}},
      {"LdaZero",
       kSmall + kOut + std::vector<std::string>{"--lda", "0"},
       2,
       {"--lda 0", "positive"}},
      {"LdaNegative",
       kSmall + kOut + std::vector<std::string>{"--lda", "-3"},
       2,
       {"--lda -3", "positive"}},
      {"LdaNotANumber",
       kSmall + kOut + std::vector<std::string>{"--lda", "abc"},
       2,
       {"--lda 'abc'", "integer"}},
      // Below the length of a stored row: the message names the option and the least it takes.
      {"LdbBelowItsLeast",
       std::vector<std::string>{"-m", "8", "-n", "6", "-k", "4", "--ldb", "5"} + kQuick + kOut +
           kOutputC,
       2,
       {"--ldb 5", "at least 6", "B's rows"}},
      // Column-major: C's lines are its columns, M long.
      {"LdcBelowItsLeastColumnMajor",
       std::vector<std::string>{"--layout", "col", "-m", "9", "-n", "4", "-k", "3", "--ldc", "8"} +
           kQuick + kOut + kOutputC,
       2,
       {"--ldc 8", "at least 9", "C's columns", "column-major"}},
      {"LdaBelowTheFilesColumns",
       std::vector<std::string>{"--layout", "col", "--input-a", "@IN/a_fortran.npy", "--input-b",
                                "@IN/b_fortran.npy", "--lda", "3"} +
           kQuick + kOut + kOutputC,
       2,
       {"--lda 3", "at least 4"}},
      {"TuneWithALayoutList",
       std::vector<std::string>{"tune", "--store", "@OUT/store", "--kernel", "tiled", "--layout",
                                "row,col"},
       2,
       {"clgemm tune", "--layout", "'row,col'"}},
      {"TuneWithATransposeList",
       std::vector<std::string>{"tune", "--store", "@OUT/store", "--kernel", "tiled", "--trans-b",
                                "n,t"},
       2,
       {"clgemm tune", "--trans-b", "'n,t'"}},
      {"PeakWithLayout",
       kPeak + std::vector<std::string>{"--layout", "col"},
       2,
       {"--layout", "clgemm peak"}},
      {"DevicesWithTransA",
       std::vector<std::string>{"--devices", "0:0,0:0", "--trans-a", "t"} + kSmall + kOut,
       2,
       {"--devices", "--trans-a"}},
      // --precision (#26): bad values, the commands and options it does not go with, and .npy
      // files of the other dtype.
      {"PrecisionFp16",
       kSmall + kOut + std::vector<std::string>{"--precision", "fp16"},
       2,
       {"--precision 'fp16'", "fp32, fp64"}},
      {"PrecisionEmptyItem",
       kSmall + kOut + std::vector<std::string>{"--precision", "fp32,,fp64"},
       2,
       {"--precision 'fp32,,fp64'", "empty item"}},
      {"PrecisionTwice",
       kSmall + kOut + std::vector<std::string>{"--precision", "fp32,fp32"},
       2,
       {"--precision 'fp32,fp32'", "twice"}},
      {"TuneWithAPrecisionList",
       std::vector<std::string>{"tune", "--store", "@OUT/store", "--kernel", "tiled", "--precision",
                                "fp32,fp64"},
       2,
       {"clgemm tune", "--precision", "'fp32,fp64'"}},
      // peak measures FP32 and FP64 both: the option would choose nothing.
      {"PeakWithPrecision",
       kPeak + std::vector<std::string>{"--precision", "fp64"},
       2,
       {"--precision", "clgemm peak"}},
      {"DevicesWithPrecision",
       std::vector<std::string>{"--devices", "0:0,0:0", "--precision", "fp64"} + kSmall + kOut,
       2,
       {"--devices", "--precision"}},
      {"InputsWithAPrecisionList",
       kInputs + std::vector<std::string>{"--precision", "fp32,fp64"} + kQuick + kOut + kOutputC,
       2,
       {"--input-a", "--precision", "'fp32,fp64'"}},
      {"NpyFloat32WithFp64",
       kInputs + std::vector<std::string>{"--precision", "fp64"} + kQuick + kOut + kOutputC,
       2,
       {"--input-a", "a45.npy", "float32", "--precision fp64", "a.astype(numpy.float64)"}},
      {"NpyFloat64WithFp32SaysTheFix",
       std::vector<std::string>{"--input-a", "@IN/a_f8.npy", "--input-b", "@IN/b53.npy"} + kQuick +
           kOut + kOutputC,
       2,
       {"--input-a", "a_f8.npy", "float64", "give --precision fp64"}},
      {"AlphaBeyondDoubleInFp64",
       std::vector<std::string>{"--alpha", "1e309", "--precision", "fp64"} + kSmall + kOut,
       2,
       {"--alpha '1e309'", "range of a double"}},
      {"BetaTooSmallForDoubleInFp64",
       std::vector<std::string>{"--beta", "1e-320", "--precision", "fp64"} + kSmall + kOut,
       2,
       {"--beta '1e-320'", "too small for a double"}},
      // A sweep with FP32 in it takes only what a float holds, and says FP64 alone would take it.
      {"AlphaBeyondFloatInASweep",
       std::vector<std::string>{"--alpha", "1e300", "--precision", "fp32,fp64"} + kSmall + kOut,
       2,
       {"--alpha '1e300'", "range of a float", "--precision fp64 takes any finite double"}},
      // The .npy files are one problem stored one way.
      {"InputsWithATransposeList",
       kInputs + std::vector<std::string>{"--trans-a", "n,t"} + kQuick + kOut + kOutputC,
       2,
       {"--input-a", "--trans-a", "'n,t'"}},
      // A C-order file with --layout col, beside a Fortran-order one that is right: the wrong one
      // is named.
      {"NpyCOrderWithLayoutCol",
       std::vector<std::string>{"--layout", "col", "--input-a", "@IN/a_fortran.npy", "--input-b",
                                "@IN/b53.npy"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-b", "b53.npy", "C order", "--layout col", "asfortranarray"}},
      {"NpyCOrderCWithLayoutCol",
       std::vector<std::string>{"--layout", "col", "--input-a", "@IN/a_fortran.npy", "--input-b",
                                "@IN/b_fortran.npy", "--input-c", "@IN/c43.npy", "--beta", "1"} +
           kQuick + kOut + kOutputC,
       2,
       {"--input-c", "c43.npy", "C order", "--layout col"}},
      // --trans-a t: A's file is K x M, so a45 makes K = 4 and B's 5 rows disagree.
      {"NpyTransposedInnerDimensionMismatch",
       kInputs + std::vector<std::string>{"--trans-a", "t"} + kQuick + kOut + kOutputC,
       2,
       {"--input-b", "b53.npy", "--trans-a t", "B needs 4 rows"}},
      {"NpyTransposedBMismatch",
       kInputs + std::vector<std::string>{"--trans-b", "t"} + kQuick + kOut + kOutputC,
       2,
       {"--input-b", "b53.npy", "--trans-b t", "B needs 5 columns"}},

      // clgemm peak (test_peak.cpp has the rest): malformed values and run options.
      {"PeakRepsNotANumber",
       kPeak + std::vector<std::string>{"--reps", "many"},
       2,
       {"--reps 'many'", "integer"}},
      {"PeakRepsNegative", kPeak + std::vector<std::string>{"--reps", "-1"}, 2, {"--reps -1"}},
      {"PeakRepsHuge",
       kPeak + std::vector<std::string>{"--reps", "99999999999"},
       2,
       {"--reps '99999999999'", "out of range"}},
      {"PeakPlatformNotANumber",
       kPeak + std::vector<std::string>{"--reps", "1", "--platform", "first"},
       2,
       {"--platform 'first'", "integer"}},
      {"PeakDeviceNegative",
       kPeak + std::vector<std::string>{"--reps", "1", "--device", "-2"},
       2,
       {"--device -2", ">= 0"}},
      {"PeakOutIsADirectory",
       kPeak + std::vector<std::string>{"--reps", "1", "--out", "@IN/dir"},
       2,
       {"--out", "@IN/dir", "Is a directory"}},
      {"PeakOutIntoReadOnlyDirectory",
       kPeak + std::vector<std::string>{"--reps", "1", "--out", "@RO/peak.txt"},
       2,
       {"--out", "cannot write '@RO/peak.txt'"}},
      {"PeakListWithReps",
       std::vector<std::string>{"peak", "--list", "--reps", "1"},
       2,
       {"--list", "--reps"}},
  };
  // A value-taking option last on the command line, its value missing.
  for (const std::string& option : kValueOptions)
    cases.push_back({camel(option) + "MissingValue",
                     kSmall + kOut + std::vector<std::string>{option},
                     2,
                     {option + " is missing its value"}});
  cases.push_back({"PeakRepsMissingValue",
                   kPeak + std::vector<std::string>{"--reps"},
                   2,
                   {"--reps is missing its value"}});
  for (const auto& option : kNotForPeak) {
    cases.push_back({"Peak" + camel(option[0].substr(1)),
                     kPeak + std::vector<std::string>{"--reps", "1"} + option,
                     2,
                     {option[0] + " does not apply to clgemm peak"}});
  }
  return cases;
}

// Values just past a limit of this machine's OpenCL device, read from the device when a case uses
// them (never while ctest lists the cases), so that each case is refused on every device: pocl
// reports 256 KiB to 2 MiB of local memory and a maximum allocation of a quarter of the host's
// memory, depending on the host; GPUs report other limits again.
std::map<std::string, std::string> pastDeviceLimits() {
  const clgemm::DeviceInfo& device = clgemm_test::defaultDevice();
  const auto past_square = [](std::uint64_t limit) {  // the least side with side^2 > limit
    auto side = std::uint64_t(std::sqrt(double(limit)));
    while (side * side <= limit) ++side;
    while (side > 1 && (side - 1) * (side - 1) > limit) --side;
    return side;
  };
  const std::uint64_t max_floats = device.max_alloc_bytes / sizeof(float);
  // regtile2d's tiles at TSM = TSN = 1024 (PAD = 1): TSK * 2050 floats of local memory.
  const std::uint64_t regtile2d_bytes_per_k = (1024 + 1 + 1024 + 1) * sizeof(float);
  return {
      {"@SIDE_PAST_MAX_WG@", std::to_string(past_square(device.max_work_group_size))},
      {"@REGTILE2D_1024_TSK_PAST_LOCAL_MEM@",
       std::to_string(clgemm::groupLocalMemLimit(device) / regtile2d_bytes_per_k + 1)},
      {"@SIDE_PAST_MAX_ALLOC@", std::to_string(past_square(max_floats))},
      {"@K_PAST_MAX_ALLOC_AT_M64@", std::to_string(max_floats / 64 + 1)},
  };
}

std::string substitute(std::string s, const TempDir& in, const TempDir& out,
                       const std::string& unwritable = "") {
  if (s.find('@') != std::string::npos && s.find("_PAST_") != std::string::npos) {
    static const std::map<std::string, std::string> limits = pastDeviceLimits();
    for (const auto& [token, value] : limits)
      for (auto at = s.find(token); at != std::string::npos; at = s.find(token, at))
        s.replace(at, token.size(), value);
  }
  for (const auto& [token, dir] : {std::pair<std::string, std::string>{"@IN/", in.path() + "/"},
                                   std::pair<std::string, std::string>{"@OUT/", out.path() + "/"},
                                   std::pair<std::string, std::string>{"@RO/", unwritable + "/"}}) {
    for (std::size_t at = s.find(token); at != std::string::npos;
         at = s.find(token, at + dir.size()))
      s.replace(at, token.size(), dir);
  }
  return s;
}

bool mentions(const std::vector<std::string>& args, const std::string& token) {
  return std::any_of(args.begin(), args.end(),
                     [&](const std::string& a) { return a.find(token) != std::string::npos; });
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, FailsNamingTheCulprit) {
  const BadCase& c = GetParam();
  TempDir in, out;
  writeInputs(in);
  const auto inputs_before = snapshot(in);
  std::optional<UnwritableDir> unwritable;
  if (mentions(c.args, "@RO/")) {
    unwritable.emplace();
    if (unwritable->path().empty()) GTEST_SKIP() << "no directory here refuses to create files";
  }
  const std::string ro = unwritable ? unwritable->path() : "";
  std::vector<std::string> args;
  for (const auto& a : c.args) args.push_back(substitute(a, in, out, ro));

  const auto r = runClgemm(args);
  SCOPED_TRACE(commandLine(args) + "\nstderr:\n" + r.err);
  ASSERT_NE(r.exit_code, -1) << "clgemm crashed";
  EXPECT_EQ(r.exit_code, c.exit_code);
  EXPECT_NE(r.err.find("clgemm: error: "), std::string::npos);
  for (const auto& part : c.culprit) {
    const std::string expected = substitute(part, in, out, ro);
    EXPECT_NE(r.err.find(expected), std::string::npos) << "stderr lacks '" << expected << "'";
  }
  // Nothing was reported as if the run had happened.
  EXPECT_EQ(r.out, "");
  // Neither the report, nor C, nor a temporary of either is left behind.
  EXPECT_EQ(out.files(), std::vector<std::string>{});
  if (unwritable) EXPECT_EQ(unwritable->ownFiles(), std::vector<std::string>{});
  // No input was written over.
  EXPECT_TRUE(snapshot(in) == inputs_before) << "an input file changed";
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

// Values right next to refused ones still run: the largest seed, a negative alpha (a value, not
// an option), a small but normal beta, compiler options with a define no kernel parameter uses,
// an existing store folder, C read from and written back to the same file.
TEST(BadInputControl, EdgeValuesRun) {
  TempDir in, out, store;
  writeInputs(in);
  const std::string c_before = clgemm_test::readText(in.file("c43.npy"));
  std::vector<std::string> args;
  for (const auto& a :
       kInputs +
           std::vector<std::string>{
               "--kernel",   "naive",       "--seed",       "18446744073709551615",
               "--threads",  "1",           "--alpha",      "-1",
               "--beta",     "1e-30",       "--cl-options", "-DCLGEMM_TEST_UNUSED -cl-mad-enable",
               "--platform", "0",           "--device",     "0",
               "--store",    store.path(),  "--input-c",    "@IN/c43.npy",
               "--output-c", "@IN/c43.npy", "--format",     "csv"} +
           kQuick + kOut)
    args.push_back(substitute(a, in, out));
  const auto r = runClgemm(args);
  SCOPED_TRACE(commandLine(args) + "\nstderr:\n" + r.err);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(out.files(), std::vector<std::string>{"report.txt"});
  EXPECT_NE(clgemm_test::readText(out.file("report.txt")).find("naive"), std::string::npos);
  const std::string c_after = clgemm_test::readText(in.file("c43.npy"));
  EXPECT_NE(c_after, c_before) << "--output-c did not replace --input-c";
  EXPECT_NE(c_after.find("'shape': (4, 3)"), std::string::npos);
}

// CPU block sizes beyond the matrix are clamped to it: near INT_MAX the block arithmetic once
// overflowed (a C of NaN from cpu-blocked, a packing buffer of exabytes for cpu-packed).
TEST(BadInputControl, CpuBlocksBeyondTheMatrixRunAsOneBlock) {
  for (const auto& [variant, defines] :
       std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"cpu-blocked", {"BS_R=2147483647", "BS_C=2147483647"}},
           {"cpu-blocked-acc", {"BS_R=2147483647", "BS_C=2147483647", "BS_K=2147483647"}},
           {"cpu-packed", {"MC=2147483647", "KC=2147483647", "NC=2147483647"}}}) {
    std::vector<std::string> args = {"--kernel", variant, "-m", "37", "-n", "29", "-k", "19"};
    for (const auto& d : defines) args.insert(args.end(), {"-D", d});
    const auto r = runClgemm(args + kQuick);
    SCOPED_TRACE(commandLine(args) + "\nstderr:\n" + r.err);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find(variant + "  "), std::string::npos) << r.out;
  }
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
