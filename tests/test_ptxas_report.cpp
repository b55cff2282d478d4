// ptxas's report read out of NVIDIA OpenCL build logs as the drivers print them under
// -cl-nv-verbose, and nothing read out of logs that hold no such report.
#include <gtest/gtest.h>

#include "report/ptxas_report.hpp"

namespace {

using clgemm::parsePtxasReport;

// Verbatim from NVIDIA's driver 580.159.04 on an H100 (clgemm --kernel best --cl-options
// -cl-nv-verbose --build-log), front-end warnings included.
const char* const kH100Log =
    "(): Warning: Function gemm_best is a kernel, so overriding noinline attribute. The function "
    "may be inlined when called.\n"
    "\n"
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'gemm_best' for 'sm_90a'\n"
    "ptxas info    : Function properties for gemm_best\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 126 registers, used 1 barriers, 33796 bytes smem\n"
    "ptxas info    : Compile time = 226.463 ms\n";

TEST(PtxasReport, ReadsTheH100Log) {
  const auto functions = parsePtxasReport(kH100Log);
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "gemm_best");
  EXPECT_EQ(functions[0].registers, 126);
  EXPECT_EQ(functions[0].spill_store_bytes, 0);
  EXPECT_EQ(functions[0].spill_load_bytes, 0);
  EXPECT_EQ(functions[0].stack_bytes, 0);
}

TEST(PtxasReport, ReadsTheUsedLineWithConstantBanks) {
  const auto functions = parsePtxasReport(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'gemm_best' for 'sm_90'\n"
      "ptxas info    : Function properties for gemm_best\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 126 registers, used 1 barriers, 384 bytes cmem[0]\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "gemm_best");
  EXPECT_EQ(functions[0].registers, 126);
}

TEST(PtxasReport, ReadsTheOlderUsedLine) {
  const auto functions = parsePtxasReport(
      "ptxas info    : Compiling entry function 'gemm_tiled' for 'sm_13'\n"
      "ptxas info    : Used 126 registers, 384 bytes cmem[0], 8192 bytes smem\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "gemm_tiled");
  EXPECT_EQ(functions[0].registers, 126);
  EXPECT_EQ(functions[0].stack_bytes, 0);
}

TEST(PtxasReport, ReadsEveryEntryInOrder) {
  // Verbatim from the H100 (driver 580.159.04) for a program of three kernels and a noinline
  // helper: ptxas goes through the entries in reverse source order and reports the helper's
  // properties between two entries.
  const auto functions = parsePtxasReport(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'with_local_arg' for 'sm_90a'\n"
      "ptxas info    : Function properties for with_local_arg\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, used 1 barriers\n"
      "ptxas info    : Compile time = 3.789 ms\n"
      "ptxas info    : Compiling entry function 'gemm_transposed_b' for 'sm_90a'\n"
      "ptxas info    : Function properties for gemm_transposed_b\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 21 registers, used 1 barriers, 4100 bytes smem\n"
      "ptxas info    : Compile time = 83.254 ms\n"
      "ptxas info    : Function properties for helper\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'transpose_b' for 'sm_90a'\n"
      "ptxas info    : Function properties for transpose_b\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, used 1 barriers, 1092 bytes smem\n"
      "ptxas info    : Compile time = 3.880 ms\n");
  ASSERT_EQ(functions.size(), 3u);
  EXPECT_EQ(functions[0].name, "with_local_arg");
  EXPECT_EQ(functions[1].name, "gemm_transposed_b");
  EXPECT_EQ(functions[1].registers, 21);
  EXPECT_EQ(functions[2].name, "transpose_b");
  EXPECT_EQ(functions[2].registers, 12);

  const auto gemm = clgemm::findPtxasFunction(functions, "gemm_transposed_b");
  ASSERT_TRUE(gemm.has_value());
  EXPECT_EQ(gemm->registers, 21);
  EXPECT_FALSE(clgemm::findPtxasFunction(functions, "helper").has_value());
  EXPECT_FALSE(clgemm::findPtxasFunction(functions, "gemm_best").has_value());
  EXPECT_FALSE(clgemm::findPtxasFunction(functions, "transpose").has_value());
}

TEST(PtxasReport, ReadsTheH100SpillReport) {
  // Verbatim from the H100: a kernel whose 128 accumulators do not fit its registers.
  const auto functions = parsePtxasReport(
      "ptxas info    : Compiling entry function 'spilly' for 'sm_90a'\n"
      "ptxas info    : Function properties for spilly\n"
      "ptxas         .     544 bytes stack frame, 1020 bytes spill stores, 1024 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 0 barriers\n"
      "ptxas info    : Compile time = 59.967 ms\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].registers, 32);
  EXPECT_EQ(functions[0].stack_bytes, 544);
  EXPECT_EQ(functions[0].spill_store_bytes, 1020);
  EXPECT_EQ(functions[0].spill_load_bytes, 1024);
}

TEST(PtxasReport, ToleratesCrlfAndExtraWhitespace) {
  const auto functions = parsePtxasReport(
      "ptxas info    : Compiling entry function   'gemm_best'   for 'sm_86'\r\n"
      "ptxas info    :   Function properties for   gemm_best  \r\n"
      "\t 8 bytes stack frame,   4 bytes spill stores,4 bytes spill loads \r\n"
      "ptxas info    :  Used   96  registers ,  384 bytes cmem[0]\r\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "gemm_best");
  EXPECT_EQ(functions[0].registers, 96);
  EXPECT_EQ(functions[0].stack_bytes, 8);
  EXPECT_EQ(functions[0].spill_store_bytes, 4);
  EXPECT_EQ(functions[0].spill_load_bytes, 4);
}

TEST(PtxasReport, PropertiesMayFollowTheUsedLineInAnyFieldOrder) {
  const auto functions = parsePtxasReport(
      "ptxas info    : Compiling entry function 'gemm_tiled' for 'sm_80'\n"
      "ptxas info    : Used 40 registers, 8192 bytes smem, 384 bytes cmem[0]\n"
      "ptxas info    : Function properties for gemm_tiled\n"
      "    16 bytes spill loads, 24 bytes spill stores, 32 bytes stack frame\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].registers, 40);
  EXPECT_EQ(functions[0].stack_bytes, 32);
  EXPECT_EQ(functions[0].spill_store_bytes, 24);
  EXPECT_EQ(functions[0].spill_load_bytes, 16);
}

TEST(PtxasReport, CalledFunctionsAreNoEntries) {
  // A called function gets a properties block but no "Compiling entry function" line; its stack
  // must not land on the entry compiled around it.
  const auto functions = parsePtxasReport(
      "ptxas info    : Function properties for helper\n"
      "    48 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'gemm_naive' for 'sm_90'\n"
      "ptxas info    : Function properties for gemm_naive\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Function properties for __internal_trig_reduction_slowpathd\n"
      "    40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 30 registers, 384 bytes cmem[0]\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "gemm_naive");
  EXPECT_EQ(functions[0].registers, 30);
  EXPECT_EQ(functions[0].stack_bytes, 0);
}

TEST(PtxasReport, SpillWarningIsNotAPropertiesLine) {
  const auto functions = parsePtxasReport(
      "ptxas info    : Compiling entry function 'gemm_best' for 'sm_90'\n"
      "ptxas warning : Registers are spilled to local memory in function 'gemm_best', "
      "8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Function properties for gemm_best\n"
      "    8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 255 registers, 384 bytes cmem[0]\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].spill_store_bytes, 8);
  EXPECT_EQ(functions[0].stack_bytes, 8);
}

TEST(PtxasReport, EntryWithoutUsedLineIsLeftOut) {
  const auto functions = parsePtxasReport(
      "ptxas info    : Compiling entry function 'unfinished' for 'sm_90'\n"
      "ptxas info    : Compiling entry function 'gemm_best' for 'sm_90'\n"
      "ptxas info    : Used 126 registers, 384 bytes cmem[0]\n");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "gemm_best");
}

TEST(PtxasReport, LogsWithoutAReportGiveNothing) {
  EXPECT_TRUE(parsePtxasReport("").empty());  // pocl's log after a clean build
  EXPECT_TRUE(parsePtxasReport("\n\r\n").empty());
  EXPECT_TRUE(parsePtxasReport("<kernel>:12:9: warning: unused variable 'x'\n"
                               "    int x = 0;\n"
                               "        ^\n")
                  .empty());
  // A "Used" line before any entry has nothing to belong to.
  EXPECT_TRUE(parsePtxasReport("ptxas info    : Used 10 registers\n").empty());
}

}  // namespace
