// --devices: one GEMM split across devices by rows. CI has one OpenCL device (pocl's CPU), so the
// same device is listed twice: two contexts and queues, as two devices would have.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "multi/row_split.hpp"
#include "run_clgemm.hpp"
#include "util/errors.hpp"

namespace {

using clgemm_test::runClgemm;
using clgemm_test::TempDir;
using nlohmann::json;

// ------------------------------------------------------------------------------------------------
// The split itself.

TEST(SplitRows, FollowsTheWeightsAndSumsToM) {
  EXPECT_EQ(clgemm::splitRows(100, {1, 1}), (std::vector<int>{50, 50}));
  EXPECT_EQ(clgemm::splitRows(100, {1, 3}), (std::vector<int>{25, 75}));
  // 37 x 1/4 = 9.25 and 37 x 3/4 = 27.75: the spare row goes where it finishes soonest (28/3 <
  // 10/1).
  EXPECT_EQ(clgemm::splitRows(37, {1, 3}), (std::vector<int>{9, 28}));
  // Three equal shares of 10: the spare row goes to the first on the tie.
  EXPECT_EQ(clgemm::splitRows(10, {2, 2, 2}), (std::vector<int>{4, 3, 3}));
  // A spare row never goes to a slow device whose remainder is larger: 4096 rows for two GPUs
  // and a CPU 4000 times slower (its exact share 0.48 rows; seen on two H200s and pocl).
  EXPECT_EQ(clgemm::splitRows(4096, {47000, 47000, 11}), (std::vector<int>{2048, 2048, 0}));
  // Under 1% of the fastest: no rows even where its share is a few rows.
  EXPECT_EQ(clgemm::splitRows(16384, {49000, 49000, 300}), (std::vector<int>{8192, 8192, 0}));
  EXPECT_EQ(clgemm::splitRows(3, {1000, 1}), (std::vector<int>{3, 0}));
  // Granules of 128 rows where M allows: 15 granules 11.25 : 3.75, the spare to the first (tie),
  // and the 80 rows short of a granule to the last panel.
  EXPECT_EQ(clgemm::splitRows(2000, {3, 1}), (std::vector<int>{1536, 464}));
  // Two equal devices measured a little apart keep tile-aligned panels.
  EXPECT_EQ(clgemm::splitRows(16384, {49110.6, 49027.2}), (std::vector<int>{8192, 8192}));
  for (int m : {1, 2, 7, 1000, 8191}) {
    const auto rows = clgemm::splitRows(m, {0.3, 1.7, 5.0});
    EXPECT_EQ(std::accumulate(rows.begin(), rows.end(), 0), m);
  }
}

TEST(ParseSplit, TakesOnePositiveWeightPerDevice) {
  EXPECT_EQ(clgemm::parseSplit("1,3", 2), (std::vector<double>{1, 3}));
  EXPECT_EQ(clgemm::parseSplit("0.5,0.25,2", 3), (std::vector<double>{0.5, 0.25, 2}));
  for (const char* bad : {"", "1,", ",1", "1,x", "1,0", "1,-2", "1,inf", "1,nan", "1;2"})
    EXPECT_THROW(clgemm::parseSplit(bad, 2), clgemm::UsageError) << bad;
  EXPECT_THROW(clgemm::parseSplit("1,2,3", 2), clgemm::UsageError);
}

// ------------------------------------------------------------------------------------------------
// Runs on the machine's device, listed twice.

json runJson(const std::vector<std::string>& args, int expected_exit = 0) {
  std::vector<std::string> full = {"--format", "json", "--reps", "2", "--warmup", "1"};
  full.insert(full.end(), args.begin(), args.end());
  const auto r = runClgemm(full);
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  return clgemm_test::parseReport(r);
}

std::vector<json> rowsOf(const json& doc, const std::string& part) {
  std::vector<json> out;
  for (const auto& r : doc["results"])
    if (r["part"] == part) out.push_back(r);
  return out;
}

TEST(MultiDevice, TheSameDeviceTwiceGivesAVerifiedCAtOddSizesWithUnevenSplits) {
  for (const char* split : {"1,3", "5,1", "1,1"}) {
    for (const char* beta : {"0", "0.5"}) {
      const json doc = runJson({"--devices", "0:0,0:0", "--split", split, "--sizes",
                                "37x29x19,33x17x9", "--alpha", "-1.5", "--beta", beta});
      ASSERT_TRUE(doc.contains("results")) << split;
      const auto panels = rowsOf(doc, "panel");
      const auto totals = rowsOf(doc, "total");
      const auto alone = rowsOf(doc, "alone");
      ASSERT_EQ(panels.size(), 4u) << doc.dump(2);  // two devices, two sizes
      ASSERT_EQ(totals.size(), 2u);
      ASSERT_EQ(alone.size(), 2u);  // the device listed twice runs alone once per size
      for (const auto& t : totals) {
        EXPECT_EQ(t["status"], "ok") << t.dump();
        EXPECT_LT(t["err_ratio"].get<double>(), 16.0);
        EXPECT_TRUE(t["e2e_ms"].is_number()) << t.dump();
        EXPECT_TRUE(t["in_ms"].is_number()) << t.dump();
        EXPECT_TRUE(t["speedup"].is_number()) << t.dump();
        EXPECT_TRUE(t["efficiency"].is_number()) << t.dump();
      }
      // The panels tile C's rows in order, in the proportions asked for.
      for (std::size_t size = 0; size < 2; ++size) {
        const json& first = panels[2 * size];
        const json& second = panels[2 * size + 1];
        const int m = first["m"];
        const auto expected = clgemm::parseSplit(split, 2);
        const auto rows = clgemm::splitRows(m, expected);
        EXPECT_EQ(first["row_start"], 0);
        EXPECT_EQ(first["rows"], rows[0]);
        EXPECT_EQ(second["row_start"], rows[0]);
        EXPECT_EQ(second["rows"], rows[1]);
        for (const auto& p : {first, second}) {
          EXPECT_EQ(p["status"], "ok") << p.dump();
          EXPECT_EQ(p["device_index"], "0:0");
          EXPECT_TRUE(p["ms_median"].is_number());
          EXPECT_TRUE(p["out_ms"].is_number());
        }
      }
    }
  }
}

TEST(MultiDevice, PanelsOfTwoGranulesAreStreamedInChunks) {
  // 600 rows, 1:1 in granules of 128: panels of 256 and 344 rows, two chunks each (the second
  // 216 rows), the chunks' writes, GEMMs and reads overlapping on three queues per device.
  for (const char* beta : {"0", "0.5"}) {
    const json doc = runJson({"--devices", "0:0,0:0", "--split", "1,1", "--sizes",
                              "600x40x21,37x29x19", "--beta", beta});
    ASSERT_TRUE(doc.contains("results"));
    const auto panels = rowsOf(doc, "panel");
    ASSERT_EQ(panels.size(), 4u);
    EXPECT_EQ(panels[0]["rows"], 256);
    EXPECT_EQ(panels[1]["rows"], 344);
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(panels[i]["status"], "ok") << panels[i].dump();
      // Under two granules of 128 rows a panel goes whole.
      EXPECT_EQ(panels[i]["chunks"], i < 2 ? 2 : 1) << panels[i].dump();
    }
    for (const auto& t : rowsOf(doc, "total")) EXPECT_EQ(t["status"], "ok") << t.dump();
  }
}

TEST(MultiDevice, WithoutSplitTheRowsFollowTheMeasuredSpeeds) {
  const json doc = runJson({"--devices", "0:0,0:0", "-m", "64", "-n", "40", "-k", "24"});
  ASSERT_TRUE(doc.contains("results"));
  EXPECT_NE(doc["split"].get<std::string>().find("alone"), std::string::npos) << doc["split"];
  const auto panels = rowsOf(doc, "panel");
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(panels[0]["rows"].get<int>() + panels[1]["rows"].get<int>(), 64);
  EXPECT_EQ(rowsOf(doc, "total")[0]["status"], "ok");
}

TEST(MultiDevice, TableAndCsvNameEveryPart) {
  const auto table = runClgemm(
      {"--devices", "0:0,0:0", "--split", "1,2", "--size", "24", "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  for (const char* part : {"alone", "panel", "total", "2 devices", "0-7 (33.3%)", "8-23 (66.7%)"})
    EXPECT_NE(table.out.find(part), std::string::npos) << part << "\n" << table.out;
  const auto csv = runClgemm(
      {"--devices", "0:0,0:0", "--size", "24", "--reps", "1", "--warmup", "0", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("part,device_index,device,", 0), 0u) << csv.out;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 5) << csv.out;  // header + 4 rows
}

TEST(MultiDevice, AWrongPanelFailsTheRun) {
  // best writing 42 into the first element of its C: every panel's first row is wrong.
  TempDir dir;
  clgemm_test::writeText(
      dir.file("kernels.cl"),
      clgemm_test::plantedKernels("gemm_best",
                                  "  if (get_global_id(0) == 0 && get_global_id(1) == 0)"
                                  " { C[0] = 42.0f; return; }\n"));
  const json doc = runJson({"--devices", "0:0,0:0", "--split", "1,1", "--kernels",
                            dir.file("kernels.cl"), "-m", "16", "-n", "8", "-k", "4"},
                           1);
  ASSERT_TRUE(doc.contains("results"));
  EXPECT_EQ(rowsOf(doc, "total")[0]["status"], "FAIL");
  EXPECT_NE(rowsOf(doc, "total")[0]["message"].get<std::string>().find("verification failed"),
            std::string::npos);
}

TEST(MultiDevice, ADeviceThatFailsIsNamedAndExitsThree) {
  TempDir dir;
  clgemm_test::writeText(dir.file("kernels.cl"),
                         clgemm_test::plantedKernels("gemm_best", "  this does not compile;\n"));
  const auto r = runClgemm({"--devices", "0:0,0:0", "--kernels", dir.file("kernels.cl"), "--size",
                            "16", "--reps", "1", "--out", dir.file("report.txt")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("clgemm: error: alone 0:0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("building"), std::string::npos) << r.err;
  // The report still says what happened.
  EXPECT_NE(clgemm_test::readText(dir.file("report.txt")).find("error"), std::string::npos);
}

struct BadCase {
  std::vector<std::string> args;
  std::string culprit;
};

TEST(MultiDevice, BadListsExitTwoNamingTheEntry) {
  const std::vector<BadCase> cases = {
      {{"--devices", "0:99"}, "0:99"},
      {{"--devices", "7:0"}, "7:0"},
      {{"--devices", "0:0,banana"}, "banana"},
      {{"--devices", "0:0,"}, "''"},
      {{"--devices", "0-0"}, "0-0"},
      {{"--devices", ""}, "--devices"},
      {{"--devices", "0:0,0:0", "--split", "1"}, "--split"},
      {{"--devices", "0:0,0:0", "--split", "1,zero"}, "zero"},
      {{"--split", "1,1"}, "--split needs --devices"},
      {{"--devices", "0:0", "--platform", "0"}, "--platform"},
      {{"--devices", "0:0", "--compare", "clblast"}, "--compare"},
      {{"--devices", "0:0", "--kernel", "naive,tiled"}, "one OpenCL kernel"},
      {{"--devices", "0:0", "--kernel", "cpu-naive"}, "one OpenCL kernel"},
      {{"peak", "--devices", "0:0"}, "--devices"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--size", "8", "--reps", "1"});
    if (c.args.front() == "peak") args = c.args;
    const auto r = runClgemm(args);
    std::string what;
    for (const auto& a : c.args) what += a + " ";
    EXPECT_EQ(r.exit_code, 2) << what << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("clgemm: error: ", 0), 0u) << what << "\n" << r.err;
    EXPECT_NE(r.err.find(c.culprit), std::string::npos) << what << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << what << "\n" << r.out;
  }
}

}  // namespace
