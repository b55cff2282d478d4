// clgemm: parse the command line and hand over; errors become "clgemm: error: ..." and the
// documented exit code.
#include <cstdlib>
#include <iostream>
#include <new>

#include "cli/options.hpp"
#include "commands/blas_threshold_command.hpp"
#include "commands/peak_command.hpp"
#include "commands/runner.hpp"
#include "commands/tune_command.hpp"
#include "opencl/device.hpp"
#include "registry/kernels.hpp"
#include "util/errors.hpp"

int main(int argc, char** argv) {
  using namespace clgemm;
  // NVIDIA's driver keeps compiled kernels in a disk cache and returns an empty build log on a hit,
  // which would lose ptxas's register report. Our kernels compile in well under a second, so
  // clgemm builds them fresh unless the user has set the variable themselves.
  setenv("CUDA_CACHE_DISABLE", "1", /*overwrite=*/0);
  try {
    const Options options = parseOptions(argc, argv);
    if (options.help) {
      std::cout << helpText();
      return kExitOk;
    }
    if (options.explain) {
      std::cout << explainVariants(parseVariantList(options.kernels));
      return kExitOk;
    }
    if (options.list) {
      listDevices(std::cout);
      return kExitOk;
    }
    if (options.command == Command::kPeak) return runPeak(options, std::cout, std::cerr);
    if (options.command == Command::kTune) return runTune(options, std::cout, std::cerr);
    if (options.command == Command::kBlasThreshold) {
      std::string command_line = "clgemm";
      for (int i = 1; i < argc; ++i) command_line += std::string(" ") + argv[i];
      return runBlasThreshold(options, command_line, std::cout, std::cerr);
    }
    return runBenchmark(options, std::cout, std::cerr);
  } catch (const Error& e) {
    std::cerr << "clgemm: error: " << e.what() << "\n";
    return e.code();
  } catch (const std::bad_alloc&) {
    std::cerr << "clgemm: error: out of host memory; choose smaller sizes\n";
    return kExitRuntime;
  } catch (const std::exception& e) {
    std::cerr << "clgemm: error: internal error: " << e.what() << "\n";
    return kExitRuntime;
  }
}
