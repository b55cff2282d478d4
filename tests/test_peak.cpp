// `clgemm peak`: measures the device, stores the result in the user's store, and later runs on the
// same device report pct_peak and the roofline from it. Every run names its store explicitly so the
// developer's ~/.local/share/clgemm is never read or written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "csv_table.hpp"
#include "run_clgemm.hpp"

namespace {

namespace fs = std::filesystem;
using clgemm_test::Csv;
using clgemm_test::parseCsv;
using clgemm_test::runClgemm;
using clgemm_test::TempDir;
using nlohmann::json;

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string commandLine(const std::vector<std::string>& args) {
  std::string line = "clgemm";
  for (const auto& a : args) line += " '" + a + "'";
  return line;
}

// Every regular file under `dir`, recursively (relative paths).
std::vector<std::string> filesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), dir).string());
  return files;
}

// The .json files in `store`/peaks.
std::vector<std::string> storedPeaks(const std::string& store) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(store + "/peaks", ec)) return files;
  for (const auto& entry : fs::directory_iterator(store + "/peaks"))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  return files;
}

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

// Runs `clgemm peak` once into a store shared by the tests below: the probes take a few seconds.
class StoredPeak : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    store_ = new TempDir();
    run_ = new clgemm_test::RunResult(
        runClgemm({"peak", "--store", store_->path(), "--reps", "2", "--progress", "off"}));
  }
  static void TearDownTestSuite() {
    delete run_;
    delete store_;
    run_ = nullptr;
    store_ = nullptr;
  }

  // The stored entry, or a test failure.
  static json entry() {
    const auto files = storedPeaks(store_->path());
    if (files.size() != 1) {
      ADD_FAILURE() << "expected one stored peak, found: " << joined(files);
      return json::object();
    }
    return json::parse(clgemm_test::readText(files.front()));
  }

  static TempDir* store_;
  static clgemm_test::RunResult* run_;
};

TempDir* StoredPeak::store_ = nullptr;
clgemm_test::RunResult* StoredPeak::run_ = nullptr;

TEST_F(StoredPeak, PrintsAndStores) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  EXPECT_NE(run_->out.find("GFLOP/s"), std::string::npos) << run_->out;
  EXPECT_NE(run_->out.find("GB/s"), std::string::npos) << run_->out;
  EXPECT_NE(run_->out.find("stored in"), std::string::npos) << run_->out;
  EXPECT_EQ(run_->err.find("clgemm: ["), std::string::npos) << "--progress off: " << run_->err;
  const auto files = storedPeaks(store_->path());
  ASSERT_EQ(files.size(), 1u) << joined(files);
  EXPECT_NE(run_->out.find(files.front()), std::string::npos)
      << "the table should say where it stored the peak: " << run_->out;
  // Nothing else written in the store.
  EXPECT_EQ(filesUnder(store_->path()).size(), 1u) << joined(filesUnder(store_->path()));
}

TEST_F(StoredPeak, EntryHasTheMeasurements) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const json e = entry();
  ASSERT_TRUE(e.contains("fp32_gflops")) << e.dump();
  ASSERT_TRUE(e.contains("bandwidth_gbs")) << e.dump();
  EXPECT_GT(e["fp32_gflops"].get<double>(), 0.0);
  EXPECT_GT(e["bandwidth_gbs"].get<double>(), 0.0);
  ASSERT_TRUE(e["device"].is_string());
  EXPECT_FALSE(e["device"].get<std::string>().empty());
  ASSERT_TRUE(e.contains("measured")) << e.dump();
  const json& widths = e["measured"]["fma_gflops_by_width"];
  ASSERT_TRUE(widths.is_object()) << e.dump();
  EXPECT_EQ(widths.size(), 5u) << widths.dump();
  double best = 0.0;
  for (const char* w : {"1", "2", "4", "8", "16"}) {
    ASSERT_TRUE(widths.contains(w)) << w << ": " << widths.dump();
    EXPECT_GT(widths[w].get<double>(), 0.0) << w;
    best = std::max(best, widths[w].get<double>());
  }
  EXPECT_DOUBLE_EQ(e["fp32_gflops"].get<double>(), best);
  EXPECT_EQ(widths[std::to_string(e["measured"]["best_width"].get<int>())].get<double>(), best);
  EXPECT_EQ(e["measured"]["reps"], 2);
  // Where the file is: peaks/<slug of the device name>.json, lower case, no spaces.
  const std::string name = fs::path(storedPeaks(store_->path()).front()).filename().string();
  EXPECT_EQ(name.find(' '), std::string::npos) << name;
  for (char c : name) EXPECT_FALSE(std::isupper(static_cast<unsigned char>(c))) << name;
}

// pocl's CPU device, which the tests run on, reports cl_khr_fp64: the FP64 probes must have run, at
// every width, and the best of them be the stored peak.
TEST_F(StoredPeak, EntryHasTheFp64Peak) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const clgemm_test::RunResult list = runClgemm({"--list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  ASSERT_NE(list.out.find("fp64 yes"), std::string::npos)
      << "the test device should report FP64: " << list.out;
  const json e = entry();
  ASSERT_TRUE(e.contains("fp64_gflops")) << e.dump();
  ASSERT_TRUE(e["fp64_gflops"].is_number()) << e.dump();
  const json& widths = e["measured"]["fp64_fma_gflops_by_width"];
  ASSERT_EQ(widths.size(), 5u) << e.dump();
  double best = 0.0;
  for (const auto& [width, gflops] : widths.items()) {
    EXPECT_GT(gflops.get<double>(), 0.0) << width;
    best = std::max(best, gflops.get<double>());
  }
  EXPECT_DOUBLE_EQ(e["fp64_gflops"].get<double>(), best);
  EXPECT_EQ(widths[std::to_string(e["measured"]["fp64_best_width"].get<int>())].get<double>(),
            best);
  EXPECT_NE(run_->out.find("peak FP64: "), std::string::npos) << run_->out;
}

TEST_F(StoredPeak, LaterRunsReportPercentOfPeak) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const json e = entry();
  const auto r =
      runClgemm({"--store", store_->path(), "--size", "24", "--kernel", "naive", "--compare",
                 "openblas", "--format", "csv", "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Csv csv = parseCsv(r.out);
  const auto naive = csv.find("naive");
  ASSERT_TRUE(naive.has_value()) << r.out;
  EXPECT_EQ(csv.at(*naive, "device"), e["device"].get<std::string>());
  ASSERT_FALSE(csv.at(*naive, "pct_peak").empty()) << r.out;
  EXPECT_GT(std::stod(csv.at(*naive, "pct_peak")), 0.0);
  ASSERT_FALSE(csv.at(*naive, "peak_gflops").empty()) << r.out;
  ASSERT_FALSE(csv.at(*naive, "peak_gbs").empty()) << r.out;
  EXPECT_NEAR(std::stod(csv.at(*naive, "peak_gflops")), e["fp32_gflops"].get<double>(), 0.1);
  EXPECT_NEAR(std::stod(csv.at(*naive, "peak_gbs")), e["bandwidth_gbs"].get<double>(), 0.1);
  EXPECT_FALSE(csv.at(*naive, "roofline_gflops").empty()) << r.out;
  // pct_peak is gflops over the stored peak.
  const double pct = std::stod(csv.at(*naive, "gflops")) / e["fp32_gflops"].get<double>() * 100.0;
  EXPECT_NEAR(std::stod(csv.at(*naive, "pct_peak")), pct, 0.01 * pct + 0.01);
  // The roofline bound never exceeds the peak.
  EXPECT_LE(std::stod(csv.at(*naive, "roofline_gflops")), e["fp32_gflops"].get<double>() + 0.1);

  // OpenBLAS runs on the host: the device's peak says nothing about it.
  const auto openblas = csv.find("openblas");
  ASSERT_TRUE(openblas.has_value()) << r.out;
#ifdef CLGEMM_HAVE_OPENBLAS
  EXPECT_EQ(csv.at(*openblas, "status"), "ok");
#endif
  EXPECT_EQ(csv.at(*openblas, "pct_peak"), "");
  EXPECT_EQ(csv.at(*openblas, "peak_gflops"), "");
  EXPECT_EQ(csv.at(*openblas, "peak_gbs"), "");
  EXPECT_NE(csv.at(*openblas, "device"), e["device"].get<std::string>());

  // The table names the stored file as the source of % peak.
  const auto table = runClgemm({"--store", store_->path(), "--size", "24", "--kernel", "naive",
                                "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("% peak"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find(storedPeaks(store_->path()).front()), std::string::npos) << table.out;

  // And the JSON report carries it.
  const auto doc_run = runClgemm({"--store", store_->path(), "--size", "24", "--kernel", "naive",
                                  "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(doc_run.exit_code, 0) << doc_run.err;
  const json doc = json::parse(doc_run.out);
  ASSERT_TRUE(doc["peak"].is_object()) << doc.dump();
  EXPECT_DOUBLE_EQ(doc["peak"]["gflops"].get<double>(), e["fp32_gflops"].get<double>());
  ASSERT_TRUE(doc["results"][0]["pct_peak"].is_number()) << doc.dump();
  EXPECT_GT(doc["results"][0]["pct_peak"].get<double>(), 0.0);
}

// An FP64 row is measured against the FP64 peak the entry holds, not the FP32 one; an FP32 row of
// the same sweep keeps the FP32 peak.
TEST_F(StoredPeak, Fp64RowsAreMeasuredAgainstTheFp64Peak) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const json e = entry();
  ASSERT_TRUE(e["fp64_gflops"].is_number()) << e.dump();
  const double fp32 = e["fp32_gflops"].get<double>(), fp64 = e["fp64_gflops"].get<double>();
  const auto r =
      runClgemm({"--store", store_->path(), "--size", "24", "--kernel", "naive", "--precision",
                 "fp32,fp64", "--format", "csv", "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Csv csv = parseCsv(r.out);
  ASSERT_EQ(csv.rows.size(), 2u) << r.out;
  for (std::size_t i = 0; i < 2; ++i) {
    const bool is_fp64 = csv.at(i, "precision") == "fp64";
    EXPECT_EQ(csv.at(i, "precision"), i == 0 ? "fp32" : "fp64") << r.out;
    const double peak = is_fp64 ? fp64 : fp32;
    ASSERT_FALSE(csv.at(i, "peak_gflops").empty()) << r.out;
    EXPECT_NEAR(std::stod(csv.at(i, "peak_gflops")), peak, 0.1) << r.out;
    const double pct = std::stod(csv.at(i, "gflops")) / peak * 100.0;
    EXPECT_NEAR(std::stod(csv.at(i, "pct_peak")), pct, 0.01 * pct + 0.01) << r.out;
    ASSERT_FALSE(csv.at(i, "roofline_gflops").empty()) << r.out;
    EXPECT_LE(std::stod(csv.at(i, "roofline_gflops")), peak + 0.1) << r.out;
  }
}

TEST_F(StoredPeak, AnEmptyStoreGivesNoPeak) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  // No peak shipped in data/peaks matches pocl's device, so an empty store means no pct_peak.
  TempDir empty;
  const auto r = runClgemm({"--store", empty.path(), "--size", "24", "--kernel", "naive",
                            "--format", "csv", "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Csv csv = parseCsv(r.out);
  const auto naive = csv.find("naive");
  ASSERT_TRUE(naive.has_value()) << r.out;
  EXPECT_EQ(csv.at(*naive, "device"), entry()["device"].get<std::string>());
  EXPECT_EQ(csv.at(*naive, "pct_peak"), "") << "a shipped peak for this device?";
  EXPECT_EQ(csv.at(*naive, "peak_gflops"), "");
  EXPECT_EQ(csv.at(*naive, "peak_gbs"), "");
  EXPECT_EQ(csv.at(*naive, "roofline_gflops"), "");
  EXPECT_FALSE(csv.at(*naive, "intensity").empty());
  // Reading a store never writes to it.
  EXPECT_TRUE(filesUnder(empty.path()).empty()) << joined(filesUnder(empty.path()));
}

TEST(Peak, JsonFormat) {
  TempDir store;
  const auto r = runClgemm({"peak", "--store", store.path(), "--reps", "1", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_NO_THROW(doc = json::parse(r.out)) << r.out;
  ASSERT_TRUE(doc.contains("fp32_gflops")) << doc.dump();
  EXPECT_GT(doc["fp32_gflops"].get<double>(), 0.0);
  ASSERT_TRUE(doc.contains("stored")) << doc.dump();
  const auto files = storedPeaks(store.path());
  ASSERT_EQ(files.size(), 1u) << joined(files);
  EXPECT_EQ(doc["stored"], files.front());
  // The stored entry is the printed one without "stored".
  json stored = json::parse(clgemm_test::readText(files.front()));
  EXPECT_EQ(stored["fp32_gflops"], doc["fp32_gflops"]);
  EXPECT_FALSE(stored.contains("stored"));
}

TEST(Peak, OutFileHoldsTheReport) {
  TempDir store, out;
  const auto r = runClgemm({"peak", "--store", store.path(), "--reps", "1", "--format", "json",
                            "--out", out.file("peak.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const json doc = json::parse(clgemm_test::readText(out.file("peak.json")));
  EXPECT_GT(doc["fp32_gflops"].get<double>(), 0.0);
  EXPECT_EQ(storedPeaks(store.path()).size(), 1u);
}

// A second measurement replaces the first: still one file per device.
TEST(Peak, RemeasuringReplacesTheEntry) {
  TempDir store;
  for (int i = 0; i < 2; ++i) {
    const auto r = runClgemm({"peak", "--store", store.path(), "--reps", "1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_EQ(filesUnder(store.path()).size(), 1u) << joined(filesUnder(store.path()));
}

// $CLGEMM_STORE names the store when --store does not.
class StoreEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* old = std::getenv("CLGEMM_STORE");
    if (old) saved_ = old;
  }
  void TearDown() override {
    if (saved_)
      setenv("CLGEMM_STORE", saved_->c_str(), 1);
    else
      unsetenv("CLGEMM_STORE");
  }
  std::optional<std::string> saved_;
};

TEST_F(StoreEnvironment, PeakWritesThere) {
  TempDir store;
  ASSERT_EQ(setenv("CLGEMM_STORE", store.path().c_str(), 1), 0);
  const auto r = runClgemm({"peak", "--reps", "1", "--progress", "off"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto files = storedPeaks(store.path());
  ASSERT_EQ(files.size(), 1u) << joined(filesUnder(store.path()));
  EXPECT_NE(r.out.find(files.front()), std::string::npos) << r.out;

  // A later run finds it through the same variable; --store wins over it.
  const auto run = runClgemm(
      {"--size", "16", "--kernel", "naive", "--format", "csv", "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Csv csv = parseCsv(run.out);
  ASSERT_EQ(csv.rows.size(), 1u);
  EXPECT_FALSE(csv.at(0, "pct_peak").empty()) << run.out;
  TempDir other;
  const auto overridden = runClgemm({"--store", other.path(), "--size", "16", "--kernel", "naive",
                                     "--format", "csv", "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(overridden.exit_code, 0) << overridden.err;
  EXPECT_EQ(parseCsv(overridden.out).at(0, "pct_peak"), "") << overridden.out;
}

// ------------------------------------------------------------------------------------------------
// Refusals: exit 2 naming the culprit, nothing stored.

struct BadPeak {
  std::string name;
  std::vector<std::string> args;     // after "peak --store <dir>"
  std::vector<std::string> culprit;  // each must appear in stderr
  bool own_store = false;            // args name the store themselves
};

void PrintTo(const BadPeak& b, std::ostream* os) { *os << b.name; }

class PeakRefusals : public ::testing::TestWithParam<BadPeak> {};

TEST_P(PeakRefusals, ExitTwoAndStoreNothing) {
  const BadPeak& b = GetParam();
  TempDir store;
  std::vector<std::string> args = {"peak"};
  if (!b.own_store) args = args + std::vector<std::string>{"--store", store.path()};
  args = args + b.args;
  if (std::find(b.args.begin(), b.args.end(), "--reps") == b.args.end())
    args = args + std::vector<std::string>{"--reps", "1"};
  const auto r = runClgemm(args);
  EXPECT_EQ(r.exit_code, 2) << commandLine(args) << "\n" << r.err;
  EXPECT_NE(r.err.find("clgemm: error:"), std::string::npos) << r.err;
  for (const auto& c : b.culprit) EXPECT_NE(r.err.find(c), std::string::npos) << c << "\n" << r.err;
  EXPECT_TRUE(filesUnder(store.path()).empty()) << joined(filesUnder(store.path()));
  EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PeakRefusals,
    ::testing::Values(BadPeak{"FormatCsv", {"--format", "csv"}, {"--format", "csv"}},
                      BadPeak{"FormatBogus", {"--format", "bogus"}, {"--format", "bogus"}},
                      BadPeak{"Size", {"--size", "64"}, {"--size"}},
                      BadPeak{"Sizes", {"--sizes", "64,128"}, {"--sizes"}},
                      BadPeak{"M", {"-m", "64"}, {"-m"}}, BadPeak{"Define", {"-D", "TS=8"}, {"-D"}},
                      BadPeak{"Kernel", {"--kernel", "naive"}, {"--kernel"}},
                      BadPeak{"Check", {"--check", "full"}, {"--check"}},
                      BadPeak{"ProgressBogus", {"--progress", "bogus"}, {"--progress", "bogus"}},
                      BadPeak{"StoreUnwritable",
                              {"--store", "/proc/clgemm-cannot"},
                              {"--store", "/proc/clgemm-cannot"},
                              true},
                      BadPeak{"StoreEmpty", {"--store", ""}, {"--store"}, true},
                      BadPeak{"PlatformOutOfRange", {"--platform", "99"}, {"--platform 99"}},
                      BadPeak{"DeviceOutOfRange", {"--device", "99"}, {"--device 99"}},
                      BadPeak{
                          "OutUnwritable", {"--out", "/nonexistent-clgemm/dir/p.json"}, {"--out"}},
                      BadPeak{"RepsZero", {"--reps", "0"}, {"--reps"}},
                      BadPeak{"StrayArgument", {"extra"}, {"extra"}}),
    [](const auto& info) { return info.param.name; });

// The store is a file, not a folder.
TEST(PeakRefusals, StoreIsAFile) {
  TempDir dir;
  clgemm_test::writeText(dir.file("store"), "not a folder\n");
  const auto r = runClgemm({"peak", "--store", dir.file("store"), "--reps", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--store"), std::string::npos) << r.err;
  EXPECT_EQ(clgemm_test::readText(dir.file("store")), "not a folder\n");
}

}  // namespace
