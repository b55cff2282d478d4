#include "cli/options.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

// -D values are kept whole: cxxopts would otherwise split vector options at commas.
#define CXXOPTS_VECTOR_DELIMITER '\0'
#include <cxxopts.hpp>

#include "cli/option_conflicts.hpp"
#include "registry/kernels.hpp"
#include "util/errors.hpp"
#include "util/host_info.hpp"

namespace clgemm {
namespace {

cxxopts::Options makeParser() {
  cxxopts::Options parser("clgemm",
                          "Builds GEMM kernels from kernels.cl on an OpenCL device, checks every "
                          "result against a CPU reference and times them side by side.");
  parser.set_width(100);
  // clang-format off
  parser.add_options()
    ("h,help", "show this help")
    ("list", "list OpenCL platforms and devices with their limits")
    ("explain", "print what each --kernel variant adds over the one it builds on, then exit")
    ("platform", "platform index (see --list)", cxxopts::value<std::string>(), "N")
    ("device", "device index on that platform (default: first GPU, else first device)",
     cxxopts::value<std::string>(), "N")
    ("devices", "split one GEMM's rows across devices: PLATFORM:DEVICE pairs (0:0,0:1; one may repeat), gpus or all; each alone, then all at once", cxxopts::value<std::string>(), "LIST")
    ("split", "with --devices: shares of the rows in these proportions (default: each device's speed alone)", cxxopts::value<std::string>(), "W1,W2")
    ("kernel", "comma-separated kernel variants or groups (cl, cpu, all)", cxxopts::value<std::string>()->default_value(kDefaultKernels), "LIST")
    ("compare", "baselines to add: clblast, openblas, cublas, cublas-tf32 (default without --kernel: clblast and openblas)", cxxopts::value<std::string>(), "LIST")
    ("threads", "host threads for the CPU paths and OpenBLAS (default: all cores)", cxxopts::value<std::string>(), "N")
    ("D", "define passed to the kernel compiler and used to size the launch (repeatable)",
     cxxopts::value<std::vector<std::string>>(), "NAME=VALUE")
    ("m", "rows of A and C", cxxopts::value<std::string>(), "M")
    ("n", "columns of B and C", cxxopts::value<std::string>(), "N")
    ("k", "columns of A, rows of B", cxxopts::value<std::string>(), "K")
    ("size", "M = N = K = S (default: 2048 on a GPU, 512 otherwise)", cxxopts::value<std::string>(), "S")
    ("sizes", "a sweep over sizes: 256,512,1000 or 8192x8192x256 items, 256:8192:x2 (geometric), 128:2048:+128 (arithmetic)", cxxopts::value<std::string>(), "LIST")
    ("layout", "row or col (column-major, as Fortran and cuBLAS store matrices); a list sweeps: row,col", cxxopts::value<std::string>()->default_value("row"), "L")
    ("trans-a", "op(A): n (A as stored) or t (A transposed: stored K x M); a list sweeps: n,t", cxxopts::value<std::string>()->default_value("n"), "T")
    ("trans-b", "op(B): n or t (B stored N x K); a list sweeps: n,t", cxxopts::value<std::string>()->default_value("n"), "T")
    ("precision", "fp32 or fp64 (double: every OpenCL kernel of the ladder, CLBlast's, OpenBLAS's and cuBLAS's DGEMM); a list sweeps: fp32,fp64", cxxopts::value<std::string>()->default_value("fp32"), "P")
    ("lda", "leading dimension of A: elements from one stored row (column, with --layout col) to the next (default: packed)", cxxopts::value<std::string>(), "N")
    ("ldb", "leading dimension of B (default: packed)", cxxopts::value<std::string>(), "N")
    ("ldc", "leading dimension of C (default: packed)", cxxopts::value<std::string>(), "N")
    ("alpha", "scalar alpha", cxxopts::value<std::string>()->default_value("1"), "X")
    ("beta", "scalar beta (0: C is not read)", cxxopts::value<std::string>()->default_value("0"), "X")
    ("warmup", "untimed runs before timing", cxxopts::value<std::string>()->default_value("2"), "N")
    ("reps", "timed runs; median and minimum are reported", cxxopts::value<std::string>()->default_value("10"), "N")
    ("no-check", "skip verification against the CPU reference")
    ("check", "full (every element), sampled (rows + random-vector products) or auto (sampled beyond 2048^3)", cxxopts::value<std::string>()->default_value("auto"), "HOW")
    ("progress", "progress line on stderr: auto (after 2 s), on, off", cxxopts::value<std::string>()->default_value("auto"), "WHEN")
    ("store", "the user's store of peaks and tuned parameters (default: $CLGEMM_STORE, else ~/.local/share/clgemm)", cxxopts::value<std::string>(), "DIR")
    ("seed", "seed for the random matrices", cxxopts::value<std::string>()->default_value("42"), "N")
    ("format", "table, csv or json", cxxopts::value<std::string>()->default_value("table"), "F")
    ("out", "write the report to FILE instead of stdout", cxxopts::value<std::string>(), "FILE")
    ("input-a", "A from a float32 .npy file (float64 with --precision fp64) as stored: M x K, K x M with --trans-a t; Fortran order with --layout col", cxxopts::value<std::string>(), "A.npy")
    ("input-b", "B from a float32 .npy file (float64 with --precision fp64) as stored: K x N, N x K with --trans-b t; Fortran order with --layout col", cxxopts::value<std::string>(), "B.npy")
    ("input-c", "C from a float32 .npy file (float64 with --precision fp64; M x N; Fortran order with --layout col), used when beta != 0", cxxopts::value<std::string>(), "C.npy")
    ("output-c", "write the first verified variant's C to a .npy file (float64 for --precision fp64; Fortran order with --layout col)", cxxopts::value<std::string>(), "OUT.npy")
    ("kernels", "build from this kernels file instead of the installed kernels.cl", cxxopts::value<std::string>(), "FILE")
    ("cl-options", "extra OpenCL compiler options, e.g. -cl-nv-verbose or -cl-mad-enable", cxxopts::value<std::string>(), "OPTS")
    ("build-log", "print each kernel's build log (e.g. ptxas's register report) to stderr")
    ("save-programs", "write each kernel program built into DIR: the driver's binary (PTX on NVIDIA, for ptxas and cuobjdump -sass) and a .txt of its build options and log", cxxopts::value<std::string>(), "DIR")
    ("budget", "clgemm tune: configurations to evaluate (default 50 without --time)", cxxopts::value<std::string>(), "N")
    ("time", "clgemm tune: start no new candidate after this many seconds", cxxopts::value<std::string>(), "S")
    ("strategy", "clgemm tune: full, random, anneal or auto (full when the budget covers the space, else anneal)", cxxopts::value<std::string>()->default_value("auto"), "HOW")
    ("confirm", "clgemm tune: time the 3 fastest and the start side by side in N rounds before storing the best (0: store the search's fastest)", cxxopts::value<std::string>()->default_value("3"), "N")
    ("space", "clgemm tune: the values to try for one parameter, replacing the kernel's (repeatable)",
     cxxopts::value<std::vector<std::string>>(), "NAME=V1,V2");
  // clang-format on
  return parser;
}

long parseLong(const std::string& option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end == text.c_str() || *end != '\0')
    throw UsageError(option + " '" + text + "' is not an integer");
  if (errno == ERANGE || value < INT_MIN || value > INT_MAX) {
    throw UsageError(option + " '" + text + "' is out of range" +
                     (value > 0 ? " (at most " + std::to_string(INT_MAX) + ")" : std::string()));
  }
  return value;
}

int parseAtLeast(const std::string& option, const std::string& text, long minimum) {
  const long value = parseLong(option, text);
  if (value < minimum) {
    throw UsageError(option + " " + text + " must be " +
                     (minimum == 1 ? std::string("positive") : ">= " + std::to_string(minimum)));
  }
  return int(value);
}

// --seed: any 64-bit unsigned value, as the random generators take.
std::uint64_t parseSeed(const std::string& text) {
  const std::size_t sign = !text.empty() && text[0] == '+' ? 1 : 0;
  const bool digits =
      text.size() > sign && text.find_first_not_of("0123456789", sign) == std::string::npos;
  if (!digits) {
    // "-1" is a number, just not one a seed can be.
    if (text.size() > 1 && text[0] == '-' &&
        text.find_first_not_of("0123456789", 1) == std::string::npos)
      throw UsageError("--seed " + text + " must be >= 0");
    throw UsageError("--seed '" + text + "' is not an integer");
  }
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE)
    throw UsageError("--seed '" + text + "' is out of range (at most 18446744073709551615)");
  return std::uint64_t(value);
}

// A finite number parsed by `convert` (strtof or strtod), with `type`'s range in the messages.
template <typename T>
T parseFinite(const std::string& option, const std::string& text, T (*convert)(const char*, char**),
              const std::string& type, const std::string& largest, const std::string& smallest) {
  char* end = nullptr;
  errno = 0;
  const T value = convert(text.c_str(), &end);
  const bool out_of_range = errno == ERANGE;
  if (text.empty() || end == text.c_str() || *end != '\0' || std::isnan(value) ||
      (std::isinf(value) && !out_of_range))
    throw UsageError(option + " '" + text + "' is not a finite number");
  // strtof and strtod say ERANGE both for a value beyond the largest and for one so small that it
  // lost precision (a denormal, or 0); the kernels may flush the latter to zero.
  if (out_of_range && std::isinf(value))
    throw UsageError(option + " '" + text + "' is beyond the range of a " + type + " (about " +
                     largest + ")");
  if (out_of_range)
    throw UsageError(option + " '" + text + "' is too small for a " + type +
                     ": use 0 or a magnitude of at least " + smallest);
  return value;
}

float parseFloat(const std::string& option, const std::string& text) {
  return parseFinite<float>(option, text, std::strtof, "float", "3.4e38", "1.2e-38");
}

// A scalar (--alpha, --beta) for runs in `precisions`: any finite double when every run is FP64,
// else a value a float holds (parseFloat), since the FP32 runs round it to float and a value
// beyond float's range would become infinity there.
double parseScalar(const std::string& option, const std::string& text,
                   const std::vector<Precision>& precisions) {
  const bool fp32 =
      std::find(precisions.begin(), precisions.end(), Precision::kFp32) != precisions.end();
  if (fp32) {
    try {
      return double(parseFloat(option, text));
    } catch (const UsageError& e) {
      const std::string why = e.what();
      // Only the range is FP32's: say that FP64 runs take the value, but not for "abc".
      if (why.find("of a float") == std::string::npos &&
          why.find("for a float") == std::string::npos)
        throw;
      throw UsageError(why + " (--precision fp64 takes any finite double)");
    }
  }
  return parseFinite<double>(option, text, std::strtod, "double", "1.8e308", "2.2e-308");
}

// An option as the user types it: -m, --size.
std::string optionFlag(const std::string& name) { return (name.size() == 1 ? "-" : "--") + name; }

// One of the words `allowed` (joined with ", " in the message).
std::string oneOf(const std::string& option, const std::string& value,
                  const std::vector<std::string>& allowed) {
  for (const auto& a : allowed)
    if (value == a) return value;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw UsageError(option + " '" + value + "' is not one of " + list);
}

// A comma-separated list of the words in `allowed`, each once, in the order given (a sweep).
template <typename T>
std::vector<T> parseWordList(const std::string& option, const std::string& text,
                             const std::vector<std::pair<std::string, T>>& allowed) {
  std::vector<std::string> names;
  for (const auto& a : allowed) names.push_back(a.first);
  std::vector<T> values;
  std::vector<std::string> seen;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string word = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (word.empty())
      throw UsageError(option + " '" + text + "' has an empty item: give " + names.front() + ", " +
                       names.back() + " or both, separated by a comma");
    oneOf(option, word, names);
    if (std::find(seen.begin(), seen.end(), word) != seen.end())
      throw UsageError(option + " '" + text + "' names " + word + " twice");
    seen.push_back(word);
    for (const auto& a : allowed)
      if (a.first == word) values.push_back(a.second);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

const std::vector<const char*> kTuneOnly = {"budget", "time", "strategy", "confirm", "space"};

// Each command refuses the options that mean nothing to it, rather than ignoring them.
void rejectOptions(const cxxopts::ParseResult& result, Command command) {
  std::vector<const char*> refused;
  std::string name_of_command;
  switch (command) {
    case Command::kPeak:
      // `clgemm peak` measures the device; the options that shape a GEMM run mean nothing to it.
      refused = {
          "devices",   "split",   "kernel",  "compare",   "threads",      "D",       "m",
          "n",         "k",       "size",    "sizes",     "alpha",        "beta",    "no-check",
          "check",     "input-a", "input-b", "input-c",   "output-c",     "kernels", "cl-options",
          "build-log", "explain", "seed",    "warmup",    "layout",       "trans-a", "trans-b",
          "lda",       "ldb",     "ldc",     "precision", "save-programs"};
      refused.insert(refused.end(), kTuneOnly.begin(), kTuneOnly.end());
      name_of_command = "clgemm peak";
      break;
    case Command::kTune:
      // The tuner searches one kernel at one size and verifies every candidate. Of the hundreds
      // of programs it builds none is saved: a run of the winner saves its program.
      refused = {"compare", "threads",  "sizes",   "no-check", "input-a", "input-b",
                 "input-c", "output-c", "explain", "devices",  "split",   "save-programs"};
      name_of_command = "clgemm tune";
      break;
    case Command::kBlasThreshold:
      // It times square column-major GEMMs of its own through the BLAS shim's path and the
      // system BLAS; only the device, precisions, sizes, repetitions and the store apply.
      refused = {
          "devices", "split",   "kernel",       "compare",  "threads", "D",          "m",
          "n",       "k",       "size",         "alpha",    "beta",    "no-check",   "check",
          "input-a", "input-b", "input-c",      "output-c", "kernels", "cl-options", "build-log",
          "explain", "layout",  "trans-a",      "trans-b",  "lda",     "ldb",        "ldc",
          "format",  "out",     "save-programs"};
      refused.insert(refused.end(), kTuneOnly.begin(), kTuneOnly.end());
      name_of_command = "clgemm blas-threshold";
      break;
    case Command::kRun:
      refused = kTuneOnly;
      name_of_command = "a benchmark run (it belongs to clgemm tune)";
      break;
  }
  for (const char* name : refused)
    if (result.count(name))
      throw UsageError(optionFlag(name) + " does not apply to " + name_of_command);
}

double parseSeconds(const std::string& option, const std::string& text) {
  const float value = parseFloat(option, text);
  if (!(value > 0.0f))
    throw UsageError(option + " " + text + " must be a positive number of seconds");
  return double(value);
}

// More threads than this is a typing mistake, and enough to exhaust the process's threads or
// memory: OpenMP then aborts or crashes instead of reporting anything.
int maxThreads() { return std::max(1024, hostCores()); }

// --list and --explain print and exit: an option that would shape a run means nothing to them, and
// is refused rather than ignored (--explain takes the --kernel list it explains).
void rejectWithListing(const cxxopts::ParseResult& result) {
  if (result.count("help")) return;
  for (const std::string mode : {"list", "explain"}) {
    if (!result.count(mode)) continue;
    for (const auto& given : result.arguments()) {
      const std::string& name = given.key();
      if (name == mode || (mode == "explain" && name == "kernel")) continue;
      throw UsageError("--" + mode + " prints and exits; " + optionFlag(name) +
                       " does not go with it");
    }
  }
}

// Every option as typed (--size, -m): the flags, and the options that take a value.
void optionNames(const cxxopts::Options& parser, std::set<std::string>& flags,
                 std::set<std::string>& taking_value) {
  for (const auto& option : parser.group_help("").options) {
    for (const auto& name : option.l)
      (option.is_boolean ? flags : taking_value).insert("--" + name);
    if (!option.s.empty()) (option.is_boolean ? flags : taking_value).insert("-" + option.s);
  }
}

// The last argument is an option that needs a value (`clgemm --size 8 --reps`).
void rejectMissingLastValue(const cxxopts::Options& parser, const std::vector<const char*>& args) {
  if (args.size() < 2) return;
  std::set<std::string> flags, taking_value;
  optionNames(parser, flags, taking_value);
  if (taking_value.count(args.back()))
    throw UsageError(std::string(args.back()) + " is missing its value (see clgemm --help)");
}

// An option whose value is missing takes the next argument as its value, even when that is the
// next option (`--reps --warmup 0`), and what is left over is then blamed (`unexpected argument
// '0'`). A value that is exactly one of clgemm's options names the option that lacks its value.
// A flag (--list, --no-check ...) given "=false" would still count as given: refuse it.
void rejectSwallowedOptions(const cxxopts::Options& parser, const cxxopts::ParseResult& result) {
  std::set<std::string> flags, taking_value;
  optionNames(parser, flags, taking_value);
  for (const auto& given : result.arguments()) {
    const std::string flag = optionFlag(given.key());
    const std::string& value = given.value();
    if (flags.count(flag)) {
      if (!result[given.key()].as<bool>())
        throw UsageError(flag + "=" + value + ": " + flag +
                         " is a flag and takes no value; to turn it off, leave it out");
      continue;
    }
    const std::string name =
        value.substr(0, value.rfind("--", 0) == 0 ? value.find('=') : value.size());
    if (flags.count(name) || taking_value.count(name)) {
      throw UsageError(flag + " is missing its value: it took '" + value +
                       "', which is an option (see clgemm --help)");
    }
  }
}

// Where the subcommand (peak, tune) stands: the first argument that is neither an option nor an
// option's value, so that `clgemm --kernels my.cl tune ...` reads as `clgemm tune --kernels my.cl`.
// A file named "tune" given as --out's value stays a value.
std::optional<std::size_t> subcommandAt(const cxxopts::Options& parser,
                                        const std::vector<const char*>& args) {
  std::set<std::string> flags, taking_value;
  optionNames(parser, flags, taking_value);
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string arg = args[i];
    if (arg == "peak" || arg == "tune" || arg == "blas-threshold") return i;
    if (arg.size() < 2 || arg[0] != '-') return std::nullopt;                // the parser blames it
    if (arg.find('=') == std::string::npos && taking_value.count(arg)) ++i;  // its value is next
  }
  return std::nullopt;
}

}  // namespace

std::string helpText() {
  return makeParser().help() +
         "\nSubcommands:\n  clgemm peak [--platform N --device N] [--reps N] [--store DIR] "
         "[--format table|json] [--out FILE]\n      measures the device's FP32 multiply-add "
         "throughput and global memory bandwidth and\n      stores them, so later runs report "
         "pct_peak and each kernel's roofline bound\n"
         "  clgemm tune --kernel NAME [--size S | -m M -n N -k K] [--budget N] [--time S]\n"
         "              [--strategy full|random|anneal] [--space NAME=V1,V2] [-D "
         "NAME=VALUE] "
         "[--store DIR]\n"
         "      searches the kernel's parameters on the device, verifying and timing each "
         "candidate;\n      the winner goes to the store and later runs of that kernel on the "
         "device use it.\n      Ctrl-C stops after the candidate at hand; the same command "
         "resumes from the cache.\n"
         "  clgemm blas-threshold [--platform N --device N] [--precision fp32,fp64] [--sizes "
         "LIST]\n"
         "                        [--reps N] [--warmup N] [--store DIR]\n"
         "      times the system BLAS against the BLAS shim's device path (libclgemm_blas.so) "
         "at\n      square sizes 16 to 1024 and stores the m*n*k from which the device wins, "
         "which the\n      shim then uses on this device\n\n" +
         variantHelp() +
         "\nExit codes: 0 all ran and verified, 1 a result failed verification (tune: no "
         "candidate verified),\n2 usage or configuration error, 3 OpenCL runtime error (out of "
         "resources, allocation too large),\n130 tune interrupted (its cache keeps what was "
         "done).\n";
}

Options parseOptions(int argc, const char* const argv[]) {
  // A subcommand may stand before, among or after the options; the rest parse like any other
  // command line.
  Command command = Command::kRun;
  std::vector<const char*> args(argv, argv + argc);
  cxxopts::Options parser = makeParser();
  if (const auto at = subcommandAt(parser, args)) {
    const std::string name = args[*at];
    command = name == "peak"   ? Command::kPeak
              : name == "tune" ? Command::kTune
                               : Command::kBlasThreshold;
    args.erase(args.begin() + std::ptrdiff_t(*at));
  }
  cxxopts::ParseResult result;
  rejectMissingLastValue(parser, args);
  try {
    result = parser.parse(int(args.size()), args.data());
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError(std::string(e.what()) + " (see clgemm --help)");
  }
  rejectSwallowedOptions(parser, result);
  if (!result.unmatched().empty())
    throw UsageError("unexpected argument '" + result.unmatched().front() +
                     "' (see clgemm --help)");

  Options o;
  o.command = command;
  rejectOptions(result, command);
  rejectWithListing(result);
  o.help = result.count("help") > 0;
  o.list = result.count("list") > 0;
  o.explain = result.count("explain") > 0;
  auto text = [&](const char* name) { return result[name].as<std::string>(); };
  if (result.count("platform")) o.platform = parseAtLeast("--platform", text("platform"), 0);
  if (result.count("device")) o.device = parseAtLeast("--device", text("device"), 0);
  if (result.count("devices")) {
    o.devices = text("devices");
    if (o.devices.empty())
      throw UsageError("--devices needs a list: PLATFORM:DEVICE pairs (e.g. 0:0,0:1), gpus or all");
    // One GEMM split across devices: one OpenCL kernel on generated matrices, each device picked
    // by the list.
    for (const char* other :
         {"platform", "device", "compare", "threads", "input-a", "input-b", "input-c"}) {
      if (result.count(other))
        throw UsageError("--devices does not go with " + optionFlag(other) +
                         (std::string(other) == "platform" || std::string(other) == "device"
                              ? ": the list names the devices"
                              : ": it splits one OpenCL kernel over generated matrices"));
    }
  }
  if (result.count("split")) {
    if (!result.count("devices")) throw UsageError("--split needs --devices");
    o.split = text("split");
  }
  o.kernels = text("kernel");
  o.kernels_given = result.count("kernel") > 0;
  if (result.count("compare")) {
    o.compare = text("compare");
    // Without --compare no baseline is added once --kernel is given; an empty list is a mistake.
    if (o.compare.find_first_not_of(',') == std::string::npos)
      throw UsageError("--compare '" + o.compare + "' names no baseline: give one or more of " +
                       baselineNames());
    o.compare_given = true;
  }
  if (result.count("threads")) {
    o.threads = parseAtLeast("--threads", text("threads"), 1);
    if (*o.threads > maxThreads()) {
      throw UsageError("--threads " + text("threads") + " is more than clgemm starts (at most " +
                       std::to_string(maxThreads()) + "; this host has " +
                       std::to_string(hostCores()) + " cores)");
    }
  }
  if (result.count("D")) {
    for (const auto& d : result["D"].as<std::vector<std::string>>())
      o.defines.push_back(parseDefine(d));
  }
  if (result.count("size")) {
    for (const char* dim : {"m", "n", "k"}) {
      if (result.count(dim))
        throw UsageError(std::string("--size conflicts with -") + dim + ": give one or the other");
    }
    const int s = parseAtLeast("--size", text("size"), 1);
    o.m = o.n = o.k = s;
  }
  if (result.count("sizes")) {
    for (const char* other : {"size", "m", "n", "k"}) {
      if (result.count(other))
        throw UsageError("--sizes conflicts with " + optionFlag(other) +
                         ": a sweep takes its sizes from the list");
    }
    o.sizes = parseSizeList(text("sizes"));
  }
  if (result.count("m")) o.m = parseAtLeast("-m", text("m"), 1);
  if (result.count("n")) o.n = parseAtLeast("-n", text("n"), 1);
  if (result.count("k")) o.k = parseAtLeast("-k", text("k"), 1);
  o.layouts = parseWordList<Layout>("--layout", text("layout"),
                                    {{"row", Layout::kRow}, {"col", Layout::kCol}});
  o.trans_a =
      parseWordList<Trans>("--trans-a", text("trans-a"), {{"n", Trans::kN}, {"t", Trans::kT}});
  o.trans_b =
      parseWordList<Trans>("--trans-b", text("trans-b"), {{"n", Trans::kN}, {"t", Trans::kT}});
  o.precisions = parseWordList<Precision>("--precision", text("precision"),
                                          {{"fp32", Precision::kFp32}, {"fp64", Precision::kFp64}});
  if (result.count("lda")) o.lda = parseAtLeast("--lda", text("lda"), 1);
  if (result.count("ldb")) o.ldb = parseAtLeast("--ldb", text("ldb"), 1);
  if (result.count("ldc")) o.ldc = parseAtLeast("--ldc", text("ldc"), 1);
  if (!o.devices.empty()) {
    for (const char* shape : {"layout", "trans-a", "trans-b", "lda", "ldb", "ldc", "precision"})
      if (result.count(shape))
        throw UsageError("--devices does not go with " + optionFlag(shape) +
                         ": it splits the rows of packed row-major matrices (row, n, n)");
  }
  // The .npy files are one problem, stored one way: a sweep over layouts or transposes would read
  // the same files as differently shaped matrices. The tuner searches one problem too.
  const auto requireOneValue = [&](const std::string& why, const std::string& after) {
    for (const auto& [name, count] :
         {std::pair<const char*, std::size_t>{"layout", o.layouts.size()},
          {"trans-a", o.trans_a.size()},
          {"trans-b", o.trans_b.size()},
          {"precision", o.precisions.size()}})
      if (count > 1)
        throw UsageError(why + ": give one value to --" + std::string(name) + " ('" + text(name) +
                         "' sweeps)" + after);
  };
  if (result.count("input-a"))
    requireOneValue("--input-a is one problem", ", the one its files are stored in");
  if (command == Command::kTune) requireOneValue("clgemm tune searches one problem", "");
  o.alpha = parseScalar("--alpha", text("alpha"), o.precisions);
  o.beta = parseScalar("--beta", text("beta"), o.precisions);
  o.warmup = parseAtLeast("--warmup", text("warmup"), 0);
  o.reps = parseAtLeast("--reps", text("reps"), 1);
  o.check = result.count("no-check") == 0;
  const std::string check = oneOf("--check", text("check"), {"auto", "full", "sampled"});
  if (!o.check && result.count("check"))
    throw UsageError("--check " + check + " conflicts with --no-check");
  o.check_mode = check == "full"      ? CheckMode::kFull
                 : check == "sampled" ? CheckMode::kSampled
                                      : CheckMode::kAuto;
  const std::string progress = oneOf("--progress", text("progress"), {"auto", "on", "off"});
  o.progress = progress == "on"    ? ProgressMode::kOn
               : progress == "off" ? ProgressMode::kOff
                                   : ProgressMode::kAuto;
  o.seed = parseSeed(text("seed"));
  if (command == Command::kTune) {
    // Candidates are compared with each other, not reported as results: fewer runs each suffice.
    if (!result.count("warmup")) o.warmup = 1;
    if (!result.count("reps")) o.reps = 5;
    if (!result.count("kernel") && !result.count("help") && !result.count("list"))
      throw UsageError("clgemm tune needs --kernel NAME: the kernel whose parameters to search");
  }
  if (command == Command::kBlasThreshold) {
    // Medians of a few runs tell the two sides apart; the largest sizes take seconds on a CPU.
    if (!result.count("warmup")) o.warmup = 1;
    if (!result.count("reps")) o.reps = 5;
    // The shim takes both; a record per precision.
    if (!result.count("precision")) o.precisions = {Precision::kFp32, Precision::kFp64};
  }
  if (result.count("budget")) o.budget = parseAtLeast("--budget", text("budget"), 1);
  o.confirm_rounds = parseAtLeast("--confirm", text("confirm"), 0);
  if (result.count("time")) o.time_limit = parseSeconds("--time", text("time"));
  const std::string strategy =
      oneOf("--strategy", text("strategy"), {"auto", "full", "random", "anneal"});
  o.strategy = strategy == "full"     ? TuneStrategy::kFull
               : strategy == "random" ? TuneStrategy::kRandom
               : strategy == "anneal" ? TuneStrategy::kAnneal
                                      : TuneStrategy::kAuto;
  if (result.count("space")) {
    for (const auto& item : result["space"].as<std::vector<std::string>>()) {
      SpaceOverride parsed = parseSpaceOverride(item);
      for (const auto& earlier : o.space)
        if (earlier.name == parsed.name)
          throw UsageError("--space " + parsed.name + " is given twice; list all its values once");
      o.space.push_back(std::move(parsed));
    }
  }

  const std::string format = text("format");
  if (format == "table")
    o.format = Format::kTable;
  else if (format == "csv")
    o.format = Format::kCsv;
  else if (format == "json")
    o.format = Format::kJson;
  else
    throw UsageError("--format '" + format + "' is not one of table, csv, json");
  if (command == Command::kPeak && o.format == Format::kCsv)
    throw UsageError("--format csv does not apply to clgemm peak: use table or json");

  if (result.count("out")) o.out = text("out");
  if (result.count("input-a")) o.input_a = text("input-a");
  if (result.count("input-b")) o.input_b = text("input-b");
  if (result.count("input-c")) o.input_c = text("input-c");
  if (result.count("output-c")) o.output_c = text("output-c");
  if (result.count("kernels")) o.kernel_file = text("kernels");
  if (result.count("cl-options")) {
    o.cl_options = text("cl-options");
    checkClOptions(o.cl_options);
  }
  if (result.count("store")) o.store = text("store");
  o.build_log = result.count("build-log") > 0;
  if (result.count("save-programs")) {
    o.save_programs = text("save-programs");
    if (o.save_programs.empty()) throw UsageError("--save-programs needs a folder name");
  }
  for (const char* name : {"out", "input-a", "input-b", "input-c", "output-c", "kernels"}) {
    if (result.count(name) && text(name).empty())
      throw UsageError(std::string("--") + name + " needs a file name");
  }
  if (result.count("store") && o.store.empty()) throw UsageError("--store needs a folder name");
  // A run only reads the store, and would ignore a file; peak and tune refuse it as they create
  // the folder.
  if (result.count("store") && command == Command::kRun) {
    std::error_code ec;
    if (std::filesystem::exists(o.store, ec) && !std::filesystem::is_directory(o.store, ec))
      throw UsageError("--store '" + o.store + "' is a file, not a folder");
  }
  if (!o.sizes.empty() && !o.input_a.empty())
    throw UsageError("--sizes conflicts with --input-a: the .npy files fix the size");
  if (!o.sizes.empty() && !o.output_c.empty())
    throw UsageError("--output-c writes one C; it does not go with the sweep of --sizes");

  if (o.input_a.empty() != o.input_b.empty())
    throw UsageError("--input-a and --input-b go together: give both matrices");
  if (!o.input_c.empty() && o.input_a.empty())
    throw UsageError("--input-c needs --input-a and --input-b");
  if (!o.output_c.empty() && !o.check) {
    // Writing an unverified C under the user's name would present it as a result.
    throw UsageError("--output-c needs verification; drop --no-check");
  }
  rejectOverwrites(o);
  return o;
}

}  // namespace clgemm
