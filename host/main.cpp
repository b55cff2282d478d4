// clgemm: parse the command line and hand over; errors become "clgemm: error: ..." and the
// documented exit code.
#include <iostream>
#include <new>

#include "device.hpp"
#include "errors.hpp"
#include "options.hpp"
#include "runner.hpp"

int main(int argc, char** argv) {
  using namespace clgemm;
  try {
    const Options options = parseOptions(argc, argv);
    if (options.help) {
      std::cout << helpText();
      return kExitOk;
    }
    if (options.list) {
      listDevices(std::cout);
      return kExitOk;
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
