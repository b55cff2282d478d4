// The command line, parsed into plain values (cli/options.hpp parses it): what the core's commands
// take. Parsing checks only the form of each option (numbers, names, conflicts); what depends on
// the device is checked later.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/result_check.hpp"
#include "problem/gemm_shape.hpp"
#include "problem/precision.hpp"
#include "problem/size_list.hpp"
#include "registry/defines.hpp"
#include "report/report.hpp"
#include "tune/tune_search.hpp"
#include "tune/tune_space.hpp"
#include "util/progress.hpp"

namespace clgemm {

// What the command line asks for: a benchmark run (the default) or a subcommand.
enum class Command { kRun, kPeak, kTune, kBlasThreshold };

struct Options {
  Command command = Command::kRun;
  bool help = false;
  bool list = false;
  bool explain = false;  // print the --kernel variants' ladder steps and exit
  std::optional<int> platform, device;
  std::string devices;  // --devices LIST: split one GEMM across these devices; empty: one device
  std::string split;    // --split W1,W2,...: the rows' shares with --devices; empty: measured
  std::string kernels;  // the --kernel list as given
  bool kernels_given = false;  // --kernel on the command line (else the default list)
  std::string compare;         // --compare list as given (baselines)
  bool compare_given = false;
  std::optional<int> threads;  // host threads for CPU paths and OpenBLAS; unset: all cores
  std::vector<UserDefine> defines;
  std::optional<int> m, n, k;  // unset: the default size for the device, or the .npy shapes
  std::vector<Shape> sizes;    // --sizes: a sweep; empty: one size from m, n, k
  // The BLAS shape (problem/gemm_shape.hpp): each list sweeps, every combination at every size.
  std::vector<Layout> layouts = {Layout::kRow};
  std::vector<Trans> trans_a = {Trans::kN}, trans_b = {Trans::kN};
  int lda = 0, ldb = 0, ldc = 0;                           // --lda, --ldb, --ldc; 0: packed
  std::vector<Precision> precisions = {Precision::kFp32};  // --precision: a list sweeps
  // Doubles: an FP64 run takes any finite double; FP32 runs only what a float holds (options.cpp).
  double alpha = 1.0, beta = 0.0;
  int warmup = 2;
  int reps = 10;
  bool check = true;
  CheckMode check_mode = CheckMode::kAuto;  // --check full|sampled|auto
  ProgressMode progress = ProgressMode::kAuto;
  std::string store;  // --store DIR: the user's store (see user_store.hpp); empty: the default
  Format format = Format::kTable;
  std::string out;  // report file; empty: stdout
  std::string input_a, input_b, input_c, output_c;
  std::string kernel_file;
  std::string cl_options;     // extra OpenCL compiler options for every kernel build
  bool build_log = false;     // print each kernel's build log to stderr
  std::string save_programs;  // write each program built into this folder (--save-programs)
  std::uint64_t seed = 42;

  // clgemm tune only.
  std::optional<int> budget;         // --budget: how many configurations to evaluate
  std::optional<double> time_limit;  // --time: seconds after which no new candidate starts
  TuneStrategy strategy = TuneStrategy::kAuto;
  int confirm_rounds = 3;  // --confirm: rounds timing the fastest side by side (tune_confirm.hpp)
  std::vector<SpaceOverride> space;  // --space NAME=V1,V2,...
};

// Every combination of --layout, --trans-a and --trans-b, in that order of nesting, with the
// leading dimensions.
std::vector<GemmShape> gemmShapes(const Options& o);

// Without --budget or --time the tuner evaluates this many configurations.
inline constexpr int kDefaultTuneBudget = 50;

}  // namespace clgemm
