// Sweeps over sizes (--sizes), the choice of check (--check) and the progress line (--progress):
// the size list's grammar on its own, then through the real binary on the machine's OpenCL device.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "csv_table.hpp"
#include "problem/size_list.hpp"
#include "run_clgemm.hpp"
#include "util/errors.hpp"

namespace {

using clgemm::parseSizeList;
using clgemm::Shape;
using clgemm_test::Csv;
using clgemm_test::parseCsv;
using clgemm_test::runClgemm;
using clgemm_test::TempDir;
using nlohmann::json;

TEST(CsvHelper, HandlesQuotes) {
  const Csv csv = parseCsv("a,b,c\n1,\"x, \"\"y\"\"\",3\n,\"multi\nline\",\n");
  ASSERT_EQ(csv.rows.size(), 2u);
  EXPECT_EQ(csv.at(0, "b"), "x, \"y\"");
  EXPECT_EQ(csv.at(0, "c"), "3");
  EXPECT_EQ(csv.at(1, "a"), "");
  EXPECT_EQ(csv.at(1, "b"), "multi\nline");
  EXPECT_EQ(csv.at(1, "c"), "");
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const std::vector<std::string> kQuick = {"--reps", "1", "--warmup", "0"};

std::string commandLine(const std::vector<std::string>& args) {
  std::string line = "clgemm";
  for (const auto& a : args) line += " '" + a + "'";
  return line;
}

// ------------------------------------------------------------------------------------------------
// The size list.

std::vector<Shape> squares(const std::vector<int>& sizes) {
  std::vector<Shape> shapes;
  for (int s : sizes) shapes.push_back(Shape{s, s, s});
  return shapes;
}

void PrintTo(const Shape& s, std::ostream* os) { *os << s.m << "x" << s.n << "x" << s.k; }

TEST(SizeList, CommaListOfSquares) {
  EXPECT_EQ(parseSizeList("256,512,1000"), squares({256, 512, 1000}));
  EXPECT_EQ(parseSizeList("7"), squares({7}));
}

TEST(SizeList, GeometricRange) {
  EXPECT_EQ(parseSizeList("256:8192:x2"), squares({256, 512, 1024, 2048, 4096, 8192}));
  // TO is included only when a step lands on it.
  EXPECT_EQ(parseSizeList("100:300:x2"), squares({100, 200}));
  EXPECT_EQ(parseSizeList("3:100:x3"), squares({3, 9, 27, 81}));
  EXPECT_EQ(parseSizeList("5:5:x2"), squares({5}));
}

TEST(SizeList, ArithmeticRange) {
  EXPECT_EQ(parseSizeList("128:512:+128"), squares({128, 256, 384, 512}));
  EXPECT_EQ(parseSizeList("10:25:+10"), squares({10, 20}));
}

TEST(SizeList, Shapes) {
  EXPECT_EQ(parseSizeList("8192x8192x256"), (std::vector<Shape>{{8192, 8192, 256}}));
  EXPECT_EQ(parseSizeList("1x2x3"), (std::vector<Shape>{{1, 2, 3}}));
}

TEST(SizeList, MixedItemsKeepTheirOrder) {
  EXPECT_EQ(parseSizeList("64,32:64:x2,5x6x7"),
            (std::vector<Shape>{{64, 64, 64}, {32, 32, 32}, {64, 64, 64}, {5, 6, 7}}));
}

TEST(SizeList, AtTheLimit) {
  const auto shapes = parseSizeList("1:" + std::to_string(clgemm::kMaxSweepSizes) + ":+1");
  ASSERT_EQ(shapes.size(), clgemm::kMaxSweepSizes);
  EXPECT_EQ(shapes.back(), squares({int(clgemm::kMaxSweepSizes)}).front());
  // The largest int is a size; a geometric range may end next to it without overflowing.
  EXPECT_EQ(parseSizeList("2147483647"), squares({2147483647}));
  EXPECT_EQ(parseSizeList("1073741824:2147483647:x2"), squares({1073741824}));
}

TEST(SizeList, ShapeText) {
  EXPECT_EQ(clgemm::shapeText(Shape{4096, 4096, 4096}), "4096");
  EXPECT_EQ(clgemm::shapeText(Shape{8192, 8192, 256}), "8192x8192x256");
  EXPECT_EQ(clgemm::shapeText(Shape{5, 5, 6}), "5x5x6");
  // What shapeText writes parses back to the same shape.
  for (const Shape& s : {Shape{17, 17, 17}, Shape{32, 20, 9}})
    EXPECT_EQ(parseSizeList(clgemm::shapeText(s)), (std::vector<Shape>{s}));
}

struct BadList {
  std::string name;
  std::string list;
  std::string item;  // must appear in the message
};

void PrintTo(const BadList& b, std::ostream* os) { *os << b.name; }

class BadSizeList : public ::testing::TestWithParam<BadList> {};

TEST_P(BadSizeList, ThrowsAUsageErrorNamingTheItem) {
  const BadList& b = GetParam();
  try {
    const auto shapes = parseSizeList(b.list);
    ADD_FAILURE() << "'" << b.list << "' parsed into " << shapes.size() << " sizes";
  } catch (const clgemm::UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(b.item), std::string::npos) << what;
    EXPECT_NE(what.find("--sizes"), std::string::npos) << what;
    EXPECT_EQ(e.code(), clgemm::kExitUsage);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a UsageError: " << e.what();
  }
}

const std::vector<BadList> kBadLists = {
    {"Empty", "", ""},
    {"Zero", "0", "'0'"},
    {"Negative", "-5", "'-5'"},
    {"Word", "abc", "'abc'"},
    {"TwoPartRange", "1:5", "'1:5'"},
    {"Backwards", "256:128:x2", "'256:128:x2'"},
    {"FactorOne", "64:128:x1", "'64:128:x1'"},
    {"StepZero", "64:128:+0", "'64:128:+0'"},
    {"UnknownStep", "64:128:y2", "'64:128:y2'"},
    {"NoStep", "64:128:", "'64:128:'"},
    {"FourPartRange", "1:2:+1:4", "'1:2:+1:4'"},
    {"EmptyItem", "64,,128", "64,,128"},
    {"TrailingComma", "64,", "64,"},
    {"LeadingComma", ",64", ",64"},
    {"TwoDimensions", "1x2", "'1x2'"},
    {"FourDimensions", "1x2x3x4", "'1x2x3x4'"},
    {"ZeroDimension", "4x0x4", "'4x0x4'"},
    {"EmptyDimension", "4xx4", "'4xx4'"},
    {"BeyondInt", "99999999999", "'99999999999'"},
    {"JustBeyondInt", "2147483648", "'2147483648'"},
    {"TooMany", "1:100000:+1", "'1:100000:+1'"},
    {"TooManyAcrossItems", "1:1000:+1,5", "'5'"},
    {"TrailingLetters", "12abc", "'12abc'"},
    {"Space", "64, 128", "' 128'"},
    {"BadItemAfterGoodOnes", "64,128,0", "'0'"},
};

INSTANTIATE_TEST_SUITE_P(Forms, BadSizeList, ::testing::ValuesIn(kBadLists),
                         [](const auto& info) { return info.param.name; });

// ------------------------------------------------------------------------------------------------
// Refusals through the binary: exit 2, "clgemm: error:", the culprits named, nothing written.

struct BadRun {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> culprit;  // each must appear in stderr
};

void PrintTo(const BadRun& b, std::ostream* os) { *os << b.name; }

class SweepRefusals : public ::testing::TestWithParam<BadRun> {};

TEST_P(SweepRefusals, ExitTwoNamingTheCulprit) {
  const BadRun& b = GetParam();
  TempDir out;
  std::vector<std::string> args;
  for (const auto& a : b.args) {
    std::string arg = a;
    for (const std::string marker : {"@OUT/"}) {
      const auto at = arg.find(marker);
      if (at != std::string::npos) arg.replace(at, marker.size(), out.path() + "/");
    }
    args.push_back(arg);
  }
  args = args + std::vector<std::string>{"--out", out.file("report.txt")} + kQuick;
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, 2) << commandLine(args) << "\n" << r.err;
  EXPECT_NE(r.err.find("clgemm: error:"), std::string::npos) << r.err;
  for (const auto& c : b.culprit) EXPECT_NE(r.err.find(c), std::string::npos) << c << "\n" << r.err;
  EXPECT_TRUE(out.files().empty()) << "left behind: " << out.files().front();
  EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SweepRefusals,
    ::testing::Values(
        BadRun{"SizesZero", {"--sizes", "0"}, {"--sizes", "'0'"}},
        BadRun{"SizesBackwards", {"--sizes", "256:128:x2"}, {"--sizes", "'256:128:x2'"}},
        BadRun{"SizesTwoPartRange", {"--sizes", "1:5"}, {"--sizes", "'1:5'"}},
        BadRun{"SizesEmptyItem", {"--sizes", "64,,128"}, {"--sizes", "64,,128"}},
        BadRun{"SizesTooMany", {"--sizes", "1:100000:+1"}, {"--sizes", "'1:100000:+1'"}},
        BadRun{"SizesEmpty", {"--sizes", ""}, {"--sizes"}},
        BadRun{"SizesWithSize", {"--sizes", "16,32", "--size", "16"}, {"--sizes", "--size"}},
        BadRun{"SizeWithSizes", {"--size", "16", "--sizes", "16,32"}, {"--sizes", "--size"}},
        BadRun{"SizesWithM", {"--sizes", "16,32", "-m", "16"}, {"--sizes", "-m"}},
        BadRun{"SizesWithK", {"--sizes", "16,32", "-k", "16"}, {"--sizes", "-k"}},
        BadRun{"SizesWithInputA",
               {"--sizes", "16,32", "--input-a", "@OUT/a.npy", "--input-b", "@OUT/b.npy"},
               {"--sizes", "--input-a"}},
        BadRun{"SizesWithOutputC",
               {"--sizes", "16,32", "--output-c", "@OUT/c.npy"},
               {"--sizes", "--output-c"}},
        BadRun{"CheckBogus", {"--size", "8", "--check", "bogus"}, {"--check", "bogus"}},
        BadRun{"CheckEmpty", {"--size", "8", "--check", ""}, {"--check"}},
        BadRun{"ProgressBogus", {"--size", "8", "--progress", "bogus"}, {"--progress", "bogus"}},
        BadRun{"CheckFullWithNoCheck",
               {"--size", "8", "--check", "full", "--no-check"},
               {"--check", "--no-check"}},
        BadRun{"CheckSampledWithNoCheck",
               {"--size", "8", "--check", "sampled", "--no-check"},
               {"--check", "--no-check"}}),
    [](const auto& info) { return info.param.name; });

// The conflict is reported before the .npy files are opened: they do not exist, and the message
// must be about --sizes, not about a missing file.
TEST(SweepRefusals, InputConflictBeforeReadingFiles) {
  TempDir dir;
  const auto r =
      runClgemm(std::vector<std::string>{"--sizes", "16,32", "--input-a", dir.file("a.npy"),
                                         "--input-b", dir.file("b.npy")} +
                kQuick);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--sizes"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("a.npy"), std::string::npos) << "read the file first: " << r.err;
}

// ------------------------------------------------------------------------------------------------
// A sweep.

// cpu-naive stands for a host row: unlike OpenBLAS it is in every build (tools/test.sh also runs
// the suite on a build without the baseline libraries).
const std::vector<std::string> kSweep = {
    "--sizes", "17,32x20x9", "--kernel", "naive,best,cpu-naive", "--reps", "1", "--warmup", "0"};

TEST(Sweep, CsvRowsGroupedBySizeInOrder) {
  const auto r = runClgemm(kSweep + std::vector<std::string>{"--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Csv csv = parseCsv(r.out);
  ASSERT_EQ(csv.rows.size(), 6u) << r.out;
  const std::vector<std::string> variants = {"naive", "best", "cpu-naive"};
  for (std::size_t i = 0; i < 6; ++i) {
    const bool first = i < 3;
    EXPECT_EQ(csv.at(i, "variant"), variants[i % 3]) << i;
    EXPECT_EQ(csv.at(i, "m"), first ? "17" : "32") << i;
    EXPECT_EQ(csv.at(i, "n"), first ? "17" : "20") << i;
    EXPECT_EQ(csv.at(i, "k"), first ? "17" : "9") << i;
    EXPECT_EQ(csv.at(i, "status"), "ok") << i << ": " << csv.at(i, "message");
    EXPECT_EQ(csv.at(i, "check"), "full") << i;
    EXPECT_FALSE(csv.at(i, "gflops").empty()) << i;
    EXPECT_FALSE(csv.at(i, "err_ratio").empty()) << i;
    EXPECT_FALSE(csv.at(i, "date").empty()) << i;
  }
  // vs_naive compares within one size: each size's naive row is 1.
  for (std::size_t i : {0u, 3u}) {
    ASSERT_FALSE(csv.at(i, "vs_naive").empty()) << i;
    EXPECT_DOUBLE_EQ(std::stod(csv.at(i, "vs_naive")), 1.0) << i;
    EXPECT_FALSE(csv.at(i + 1, "vs_naive").empty()) << i + 1;
    EXPECT_FALSE(csv.at(i + 2, "vs_naive").empty()) << i + 2;
  }
  // The ratio is within the size: best's vs_naive is that size's naive time over its own (the
  // same flops; ms_median has more digits than gflops).
  for (std::size_t i : {1u, 4u}) {
    const double expected =
        std::stod(csv.at(i - 1, "ms_median")) / std::stod(csv.at(i, "ms_median"));
    EXPECT_NEAR(std::stod(csv.at(i, "vs_naive")), expected, 0.01 * expected + 1e-4)
        << i << "\n"
        << csv.at(i - 1, "ms_median") << " / " << csv.at(i, "ms_median");
  }
}

TEST(Sweep, TableHasAHeadingPerSize) {
  const auto r = runClgemm(kSweep);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto first = r.out.find("M=17 N=17 K=17");
  const auto second = r.out.find("M=32 N=20 K=9");
  ASSERT_NE(first, std::string::npos) << r.out;
  ASSERT_NE(second, std::string::npos) << r.out;
  EXPECT_LT(first, second);
  // Each size has its own table: naive's result row appears once per size (its resource row, once
  // per size too, has no status).
  std::size_t naive_rows = 0;
  for (std::size_t at = r.out.find("\nnaive "); at != std::string::npos;
       at = r.out.find("\nnaive ", at + 1)) {
    const std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    if (line.find(" ok ") != std::string::npos) ++naive_rows;
  }
  EXPECT_EQ(naive_rows, 2u) << r.out;
  EXPECT_EQ(r.out.find("verified on a sample"), std::string::npos) << r.out;
}

// Every record carries its shape (#26): layout, transposes and the leading dimensions in use (the
// least where none was given). Only the fields are asserted: whether each variant computes every
// shape is the kernels' tests' business.
TEST(Sweep, EveryRecordCarriesItsShape) {
  const std::vector<std::string> shapes = {"--sizes", "17,32x20x9", "--kernel", "naive", "--layout",
                                           "row,col", "--trans-b",  "n,t",      "--ldc", "40",
                                           "--reps",  "1",          "--warmup", "0"};
  const auto r = runClgemm(shapes + std::vector<std::string>{"--format", "csv"});
  const Csv csv = parseCsv(r.out);
  ASSERT_EQ(csv.rows.size(), 8u) << r.out << r.err;
  // Sizes, then layouts, then op(B): lda, ldb for each.
  const std::vector<std::vector<std::string>> expected = {
      {"row", "n", "17", "17"}, {"row", "t", "17", "17"}, {"col", "n", "17", "17"},
      {"col", "t", "17", "17"}, {"row", "n", "9", "20"},  {"row", "t", "9", "9"},
      {"col", "n", "32", "9"},  {"col", "t", "32", "20"}};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(csv.at(i, "layout"), expected[i][0]) << i;
    EXPECT_EQ(csv.at(i, "trans_a"), "n") << i;
    EXPECT_EQ(csv.at(i, "trans_b"), expected[i][1]) << i;
    EXPECT_EQ(csv.at(i, "lda"), expected[i][2]) << i;
    EXPECT_EQ(csv.at(i, "ldb"), expected[i][3]) << i;
    EXPECT_EQ(csv.at(i, "ldc"), "40") << i;
    EXPECT_EQ(csv.at(i, "precision"), "fp32") << i;
  }
  const json doc =
      json::parse(runClgemm(shapes + std::vector<std::string>{"--format", "json"}).out);
  ASSERT_EQ(doc["results"].size(), 8u);
  const auto& last = doc["results"][7];
  EXPECT_EQ(last["layout"], "col") << last.dump();
  EXPECT_EQ(last["trans_b"], "t") << last.dump();
  EXPECT_EQ(last["lda"], 32) << last.dump();
  EXPECT_EQ(last["ldb"], 20) << last.dump();
  EXPECT_EQ(last["ldc"], 40) << last.dump();
  // The table: a shape column, since the rows' shapes differ; packed leading dimensions unsaid.
  const auto table = runClgemm(shapes);
  EXPECT_NE(table.out.find("variant  shape "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("naive    col NT ldc=40 "), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("lda="), std::string::npos) << table.out;
}

// The default shape's records say so; its table has neither a shape column nor a shape line, and
// one shape shared by every row is a line above the table, not a column.
TEST(Sweep, TheDefaultShapeIsInTheRecordsAndNotInTheTable) {
  const std::vector<std::string> run = {"-m",       "12",    "-n",     "10", "-k",       "7",
                                        "--kernel", "naive", "--reps", "1",  "--warmup", "0"};
  const auto r = runClgemm(run + std::vector<std::string>{"--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Csv csv = parseCsv(r.out);
  ASSERT_EQ(csv.rows.size(), 1u);
  EXPECT_EQ(csv.at(0, "layout"), "row");
  EXPECT_EQ(csv.at(0, "trans_a"), "n");
  EXPECT_EQ(csv.at(0, "trans_b"), "n");
  EXPECT_EQ(csv.at(0, "lda"), "7");
  EXPECT_EQ(csv.at(0, "ldb"), "10");
  EXPECT_EQ(csv.at(0, "ldc"), "10");
  const auto table = runClgemm(run);
  EXPECT_EQ(table.out.find("shape"), std::string::npos) << table.out;
  const auto col = runClgemm(run + std::vector<std::string>{"--layout", "col", "--trans-a", "t"});
  EXPECT_NE(col.out.find("\nshape: col TN (column-major, op(A) = A^T, op(B) = B)\n"),
            std::string::npos)
      << col.out;
  EXPECT_EQ(col.out.find("variant  shape "), std::string::npos) << col.out;
}

// --precision fp32,fp64 runs every size in both, FP32 first; each record says its precision, and
// the table says which unit each row's error ratio is in. OpenBLAS's SGEMM and DGEMM run both here
// (the OpenCL kernels' FP64 builds are tested with them).
TEST(Sweep, APrecisionListRunsEverySizeInBoth) {
  const std::vector<std::string> run = {"--sizes",     "8,12",     "--kernel", "openblas",
                                        "--reps",      "1",        "--warmup", "0",
                                        "--precision", "fp32,fp64"};
  const auto r = runClgemm(run + std::vector<std::string>{"--format", "csv"});
  const Csv csv = parseCsv(r.out);
  ASSERT_EQ(csv.rows.size(), 4u) << r.out << r.err;
  if (csv.at(0, "status") == "skipped") GTEST_SKIP() << "OpenBLAS not built: " << r.out;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"8", "fp32"}, {"8", "fp64"}, {"12", "fp32"}, {"12", "fp64"}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(csv.at(i, "m"), expected[i].first) << i;
    EXPECT_EQ(csv.at(i, "precision"), expected[i].second) << i;
    EXPECT_EQ(csv.at(i, "status"), "ok") << i;
  }
  const auto both = runClgemm(run);
  EXPECT_NE(both.out.find("\nprecision: fp32 and fp64 rows"), std::string::npos) << both.out;
  EXPECT_NE(both.out.find("eps = FLT_EPSILON (DBL_EPSILON for fp64 rows)"), std::string::npos)
      << both.out;
  std::vector<std::string> fp64_run = run;
  fp64_run.back() = "fp64";
  const auto fp64 = runClgemm(fp64_run);
  ASSERT_EQ(fp64.exit_code, 0) << fp64.err;
  EXPECT_NE(fp64.out.find("\nprecision: fp64 "), std::string::npos) << fp64.out;
  EXPECT_NE(fp64.out.find("eps = DBL_EPSILON, pass below 16"), std::string::npos) << fp64.out;
  EXPECT_NE(fp64.out.find("openblas  fp64 "), std::string::npos) << fp64.out;
  // FP32 alone says nothing of precision above the table (the default, as the shape is).
  std::vector<std::string> fp32_run = run;
  fp32_run.back() = "fp32";
  const auto fp32 = runClgemm(fp32_run);
  EXPECT_EQ(fp32.out.find("precision: "), std::string::npos) << fp32.out;
  EXPECT_EQ(fp32.out.find("EPSILON"), std::string::npos) << fp32.out;
}

TEST(Sweep, JsonRowsCarryTheirSize) {
  const auto r = runClgemm(kSweep + std::vector<std::string>{"--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["results"].size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& row = doc["results"][i];
    const bool first = i < 3;
    EXPECT_EQ(row["m"], first ? 17 : 32) << row.dump();
    EXPECT_EQ(row["n"], first ? 17 : 20) << row.dump();
    EXPECT_EQ(row["k"], first ? 17 : 9) << row.dump();
    EXPECT_EQ(row["status"], "ok") << row.dump();
    EXPECT_EQ(row["check"], "full") << row.dump();
    EXPECT_TRUE(row.contains("pct_peak")) << row.dump();
  }
  EXPECT_TRUE(doc.contains("date"));
  EXPECT_FALSE(doc["date"].get<std::string>().empty());
}

TEST(Sweep, OutFileHoldsEverySize) {
  TempDir dir;
  const auto r = runClgemm(std::vector<std::string>{"--sizes", "8:16:x2", "--kernel", "naive",
                                                    "--format", "csv", "--out", dir.file("r.csv")} +
                           kQuick);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const Csv csv = parseCsv(clgemm_test::readText(dir.file("r.csv")));
  ASSERT_EQ(csv.rows.size(), 2u);
  EXPECT_EQ(csv.at(0, "m"), "8");
  EXPECT_EQ(csv.at(1, "m"), "16");
}

// ------------------------------------------------------------------------------------------------
// --check.

Csv runCsv(const std::vector<std::string>& args, int expected_exit = 0) {
  const auto r = runClgemm(args + std::vector<std::string>{"--format", "csv"} + kQuick);
  EXPECT_EQ(r.exit_code, expected_exit) << commandLine(args) << "\n" << r.err;
  return parseCsv(r.out);
}

TEST(SampledCheckRun, ReportedInEveryRow) {
  const std::vector<std::string> args = {"--check", "sampled",  "--size",
                                         "70",      "--kernel", "naive,best"};
  const Csv csv = runCsv(args);
  ASSERT_EQ(csv.rows.size(), 2u);
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    EXPECT_EQ(csv.at(i, "check"), "sampled") << i;
    EXPECT_EQ(csv.at(i, "status"), "ok") << i << ": " << csv.at(i, "message");
    ASSERT_FALSE(csv.at(i, "err_ratio").empty());
    EXPECT_LT(std::stod(csv.at(i, "err_ratio")), 16.0);
  }
  const auto table = runClgemm(args + kQuick);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("verified on a sample"), std::string::npos) << table.out;
}

TEST(SampledCheckRun, FullAndAutoAreFullAtSmallSizes) {
  for (const char* mode : {"full", "auto"}) {
    const Csv csv = runCsv({"--check", mode, "--size", "70", "--kernel", "naive"});
    ASSERT_EQ(csv.rows.size(), 1u);
    EXPECT_EQ(csv.at(0, "check"), "full") << mode;
    EXPECT_EQ(csv.at(0, "status"), "ok") << mode;
  }
  const Csv plain = runCsv({"--size", "24", "--kernel", "naive"});
  ASSERT_EQ(plain.rows.size(), 1u);
  EXPECT_EQ(plain.at(0, "check"), "full");
  const auto table =
      runClgemm(std::vector<std::string>{"--size", "24", "--kernel", "naive"} + kQuick);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out.find("verified on a sample"), std::string::npos) << table.out;
}

TEST(SampledCheckRun, NoCheckLeavesTheColumnEmpty) {
  const Csv csv = runCsv({"--no-check", "--size", "16", "--kernel", "naive"});
  ASSERT_EQ(csv.rows.size(), 1u);
  EXPECT_EQ(csv.at(0, "check"), "");
  EXPECT_EQ(csv.at(0, "status"), "unchecked");
}

// The edge bug of Verification.ASlightlyWrongSumFails (regtile2d dropping the last partial
// K-step) must be caught by the sampled check too.
TEST(SampledCheckRun, CatchesAnEdgeBug) {
  std::string text = clgemm_test::sourceKernels();
  const std::string loop = "for (int k0 = 0; k0 < K; k0 += TSK) {\n    // Consecutive";
  const auto at = text.find(loop, text.find("defined(KERNEL_gemm_regtile2d)"));
  ASSERT_NE(at, std::string::npos) << "regtile2d's K loop not found in kernels.cl";
  text.replace(at, loop.size(), "for (int k0 = 0; k0 + TSK <= K; k0 += TSK) {\n    // Consecutive");
  TempDir dir;
  clgemm_test::writeText(dir.file("edge.cl"), text);
  const std::vector<std::string> base = std::vector<std::string>{"--kernels", dir.file("edge.cl"),
                                                                 "--kernel",  "regtile2d",
                                                                 "--check",   "sampled",
                                                                 "-m",        "70",
                                                                 "-n",        "70"} +
                                        kQuick;

  const auto bad = runClgemm(base + std::vector<std::string>{"-k", "33", "--format", "csv"});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.err.find("verification failed"), std::string::npos) << bad.err;
  const Csv csv = parseCsv(bad.out);
  ASSERT_EQ(csv.rows.size(), 1u);
  EXPECT_EQ(csv.at(0, "status"), "FAIL");
  EXPECT_EQ(csv.at(0, "check"), "sampled");

  const auto ok = runClgemm(base + std::vector<std::string>{"-k", "32"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.err.find("verification failed"), std::string::npos) << ok.err;
}

// In a sweep, one failing size fails the run while the others still report ok.
TEST(SampledCheckRun, EdgeBugInASweepFailsOnlyThatSize) {
  std::string text = clgemm_test::sourceKernels();
  const std::string loop = "for (int k0 = 0; k0 < K; k0 += TSK) {\n    // Consecutive";
  const auto at = text.find(loop, text.find("defined(KERNEL_gemm_regtile2d)"));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, loop.size(), "for (int k0 = 0; k0 + TSK <= K; k0 += TSK) {\n    // Consecutive");
  TempDir dir;
  clgemm_test::writeText(dir.file("edge.cl"), text);
  const auto r =
      runClgemm(std::vector<std::string>{"--kernels", dir.file("edge.cl"), "--kernel", "regtile2d",
                                         "--sizes", "32,70x70x33", "--format", "csv"} +
                kQuick);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const Csv csv = parseCsv(r.out);
  ASSERT_EQ(csv.rows.size(), 2u) << r.out;
  EXPECT_EQ(csv.at(0, "status"), "ok");
  EXPECT_EQ(csv.at(1, "status"), "FAIL");
  EXPECT_EQ(csv.at(1, "k"), "33");
}

// ------------------------------------------------------------------------------------------------
// --progress. stderr is a file here, not a terminal: one line per step.

std::vector<std::string> progressLines(const std::string& err) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < err.size()) {
    std::size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    const std::string line = err.substr(start, end - start);
    if (line.find("clgemm: [") != std::string::npos) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

TEST(Progress, OnPrintsALinePerStep) {
  const auto r = runClgemm(
      std::vector<std::string>{"--progress", "on", "--size", "16", "--kernel", "naive,tiled"} +
      kQuick);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = progressLines(r.err);
  ASSERT_FALSE(lines.empty()) << r.err;
  bool naive = false, tiled = false;
  for (const auto& line : lines) {
    EXPECT_NE(line.find("/2,"), std::string::npos) << line;
    EXPECT_EQ(line.find('\r'), std::string::npos) << "rewritten in place in a log: " << line;
    EXPECT_EQ(line.find('\033'), std::string::npos) << "escape codes in a log: " << line;
    naive = naive || (line.find("naive") != std::string::npos &&
                      line.find("clgemm: [1/2,") != std::string::npos);
    tiled = tiled || (line.find("tiled") != std::string::npos &&
                      line.find("clgemm: [2/2,") != std::string::npos);
  }
  EXPECT_TRUE(naive) << r.err;
  EXPECT_TRUE(tiled) << r.err;
  // The report itself is on stdout, untouched.
  EXPECT_EQ(r.out.find("clgemm: ["), std::string::npos);
  EXPECT_NE(r.out.find("\nnaive "), std::string::npos) << r.out;
}

TEST(Progress, CountsEveryStepOfASweep) {
  const auto r = runClgemm(
      std::vector<std::string>{"--progress", "on", "--sizes", "8,12", "--kernel", "naive,tiled"} +
      kQuick);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string err = r.err;
  EXPECT_NE(err.find("clgemm: [4/4,"), std::string::npos) << err;
  EXPECT_EQ(err.find("clgemm: [5/4,"), std::string::npos) << err;
  EXPECT_NE(err.find("M=12 N=12 K=12"), std::string::npos) << err;
}

// Every progress line's elapsed seconds ("clgemm: [i/n, T s"), in the order printed.
std::vector<double> progressSeconds(const std::string& err) {
  std::vector<double> seconds;
  const std::string mark = "clgemm: [";
  for (auto at = err.find(mark); at != std::string::npos; at = err.find(mark, at + 1)) {
    const auto comma = err.find(", ", at);
    seconds.push_back(comma == std::string::npos ? -1.0 : std::stod(err.substr(comma + 2)));
  }
  return seconds;
}

// --progress off prints nothing; auto (the default) stays quiet for its first 2 s. How long this
// run takes depends on the machine (a cold pocl cache builds two kernels), so auto is judged by
// the times its lines report, never by whether a line was printed.
TEST(Progress, OffPrintsNothingAndAutoWaitsTwoSeconds) {
  for (const std::vector<std::string>& mode :
       {std::vector<std::string>{"--progress", "off"},
        std::vector<std::string>{"--progress", "auto"}, std::vector<std::string>{}}) {
    const auto r = runClgemm(
        mode + std::vector<std::string>{"--size", "16", "--kernel", "naive,tiled"} + kQuick);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<double> seconds = progressSeconds(r.err);
    if (!mode.empty() && mode[1] == "off") {
      EXPECT_TRUE(seconds.empty()) << commandLine(mode) << "\n" << r.err;
      continue;
    }
    for (const double t : seconds) EXPECT_GE(t, 2.0) << commandLine(mode) << "\n" << r.err;
  }
}

}  // namespace
